"""The deployment report's facts, read from a run folder, and the page written next to them.

Everything comes from files the run already holds; nothing is inferred from names. The evaluation is the newest
one of the run's current weights on the val split (a held-out k-fold one is of other models): its
``weights_sha256`` must be the weights file's SHA-256 now, else the report would sign numbers of another model
— that refuses with the command that evaluates again. The run records no fingerprint of the data it trained on
(``config.json`` keeps the data.yaml's path only), so the report says so and gives what is recorded: the
data.yaml, the train split's counts when evaluated, and the val split's fingerprint the evaluation was keyed
by (``core.evaluation.fingerprint``), with whether that split is still the same now.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.atomic import atomic_write_text
from core.evaluation.fingerprint import dataset_fingerprint, weights_hash
from core.evaluation.operating_point import at_confidence, choose, stored_matches, DRAWS
from core.evaluation.plan import run_training_config, run_weights
from core.evaluation.store import list_evaluations, load_images
from core.evaluation.words import is_held_out
from core.export.plan import find_reports
from core.i18n import tr
from core.run.folder import RunFolder


class ReportError(Exception):
    """Why no report can be made, in words, with the way out (``hint``)."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message, self.hint = message, hint


@dataclass(frozen=True)
class Choice:
    """How the operating confidence is chosen: the best-F1 one unless a target recall or a false-alarm limit
    (per 100 images) is given."""

    target_recall: float | None = None
    max_false_alarms: float | None = None

    def problem(self) -> str | None:
        """Why these values cannot be used, in words, or None."""
        if self.target_recall is not None and self.max_false_alarms is not None:
            return tr("Give either --target-recall or --max-false-alarms, not both.")
        if self.target_recall is not None and not 0 < self.target_recall <= 1:
            return tr("--target-recall {value}: a recall is between 0 and 1 (0.9 means nine objects in ten found).",
                      value=self.target_recall)
        if self.max_false_alarms is not None and not self.max_false_alarms >= 0:
            return tr("--max-false-alarms {value}: a number of false alarms per 100 images, 0 or more.",
                      value=self.max_false_alarms)
        return None


def _evaluation(run_dir: Path, sha256: str) -> dict[str, Any]:
    """The newest val evaluation of the weights with ``sha256``; ``ReportError`` when there is none."""
    command = f"yolostudio evaluate {run_dir.name}"
    found = [r for r in list_evaluations(run_dir) if r.get("split") == "val" and not is_held_out(r)]
    if not found:
        raise ReportError(tr("Run {run} has no evaluation on its val split yet: the report's figures come from it.",
                             run=run_dir.name), tr("Evaluate it first: {command}", command=command))
    same = [r for r in found if r.get("weights_sha256") == sha256]
    if not same:
        raise ReportError(tr("The evaluations of run {run} are of other weights than its {weights} now.",
                             run=run_dir.name, weights=run_weights(run_dir).name),  # type: ignore[union-attr]
                          tr("Evaluate the weights as they are: {command}", command=command))
    return same[0]


def _exports(run_dir: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(latency per exported format, INT8 cost per format that has one) from the run's export reports."""
    latency, int8 = [], []
    for report in find_reports(run_dir):
        lat = report.get("latency_ms") or {}
        verified = (report.get("verified") or {}).get("ok")
        latency.append({"format": report.get("format"), "precision": report.get("precision"),
                        "device": report.get("device"), "verified": bool(verified), "path": report.get("path"),
                        "exported_ms": lat.get("exported"), "torch_ms": lat.get("torch"),
                        "exported_range": lat.get("exported_range"), "batch": lat.get("batch"),
                        "created": report.get("created")})
        cost = report.get("int8")
        if isinstance(cost, dict) and isinstance(cost.get("fp32"), dict) and isinstance(cost.get("int8"), dict):
            int8.append({"format": report.get("format"), "path": cost.get("path"), "verified": cost.get("verified"),
                         "max_drop": cost.get("max_drop"), "map50_drop": cost.get("map50_drop"),
                         "split": cost.get("split"),
                         **{name: {"map50": cost[name].get("map50"), "map": cost[name].get("map"),
                                   "latency_ms": cost[name].get("latency_ms")} for name in ("fp32", "int8")}})
    return latency, int8


def gather(run_dir: Path, choice: Choice = Choice(), *, draws: int = DRAWS, seed: int = 0) -> dict[str, Any]:
    """The report's facts (the ``--json`` document); ``ReportError`` when the run cannot have one yet."""
    run_dir = Path(run_dir)
    weights = run_weights(run_dir)
    if weights is None:
        raise ReportError(tr("Run {run} has no weights yet (weights/best.pt or weights/last.pt).", run=run_dir.name))
    sha256 = weights_hash(weights)
    result = _evaluation(run_dir, sha256)
    folder = Path(result["store"]).parent
    images = load_images(folder)
    if len(images) != int(result.get("images") or 0):
        raise ReportError(tr("The evaluation's images.json in {folder} is missing or incomplete.", folder=folder),
                          tr("Remove the folder {folder}: the next yolostudio evaluate makes that evaluation again.",
                             folder=folder))
    names = {int(k): str(v) for k, v in (result.get("names") or {}).items()}
    nc = len(result.get("per_class") or []) or len(names) or 1  # the evaluation's classes (one when single_cls)
    matches = stored_matches(images, nc)
    point = choose(matches, best_f1=(result.get("best_f1") or {}).get("confidence"),
                   target_recall=choice.target_recall, max_false_alarms=choice.max_false_alarms)
    figures = at_confidence(matches, point.confidence, draws=draws, seed=seed)
    for row in figures["per_class"]:
        row["name"] = names.get(row["class"], str(row["class"]))
    config = run_training_config(run_dir)
    data = Path(str(result.get("data") or config.get("data") or ""))
    split_now = dataset_fingerprint(data, "val") if data.is_file() else None
    latency, int8 = _exports(run_dir)
    return {
        "created": time.time(), "run": run_dir.name, "run_dir": str(run_dir),
        "model": {"weights": str(weights), "sha256": sha256, "architecture": str(config.get("model") or ""),
                  "start_weights": str(config.get("weights") or ""), "imgsz_trained": config.get("imgsz"),
                  "imgsz_evaluated": (result.get("settings") or {}).get("imgsz"),
                  "classes": [names.get(c, str(c)) for c in range(nc)]},
        "dataset": {"data": str(data), "training_fingerprint": None,
                    "train_images": (result.get("dataset") or {}).get("train_images"),
                    "val_images": result.get("images"), "val_instances": result.get("instances"),
                    "val_fingerprint": result.get("dataset_fingerprint"),
                    "val_unchanged": None if split_now is None else split_now == result.get("dataset_fingerprint")},
        "evaluation": {"store": result["store"], "created": result.get("created"), "key": result.get("key"),
                       "metrics": result.get("metrics"), "interval": result.get("interval"),
                       "best_f1": result.get("best_f1")},
        "operating_point": {"confidence": point.confidence, "rule": point.rule, "target": point.target,
                            "reached": point.reached},
        "at_confidence": figures, "latency": latency, "int8": int8,
    }


def default_report_path(run_dir: Path, language: str) -> Path:
    """Where the report goes unless the user says: in the run folder, one file per language."""
    return RunFolder(Path(run_dir)).deployment_report(language)


def write_report(run_dir: Path, out: Path | None = None, *, language: str = "en", choice: Choice = Choice(),
                 draws: int = DRAWS, seed: int = 0) -> tuple[Path, dict[str, Any]]:
    """Gather the facts, render them in ``language`` and write the page atomically (a backup of one replaced
    when ``out`` is the user's own file); (the page's path, the facts)."""
    from core.report.page import render  # the page's words: only when a page is written

    facts = gather(run_dir, choice, draws=draws, seed=seed)
    path = Path(out).expanduser() if out else default_report_path(run_dir, language)
    atomic_write_text(path, render(facts, language), backup=out is not None and path.exists())
    return path, facts
