"""Held-out predictions for the training images: the k folds, each fold's dataset, and what it will cost.

Why: a model's predictions on the images it learned from are biased — it has fitted their labels, mistakes
included — so the Errors browser could judge only val/test. Held-out (k-fold) predictions fix that the way
cleanlab's own examples do: the train split is cut into ``k`` folds; for each fold a short training on the
other ``k - 1`` folds (the run's own settings and start weights) predicts the fold it never saw. Every
training image is then predicted exactly once, by a model that did not learn it.

Pure functions here: the folds (seeded, so the same run gives the same folds), each fold's data.yaml and
image lists (the user's dataset is only read: the lists and yolov5's label caches live in the evaluation's
store folder), and the estimate of the time it takes from the run's own measured epochs, with its basis in
words. ``core.evaluation.kfold_request`` plans it for a run; ``core/worker/evaluate_kfold.py`` runs it.
"""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import yaml

from core.atomic import atomic_write_text
from core.i18n import tr
from core.run.progress import format_duration

#: Folds by default: 3 short trainings, each on two thirds of the images [design: the issue's "a few short
#: k-fold trainings"; cleanlab's examples use 5 — more folds cost more trainings for little change in rank].
KFOLD_DEFAULT = 3
#: Epochs of a fold's training when the run's own are more [design: a fold model must have learned the
#: classes to point at wrong labels, not reach the run's final accuracy; the user can choose more].
FOLD_EPOCHS_CAP = 10
#: The folds are dealt from the images in a seeded shuffle (the same run gives the same folds).
FOLD_SEED = 0


def assign_folds(images: Iterable[str], k: int, seed: int = FOLD_SEED) -> list[list[str]]:
    """``k`` disjoint folds covering every image once (sizes differ by at most one); raises ValueError when
    there are fewer images than folds or fewer than two folds."""
    ordered = sorted(dict.fromkeys(str(i) for i in images))
    if k < 2:
        raise ValueError(tr("Held-out predictions need at least 2 folds, not {k}.", k=k))
    if len(ordered) < k:
        raise ValueError(tr("The train split has {n} images: too few for {k} folds.", n=len(ordered), k=k))
    random.Random(seed).shuffle(ordered)
    return [sorted(ordered[i::k]) for i in range(k)]


def fold_epochs(run_epochs: int | None, requested: int | None = None) -> int:
    """A fold's epochs: the user's, else the run's own capped at ``FOLD_EPOCHS_CAP``."""
    if requested:
        return max(1, int(requested))
    return max(1, min(int(run_epochs or FOLD_EPOCHS_CAP), FOLD_EPOCHS_CAP))


def fold_data(folder: Path, index: int, folds: list[list[str]], names: list[str] | dict[Any, str]) -> Path:
    """Write fold ``index``'s image lists and data.yaml under ``folder``: train = the other folds, val = this one.

    Absolute image paths, one a line (yolov5's list-file form); the labels are the dataset's own (yolov5 finds
    each beside its image). Nothing here is code to yolov5: no ``download:``."""
    folder.mkdir(parents=True, exist_ok=True)
    train = folder / f"fold{index}_train.txt"
    held = folder / f"fold{index}_val.txt"
    atomic_write_text(train, "".join(f"{p}\n" for i, fold in enumerate(folds) if i != index for p in fold),
                      backup=False)
    atomic_write_text(held, "".join(f"{p}\n" for p in folds[index]), backup=False)
    listed = list(names.values()) if isinstance(names, dict) else list(names)
    doc = {"path": str(folder), "train": str(train), "val": str(held), "nc": len(listed), "names": listed}
    data = folder / f"fold{index}.yaml"
    atomic_write_text(data, "# Held-out fold written by YOLO Studio (safe to delete)\n"
                      + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True), backup=False)
    return data


@dataclass(frozen=True)
class KfoldEstimate:
    """How long the k trainings take, and why that figure (``basis``, in words; ``seconds`` None: unknown)."""
    seconds: float | None
    basis: str


@dataclass(frozen=True)
class MeasuredRun:
    """A run's own timings from its events (seconds; None when the events do not say)."""
    start: float | None  # worker start to the first epoch: imports, dataset, model
    first_epoch: float | None  # pays for warm-up (and caching)
    later_epoch: float | None  # the median of the epochs after the first
    finish: float | None  # the last epoch's end to done: yolov5's final validation of best.pt, the files


def measured_run(events: Iterable[dict[str, Any]]) -> MeasuredRun:
    started = first_epoch = last_end = done = None
    times: list[float] = []
    for event in events:
        kind, t = event.get("type"), event.get("t")
        if kind == "stage" and event.get("stage") == "starting" and started is None:
            started = t
        elif kind == "epoch_start" and first_epoch is None:
            first_epoch = t
        elif kind == "epoch_end" and event.get("epoch_time_s") is not None:
            times.append(float(event["epoch_time_s"]))
            last_end = t
        elif kind == "done":
            done = t
    gap = (lambda a, b: float(b) - float(a) if a is not None and b is not None else None)
    return MeasuredRun(gap(started, first_epoch), times[0] if times else None,
                       statistics.median(times[1:]) if len(times) > 1 else (times[0] if times else None),
                       gap(last_end, done))


def estimate(events: Iterable[dict[str, Any]], *, k: int, epochs: int, run_name: str) -> KfoldEstimate:
    """k × (start + (k−1)/k × (first epoch + more epochs × a later epoch) + finish): each fold trains on that
    share of the images, from the run's own measured timings."""
    run = measured_run(events)
    if run.first_epoch is None or run.later_epoch is None:
        return KfoldEstimate(None, tr("Run {run} has no measured epoch, so the time cannot be estimated: {k} "
                                      "trainings of {epochs} epochs each.", run=run_name, k=k, epochs=epochs))
    share = (k - 1) / k
    start, finish = run.start or 0.0, run.finish or 0.0
    seconds = k * (start + share * (run.first_epoch + (epochs - 1) * run.later_epoch) + finish)
    return KfoldEstimate(seconds, tr(
        "{k} trainings × ({start} s to start + {share} of the images × ({first} s for the first epoch + {more} "
        "more × {epoch} s) + {finish} s to finish), from run {run}'s own timings", k=k, start=f"{start:.0f}",
        share=f"{k - 1}/{k}", first=f"{run.first_epoch:.1f}", more=epochs - 1, epoch=f"{run.later_epoch:.1f}",
        finish=f"{finish:.0f}", run=run_name))


def estimate_text(estimate: KfoldEstimate) -> str:
    """"about 4:05 (the basis)", or the basis alone when there is no figure."""
    if estimate.seconds is None:
        return estimate.basis
    return tr("about {duration} ({basis})", duration=format_duration(estimate.seconds), basis=estimate.basis)
