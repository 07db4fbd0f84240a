"""``yolostudio weights list|get|import|remove``: the pretrained-weights store from a terminal.

``list`` shows the official YOLOv5 v7.0 checkpoints (size, accuracy, what each is for) and whether each
is on this machine, plus anything imported. ``get NAME…`` downloads from the official release — typing it
*is* the question the GUI asks: it is the app's only network use — in the ``weights_get`` worker job
(progress, speed and ETA on stderr; Ctrl+C cancels and a later ``get`` resumes). ``import FILE`` asks
whether you trust the file (a .pt is a pickle; ``--yes`` for scripts), then checks and records it.
``remove NAME…`` deletes. ``--json`` prints one document. Exit codes: 0 done, 1 failed, 2 usage, 3 stopped.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from cli.common import EXIT_FAILED, EXIT_OK, EXIT_USAGE, ask_yes, existing_file, exit_code_of
from cli.jobs import render_job
from cli.registry import Verb, register
from cli.progress_line import ProgressLine
from cli.render import EventRenderer, Output
from core.i18n import tr
from core.job.jobs import JobOutcome
from core.usecases.jobs import WeightsGetDoor, WeightsImportDoor
from core.weights.catalog import OFFICIAL_BASE, catalog_names, find_checkpoint
from core.weights.store import WeightsStore
from core.weights.words import progress_text, row_state_text, size_of, weights_rows


def add_arguments(weights: argparse.ArgumentParser) -> None:
    verbs = weights.add_subparsers(dest="weights_verb", metavar="ACTION", required=True)
    listing = verbs.add_parser("list", help=tr("the official checkpoints and what is on this machine"))
    listing.set_defaults(handler=cmd_list)
    get = verbs.add_parser("get", help=tr("download official checkpoints (the app's only network use)"))
    get.add_argument("names", nargs="+", metavar="NAME", help=tr("yolov5n … yolov5x6 (see: weights list)"))
    get.add_argument("--timeout", type=float, default=30.0, help=tr("seconds without data before a retry"))
    get.set_defaults(handler=cmd_get)
    imported = verbs.add_parser("import", help=tr("add a .pt you have (asks whether you trust it)"))
    imported.add_argument("file", help=tr("the checkpoint file"))
    imported.add_argument("--name", default="", help=tr("its name in the store (default: the file's name)"))
    imported.add_argument("--yes", action="store_true", help=tr("trust the file without asking"))
    imported.set_defaults(handler=cmd_import)
    remove = verbs.add_parser("remove", help=tr("delete checkpoints from the store"))
    remove.add_argument("names", nargs="+", metavar="NAME")
    remove.set_defaults(handler=cmd_remove)
    for parser in (listing, get, imported, remove):
        parser.add_argument("--json", action="store_true", help=tr("print the result as one JSON document"))


def run(args: argparse.Namespace, workspace: Path | None) -> int:
    assert workspace is not None
    return int(args.handler(args, workspace))


# -- list -------------------------------------------------------------------------------------------
def cmd_list(args: argparse.Namespace, workspace: Path) -> int:
    out = Output(args.json)
    store = WeightsStore(workspace)
    rows = weights_rows(store)
    if store.manifest_problem:
        out.warning(store.manifest_problem, tr("Its files are not trusted until they are got or imported again."))
    out.result({"store": str(store.root), "weights": rows}, lambda: _table(rows, store))
    return EXIT_OK


def _table(rows: list[dict[str, Any]], store: WeightsStore) -> str:
    lines = [tr("{name:<10} {size:>8} {map:>7} {params:>8}  {state}", name=tr("NAME"), size=tr("SIZE"),
                map=tr("mAP"), params=tr("PARAMS"), state=tr("STATE"))]
    for row in rows:
        mark = "✓" if row["state"] == "ok" else ("!" if row["state"] in ("changed", "unlisted") else " ")
        map_text = f"{row['map50_95']:.1f}" if row.get("map50_95") is not None else "—"
        params = f"{row['params_m']:.1f} M" if row.get("params_m") is not None else "—"
        state = f"{mark} {row_state_text(row)}"
        lines.append(f"{row['name']:<10} {size_of(row):>8} {map_text:>7} {params:>8}  {state}")
        lines.append(f"{'':<10} {row['purpose']}")
    lines.append("")
    lines.append(tr("mAP: COCO val2017 mAP@0.5:0.95, from the YOLOv5 v7.0 README. Store: {path}", path=store.root))
    lines.append(tr("Get one with: yolostudio weights get yolov5s   (downloads from {base})", base=OFFICIAL_BASE))
    return "\n".join(lines)


# -- get / import: worker jobs --------------------------------------------------------------------------
class WeightsRenderer(EventRenderer):
    """Progress on stderr (one rewritten line on a terminal, a line every 10 % elsewhere); the job's words."""

    def __init__(self, json_mode: bool, *, tty: bool | None = None) -> None:
        super().__init__(json_mode)
        self.line = ProgressLine(self.err, tty=tty)
        self.step = -1
        self.failure: dict[str, Any] | None = None

    def _say(self, text: str) -> None:
        self.end_line()
        print(text, file=self.err, flush=True)

    def end_line(self) -> None:
        self.line.keep()

    def text(self, line: str) -> None:
        pass  # library output from the worker: not for this view

    def event(self, ev: dict[str, Any]) -> None:
        kind = ev.get("type")
        if kind == "download":
            line = tr("{name}: {progress}", name=ev.get("name"), progress=progress_text(
                int(ev.get("received") or 0), ev.get("total"), ev.get("speed_bps"), ev.get("eta_s")))
            total = ev.get("total") or 0
            if self.line.tty:
                self.line.show(line)
            elif total and (step := int(10 * int(ev.get("received") or 0) / total)) > self.step:
                self.step = step
                print(line, file=self.err, flush=True)
        elif kind == "stage" and ev.get("stage") in ("downloading", "copying", "verifying"):
            words = {"downloading": tr("Downloading {detail}"), "copying": tr("Copying {detail}"),
                     "verifying": tr("Checking {detail} (loading it as a YOLOv5 checkpoint)")}[str(ev["stage"])]
            self._say(words.format(detail=ev.get("detail", "")))
        elif kind == "log":
            self._say(str(ev.get("message", "")))
        elif kind == "error":
            self.end_line()
            self.failure = {k: ev.get(k) for k in ("kind", "message", "hint")}
            self.error(str(ev.get("message", "")), str(ev.get("hint") or ""))

    def finish(self, outcome: JobOutcome) -> None:
        self.end_line()
        if outcome.synthetic:
            self.failure = outcome.error()
            self.error(outcome.message, outcome.hint)


def _run_weights_job(job: str, spec: dict[str, Any], workspace: Path, renderer: WeightsRenderer) -> JobOutcome:
    """A weights job through its door; an import reaches here only after the user's yes (the grant)."""
    door = WeightsGetDoor(spec, workspace) if job == "weights_get" else WeightsImportDoor(spec, workspace,
                                                                                          granted=True)
    return render_job(renderer, door)


def _result(outcome: JobOutcome) -> dict[str, Any]:
    done = outcome.done or {}
    fields = ("name", "path", "sha256", "size", "facts", "already", "resumed_from")
    return {"status": outcome.status, **{k: done[k] for k in fields if k in done}}


def cmd_get(args: argparse.Namespace, workspace: Path) -> int:
    out = Output(args.json)
    unknown = [name for name in args.names if find_checkpoint(name) is None]
    if unknown:
        out.error(tr("Not an official YOLOv5 v7.0 checkpoint: {names}.", names=", ".join(unknown)),
                  tr("Choose from: {names}", names=", ".join(catalog_names())))
        return EXIT_USAGE
    results, code = [], EXIT_OK
    for name in args.names:
        checkpoint = find_checkpoint(name)
        assert checkpoint is not None
        renderer = WeightsRenderer(args.json)
        outcome = _run_weights_job("weights_get", {"name": checkpoint.name, "timeout_s": args.timeout},
                                   workspace, renderer)
        results.append({**_result(outcome), "name": checkpoint.file_name,
                        **({"error": renderer.failure} if renderer.failure else {})})
        if outcome.status == "completed":
            done = outcome.done or {}
            renderer.note(tr("{name} is already on this machine: {path}", name=checkpoint.file_name,
                             path=done.get("path")) if done.get("already") else
                          tr("✓ {name} stored: {path}", name=checkpoint.file_name, path=done.get("path")))
            continue
        code = exit_code_of(outcome)
        if outcome.status == "stopped":
            renderer.note(tr("Cancelled. yolostudio weights get {name} resumes where it stopped.",
                             name=checkpoint.name))
        break
    if args.json:
        out.result({"weights": results}, "")
    return code


def cmd_import(args: argparse.Namespace, workspace: Path) -> int:
    out = Output(args.json)
    source = existing_file(out, args.file)
    if source is None:
        return EXIT_USAGE
    answer = ask_yes(tr("{path} is a pickle: loading it can run code it carries. Trust it and add it to the "
                        "weights store? [y/N] ", path=source), yes=args.yes)
    if answer is None:
        out.error(tr("Not imported: nobody can be asked here."), tr("Add --yes to trust {path}.", path=source))
        return EXIT_USAGE
    if not answer:
        out.note(tr("Not imported."))
        return EXIT_FAILED
    renderer = WeightsRenderer(args.json)
    outcome = _run_weights_job("weights_import", {"source": str(source.resolve()), "name": args.name or source.name},
                               workspace, renderer)
    result = {**_result(outcome), **({"error": renderer.failure} if renderer.failure else {})}
    if outcome.status == "completed":
        renderer.note(tr("✓ {name} imported: {path}", name=result.get("name"), path=result.get("path")))
    if args.json:
        out.result(result, "")
    return exit_code_of(outcome)


# -- remove -----------------------------------------------------------------------------------------
def cmd_remove(args: argparse.Namespace, workspace: Path) -> int:
    out = Output(args.json)
    store = WeightsStore(workspace)
    removed, missing = [], []
    for name in args.names:
        checkpoint = find_checkpoint(name)
        file_name = checkpoint.file_name if checkpoint else (name if name.endswith(".pt") else f"{name}.pt")
        (removed if store.remove(file_name) else missing).append(file_name)
    for name in missing:
        out.error(tr("{name} is not in the weights store.", name=name), tr("See: yolostudio weights list"))
    out.result({"removed": removed, "missing": missing},
               lambda: "\n".join(tr("Removed {name}.", name=name) for name in removed))
    return EXIT_FAILED if missing else EXIT_OK


register(Verb("weights", tr("pretrained checkpoints: list, get (download on request), import, remove"),
              add_arguments, run, order=85))
