"""How much RAM each yolov5 data-loader worker costs: the basis of the environment check's ``ram-low-workers``.

Builds yolov5's own training dataset (``LoadImagesAndLabels``, augment on: mosaic, the default hyp) and
validation dataset over generated camera-sized JPEGs, runs a torch ``DataLoader`` over each with W workers
(fork, as on Linux, and spawn, as on Windows), pulls batches until every worker has produced several, and
adds up the proportional memory (PSS) of the main process and its workers before and after: what the loader
costs the machine in all (workers, their copy-on-write pages, the batches in flight), divided per worker.
Also prints the main process's RSS after imports and a yolov5s model with its optimizer. Not a test; run by hand:

    .venv/bin/python bench/worker_memory.py [--imgsz 640] [--batch 16] [--workers 4] [--source 1280]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.job.launch import worker_env  # noqa: E402

CHILD = r'''
import json, sys, time
from pathlib import Path
import numpy as np
args = json.loads(sys.argv[1])
tmp = Path(args["tmp"])
from core.worker import compat
compat.apply(tmp / "cache", trusted=[])
import psutil, torch, yaml
from torch.utils.data import DataLoader
from yolov5.utils.dataloaders import LoadImagesAndLabels
import yolov5
hyp = yaml.safe_load((Path(yolov5.__file__).parent / "data" / "hyps" / "hyp.scratch-low.yaml").read_text())
me = psutil.Process()
from yolov5.models.yolo import Model
model = Model(str(Path(yolov5.__file__).parent / "models" / "yolov5s.yaml"), nc=80)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
out = {"main_rss_after_imports_and_model": me.memory_info().rss}


def pss(process):
    try:
        return process.memory_full_info().pss
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return 0


for split, augment, batch in (("train", True, args["batch"]), ("val", False, args["batch"] * 2)):
    dataset = LoadImagesAndLabels(str(tmp / "data" / "images" / split), args["imgsz"], batch, augment=augment,
                                  hyp=hyp, rect=not augment, stride=32, pad=0.0 if augment else 0.5)
    for context in args["contexts"]:
        before = pss(me)
        loader = DataLoader(dataset, batch_size=batch, num_workers=args["workers"], shuffle=augment,
                            collate_fn=LoadImagesAndLabels.collate_fn, multiprocessing_context=context,
                            persistent_workers=True)
        it = iter(loader)
        for _ in range(args["batches"]):
            try:
                next(it)
            except StopIteration:
                it = iter(loader)
        time.sleep(0.5)
        workers = [c for c in me.children()
                   if c.is_running() and not c.cmdline()[-1].startswith("from multiprocessing.")]  # not the tracker
        total = pss(me) + sum(pss(c) for c in workers)
        out[f"{split}/{context}"] = {"added_total": total - before, "workers": len(workers),
                                     "workers_pss": [pss(c) for c in workers]}
        del it, loader
        time.sleep(1.0)
print("MEM " + json.dumps(out))
'''


def _camera_dataset(root: Path, side: int, n_train: int, n_val: int) -> None:
    """Noisy JPEGs of ``side`` x 3/4 ``side`` px (noise compresses badly, like real photos) with a few boxes."""
    import numpy as np
    from PIL import Image

    rng = np.random.default_rng(0)
    for split, n in (("train", n_train), ("val", n_val)):
        (root / "images" / split).mkdir(parents=True)
        (root / "labels" / split).mkdir(parents=True)
        for i in range(n):
            h = side * 3 // 4
            pixels = (rng.random((h, side, 3)) * 255).astype("uint8")
            Image.fromarray(pixels).save(root / "images" / split / f"{i}.jpg", quality=90)
            (root / "labels" / split / f"{i}.txt").write_text("0 0.5 0.5 0.2 0.3\n1 0.3 0.3 0.1 0.1\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--imgsz", type=int, default=640)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--source", type=int, default=1280, help="width of the generated photos (px)")
    parser.add_argument("--batches", type=int, default=12)
    parser.add_argument("--contexts", default="fork,spawn", help="start methods to measure (fork: Linux, spawn: "
                        "Windows)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        _camera_dataset(Path(tmp) / "data", args.source, n_train=96, n_val=64)
        spec = {"tmp": tmp, "imgsz": args.imgsz, "batch": args.batch, "workers": args.workers,
                "batches": args.batches,
                "contexts": args.contexts.split(",")}
        env = worker_env()
        env["HOME"] = str(Path(tmp) / "home")
        out = subprocess.run([sys.executable, "-c", CHILD, json.dumps(spec)], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=1800)
        line = next((ln for ln in out.stdout.splitlines() if ln.startswith("MEM ")), None)
        if line is None:
            sys.exit(out.stderr[-3000:])
        results = json.loads(line[4:])
    mb = 1024**2
    print(f"imgsz {args.imgsz}, batch {args.batch} (val {2 * args.batch}), {args.workers} workers, "
          f"{args.source} px photos")
    main_rss = results.pop("main_rss_after_imports_and_model") / mb
    print(f"main process after imports + yolov5s + optimizer: {main_rss:.0f} MB RSS")
    for key, value in results.items():
        print(f"{key:12s} loader adds {value['added_total'] / mb:6.0f} MB in all = "
              f"{value['added_total'] / mb / max(value['workers'], 1):5.0f} MB per worker "
              f"(worker PSS {', '.join(f'{p / mb:.0f}' for p in value['workers_pss'])} MB)")


if __name__ == "__main__":
    main()
