"""Benchmark (not a test): what ``yolostudio attach`` costs while it follows an idle run with a 20 MB events file.

Builds a workspace with one run whose ``events.jsonl`` holds ~20 MB of training events and no ``done``, and
holds the run folder's lock (``core.run.owner.RunLock``) so the run looks live, as a worker that is busy with
something other than writing events (a long validation, a stalled data loader) does. Then it starts
``python -m cli attach RUN`` as a process, waits until the first read of the file is over (its CPU time stops
growing), and measures the CPU share over ``--seconds`` from that process's own accounting (``psutil``'s
``cpu_times``: the kernel's rusage of that process). Side by side, the loop ``attach`` had before it followed
the run through ``core.runs.follow.RunFollow`` (re-reading the whole run every 0.5 s: ``read_run`` plus an
events tail), kept here as ``old_attach_loop`` and run the same way. Target (issue 30): ≤ 2 % of a core.

    python bench/attach_idle.py [--mb 20] [--seconds 20]
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.job.protocol import EventFileTail, encode, make_event  # noqa: E402
from core.run.files import EVENTS_FILE  # noqa: E402
from core.runs.store import create_run, read_run  # noqa: E402
from core.training.config import MachineFacts, TrainConfig, validate_config  # noqa: E402


def build_idle_run(workspace: Path, megabytes: float) -> Path:
    """A run folder whose events file holds ``megabytes`` MB of a training that has not ended (no ``done``)."""
    data = workspace / "data.yaml"
    workspace.mkdir(parents=True, exist_ok=True)
    data.write_text("path: .\ntrain: a\nval: a\nnames: [x]\n", encoding="utf-8")
    run = create_run(workspace, validate_config(TrainConfig(data=str(data), device="cpu", epochs=300),
                                                MachineFacts(0)))
    target = int(megabytes * 1e6)
    lines = [encode(make_event("stage", stage="starting", job="train", pid=os.getpid()))]
    size, epoch = len(lines[0]), 0
    while size < target:
        batch = encode(make_event("batch", epoch=epoch, epochs=300, index=987654321, count=1000,
                                  losses={"box": 0.05, "obj": 0.02, "cls": 0.01}, data_wait_s=0.004, step_s=0.05,
                                  window={"batches": 1, "images": 64, "images_per_s": 1180.0,
                                          "data_wait_share": 0.07}))
        block = [encode(make_event("epoch_start", epoch=epoch, epochs=300, batches=1000))]
        block += [batch.replace("987654321", str(index)) for index in range(1000)]  # one encode per epoch
        lines += block
        size += sum(len(line) for line in block)  # ASCII: characters are bytes
        epoch += 1
    (run / EVENTS_FILE).write_text("".join(lines), encoding="utf-8")
    return run


def old_attach_loop(run_dir: Path) -> None:
    """How ``attach`` followed a run before: the whole run read again (``read_run``) every 0.5 s."""
    tail = EventFileTail(run_dir / EVENTS_FILE)
    read_run(run_dir)
    tail.poll()
    try:
        while True:
            tail.poll()
            if read_run(run_dir).status != "running":
                return
            time.sleep(0.5)
    except KeyboardInterrupt:
        return


#: The longest wait for a follower's start-up and first read (the old loop never settles: it reads all the time).
WARMUP_MAX_S = 30.0
#: The kernel counts a process's CPU time in clock ticks: the finest share a measurement over ``s`` seconds sees.
TICK_S = 1.0 / os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 0.0156


def cpu_share(argv: list[str], seconds: float) -> float:
    """The CPU share (1.0 = one core) of the process ``argv`` over ``seconds``, after its start-up is over."""
    import psutil

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        ps = psutil.Process(proc.pid)
        used = lambda: sum(ps.cpu_times()[:2])  # noqa: E731 - user + system of that process
        last, deadline = used(), time.monotonic() + WARMUP_MAX_S
        while time.monotonic() < deadline:  # start-up and the first read of the file
            time.sleep(1.0)
            now = used()
            if now - last < 0.05:
                break
            last = now
        start_cpu, start = used(), time.monotonic()
        time.sleep(seconds)
        return (used() - start_cpu) / (time.monotonic() - start)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=20.0)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--old-loop", help=argparse.SUPPRESS)  # the child process of the "before" figure
    args = parser.parse_args()
    if args.old_loop:
        old_attach_loop(Path(args.old_loop))
        return
    from core.run.owner import RunLock

    with tempfile.TemporaryDirectory() as tmp:
        workspace = Path(tmp) / "ws"
        run = build_idle_run(workspace, args.mb)
        lock = RunLock.acquire(run, job="train")  # the run looks live: its folder's lock is held
        try:
            size = (run / EVENTS_FILE).stat().st_size / 1e6
            new = [sys.executable, "-m", "cli", "--workspace", str(workspace), "attach", run.name]
            old = [sys.executable, str(Path(__file__).resolve()), "--old-loop", str(run)]
            before, after = cpu_share(old, args.seconds), cpu_share(new, args.seconds)
        finally:
            lock.release()
    print(f"idle run, events file {size:.1f} MB, followed for {args.seconds:g} s after the first read")
    print(f"{'before (read_run every 0.5 s)':<34} {100 * before:6.2f} % of a core")
    print(f"{'after  (yolostudio attach)':<34} {100 * after:6.2f} % of a core   (target <= 2 %; one clock tick "
          f"over {args.seconds:g} s is {100 * TICK_S / args.seconds:.2f} %)")
    if after > 0:
        print(f"ratio before/after: {before / after:.0f}x")


if __name__ == "__main__":
    main()
