"""``yolostudio export WEIGHTS --format onnx|engine|torchscript ...``: export in a worker, print the proof.

Options are checked first with the same rules the Export page uses (``core.export.options``), on this
machine's facts; a refused option says why and what installs the missing piece. The export itself runs
in the worker (``core/worker/export_job.py``). ``--json`` prints one document,
``{"exports": [{"format", "path", "bytes", "verified": {...}, "latency_ms": {...}}]}``. Exit codes:
0 every export verified, 1 any export failed or is unverified, 2 usage error, 3 stopped.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import IO, Any

from core.export.facts import gather_export_facts
from core.export.options import FORMATS, OPSET_DEFAULT, ExportOptions, validate_options
from core.export.plan import build_export_spec, cli_summary, run_dataset, run_imgsz
from core.export.render import detail_lines, headline
from core.i18n import tr
from core.launch import worker_argv
from core.workspace import app_cache_dir, runs_dir

EXIT_USAGE = 2
_STAGES = {"loading", "reference", "exporting", "verifying", "timing"}


def register(sub: Any) -> None:
    p = sub.add_parser("export", help=tr("export weights to ONNX, TensorRT or TorchScript, verified against PyTorch"))
    p.add_argument("weights", help=tr("the .pt to export (a run's best.pt / last.pt)"))
    p.add_argument("--format", action="append", default=None, metavar="FORMAT",
                   help=tr("{formats}; repeat or separate with commas (default: onnx)", formats="|".join(FORMATS)))
    p.add_argument("--imgsz", "--img", type=int, default=None, help=tr("input size (default: the run's, else 640)"))
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--half", action="store_true", help=tr("FP16 (needs a GPU; not with --dynamic)"))
    p.add_argument("--dynamic", action="store_true", help=tr("dynamic batch and image size"))
    p.add_argument("--opset", type=int, default=OPSET_DEFAULT)
    p.add_argument("--simplify", action="store_true", help=tr("simplify the ONNX graph (needs onnxsim)"))
    p.add_argument("--int8", action="store_true", help=tr("INT8 TensorRT engine, calibrated on --data images"))
    p.add_argument("--data", default="", help=tr("dataset YAML for verification/calibration (default: the run's)"))
    p.add_argument("--device", default="", help=tr("cpu or a GPU index (default: GPU when needed)"))
    p.add_argument("--trust-weights", action="store_true",
                   help=tr("allow loading a .pt from outside your runs (a .pt is a pickle and can run code)"))
    p.add_argument("--json", action="store_true", help=tr("print the reports as one JSON document"))
    p.set_defaults(handler=cmd_export)


def _formats(values: list[str] | None) -> tuple[str, ...]:
    items = [f.strip().lower() for v in (values or ["onnx"]) for f in v.split(",") if f.strip()]
    return tuple(dict.fromkeys(items))


class ExportRenderer:
    """Human lines as the worker reports; collects the reports for the final summary or JSON."""

    def __init__(self, out: IO[str], json_mode: bool) -> None:
        self.out = out
        self.json_mode = json_mode
        self.reports: list[dict[str, Any]] = []
        self.error: dict[str, Any] | None = None

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
            self.error = {k: ev.get(k) for k in ("kind", "message", "hint")}
            print(tr("error: {message}", message=ev.get("message", "")), file=sys.stderr)
            if ev.get("hint"):
                print("  → " + str(ev["hint"]), file=sys.stderr)

    def text(self, line: str) -> None:
        print(line, file=sys.stderr)

    def note(self, text: str) -> None:
        print(text, file=sys.stderr)

    def died(self, code: int | None) -> None:
        self.error = {"kind": "worker_died", "message": tr("The export worker ended without a final event "
                                                           "(exit code {code}).", code=code), "hint": ""}
        print(tr("error: {message}", message=self.error["message"]), file=sys.stderr)

    def document(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"exports": [cli_summary(r) for r in self.reports]}
        if self.error:
            doc["error"] = self.error
        return doc


def cmd_export(args: argparse.Namespace, workspace: Path) -> int:
    from core.cli import WorkerSession  # the CLI's worker runner (Ctrl+C = stop); imported late: no cycle

    weights = Path(args.weights).expanduser()
    if not weights.is_file():
        print(tr("error: {path} does not exist.", path=weights), file=sys.stderr)
        return EXIT_USAGE
    trusted = runs_dir(workspace).resolve() in weights.resolve().parents
    if not trusted and not args.trust_weights:
        print(tr("error: {path} is outside your runs. A .pt file is a pickle and can run code when loaded; "
                 "if you trust it, add --trust-weights.", path=weights), file=sys.stderr)
        return EXIT_USAGE
    options = ExportOptions(weights=str(weights.resolve()), formats=_formats(args.format),
                            imgsz=args.imgsz or run_imgsz(weights), batch=args.batch, half=args.half,
                            dynamic=args.dynamic, opset=args.opset, simplify=args.simplify, int8=args.int8,
                            data=args.data or run_dataset(weights), device=args.device)
    checked = validate_options(options, gather_export_facts())
    for problem in checked.problems:
        print(tr("error: {message}", message=problem.message) + (f"\n  → {problem.hint}" if problem.hint else ""),
              file=sys.stderr)
    if not checked.ok:
        return EXIT_USAGE
    spec = build_export_spec(options, workspace, trusted=not trusted)
    folder = app_cache_dir(workspace) / "jobs"
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", suffix=".json", prefix="export-", dir=folder, delete=False,
                                     encoding="utf-8") as handle:
        json.dump(spec, handle, indent=2)
    spec_file = Path(handle.name)
    renderer = ExportRenderer(sys.stdout, args.json)
    try:
        code = WorkerSession(worker_argv("export", spec_file), renderer).run()
    finally:
        spec_file.unlink(missing_ok=True)
    if args.json:
        print(json.dumps(renderer.document(), indent=2, ensure_ascii=False))
    return code
