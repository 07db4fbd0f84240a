"""The facts the accuracy prescription reads (``core.evaluation.prescription.AccuracyFacts``), gathered from
an evaluation's stored result and images, the run's recorded events and its training settings.

Each source may be missing (weights that are not from a run, a run without events): the field stays
empty and the rules that need it stay quiet.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.run.best_epoch import best_epoch
from core.evaluation.prescription import AccuracyFacts
from core.job.protocol import iter_events
from core.run.files import EVENTS_FILE

_TRAIN_LOSS = ("train/box_loss", "train/obj_loss", "train/cls_loss")
_VAL_LOSS = ("val/box_loss", "val/obj_loss", "val/cls_loss")


def _loss(metrics: dict[str, Any], keys: tuple[str, ...]) -> float | None:
    values = [metrics.get(k) for k in keys]
    return float(sum(values)) if all(isinstance(v, (int, float)) for v in values) else None


def curve_facts(run_dir: Path | None) -> dict[str, Any]:
    """epochs, best epoch (yolov5's fitness) and the per-epoch losses from the run's events."""
    if run_dir is None or not (Path(run_dir) / EVENTS_FILE).is_file():
        return {}
    events = [e for e in iter_events(Path(run_dir) / EVENTS_FILE) if e.get("type") == "epoch_end"]
    by_epoch = {int(e["epoch"]): e for e in events if isinstance(e.get("epoch"), int)}  # a resume repeats one
    ordered = [by_epoch[k] for k in sorted(by_epoch)]
    best = best_epoch(ordered)
    train = [_loss(e.get("metrics") or {}, _TRAIN_LOSS) for e in ordered]
    val = [_loss(e.get("metrics") or {}, _VAL_LOSS) for e in ordered]
    return {"epochs": len(ordered), "best_epoch": best.epoch if best else None,
            "train_loss": [v for v in train if v is not None] if None not in train else [],
            "val_loss": [v for v in val if v is not None] if None not in val else []}


def box_min_sides(images: list[dict[str, Any]], imgsz: int) -> list[float]:
    """Each val label's shorter side in pixels after yolov5's letterbox to ``imgsz`` (scale = imgsz / longer side)."""
    out = []
    for im in images:
        longest = max(int(im.get("width") or 0), int(im.get("height") or 0))
        if not longest:
            continue
        scale = imgsz / longest
        for _cls, x1, y1, x2, y2 in im.get("labels", []):
            out.append(min(x2 - x1, y2 - y1) * scale)
    return out


def gather_facts(result: dict[str, Any], images: list[dict[str, Any]], run_config: dict[str, Any],
                 run_dir: Path | None) -> AccuracyFacts:
    imgsz = int(result.get("settings", {}).get("imgsz") or 640)
    dataset = result.get("dataset", {})
    curves = curve_facts(run_dir)
    return AccuracyFacts(
        imgsz=imgsz, model=str(run_config.get("model") or ""),
        pretrained=bool(run_config.get("weights")) if run_config else None,
        train_images=dataset.get("train_images"), epochs=curves.get("epochs"), best_epoch=curves.get("best_epoch"),
        train_loss=curves.get("train_loss", []), val_loss=curves.get("val_loss", []),
        box_min_sides_px=box_min_sides(images, imgsz), per_class=list(result.get("per_class", [])),
        train_instances={str(k): int(v) for k, v in (dataset.get("train_instances") or {}).items()},
        val_images=result.get("images"), interval_half_width=(result.get("interval") or {}).get("half_width"),
        image_scores=list(result.get("image_scores", [])))


def train_split_counts(data_yaml: Path, names: dict[int, str]) -> dict[str, Any]:
    """The train split's image count and labelled instances per class name, read from its label files as
    yolov5 pairs them (``label_path_for``). Run in the worker: it reads every train label file."""
    from core.dataset.files import label_path_for
    from core.dataset.labels import parse_label_bytes
    from core.evaluation.fingerprint import split_images

    images = split_images(Path(data_yaml), "train")
    counts = {name: 0 for name in names.values()}
    for image in images:
        try:
            raw = Path(label_path_for(image)).read_bytes()
        except OSError:
            continue
        for row in parse_label_bytes(raw).rows:
            name = names.get(int(row[1]))
            if name is not None:
                counts[name] += 1
    return {"train_images": len(images), "train_instances": counts}
