"""``yolostudio predict RUN|MODEL SOURCE``: a model on images, a folder, a glob, a video, a camera or a stream.

MODEL is a ``.pt`` or any export (``.onnx``, ``.torchscript``, ``.engine``, an OpenVINO folder); RUN is a run's
best weights. SOURCE is checked here (``core.predict.source``) before the worker starts; the worker
(``core/worker/predict_stream.py``) reads one frame at a time and writes annotated images or videos, YOLO labels,
``detections.jsonl`` and ``detections.csv`` into ``--out`` (default: a new ``predict`` folder under the run or the
workspace). ``--json`` prints one JSON object per image or frame (``source``, ``frame``, ``detections``: class,
name, confidence, box in pixels). Exit codes: 0 done, 1 failed, 2 usage error (a source that does not exist or
does not open, a camera index with no camera), 3 stopped.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from cli.common import EXIT_USAGE, exit_code_of, model_and_run
from cli.jobs import render_job
from cli.render import EventRenderer
from cli.registry import Verb, register
from core.export.plan import run_imgsz
from core.i18n import tr
from core.job.jobs import JobOutcome
from core.predict.plan import CONF_DEFAULT, IOU_DEFAULT, build_source_spec, default_out
from core.predict.records import record
from core.predict.slicing import OVERLAP_DEFAULT, SLICE_DEFAULT, slice_cost_words, slice_problem
from core.predict.source import SourceError, check, classify
from core.usecases.predict import PredictSourceDoor
from core.weights.choice import WeightsNotHere, resolve_named


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", metavar="RUN|MODEL", help=tr("a run (its best weights), a .pt or an exported model "
                                                         "(.onnx, .torchscript, .engine, OpenVINO)"))
    p.add_argument("source", metavar="SOURCE", help=tr("an image, a folder, a glob, a video, a camera index (0) or "
                                                       "an rtsp:// / http:// stream"))
    p.add_argument("--out", default="", help=tr("output folder (default: a new predict folder under the run or "
                                                "the workspace)"))
    p.add_argument("--conf", type=float, default=CONF_DEFAULT, help=tr("confidence threshold (default: {v})",
                                                                       v=CONF_DEFAULT))
    p.add_argument("--iou", type=float, default=IOU_DEFAULT, help=tr("NMS IoU threshold (default: {v})",
                                                                     v=IOU_DEFAULT))
    p.add_argument("--imgsz", "--img", type=int, default=None, help=tr("image size (default: the run's, else 640)"))
    p.add_argument("--slice", type=int, nargs="?", const=SLICE_DEFAULT, default=0, metavar="SIZE",
                   help=tr("sliced inference for small objects: also predict SIZE-pixel tiles (default {v}) and merge "
                           "the boxes; costs one model call per tile", v=SLICE_DEFAULT))
    p.add_argument("--slice-overlap", type=float, default=OVERLAP_DEFAULT, metavar="R",
                   help=tr("how much neighbouring tiles overlap (default: {v})", v=OVERLAP_DEFAULT))
    p.add_argument("--no-save", action="store_true", help=tr("write no annotated images or videos"))
    p.add_argument("--no-labels", action="store_true", help=tr("write no YOLO label files"))
    p.add_argument("--trust-weights", action="store_true",
                   help=tr("allow loading a .pt from outside your runs (a .pt is a pickle and can run code)"))
    p.add_argument("--json", action="store_true", help=tr("print one JSON object per image or frame"))


class PredictRenderer(EventRenderer):
    """A line per image or frame (``--json``: its JSON object), then where the outputs are."""

    def __init__(self, json_mode: bool) -> None:
        super().__init__(json_mode)
        self.names: dict[int, str] = {}
        self.failure_kind = ""

    def text(self, line: str) -> None:
        """OpenCV's and yolov5's own lines are not shown: the events say what happens."""

    def event(self, ev: dict[str, Any]) -> None:
        kind = ev.get("type")
        if kind == "stage" and ev.get("stage") == "predicting":
            self.names = {int(k): str(v) for k, v in (ev.get("names") or {}).items()}
            if not self.json_mode:
                print(tr("Predicting with {backend} at {imgsz}: {source}", backend=ev.get("backend", ""),
                         imgsz=ev.get("imgsz", ""), source=ev.get("source", "")), file=self.out, flush=True)
        elif kind == "predictions":
            rec = record(ev, self.names)
            if self.json_mode:
                print(json.dumps(rec, ensure_ascii=False), file=self.out, flush=True)
            else:
                self._line(rec, ev)
        elif kind == "warning":
            self.warning(str(ev.get("message", "")))
        elif kind == "error":
            self.failure_kind = str(ev.get("kind", ""))
        elif kind == "done" and not self.json_mode and ev.get("out"):
            if ev.get("slice"):
                print(slice_cost_words(ev["slice"]), file=self.out, flush=True)
            print(tr("{n} images or frames; results in {out}", n=ev.get("frames", 0), out=ev["out"]),
                  file=self.out, flush=True)

    def _line(self, rec: dict[str, Any], ev: dict[str, Any]) -> None:
        counts: dict[str, int] = {}
        for d in rec["detections"]:
            counts[d["name"]] = counts.get(d["name"], 0) + 1
        found = ", ".join(f"{n} {name}" for name, n in counts.items()) or tr("no detections")
        where = rec["source"] + (f" #{rec['frame']}" if ev.get("video") else "")
        tiles = tr(", {n} tiles", n=ev["tiles"]) if ev.get("tiles") else ""
        print(f"{where}: {found} ({float(ev.get('inference_ms', 0)):.1f} ms{tiles})", file=self.out, flush=True)

    def finish(self, outcome: JobOutcome) -> None:
        if outcome.status == "failed":
            self.error(outcome.message, outcome.hint)


def run(args: argparse.Namespace, workspace: Path | None) -> int:
    assert workspace is not None
    renderer = PredictRenderer(args.json)
    try:
        model, run_folder = model_and_run(args.model, workspace, folders=True)
    except FileNotFoundError as missing:
        try:  # "yolov5s.pt": the weights store's copy, as train reads it
            stored = resolve_named(args.model, workspace)
        except WeightsNotHere as not_here:
            renderer.error(not_here.message, not_here.hint)
            return EXIT_USAGE
        if stored is None:
            renderer.error(str(missing))
            return EXIT_USAGE
        model, run_folder = stored, None
    for name, value in (("--conf", args.conf), ("--iou", args.iou)):
        if not 0.0 <= value <= 1.0:
            renderer.error(tr("{option} {value} is not between 0 and 1.", option=name, value=value))
            return EXIT_USAGE
    if args.slice and slice_problem(args.slice, args.slice_overlap):
        renderer.error(slice_problem(args.slice, args.slice_overlap))
        return EXIT_USAGE
    try:
        source = classify(args.source)
        check(source)
    except SourceError as bad:
        renderer.error(bad.message, bad.hint)
        return EXIT_USAGE
    out = Path(args.out).expanduser() if args.out else default_out(workspace, run_folder)
    if out.exists() and any(out.iterdir()):
        renderer.error(tr("{path} is not empty: predict writes into a new folder.", path=out),
                       tr("Give another --out, or leave it out for a new one."))
        return EXIT_USAGE
    imgsz = args.imgsz or (run_imgsz(model) if model.suffix == ".pt" else 640)
    spec = build_source_spec(model, source, workspace, out, imgsz=imgsz, conf=args.conf, iou=args.iou,
                             save_images=not args.no_save, save_labels=not args.no_labels,
                             slice_size=args.slice or 0, slice_overlap=args.slice_overlap)
    door = PredictSourceDoor(spec, workspace, trust_weights=args.trust_weights)
    for problem in door.preflight():
        renderer.error(problem.message, problem.hint)
    if not door.ok:
        return EXIT_USAGE
    outcome = render_job(renderer, door, forward_stdin=args.json)
    if renderer.failure_kind == "source":
        return EXIT_USAGE
    return exit_code_of(outcome)


register(Verb("predict", tr("run a model on images, a folder, a video, a camera or a stream"), add_arguments, run,
              order=95))
