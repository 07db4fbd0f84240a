"""Peak memory of ``yolostudio predict`` on a long video: bounded by one frame, not by the video's length.

Two videos of 640x480 frames (a camera's usual size; 0.9 MB each decoded) that differ only in length go through
the real CLI and worker; the peak RSS of the whole process tree (CLI + worker, sampled every 0.1 s with psutil) is
printed for each. A predictor that held the frames would grow by about 0.9 MB a frame (1,000 more frames: about
880 MB); one that streams keeps the same peak. The model is an untrained yolov5n written here (its weights do not
change the memory), granted with ``--trust-weights``; annotated video and labels are written as a user would.

    OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python bench/predict_memory.py --frames 300,1300
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]


def _video(path: Path, frames: int) -> None:
    import cv2
    import numpy as np

    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30.0, (640, 480))
    rng = np.random.default_rng(0)
    base = rng.integers(0, 255, (480, 640, 3), dtype=np.uint8)
    for i in range(frames):
        frame = base.copy()
        cv2.rectangle(frame, (i % 500, 100), (i % 500 + 120, 260), (0, 0, 255), -1)  # something that moves
        writer.write(frame)
    writer.release()


def _model(path: Path) -> None:
    import torch
    import yolov5
    from yolov5.models.yolo import Model

    path.parent.mkdir(parents=True, exist_ok=True)
    model = Model(str(Path(yolov5.__file__).parent / "models" / "yolov5n.yaml"), nc=2)
    model.names = {0: "a", 1: "b"}
    torch.save({"model": model, "epoch": -1}, path)


def _peak_rss(cmd: list[str], env: dict[str, str]) -> tuple[int, int, float, int]:
    """(peak RSS of the process tree, of the CLI alone, in bytes; seconds; exit code)."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    root, peak, cli = psutil.Process(proc.pid), 0, 0
    while proc.poll() is None:
        try:
            tree = [root, *root.children(recursive=True)]
            peak = max(peak, sum(p.memory_info().rss for p in tree if p.is_running()))
            cli = max(cli, root.memory_info().rss)
        except psutil.Error:
            pass
        time.sleep(0.1)
    if proc.returncode:
        sys.stderr.write(proc.stderr.read().decode()[-3000:] if proc.stderr else "")
    return peak, cli, time.monotonic() - start, proc.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", default="300,1300", help="video lengths to compare (frames, comma-separated)")
    parser.add_argument("--imgsz", type=int, default=128, help="model input size (small: the figure is memory)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        model = root / "model" / "yolov5n-untrained.pt"
        _model(model)
        env = {**os.environ, "YOLOSTUDIO_WORKSPACE": str(root / "ws"), "HOME": str(root / "home")}
        print(f"frames  video MB  peak RSS: CLI+worker     CLI   wall s   [640x480 MJPG, imgsz {args.imgsz}, "
              "annotated video + labels written]")
        for n in (int(v) for v in args.frames.split(",")):
            video = root / f"v{n}.avi"
            _video(video, n)
            peak, cli, wall, code = _peak_rss([sys.executable, "-m", "cli", "predict", str(model), str(video),
                                          "--imgsz", str(args.imgsz), "--out", str(root / f"out{n}"),
                                          "--trust-weights"], env)
            print(f"{n:6d}  {video.stat().st_size / 1e6:8.1f}  {peak / 2**20:15.0f} MB  {cli / 2**20:4.0f} MB  "
                  f"{wall:6.1f}"
                  + ("" if code == 0 else f"   exit {code}"))


if __name__ == "__main__":
    main()
