"""How long a worker job takes from process start to its ``hello`` event, this checkout vs a baseline.

Starts ``python -m core.worker JOB SPEC`` the way the app does (``core.job.launch``), alternating this
checkout and ``--baseline`` (another checkout of the app, e.g. ``git archive COMMIT | tar -x -C DIR``) so
machine noise hits both alike, and prints the median time to ``stage: starting`` and to ``hello`` for
each, and their ratio. The export spec names weights that do not exist: the job fails right after
``hello``, which is all that is timed. Not a test: run it by hand,
``.venv/bin/python bench/worker_start.py --baseline DIR [--job export] [--runs 5]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.job.protocol import LineDecoder  # noqa: E402


def spec_for(job: str, workspace: Path) -> dict:
    if job == "export":
        return {"workspace": str(workspace), "trusted_weights": [],
                "options": {"weights": str(workspace / "missing.pt"), "formats": ["onnx"], "imgsz": 64}}
    if job == "predict":
        return {"workspace": str(workspace), "model": str(workspace / "missing.onnx"), "images": []}
    raise SystemExit(f"no spec for job {job!r}")


def time_to_hello(root: Path, job: str, workspace: Path) -> tuple[float, float]:
    """(seconds to ``stage: starting``, seconds to ``hello``) of one worker start from ``root``."""
    spec_file = workspace / f"{job}-spec.json"
    spec_file.write_text(json.dumps(spec_for(job, workspace)), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(root), PYTHONUNBUFFERED="1", PYTHONIOENCODING="utf-8")
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "core.worker", job, str(spec_file)], cwd=root, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdout is not None
    decoder, starting = LineDecoder(), None
    try:
        for chunk in iter(lambda: proc.stdout.read1(65536), b""):  # type: ignore[union-attr]
            for line in decoder.feed(chunk):
                event = line.event or {}
                if event.get("type") == "stage" and event.get("stage") == "starting":
                    starting = time.perf_counter() - t0
                elif event.get("type") == "hello":
                    return starting or float("nan"), time.perf_counter() - t0
        raise RuntimeError(f"{root}: the {job} worker ended without a hello")
    finally:
        proc.kill()
        proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="another checkout of the app to compare with")
    parser.add_argument("--job", default="export", choices=["export", "predict"])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    roots = {"this": ROOT} | ({"baseline": args.baseline.resolve()} if args.baseline else {})
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in roots}
    with tempfile.TemporaryDirectory() as tmp:
        time_to_hello(ROOT, args.job, Path(tmp))  # warm the OS file cache for both (same site-packages)
        for run in range(args.runs):
            for name, root in roots.items():
                times[name].append(time_to_hello(root, args.job, Path(tmp)))
                print(f"run {run + 1} {name}: starting {times[name][-1][0]:.2f} s, hello {times[name][-1][1]:.2f} s",
                      flush=True)
    print(f"\njob {args.job}, {args.runs} runs each, medians:")
    medians = {name: (statistics.median(t[0] for t in ts), statistics.median(t[1] for t in ts))
               for name, ts in times.items()}
    for name, (starting, hello) in medians.items():
        print(f"  {name:9s} start → stage:starting {starting:.2f} s, start → hello {hello:.2f} s  ({roots[name]})")
    if "baseline" in medians:
        print(f"  ratio this/baseline (hello): {medians['this'][1] / medians['baseline'][1]:.2f}")


if __name__ == "__main__":
    main()
