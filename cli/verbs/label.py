"""``yolostudio label auto RUN --images DIR [--conf C] [--name QUEUE] [--model EXPORT] [--json]``: a run's best weights propose boxes
for new images, into a review queue (never into a dataset); ``yolostudio label queue [QUEUE] [--json]``: the
queues, or one queue least certain first with the reason; ``yolostudio label accept QUEUE --into DATA.yaml
[--split train] [--conf C] [--json]``: the accepted images and labels into a dataset.

``auto`` runs the ``autolabel`` worker through its door (``core.usecases.label.AutoLabelDoor``: trust of the
run's weights from provenance, the queue's guards); Ctrl+C stops it after the current image, and the same
command later predicts only what is left. ``--json`` prints the event stream (``label_progress`` per image,
docs/protocol.md). ``accept`` writes through ``core.labelling.accept`` and prints the dataset check's findings
about what it added. Exit codes: 0 done, 1 the job failed or the check found errors in what was added, 2 usage
(no such run or queue, a refusal), 3 stopped.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from cli.common import EXIT_FAILED, EXIT_OK, EXIT_USAGE, exit_code_of, find_run
from cli.columns import cells, pad
from cli.jobs import render_job
from cli.progress_line import ProgressLine
from cli.registry import Verb, register
from cli.render import EventRenderer, JsonEvents, Output, shown, shown_event
from core.i18n import tr, tr_n
from core.job.jobs import JobOutcome
from core.labelling.accept import AcceptRefused, accept_into
from core.labelling.records import ADDED, IMAGE_REJECTED, PENDING, REVIEWED, TO_REVIEW, UNREADABLE, goes_in
from core.labelling.store import Queue, QueueError, list_queues, open_queue
from core.usecases.label import DEFAULT_CONF, AutoLabelDoor
from core.workspace import app_cache_dir

#: Images listed in the human output of one queue (``--json`` has them all).
SHOWN_IMAGES = 40


def add_arguments(parser: argparse.ArgumentParser) -> None:
    verbs = parser.add_subparsers(dest="label_verb", metavar="ACTION", required=True)
    auto = verbs.add_parser("auto", help=tr("let a run's best weights propose boxes for new images (into a "
                                            "review queue, never into a dataset)"))
    auto.add_argument("run", metavar="RUN", help=tr("the run whose best.pt proposes (name or folder)"))
    auto.add_argument("--images", required=True, metavar="DIR", help=tr("the folder of new images"))
    auto.add_argument("--conf", type=float, default=DEFAULT_CONF,
                      help=tr("confidence at which a box is proposed (default: {conf})", conf=DEFAULT_CONF))
    auto.add_argument("--name", default=None, metavar="QUEUE", help=tr("the review queue (default: RUN-DIR); "
                                                                       "an existing one gets the new images"))
    auto.add_argument("--model", default=None, metavar="FILE",
                      help=tr("an export of the run to predict with (.onnx, .torchscript, .engine; default: its "
                              "best.pt)"))
    auto.add_argument("--trust-weights", action="store_true",
                      help=tr("allow loading a .pt from outside your runs (a .pt is a pickle and can run code)"))
    auto.add_argument("--json", action="store_true", help=tr("print the event stream as JSON lines"))
    auto.set_defaults(handler=cmd_auto)
    queue = verbs.add_parser("queue", help=tr("list the review queues, or one queue least certain first"))
    queue.add_argument("queue", nargs="?", default=None, metavar="QUEUE", help=tr("the queue to list"))
    queue.add_argument("--json", action="store_true", help=tr("print it as JSON"))
    queue.set_defaults(handler=cmd_queue)
    accept = verbs.add_parser("accept", help=tr("write a queue's accepted images and labels into a dataset"))
    accept.add_argument("queue", metavar="QUEUE", help=tr("the review queue"))
    accept.add_argument("--into", required=True, metavar="DATA.yaml", help=tr("the dataset to add them to"))
    accept.add_argument("--split", default="train", help=tr("the split to add them to (default: train)"))
    accept.add_argument("--conf", type=float, default=None,
                        help=tr("accept the model's unreviewed boxes from this confidence (default: the queue's)"))
    accept.add_argument("--json", action="store_true", help=tr("print the result as JSON"))
    accept.set_defaults(handler=cmd_accept)


class LabelRenderer(EventRenderer):
    """The auto-label job in a terminal: one progress line, warnings, and how it ended."""

    def __init__(self) -> None:
        super().__init__(False)
        self.line = ProgressLine(self.out)
        self.last: dict[str, Any] = {}

    def note(self, text: str) -> None:
        self.line.say(text)

    def event(self, ev: dict[str, Any]) -> None:
        ev = shown_event(ev)
        kind = ev.get("type")
        if kind == "label_progress":
            self.last = ev
            self.line.show(tr("Labelling {index}/{count}: {image} ({n} proposed)", index=ev.get("index"),
                              count=ev.get("count"), image=ev.get("image"), n=ev.get("proposed", 0)))
        elif kind == "warning":
            self.line.say(tr("warning: {message}", message=ev.get("message", "")))
        elif kind == "error":
            self.line.say(tr("error: {message}", message=ev.get("message", "")))
            if ev.get("hint"):
                self.line.say("  → " + str(ev["hint"]))

    def finish(self, outcome: JobOutcome) -> None:
        self.line.clear()
        super().finish(outcome)


def cmd_auto(args: argparse.Namespace, workspace: Path | None) -> int:
    assert workspace is not None
    renderer: EventRenderer = JsonEvents() if args.json else LabelRenderer()
    try:
        run_dir = find_run(workspace, args.run)
    except FileNotFoundError as exc:
        renderer.error(str(exc), tr("List the runs with 'yolostudio runs'."))
        return EXIT_USAGE
    door = AutoLabelDoor(run_dir, Path(args.images), workspace, name=args.name, conf=args.conf,
                         trust_weights=args.trust_weights, model=Path(args.model) if args.model else None)
    for problem in door.preflight():
        (renderer.error if problem.is_error else renderer.warning)(problem.message, problem.hint)
    if not door.ok:
        return EXIT_USAGE
    assert door.plan is not None
    renderer.note(tr_n("Queue {name}: {n} image to predict with {weights}",
                       "Queue {name}: {n} images to predict with {weights}", door.to_predict,
                       name=door.queue_name, weights=door.weights))
    outcome = render_job(renderer, door, forward_stdin=args.json)
    if not args.json and outcome.status in ("completed", "stopped"):
        queue = open_queue(workspace, door.queue_name)
        renderer.note(summary(queue))
        if outcome.status == "stopped":
            renderer.note(tr_n("Stopped; the same command predicts the {n} image left.",
                               "Stopped; the same command predicts the {n} images left.", len(queue.pending())))
        else:
            renderer.note(tr("Review it: yolostudio label queue {name} (or the Label page); then "
                             "yolostudio label accept {name} --into DATA.yaml", name=queue.name))
    return exit_code_of(outcome)


def summary(queue: Queue) -> str:
    counts = queue.counts()
    return tr("{name}: {review} to review, {reviewed} reviewed, {added} added, {rejected} rejected, "
              "{unreadable} unreadable, {pending} not predicted yet", name=queue.name,
              review=counts[TO_REVIEW], reviewed=counts[REVIEWED], added=counts[ADDED],
              rejected=counts[IMAGE_REJECTED], unreadable=counts[UNREADABLE], pending=counts[PENDING])


def queue_document(queue: Queue) -> dict[str, Any]:
    header = queue.header
    return {"name": queue.name, "path": str(queue.folder.path), "run": header.run, "weights": header.weights,
            "images_dir": header.images_dir, "threshold": header.threshold, "counts": queue.counts(),
            "images": [item.to_dict() for item in queue.ordered()]}


def queue_table(queue: Queue) -> str:
    threshold = queue.header.threshold
    rows = [(tr("image"), tr("state"), tr("boxes"), tr("uncertainty"), tr("why"))]
    items = queue.ordered()
    for item in items[:SHOWN_IMAGES]:
        kept = sum(goes_in(b, threshold) for b in item.boxes)
        rows.append((shown(item.id), item.state, str(kept), f"{item.uncertainty:.2f}", shown(item.reason_text)))
    widths = [max(cells(r[i]) for r in rows) for i in range(4)]
    lines = [summary(queue)] + ["  ".join(pad(c, w) for c, w in zip(r, widths)) + "  " + r[4] for r in rows]
    if len(items) > SHOWN_IMAGES:
        lines.append(tr("… and {n} more (--json lists them all).", n=len(items) - SHOWN_IMAGES))
    return "\n".join(lines)


def cmd_queue(args: argparse.Namespace, workspace: Path | None) -> int:
    assert workspace is not None
    out = Output(args.json)
    if args.queue is None:
        queues = list_queues(workspace)
        text = "\n".join(summary(q) for q in queues) or tr(
            "No review queues yet. Start one with: yolostudio label auto RUN --images DIR")
        out.result([{k: v for k, v in queue_document(q).items() if k != "images"} for q in queues], text)
        return EXIT_OK
    try:
        queue = open_queue(workspace, args.queue)
    except QueueError as exc:
        out.error(exc.message, exc.hint)
        return EXIT_USAGE
    out.result(queue_document(queue), lambda: queue_table(queue))
    return EXIT_OK


def cmd_accept(args: argparse.Namespace, workspace: Path | None) -> int:
    assert workspace is not None
    out = Output(args.json)
    if args.conf is not None and not 0.0 < args.conf <= 1.0:
        out.error(tr("--conf {value} is not a confidence.", value=args.conf),
                  tr("Give a value above 0 and at most 1 (0.25 is yolov5's default)."))
        return EXIT_USAGE
    data = Path(args.into).expanduser()
    if not data.is_file():
        out.error(tr("{path} does not exist.", path=data))
        return EXIT_USAGE
    try:
        queue = open_queue(workspace, args.queue)
        report = accept_into(queue, data, split=args.split, threshold=args.conf,
                             check_cache=app_cache_dir(workspace) / "dataset-check")
    except (QueueError, AcceptRefused) as exc:
        out.error(exc.message, exc.hint)  # type: ignore[union-attr]
        return EXIT_USAGE
    except OSError as exc:
        out.error(tr("Could not write into the dataset: {reason}", reason=exc))
        return EXIT_FAILED

    def text() -> str:
        lines = [tr_n("Added {n} image to {split} of {data}.", "Added {n} images to {split} of {data}.",
                      len(report.added), split=report.split, data=report.dataset)]
        lines += [tr("  skipped {id}: {why}", id=shown(i), why=shown(why)) for i, why in report.skipped]
        lines += [f"  {shown(f.where)}: {shown(f.message)}" for f in report.findings]
        return "\n".join(lines)

    out.result(report.to_dict(), text)
    return EXIT_FAILED if any(f.severity == "error" for f in report.findings) else EXIT_OK


def run(args: argparse.Namespace, workspace: Path | None) -> int:
    return int(args.handler(args, workspace))


register(Verb("label", tr("auto-label new images with a run's model, review the proposals, accept them into a "
                          "dataset"), add_arguments, run, order=87))
