"""Stock yolov5 augmentation against ``--gpu-augment on``, from finished runs' events: the GPU section of issue 36.

``python bench/gpu_augment_runs.py RUN_DIR...`` — run folders named ``*-off-*`` (stock: augmentation in the
loader's workers) and ``*-on-*`` (``--gpu-augment on``), as ``bench/gpu_check.sh`` trains them with the same
settings. Per run: images/s and data-wait share of the training batches (warm-up excluded), mean GPU utilisation
(``bench/run_summary.py``), epoch 0 and the steady epochs apart; then per side the median and the ratio
on/off. Goal (issue 36): data wait <= 5% with ``--gpu-augment on``. Reads files only: safe anywhere.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.run_summary import summarise  # noqa: E402
from core.job.protocol import read_events  # noqa: E402

WAIT_GOAL = 0.05


def epochs_apart(run: Path) -> tuple[float | None, float | None]:
    """(epoch 0, mean of the later epochs) in seconds, from the run's ``epoch_end`` events."""
    times = [e["epoch_time_s"] for e in read_events(run / "events.jsonl") if e["type"] == "epoch_end"]
    return (times[0] if times else None), (statistics.mean(times[1:]) if len(times) > 1 else None)


def side(run: Path) -> str:
    name = run.name
    return "on" if "-on" in name else "off" if "-off" in name else "?"


def fmt(value: float | None, pattern: str) -> str:
    return pattern.format(value) if value is not None else "n/a"


def main(runs: list[Path]) -> int:
    rows: dict[str, list[dict]] = {"off": [], "on": []}
    for run in runs:
        if not (run / "events.jsonl").is_file():
            print(f"{run}: no events (the run did not start)")
            continue
        s = summarise(run)
        s["epoch0_s"], s["steady_s"] = epochs_apart(run)
        rows.setdefault(side(run), []).append(s)
        print(f"{run.name:>18}: {s['status']}, {fmt(s['images_per_s'], '{:.1f}')} img/s, data wait "
              f"{fmt(s['data_wait_share'], '{:.1%}')}, GPU {fmt(s['gpu_util_mean_percent'], '{:.0f}%')}, epoch 0 "
              f"{fmt(s['epoch0_s'], '{:.1f}')} s, steady {fmt(s['steady_s'], '{:.1f}')} s")
    medians = {}
    for kind, label in (("off", "stock (augment in workers)"), ("on", "--gpu-augment on")):
        got = [r for r in rows.get(kind, []) if r["images_per_s"] is not None]
        if not got:
            print(f"{label}: no measured run")
            continue
        medians[kind] = {k: statistics.median(r[k] for r in got if r[k] is not None)
                         if any(r[k] is not None for r in got) else None
                         for k in ("images_per_s", "data_wait_share", "gpu_util_mean_percent", "steady_s")}
        m = medians[kind]
        print(f"{label}: median {m['images_per_s']:.1f} img/s, data wait {fmt(m['data_wait_share'], '{:.1%}')}, "
              f"GPU {fmt(m['gpu_util_mean_percent'], '{:.0f}%')}, steady epoch {fmt(m['steady_s'], '{:.1f}')} s "
              f"over {len(got)} run(s)")
    if len(medians) == 2:
        on, off = medians["on"], medians["off"]
        wait = on["data_wait_share"]
        print(f"gpu-augment / stock: {on['images_per_s'] / off['images_per_s']:.2f}x images/s; data wait with it "
              f"{fmt(wait, '{:.1%}')} (goal <= {WAIT_GOAL:.0%}: {'met' if wait is not None and wait <= WAIT_GOAL else 'NOT met'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main([Path(a) for a in sys.argv[1:]]))
