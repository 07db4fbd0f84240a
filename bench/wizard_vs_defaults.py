"""Does the wizard's config train faster than yolov5's defaults? Two generated datasets, both configs, side by side.

Datasets (generated once under the work folder): **large photos** — JPEGs of at least 2000 px trained at a small
imgsz (128), where decoding starves the model — and **small images** (at most 320 px), where there is little to
gain and the wizard must not make things worse. On each, short runs of ``yolostudio train`` with yolov5's
defaults (batch 16, workers 8, no cache) and with the wizard's config (``yolostudio wizard --imgsz 128
--prepare --save``, then ``yolostudio train --config``), alternating so machine noise hits both alike. Prints
images/s, data-wait share and epoch time (the run's own ``done.efficiency``: warm-up batches excluded), epoch 0
(the warm-up) and the later epochs (steady state) apart, the first batches' data wait, and images/s over the
whole run (warm-up and validation included), each beside the wizard's prediction for a run of that length
(``predicted``: steady epoch, warm-up, so epoch 0 and the run), with how far it is off (goal: within 30%);
the wizard's one-time costs (measuring, preparing the copy) are printed apart.

Targets on the 2-core CPU development machine: large photos ≥ 3× the defaults' images/s, small images ≥ 0.95×.
On a GPU machine (``--device 0``, from ``bench/gpu_check.sh``): ≥ 1.5× and data wait under 5%.
Not a test: ``.venv/bin/python bench/wizard_vs_defaults.py [--rounds 2] [--epochs 3] [--device cpu]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import tempfile
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.job.launch import worker_env  # noqa: E402

DEFAULTS = ["--batch", "16", "--workers", "8"]  # yolov5's own defaults (and no cache)
TRAIN_IMAGES = 200


def make_dataset(root: Path, n_train: int, n_val: int, size: tuple[int, int], seed: int) -> Path:
    """Photo-like JPEGs (smooth background, textured shapes, sensor noise: they decode like photos, not like flat
    colour) with a few boxes each. Reused when complete."""
    from PIL import Image, ImageDraw, ImageFilter

    data = root / "data.yaml"
    if data.is_file():
        return data
    rng = random.Random(seed)
    w, h = size
    for split, count in (("train", n_train), ("val", n_val)):
        (root / "images" / split).mkdir(parents=True, exist_ok=True)
        (root / "labels" / split).mkdir(parents=True, exist_ok=True)
        for i in range(count):
            small = Image.effect_noise((max(8, w // 16), max(8, h // 16)), 60).convert("RGB")
            im = small.resize((w, h), Image.Resampling.BICUBIC)
            draw = ImageDraw.Draw(im)
            rows = []
            for _ in range(rng.randint(1, 4)):
                bw, bh = rng.uniform(0.08, 0.3), rng.uniform(0.08, 0.3)
                cx, cy = rng.uniform(bw / 2, 1 - bw / 2), rng.uniform(bh / 2, 1 - bh / 2)
                cls = rng.randint(0, 2)
                box = [(cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h]
                colour = [(220, 40, 40), (40, 200, 60), (40, 60, 220)][cls]
                (draw.ellipse if cls == 1 else draw.rectangle)(box, fill=colour)
                rows.append(f"{cls} {cx:.6f} {cy:.6f} {bw:.6f} {bh:.6f}")
            noise = Image.effect_noise((w, h), 25).convert("RGB")
            im = Image.blend(im, noise, 0.15).filter(ImageFilter.SMOOTH)
            im.save(root / "images" / split / f"{i:04d}.jpg", quality=90)
            (root / "labels" / split / f"{i:04d}.txt").write_text("\n".join(rows) + "\n")
    data.write_text("path: .\ntrain: images/train\nval: images/val\nnames: [red, green, blue]\n")
    return data


def cli(workspace: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli", "--workspace", str(workspace), *args], cwd=ROOT,
                          env=worker_env(), capture_output=True, text=True)


def train(workspace: Path, name: str, argv: list[str], train_images: int) -> dict:
    started = time.perf_counter()
    out = cli(workspace, "train", *argv, "--name", name, "--json")
    wall = time.perf_counter() - started
    events = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    done = [e for e in events if e.get("type") == "done"]
    if out.returncode != 0 or not done:
        raise SystemExit(f"training {name} failed:\n{out.stderr[-3000:]}\n{out.stdout[-2000:]}")
    eff = done[-1]["efficiency"]
    epochs = [e["epoch_time_s"] for e in events if e.get("type") == "epoch_end" and e.get("epoch_time_s")]
    first = [e for e in events if e.get("type") == "batch" and e.get("epoch") == 0 and e.get("index", 9) < 4]
    graph = [e["tensorboard_graph_s"] for e in events if e.get("type") == "stage" and "tensorboard_graph_s" in e]
    return {"images_per_s": eff["images_per_s"], "data_wait_share": eff["data_wait_share"],
            "epoch_s": eff["epoch_time_mean_s"], "wall_s": wall,
            # warm-up (epoch 0: first steps, first validation) apart from the steady epochs after it
            "epoch0_s": epochs[0] if epochs else float("nan"),
            "steady_epoch_s": statistics.mean(epochs[1:]) if len(epochs) > 1 else float("nan"),
            "first_batches_wait_s": sum(float(e.get("data_wait_s") or 0) for e in first),
            "graph_s": graph[0] if graph else 0.0,
            # the run's own images/s over all its epochs, warm-up and validation included
            "run_images_per_s": len(epochs) * train_images / sum(epochs) if epochs else float("nan"),
            # the machine's 1-minute load when the run ended: a shared machine's load moves every figure
            "load": os.getloadavg()[0]}


def predicted_run(doc: dict, epochs: int, train_images: int) -> dict:
    """The wizard's prediction for a run of ``epochs`` (its saved figures are for its own epoch count)."""
    p = doc["predicted"]
    warm = float(p.get("warmup_s", 0.0))
    total = warm + epochs * float(p["epoch_s"])
    return {"epoch0_s": float(p["epoch_s"]) + warm, "steady_epoch_s": float(p["epoch_s"]),
            "images_per_s": float(p["images_per_s"]), "run_images_per_s": epochs * train_images / total}


def off(predicted: float, measured: float) -> str:
    return f"{(predicted - measured) / measured:+.0%}" if measured else "n/a"


def wizard(workspace: Path, data: Path, imgsz: int, device: str, saved: Path) -> tuple[dict, float]:
    started = time.perf_counter()
    out = cli(workspace, "wizard", str(data), "--imgsz", str(imgsz), "--device", device, "--prepare", "--save",
              str(saved), "--json")
    if out.returncode != 0:
        raise SystemExit(f"wizard failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout), time.perf_counter() - started


def summary(runs: list[dict]) -> dict:
    return {key: statistics.median(r[key] for r in runs) for key in runs[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2, help="runs of each config (alternated)")
    parser.add_argument("--epochs", type=int, default=3, help="epoch 0 is the warm-up, the rest the steady state")
    parser.add_argument("--imgsz", type=int, default=128)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "yolostudio-bench-wizard")
    args = parser.parse_args()
    sets = {"large photos (2400x1800 JPEG)": make_dataset(args.work / "large", TRAIN_IMAGES, 20, (2400, 1800), 1),
            "small images (320x240 JPEG)": make_dataset(args.work / "small", TRAIN_IMAGES, 20, (320, 240), 2)}
    common = ["--imgsz", str(args.imgsz), "--epochs", str(args.epochs), "--device", args.device,
              "--model", "yolov5n.yaml"]
    for label, data in sets.items():
        workspace = args.work / ("ws-" + data.parent.name)
        saved = workspace / "wizard.json"
        doc, wizard_s = wizard(workspace, data, args.imgsz, args.device, saved)
        cfg = doc["config"]
        print(f"\n== {label}: {data}")
        print(f"wizard ({wizard_s:.0f} s incl. measuring and preparing): data={doc['data_choice']} "
              f"batch={cfg['batch']} workers={cfg['workers']} cache={cfg['cache'] or 'none'} "
              f"predicted {doc['predicted']['images_per_s']:.0f} img/s steady, first epoch +"
              f"{doc['predicted'].get('warmup_s', 0):.1f} s warm-up; load average {os.getloadavg()[0]:.1f} after "
              f"measuring")
        print(f"  its data reason: {doc['reasons']['data']['why']}")
        results: dict[str, list[dict]] = {"defaults": [], "wizard": []}
        for r in range(args.rounds):
            order = ["defaults", "wizard"] if r % 2 == 0 else ["wizard", "defaults"]
            for kind in order:
                argv = [str(data), *common, *DEFAULTS] if kind == "defaults" else \
                    ["--config", str(saved), *common]
                results[kind].append(train(workspace, f"{kind}-{r}", argv, TRAIN_IMAGES))
        d, w = summary(results["defaults"]), summary(results["wizard"])
        p = predicted_run(doc, args.epochs, TRAIN_IMAGES)
        rows = (("img/s (training batches, steady)", "images_per_s", "{:.1f}"),
                ("data wait", "data_wait_share", "{:.0%}"),
                ("epoch 0 (warm-up), s", "epoch0_s", "{:.1f}"),
                ("steady epochs (1..), s", "steady_epoch_s", "{:.1f}"),
                ("first 4 batches' data wait, s", "first_batches_wait_s", "{:.2f}"),
                ("TensorBoard graph before epoch 0, s", "graph_s", "{:.1f}"),
                ("img/s over the run (all epochs)", "run_images_per_s", "{:.1f}"),
                ("run wall time, s", "wall_s", "{:.0f}"),
                ("load average (1 min) at the end", "load", "{:.1f}"))
        print(f"{'':38}{'defaults':>10}{'wizard':>10}{'predicted':>11}")
        for label, key, fmt in rows:
            guess = fmt.format(p[key]) + f" ({off(p[key], w[key])})" if key in p else ""
            print(f"{label:38}{fmt.format(d[key]):>10}{fmt.format(w[key]):>10}  {guess}")
        print(f"    ratio: {w['images_per_s'] / d['images_per_s']:.2f}x images/s, "
              f"{d['epoch_s'] / w['epoch_s']:.2f}x epoch time, {w['run_images_per_s'] / d['run_images_per_s']:.2f}x "
              f"over the run (warm-up included); steady epochs {d['steady_epoch_s'] / w['steady_epoch_s']:.2f}x")
        print(f"    wizard predicted {p['run_images_per_s']:.1f} img/s over the run, measured "
              f"{w['run_images_per_s']:.1f} ({off(p['run_images_per_s'], w['run_images_per_s'])}; goal within 30%)")


if __name__ == "__main__":
    main()
