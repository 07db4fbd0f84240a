"""How many planted label mistakes the Errors list shows first — the wrong-label finder's figure.

    .venv/bin/python bench/label_finder.py --workspace WS --run demo30 [--data DATA.yaml] [--seed 0]
        [--swapped 6 --missing 6 --sloppy 4] [--top 20]

Copies the dataset, plants mistakes in its val labels (a box's class swapped, a box deleted, a box moved and
resized so it covers about half the object), evaluates the run's best weights on the copy with
``yolostudio evaluate RUN --data COPY --json`` (as a user types it) and counts the planted images among the
first ``--top`` images the Errors list shows (its stored order: images in the order of their first error).
Side by side over the same stored labels and predictions: cleanlab's scores with its default thresholds
(the finder before per-class calibration), the image-level order of cleanlab's ``get_label_quality_scores``,
the images with any false positive or negative in dataset order (what Ultralytics' ``val visualize=True``,
8.3.169+, draws: its TP/FP/FN plots per image, unranked), and what a random order finds on average. The last
line is the app's figure.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def plant(data_yaml: Path, out: Path, seed: int, counts: dict[str, int]) -> tuple[Path, dict[str, str]]:
    """A copy of the dataset with mistakes planted in its val labels; (its data.yaml, image stem → kind)."""
    import yaml

    doc = yaml.safe_load(data_yaml.read_text(encoding="utf-8"))
    src = Path(doc.get("path") or data_yaml.parent)
    shutil.copytree(src, out)
    doc["path"] = str(out)
    names = doc["names"]
    nc = len(names) if isinstance(names, (list, dict)) else int(doc["nc"])
    (out / "data.yaml").write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    label_dir = out / "labels" / "val"
    files = sorted(p for p in label_dir.glob("*.txt") if p.read_text().strip())
    rng = random.Random(seed)
    chosen = rng.sample(files, sum(counts.values()))
    planted: dict[str, str] = {}
    kinds = [k for k, n in counts.items() for _ in range(n)]
    for path, kind in zip(chosen, kinds):
        rows = [line.split() for line in path.read_text().splitlines() if line.strip()]
        i = rng.randrange(len(rows))
        c, x, y, w, h = int(rows[i][0]), *map(float, rows[i][1:])
        if kind == "swapped":
            rows[i][0] = str(rng.choice([k for k in range(nc) if k != c]))
        elif kind == "missing":
            rows.pop(i)
        else:  # sloppy: shifted by ~35 % of its size and 30 % larger or smaller: IoU with the object ~0.4
            sx, sy = rng.choice((-1, 1)) * 0.35 * w, rng.choice((-1, 1)) * 0.35 * h
            f = rng.choice((0.7, 1.3))
            w2, h2 = min(w * f, 1.0), min(h * f, 1.0)
            x2 = min(max(x + sx, w2 / 2), 1 - w2 / 2)
            y2 = min(max(y + sy, h2 / 2), 1 - h2 / 2)
            rows[i][1:] = [f"{v:.6f}" for v in (x2, y2, w2, h2)]
        path.write_text("".join(" ".join(r) + "\n" for r in rows))
        planted[path.stem] = kind
    for cache in out.rglob("*.cache"):
        cache.unlink()
    return out / "data.yaml", planted


def image_order(errors: list[dict]) -> list[str]:
    """Images in the order the Errors list first shows them."""
    seen: dict[str, None] = {}
    for row in errors:
        seen.setdefault(Path(row["image"]).stem, None)
    return list(seen)


def found(order: list[str], planted: dict[str, str], top: int) -> dict[str, int]:
    hits = {kind: 0 for kind in ("swapped", "missing", "sloppy")}
    for stem in order[:top]:
        if stem in planted:
            hits[planted[stem]] += 1
    return {**hits, "all": sum(hits.values())}


def reranked(store: Path, calibrated: bool) -> list[str]:
    """The Errors list's image order recomputed from the stored labels and predictions."""
    from core.evaluation.matching import match_image
    from core.evaluation.ranking import ranked_errors
    from core.worker.label_scores import score_images

    result = json.loads((store / "result.json").read_text())
    images = json.loads((store / "images.json").read_text())
    labels = [np.asarray(im["labels"], dtype=float).reshape(-1, 5) for im in images]
    preds = [np.asarray(im["predictions"], dtype=float).reshape(-1, 6) for im in images]
    scores = score_images(labels, preds, len(result["names"]), calibrated=calibrated, conf=result["error_conf"])
    matched = [{"image": im["image"], "matches": match_image(lab, pred, conf=result["error_conf"]), "scores": s}
               for im, lab, pred, s in zip(images, labels, preds, scores)]
    return image_order(ranked_errors(matched))


def cleanlab_image_order(store: Path) -> list[str]:
    from core.worker.label_scores import score_images

    result = json.loads((store / "result.json").read_text())
    images = json.loads((store / "images.json").read_text())
    labels = [np.asarray(im["labels"], dtype=float).reshape(-1, 5) for im in images]
    preds = [np.asarray(im["predictions"], dtype=float).reshape(-1, 6) for im in images]
    scores = score_images(labels, preds, len(result["names"]), calibrated=False)
    order = sorted(range(len(images)), key=lambda i: scores[i].image)
    return [Path(images[i]["image"]).stem for i in order]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--workspace", required=True)
    p.add_argument("--run", required=True, help="a run of the workspace (its best.pt is evaluated)")
    p.add_argument("--data", default="", help="the dataset to plant in (default: the run's)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--swapped", type=int, default=6)
    p.add_argument("--missing", type=int, default=6)
    p.add_argument("--sloppy", type=int, default=4)
    p.add_argument("--top", type=int, default=20)
    args = p.parse_args()
    workspace = Path(args.workspace)
    run_dir = workspace / "runs" / args.run
    from core.evaluation.plan import run_training_config

    data = Path(args.data) if args.data else Path(run_training_config(run_dir)["data"])
    counts = {"swapped": args.swapped, "missing": args.missing, "sloppy": args.sloppy}
    with tempfile.TemporaryDirectory(prefix="label-finder-") as tmp:
        planted_yaml, planted = plant(data, Path(tmp) / "planted", args.seed, counts)
        exe = Path(sys.executable).with_name("yolostudio")
        proc = subprocess.run([str(exe), "--workspace", str(workspace), "evaluate", args.run, "--data",
                               str(planted_yaml), "--json"], capture_output=True, text=True)
        if proc.returncode != 0:
            print(proc.stdout[-2000:], proc.stderr[-2000:], file=sys.stderr)
            return proc.returncode
        text = proc.stdout
        start = 0 if text.startswith("{") else text.rfind("\n{\n") + 1  # the one JSON document, after any events
        doc = json.loads(text[start:])
        store = Path(doc["store"]).parent
        n_images = int(doc["images"])
        total = sum(counts.values())
        rows = {
            "random order (expected)": {"all": round(args.top / n_images * total, 1)},
            "FP/FN images, dataset order": found(sorted(image_order(doc["errors"])), planted, args.top),
            "cleanlab image score": found(cleanlab_image_order(store), planted, args.top),
            "cleanlab default thresholds": found(reranked(store, calibrated=False), planted, args.top),
            "per-class calibrated": found(reranked(store, calibrated=True), planted, args.top),
            "the app's Errors list": found(image_order(doc["errors"]), planted, args.top),
        }
        print(f"planted {total} mistakes ({counts}) in {n_images} val images; "
              f"found among the first {args.top} images shown:")
        for name, hit in rows.items():
            detail = ", ".join(f"{k} {hit[k]}/{counts[k]}" for k in counts if k in hit)
            print(f"  {name:30s} {hit['all']:>4} of {total}" + (f"  ({detail})" if detail else ""))
        print(json.dumps({"seed": args.seed, "top": args.top, "images": n_images, "planted": total,
                          "map50": doc["metrics"]["map50"], **{k: v["all"] for k, v in rows.items()}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
