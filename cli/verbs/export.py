"""``yolostudio export WEIGHTS --format onnx|engine|torchscript|openvino ...``: export in a worker, print the proof.

Options are checked first with the same rules the Export page uses (``core.export.options``), on this
machine's facts; a refused option says why and what installs the missing piece. The export itself runs
in the worker (``core/worker/export_job.py``). ``--json`` prints one document,
``{"exports": [{"format", "path", "bytes", "verified": {...}, "latency_ms": {...}}]}``. Exit codes:
0 every export verified, 1 any export failed or is unverified, 2 usage error, 3 stopped.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from cli.common import EXIT_USAGE, existing_file, exit_code_of
from cli.jobs import render_job
from cli.registry import Verb, register
from cli.machine_option import add_machine_arguments
from cli.render import EventRenderer, Output
from core.export.facts import gather_export_facts
from core.export.options import FORMATS, OPSET_DEFAULT, ExportOptions, validate_options
from core.export.plan import cli_summary, run_dataset, run_imgsz
from core.export.render import detail_lines, headline
from core.i18n import tr
from core.job.jobs import JobOutcome
from core.usecases.export import ExportDoor
from core.weights.choice import WeightsNotHere, resolve_named

_STAGES = {"loading", "reference", "exporting", "verifying", "timing"}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("weights", help=tr("the .pt to export (a run's best.pt / last.pt, or an official name such as "
                                      "yolov5s.pt from the weights store)"))
    p.add_argument("--format", action="append", default=None, metavar="FORMAT",
                   help=tr("{formats}; repeat or separate with commas (default: onnx)", formats="|".join(FORMATS)))
    p.add_argument("--imgsz", "--img", type=int, default=None, help=tr("input size (default: the run's, else 640)"))
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--half", action="store_true", help=tr("FP16 (needs a GPU; not with --dynamic)"))
    p.add_argument("--dynamic", action="store_true", help=tr("dynamic batch and image size"))
    p.add_argument("--opset", type=int, default=OPSET_DEFAULT)
    p.add_argument("--simplify", action="store_true", help=tr("simplify the ONNX graph (needs onnxsim)"))
    p.add_argument("--int8", action="store_true", help=tr("INT8 TensorRT engine, ONNX or OpenVINO model, calibrated on "
                                                          "--data training images; ONNX and OpenVINO: FP32 and INT8 "
                                                          "mAP on val compared"))
    p.add_argument("--int8-max-drop", type=float, default=ExportOptions.int8_max_drop, metavar="MAP",
                   help=tr("INT8 is verified only when its mAP@0.5 falls by at most this much (default: {v})",
                           v=ExportOptions.int8_max_drop))
    p.add_argument("--data", default="", help=tr("dataset YAML for verification/calibration (default: the run's)"))
    p.add_argument("--device", default="", help=tr("cpu or a GPU index (default: GPU when needed)"))
    p.add_argument("--trust-weights", action="store_true",
                   help=tr("allow loading a .pt from outside your runs (a .pt is a pickle and can run code)"))
    p.add_argument("--json", action="store_true", help=tr("print the reports as one JSON document"))
    add_machine_arguments(p)  # --machine NAME, --detach: the job on another machine (cli.remote_job)


def _formats(values: list[str] | None) -> tuple[str, ...]:
    items = [f.strip().lower() for v in (values or ["onnx"]) for f in v.split(",") if f.strip()]
    return tuple(dict.fromkeys(items))


class ExportRenderer(EventRenderer):
    """Human lines as the worker reports; collects the reports for the final summary or JSON."""

    def __init__(self, json_mode: bool) -> None:
        super().__init__(json_mode)
        self.reports: list[dict[str, Any]] = []
        self.failure: dict[str, Any] | None = None

    def _line(self, text: str) -> None:
        if not self.json_mode:
            print(text, file=self.out, flush=True)

    def event(self, ev: dict[str, Any]) -> None:
        kind = ev.get("type")
        if kind == "stage" and ev.get("stage") in _STAGES:
            self._line(tr("… {detail}", detail=ev.get("detail", ev.get("stage"))))
        elif kind == "export_result":
            report = ev.get("report") or {}
            self.reports.append(report)
            level, text = headline(report)
            self._line(("✓ " if level == "ok" else "✗ ") + text)
            for line in detail_lines(report):
                self._line("    " + line)
        elif kind == "error" and not ev.get("format"):
            self.failure = {k: ev.get(k) for k in ("kind", "message", "hint")}
            self.error(str(ev.get("message", "")), str(ev.get("hint") or ""))

    def finish(self, outcome: JobOutcome) -> None:
        if outcome.synthetic:
            self.failure = outcome.error()
            self.error(outcome.message, outcome.hint)

    def document(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"exports": [cli_summary(r) for r in self.reports]}
        if self.failure:
            doc["error"] = self.failure
        return doc


def run(args: argparse.Namespace, workspace: Path | None) -> int:
    assert workspace is not None
    if args.machine or args.detach:
        if not args.machine:
            Output().error(tr("--detach needs --machine NAME."))
            return EXIT_USAGE
        from cli.remote_job import run_remote_job  # noqa: PLC0415 - only this path needs ssh

        return run_remote_job("export", args.weights, args, workspace)
    renderer = ExportRenderer(args.json)
    try:
        stored = resolve_named(args.weights, workspace)  # "yolov5s.pt": the weights store's copy, as train reads it
    except WeightsNotHere as missing:
        renderer.error(missing.message, missing.hint)
        return EXIT_USAGE
    weights = stored or existing_file(renderer, args.weights)
    if weights is None:
        return EXIT_USAGE
    options = ExportOptions(weights=str(weights.resolve()), formats=_formats(args.format),
                            imgsz=args.imgsz or run_imgsz(weights), batch=args.batch, half=args.half,
                            dynamic=args.dynamic, opset=args.opset, simplify=args.simplify, int8=args.int8,
                            int8_max_drop=args.int8_max_drop,
                            data=args.data or run_dataset(weights), device=args.device)
    door = ExportDoor(options, workspace, trust_weights=args.trust_weights)  # trust first: the door's
    for problem in door.preflight():
        renderer.error(problem.message, problem.hint)
    if not door.ok:
        return EXIT_USAGE
    checked = validate_options(options, gather_export_facts())
    for problem in checked.problems:
        renderer.error(problem.message, problem.fix)
    if not checked.ok:
        return EXIT_USAGE
    outcome = render_job(renderer, door, forward_stdin=args.json)
    if args.json:
        renderer.result(renderer.document(), "")
    return exit_code_of(outcome)


register(Verb("export", tr("export weights to ONNX, TensorRT, TorchScript or OpenVINO, verified against PyTorch"),
              add_arguments, run, order=90))
