"""Benchmark (not a test): does the Train page keep up with a fast run without stalling or growing?

Feeds the real ``TrainPage`` a synthesised run — 20,000 ``batch`` events at 500 events/s plus 1 Hz
``system`` events for several GPUs, epoch ends with metrics and a ``diagnosis`` — through the same path
a real run takes: the page's launcher starts this script as a paced "worker" subprocess that writes
JSON lines to stdout (QProcess pipe → ``WorkerProcess`` → ``RunSession``) and to the run's
``events.jsonl``. Then the finished run is replayed from that file (``open_run`` → ``RunFollower``).
Meanwhile a 10 ms ``QTimer`` measures how late the event loop serves it (the stall a user feels), and
psutil reads the GUI process's RSS before and after.

    QT_QPA_PLATFORM=offscreen python bench/live_view.py [--batches 20000] [--rate 500] [--gpus 4]

Targets (issue 5): p99 lateness < 30 ms, max < 100 ms, memory growth bounded (plot buffers only).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

BATCHES_PER_EPOCH = 1000


# -- the synthesised run ----------------------------------------------------------------------------
def synthesise(path: Path, batches: int, rate: float, gpus: int) -> int:
    """Write the stream; each event's ``t`` is its due time (seconds from 0). Returns the line count."""
    epochs = max(1, -(-batches // BATCHES_PER_EPOCH))
    lines: list[dict] = [{"type": "stage", "t": 0.0, "stage": "starting", "job": "train", "pid": 0},
                         {"type": "hello", "t": 0.0, "job": "train", "versions": {"torch": "bench", "yolov5": "7"},
                          "devices": [{"index": i, "name": "Bench GPU"} for i in range(gpus)],
                          "device_type": "cuda"},
                         {"type": "stage", "t": 0.0, "stage": "training"}]
    next_system = 1.0
    n = 0
    for epoch in range(epochs):
        lines.append({"type": "epoch_start", "t": n / rate, "epoch": epoch, "epochs": epochs,
                      "batches": BATCHES_PER_EPOCH})
        for index in range(min(BATCHES_PER_EPOCH, batches - n)):
            t = n / rate
            while next_system <= t:
                lines.append(system_event(next_system, gpus))
                next_system += 1.0
            wait = 0.004 + 0.002 * ((n * 7) % 5)
            lines.append({"type": "batch", "t": t, "epoch": epoch, "epochs": epochs, "index": index,
                          "count": BATCHES_PER_EPOCH, "losses": {"box": 0.1 - 1e-6 * n, "obj": 0.02, "cls": 0.03},
                          "instances": 120, "imgsz": 640, "batch_size": 64, "data_wait_s": wait, "step_s": 0.05,
                          "window": {"batches": 1, "images": 64, "data_wait_s": wait, "step_s": 0.05,
                                     "images_per_s": 64 / (wait + 0.05), "data_wait_share": wait / (wait + 0.05)},
                          "images_per_s": 64 / (wait + 0.05), "warmup": n < 3, "gpu_mem_gb": 30.0})
            n += 1
        t = n / rate
        metrics = {"train/box_loss": 0.1, "train/obj_loss": 0.02, "train/cls_loss": 0.03,
                   "metrics/precision": 0.5, "metrics/recall": 0.4, "metrics/mAP_0.5": 0.3 + 0.01 * epoch,
                   "metrics/mAP_0.5:0.95": 0.2, "val/box_loss": 0.09, "val/obj_loss": 0.02, "val/cls_loss": 0.03,
                   "x/lr0": 0.01, "x/lr1": 0.01, "x/lr2": 0.01}
        lines.append({"type": "epoch_end", "t": t, "epoch": epoch, "epochs": epochs, "metrics": metrics,
                      "fitness": 0.2 + epoch, "best_fitness": 0.2 + epoch, "is_best": True, "epoch_time_s": 2.0})
        lines.append({"type": "diagnosis", "t": t, "code": "input-bound-workers", "severity": "warning",
                      "title": "Training waits for the data loader; cores are idle", "detail": "bench",
                      "evidence": {"data_wait_share": 0.12, "workers": 2, "cpu_count": 16},
                      "prescriptions": [{"field": "workers", "value": 8, "reason": "bench"}], "epoch": epoch,
                      "at": "epoch_end"})
    lines.append({"type": "done", "t": n / rate, "status": "completed", "elapsed_s": n / rate, "best": "",
                  "last": "", "epochs_completed": epochs, "stopped_at": None})
    with open(path, "w", encoding="utf-8") as handle:
        for line in lines:
            handle.write(json.dumps({"v": 1, **line}) + "\n")
    return len(lines)


def system_event(t: float, gpus: int) -> dict:
    return {"type": "system", "t": t, "cpu_percent": 55.0, "cpu_count": 16, "iowait_percent": 1.0,
            "proc_cpu_percent": 400.0, "ram_used_gb": 40.0, "ram_total_gb": 128.0, "swap_used_gb": 0.0,
            "disk_read_mb_s": 150.0,
            "gpus": [{"index": i, "util_percent": 80.0 + i, "mem_util_percent": 40.0, "mem_used_gb": 30.0 + i,
                      "mem_total_gb": 140.0, "temperature_c": 60, "power_w": 400, "power_limit_w": 700,
                      "throttle_reasons": 0} for i in range(gpus)]}


def emit(stream: Path, events_out: Path) -> int:
    """The paced "worker": each line at its due time (relative ``t``), to stdout and the events file."""
    start = time.time()
    with open(stream, encoding="utf-8") as source, open(events_out, "a", encoding="utf-8") as record:
        for raw in source:
            event = json.loads(raw)
            due = start + float(event["t"])
            delay = due - time.time()
            if delay > 0:
                time.sleep(delay)
            event["t"] = due
            if event["type"] == "stage" and event.get("stage") == "starting":
                event["pid"] = os.getpid()
            line = json.dumps(event) + "\n"
            record.write(line)
            record.flush()
            sys.stdout.write(line)
            sys.stdout.flush()
    return 0


# -- the measurement --------------------------------------------------------------------------------
class StallMeter:
    """How late a 10 ms timer fires: the longest time the event loop was busy with something else."""

    def __init__(self, interval_ms: int = 10) -> None:
        from PySide6.QtCore import Qt, QTimer

        self.interval = interval_ms / 1000
        self.late: list[float] = []
        self._last: float | None = None
        self.timer = QTimer(interval=interval_ms, timerType=Qt.TimerType.PreciseTimer, timeout=self._tick)

    def start(self) -> None:
        self.late.clear()
        self._last = time.perf_counter()
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    def _tick(self) -> None:
        now = time.perf_counter()
        if self._last is not None:
            self.late.append(max(0.0, now - self._last - self.interval))
        self._last = now

    def figures(self) -> dict[str, float]:
        late = sorted(self.late)
        if not late:
            return {"ticks": 0}
        pick = lambda q: late[min(len(late) - 1, int(q * len(late)))]  # noqa: E731
        return {"ticks": len(late), "p50_ms": 1000 * pick(0.50), "p99_ms": 1000 * pick(0.99),
                "max_ms": 1000 * late[-1]}


def _wait_for(app, predicate, timeout_s: float) -> bool:
    """Run the event loop (idle, not spinning) until ``predicate()`` or the timeout."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    end = time.time() + timeout_s
    check = QTimer(interval=50, timeout=lambda: (predicate() or time.time() > end) and loop.quit())
    check.start()
    if not predicate():
        loop.exec()
    check.stop()
    return predicate()


def run(batches: int, rate: float, gpus: int) -> dict:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    tmp = Path(tempfile.mkdtemp(prefix="live_view_"))
    os.environ.setdefault("YOLOSTUDIO_CONFIG_DIR", str(tmp / "config"))
    import psutil
    import pyqtgraph as pg
    from PySide6.QtWidgets import QApplication

    from core.runs.store import read_run
    from core.training.config import MachineFacts
    from gui.train.train_page import TrainPage

    app = QApplication.instance() or QApplication([])
    app.setStyle("Fusion")
    pg.setConfigOptions(useOpenGL=False, antialias=True)
    stream = tmp / "stream.jsonl"
    lines = synthesise(stream, batches, rate, gpus)
    data = tmp / "data" / "data.yaml"
    data.parent.mkdir()
    data.write_text("train: images/train\nval: images/val\nnames: [a]\n", encoding="utf-8")

    def launcher(job: Any) -> tuple[list[str], dict[str, str]]:  # core.job.jobs.JobSpec, its spec file written
        return ([sys.executable, str(Path(__file__).resolve()), "--emit", str(stream), "--events-out",
                 str(job.path.parent / "events.jsonl")], dict(os.environ))

    page = TrainPage(tmp / "ws", launcher=launcher, prepare_demo=False, machine_facts=MachineFacts(gpu_count=gpus))
    page.resize(1360, 860)
    page.show()
    page.form.set_data_path(str(data))
    page.revalidate()
    _wait_for(app, lambda: False, 1.0)  # settle: first paint, background start-up
    proc = psutil.Process()
    rss_before = proc.memory_info().rss
    meter = StallMeter()
    ended: list[object] = []
    page.run_ended.connect(ended.append)
    meter.start()
    started = time.perf_counter()
    assert page.start_run(), "the page refused to start"
    _wait_for(app, lambda: bool(ended), batches / rate + 60)
    live_s = time.perf_counter() - started
    meter.stop()
    live = meter.figures()
    rss_live = proc.memory_info().rss
    buffers = sum(s.nbytes for s in page.plots.series.values()) + page.system_plots.nbytes

    info = read_run(page.session.run_dir)
    ended.clear()
    meter.start()
    started = time.perf_counter()
    page.open_run(info)
    _wait_for(app, lambda: bool(ended), 120)
    replay_s = time.perf_counter() - started
    meter.stop()
    replay = meter.figures()
    rss_after = proc.memory_info().rss
    result = {
        "events": lines, "batches": batches, "rate": rate, "gpus": gpus,
        "live": {**live, "seconds": live_s, "events_per_s": lines / live_s,
                 "batch_points": page.plots.series["train/box"].size},
        "replay": {**replay, "seconds": replay_s},
        "rss_mb": {"before": rss_before / 2**20, "after_live": rss_live / 2**20, "after_replay": rss_after / 2**20},
        "plot_buffers_mb": buffers / 2**20,
    }
    page.close()
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=20_000)
    parser.add_argument("--rate", type=float, default=500.0, help="batch events per second")
    parser.add_argument("--gpus", type=int, default=4)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--emit", type=Path, help=argparse.SUPPRESS)  # the paced worker subprocess
    parser.add_argument("--events-out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.emit:
        return emit(args.emit, args.events_out)
    result = run(args.batches, args.rate, args.gpus)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    live, replay, rss = result["live"], result["replay"], result["rss_mb"]
    print(f"{result['batches']} batch events at {result['rate']:.0f}/s + 1 Hz system events for {result['gpus']} GPUs "
          f"({result['events']} events)")
    print(f"live   : {live['seconds']:.1f} s, {live['events_per_s']:.0f} events/s received; event-loop lateness "
          f"p50 {live['p50_ms']:.1f} ms, p99 {live['p99_ms']:.1f} ms, max {live['max_ms']:.1f} ms "
          f"({live['ticks']} ticks)")
    print(f"replay : {replay['seconds']:.1f} s; lateness p50 {replay['p50_ms']:.1f} ms, p99 {replay['p99_ms']:.1f} ms, "
          f"max {replay['max_ms']:.1f} ms")
    print(f"memory : RSS {rss['before']:.0f} MB before, {rss['after_live']:.0f} MB after live "
          f"(+{rss['after_live'] - rss['before']:.1f}), {rss['after_replay']:.0f} MB after replay; "
          f"plot buffers {result['plot_buffers_mb']:.2f} MB")
    ok = live["p99_ms"] < 30 and live["max_ms"] < 100
    print("targets (p99 < 30 ms, max < 100 ms, live):", "met" if ok else "NOT met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
