"""``yolostudio evaluate RUN|WEIGHTS [--data] [--split val|test|train] [--kfold K] [--kfold-epochs N] [--imgsz]
[--conf] [--iou] [--export-list FILE] [--list] [--json]``.

yolov5's own validation in a worker (``core/worker/evaluate_job.py``), with the defaults of training's final
validation (``core.evaluation.plan``), so a run's best weights give training's last numbers. The result is
stored in the run folder under the key of its inputs (``core.evaluation.store``); the same evaluation again
reads it back without starting a worker. ``--split train`` needs ``--kfold K``: the run's own predictions
on its training images are biased, so K short trainings each predict the fold they did not learn
(``core/evaluation/kfold_request.py``, the ``evaluate_kfold`` job); the time it takes is said before it
starts. ``--json`` prints the stored result with ``store`` (its path) and ``from_store``; its shape is in
docs/protocol.md; ``--list`` shows the evaluations stored with a run. Exit codes: 0 evaluated, 1 failed, 2 usage
error, 3 stopped.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from cli.common import EXIT_FAILED, EXIT_OK, EXIT_USAGE, exit_code_of, model_and_run
from cli.columns import cells, pad
from cli.jobs import render_job
from cli.registry import Verb, register
from cli.render import EventRenderer, shown, shown_event
from core.display_text import escaped_strings
from core.evaluation.plan import SPLITS, default_settings, run_training_config, run_world_size
from core.evaluation.error_list import write_image_list
from core.evaluation.request import presented
from core.evaluation.store import list_evaluations, load_evaluation
from core.evaluation.stored_result import StoredEvaluationError
from core.evaluation.kfold import FOLD_EPOCHS_CAP, KFOLD_DEFAULT, estimate_text
from core.evaluation.words import (confusion_words, error_line, headline, is_held_out, number_text,
                                   predictions_words, train_split_refusal)
from core.i18n import tr, tr_n
from core.job.jobs import JobOutcome
from core.usecases.evaluate import EvaluateDoor, KfoldDoor

#: Errors listed in the human output (the --json document and the store have them all).
SHOWN_ERRORS = 10


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("target", metavar="RUN|WEIGHTS", help=tr("a run (its best.pt) or a .pt file"))
    p.add_argument("--data", default="", help=tr("dataset YAML (default: the run's)"))
    p.add_argument("--split", choices=(*SPLITS, "train"), default="val",
                   help=tr("which split to evaluate (default: val; train needs --kfold)"))
    p.add_argument("--kfold", type=int, default=0, metavar="K",
                   help=tr("held-out predictions for the train split: K short trainings, each predicting the "
                           "fold it did not learn (3 is a good start)"))
    p.add_argument("--kfold-epochs", type=int, default=None, metavar="N",
                   help=tr("epochs of each fold's training (default: the run's, at most {n})", n=FOLD_EPOCHS_CAP))
    p.add_argument("--imgsz", "--img", type=int, default=None, help=tr("image size (default: the run's, else 640)"))
    p.add_argument("--conf", type=float, default=None, help=tr("NMS confidence threshold (default: 0.001, as yolov5)"))
    p.add_argument("--iou", type=float, default=None, help=tr("NMS IoU threshold (default: 0.6, as yolov5)"))
    p.add_argument("--device", default="", help=tr("cpu or a GPU index (default: yolov5's choice)"))
    p.add_argument("--trust-weights", action="store_true",
                   help=tr("allow loading a .pt from outside your runs (a .pt is a pickle and can run code)"))
    p.add_argument("--trust-model", action="store_true",
                   help=tr("allow the run's model YAML whose strings yolov5 would run as code (held-out "
                           "trainings build the run's model)"))
    p.add_argument("--export-list", metavar="FILE", default="",
                   help=tr("write the images of the errors to FILE, one path a line, likeliest label mistake first"))
    p.add_argument("--list", action="store_true",
                   help=tr("list the run's stored evaluations (newest first) instead of evaluating"))
    p.add_argument("--json", action="store_true", help=tr("print the evaluation as one JSON document"))


class EvaluateRenderer(EventRenderer):
    def __init__(self, json_mode: bool) -> None:
        super().__init__(json_mode)
        self.failure: dict[str, Any] | None = None
        self.store: str | None = None

    def text(self, line: str) -> None:
        """yolov5's own output in the worker (val.run's table, a fold training's bars) is not shown: the job's
        events say what it does, and a failure comes with its error event (or the outcome's last lines)."""

    def _line(self, text: str) -> None:
        if not self.json_mode:
            print(text, file=self.out, flush=True)

    def event(self, ev: dict[str, Any]) -> None:
        kind = ev.get("type")
        if kind == "stage" and ev.get("stage") in ("evaluating", "ranking", "preparing", "training", "stopping"):
            self._line(tr("… {detail}", detail=shown(ev.get("detail", ev.get("stage")))))
        elif kind == "eval_progress" and ev.get("index") == ev.get("count"):
            self._line(tr_n("… {n} image validated", "… {n} images validated", int(ev.get("images") or 0)))
        elif kind == "kfold_progress" and ev.get("stage") == "training":
            self._line(tr("… fold {fold} of {folds}: epoch {epoch} of {epochs}", fold=ev.get("fold"),
                          folds=ev.get("folds"), epoch=ev.get("epoch"), epochs=ev.get("epochs")))
        elif kind == "error":
            self.failure = {k: ev.get(k) for k in ("kind", "message", "hint")}
            self.error(str(ev.get("message", "")), str(ev.get("hint") or ""))
        elif kind == "done":
            self.store = ev.get("store")

    def finish(self, outcome: JobOutcome) -> None:
        if outcome.synthetic:
            self.failure = outcome.error()
            self.error(outcome.message, outcome.hint)


def report_lines(result: dict[str, Any], *, from_store: bool) -> list[str]:
    """The human report of one evaluation."""
    title = tr_n("Evaluation of {weights} on the {split} split: {n} image, {instances} objects",
                 "Evaluation of {weights} on the {split} split: {n} images, {instances} objects",
                 int(result.get("images") or 0), weights=Path(str(result.get("weights") or "")).name,
                 split=result.get("split", "val"),
                 instances=result.get("instances", 0))
    if is_held_out(result):
        title = tr("Held-out (k-fold) evaluation of run {run} on the train split: {images} images, {instances} "
                   "objects", run=result.get("run", ""), images=result.get("images", 0),
                   instances=result.get("instances", 0))
    lines = [title + (" " + tr("(read back from the store)") if from_store else ""), predictions_words(result), ""]
    lines += ["  " + line for line in headline(result)] + [""]
    lines += ["  " + line for line in class_table(result)] + [""]
    lines += ["  " + line for line in confusion_words(result.get("confusion", {}))] + [""]
    errors = result.get("errors", [])
    counts = result.get("error_counts", {})
    lines.append(tr("Errors at confidence ≥ {conf}: {missed} missed, {fp} false positives, {wc} wrong class, "
                    "{pb} poor boxes, {dup} duplicates. The likeliest label mistakes first:",
                    conf=f"{result.get('error_conf', 0):.3f}", missed=counts.get("missed", 0),
                    fp=counts.get("false_positive", 0), wc=counts.get("wrong_class", 0),
                    pb=counts.get("poor_box", 0), dup=counts.get("duplicate", 0)))
    lines += [f"  {i}. " + error_line(row) for i, row in enumerate(errors[:SHOWN_ERRORS], 1)]
    if len(errors) > SHOWN_ERRORS:
        lines.append("  " + tr("… and {n} more (--json lists them all)", n=len(errors) - SHOWN_ERRORS))
    if result.get("prescription"):
        lines += ["", tr("What to change for the next run:")]
        for item in result["prescription"]:
            lines.append(f"  • {item['title']}")
            lines.append(f"    {item['detail']}")
            if item.get("fix"):
                lines.append("    → " + item["fix"])
    lines.append(tr("Stored in {path}", path=result.get("store", "")))
    return lines


def run(args: argparse.Namespace, workspace: Path | None) -> int:
    assert workspace is not None
    renderer = EvaluateRenderer(args.json)
    try:
        return _evaluate(args, workspace, renderer)
    except StoredEvaluationError as damaged:  # a stored result.json no reader can use: its words, exit 2
        renderer.error(str(damaged), damaged.hint)
        return EXIT_USAGE


def _evaluate(args: argparse.Namespace, workspace: Path, renderer: EvaluateRenderer) -> int:
    if args.split == "train" and not args.kfold:
        renderer.error(*train_split_refusal(KFOLD_DEFAULT))
        return EXIT_USAGE
    if args.kfold and args.split != "train":
        renderer.error(tr("--kfold makes held-out predictions for the train split; the {split} split is judged "
                          "by the run's own weights.", split=args.split), tr("Add --split train, or drop --kfold."))
        return EXIT_USAGE
    try:
        weights, run_dir = model_and_run(args.target, workspace)
    except FileNotFoundError as missing:
        renderer.error(str(missing))
        return EXIT_USAGE
    if args.list:
        return _list(args, renderer, run_dir)
    if args.kfold:
        return _run_kfold(args, workspace, run_dir, renderer)
    config = run_training_config(run_dir)
    data = Path(args.data).expanduser() if args.data else Path(str(config.get("data") or ""))
    if not args.data and not config.get("data"):
        renderer.error(tr("{weights} is not from a run of this workspace: say which dataset with --data "
                          "DATA.yaml.", weights=weights))
        return EXIT_USAGE
    if not data.is_file():
        renderer.error(tr("{path} does not exist.", path=data), tr("Give the dataset's YAML with --data."))
        return EXIT_USAGE
    door = EvaluateDoor(weights, data, default_settings(config, split=args.split, imgsz=args.imgsz, conf=args.conf,
                                                         iou=args.iou, world_size=run_world_size(run_dir)),
                        workspace, trust_weights=args.trust_weights, device=args.device)
    if not _passed(door, renderer):
        return EXIT_USAGE
    plan, result = door.plan, door.stored
    from_store = result is not None
    if result is None:
        result = _run(args, renderer, door, plan.folder)
        if not isinstance(result, dict):
            return result
    return _show(args, renderer, presented(result, plan, config, run_dir, from_store=from_store))


def _run_kfold(args: argparse.Namespace, workspace: Path, run_dir: Path | None, renderer: EvaluateRenderer) -> int:
    """``--split train --kfold K``: plan (the folds, the estimate), read the store, else run the k trainings."""
    if run_dir is None or args.data:
        renderer.error(tr("Held-out predictions train like a run: give a run of this workspace (its settings, "
                          "start weights and dataset), not a weights file or --data."))
        return EXIT_USAGE
    door = KfoldDoor(run_dir, workspace, k=args.kfold, epochs=args.kfold_epochs, imgsz=args.imgsz, conf=args.conf,
                     iou=args.iou, device=args.device, trust_weights=args.trust_weights,
                     trust_model=args.trust_model)
    if not _passed(door, renderer):
        return EXIT_USAGE
    plan = door.plan
    result = plan.stored
    if result is None:
        renderer.note(tr("Held-out predictions for the {n} training images of run {run}: {k} trainings of {epochs} "
                         "epochs, {estimate}.", n=sum(len(f) for f in plan.folds), run=run_dir.name, k=plan.k,
                         epochs=plan.epochs, estimate=estimate_text(plan.estimate)))
        result = _run(args, renderer, door, plan.folder)
        if not isinstance(result, dict):
            return result
    return _show(args, renderer, presented(result, plan, plan.config, run_dir, from_store=plan.stored is not None))


def _passed(door: EvaluateDoor | KfoldDoor, renderer: EvaluateRenderer) -> bool:
    """The door's pre-flight: each problem said; False when one stops the start."""
    for problem in door.preflight():
        (renderer.error if problem.is_error else renderer.warning)(problem.message, problem.hint)
    return door.ok


def _run(args: argparse.Namespace, renderer: EvaluateRenderer, door: EvaluateDoor | KfoldDoor,
         folder: Path) -> dict[str, Any] | int:
    """The door's job in a worker; the stored result, or the exit code when there is none."""
    outcome = render_job(renderer, door, forward_stdin=args.json)
    result = load_evaluation(folder) if outcome.status == "completed" else None
    if result is None:
        if args.json:
            renderer.result({"error": renderer.failure or {"kind": "internal", "message": outcome.message}}, "")
        return exit_code_of(outcome) if outcome.status != "completed" else EXIT_FAILED
    return result


#: What ``--list --json`` keeps of each stored evaluation (the whole result is in its ``store``).
LISTED = ("created", "split", "predictions", "kfold", "images", "instances", "metrics", "weights", "key", "store")


def _list(args: argparse.Namespace, renderer: EvaluateRenderer, run_dir: Path | None) -> int:
    """The evaluations stored with the run: which split and predictions, how many images, mAP, where."""
    if run_dir is None:
        renderer.error(tr("Evaluations are listed with a run: give a run of this workspace."))
        return EXIT_USAGE
    listed = [{k: r.get(k) for k in LISTED if k in r} for r in list_evaluations(run_dir)]
    if args.json:
        renderer.result(listed, "")
        return EXIT_OK
    if not listed:
        print(tr("Run {run} has no stored evaluation yet: yolostudio evaluate {run}", run=run_dir.name),
              file=renderer.out)
        return EXIT_OK
    header = [tr("evaluated"), tr("predictions"), tr("images"), "mAP@0.5", "mAP@0.5:0.95", tr("stored in")]
    shown_rows = escaped_strings(listed)  # a stored result's values: escaped, newlines too
    rows = [[time.strftime("%Y-%m-%d %H:%M", time.localtime(float(r.get("created") or 0))),
             tr("held-out k-fold, train") if r.get("predictions") == "kfold" else str(r.get("split", "")),
             str(r.get("images", "")), number_text((r.get("metrics") or {}).get("map50")),
             number_text((r.get("metrics") or {}).get("map")), str(r.get("store", ""))] for r in shown_rows]
    widths = [max(cells(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(pad(c, w) for c, w in zip(row, widths)).rstrip(), file=renderer.out)
    return EXIT_OK


def _show(args: argparse.Namespace, renderer: EvaluateRenderer, result: dict[str, Any]) -> int:
    """Print the presented result (and write --export-list)."""
    from_store = bool(result.get("from_store"))
    if args.export_list:
        count = write_image_list(result.get("errors", []), Path(args.export_list).expanduser())
        renderer.note(tr("{n} images written to {path}", n=count, path=args.export_list))
    if args.json:
        renderer.result(result, "")
    else:
        for line in report_lines(shown_event(result), from_store=from_store):
            print(line, file=renderer.out)
    return EXIT_OK


register(Verb("evaluate", tr("evaluate a model with yolov5's validation: per-class metrics, confusion matrix, "
                             "its mistakes image by image (likeliest label mistakes first)"),
              add_arguments, run, order=88))

def class_table(result: dict[str, Any]) -> list[str]:
    header = [tr("class"), tr("instances"), "P", "R", "mAP@0.5", "mAP@0.5:0.95"]
    rows = [[str(r["name"]), str(r["instances"]), number_text(r["precision"]), number_text(r["recall"]), number_text(r["map50"]),
             number_text(r["map"])] for r in result.get("per_class", [])]
    widths = [max(len(header[0]), *(len(r[0]) for r in rows)) if rows else 8] + [12] * 5
    return ["  ".join(pad(c, w) for c, w in zip(row, widths)).rstrip() for row in [header, *rows]]
