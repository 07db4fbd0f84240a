"""``yolostudio predict``'s job: a model on a source's frames, one at a time, outputs written as it goes.

The model is loaded by "Try it"'s loader (``predict_job.load_runner``: the ``.pt`` and every export through one
function) and each frame is predicted by the same ``predict_item``, so a box here is the box "Try it" shows.
One ``predictions`` event per image or frame (``image``, ``frame``, ``boxes`` in original pixels,
``inference_ms``); a file of a folder OpenCV cannot read is a ``warning`` and the others go on. A camera or a
stream runs until it ends or the job is stopped.
"""

from __future__ import annotations

import time
from pathlib import Path

from core.i18n import tr
from core.predict.records import record
from core.predict.source import Source, classify
from core.worker.export_verify import prepare_array
from core.worker.job import JobContext
from core.worker.predict_frames import Skipped, frames
from core.worker.predict_job import input_shape, load_runner, predict_item
from core.worker.predict_output import Outputs


def run_source(ctx: JobContext) -> str:
    spec = ctx.spec
    source = Source(spec["source_kind"], spec["source"]) if spec.get("source_kind") else classify(spec["source"])
    model = Path(spec["model"])
    run, names, stride, backend = load_runner(model)
    batch, imgsz = input_shape(model, int(spec.get("imgsz", 640)))
    conf, iou = float(spec.get("conf", 0.25)), float(spec.get("iou", 0.45))
    out = Path(spec["out"])
    ctx.emit("stage", stage="predicting", detail=backend, backend=backend, imgsz=imgsz, source=source.value,
             source_kind=source.kind, out=str(out), names=names)
    ctx.done_fields.update(frames=0, skipped=0, out=str(out))
    outputs = Outputs(out, names, save_images=bool(spec.get("save_images", True)),
                      save_labels=bool(spec.get("save_labels", True)))
    started = time.perf_counter()
    try:
        for item in frames(source):
            if ctx.stop_requested:
                return "stopped"
            if isinstance(item, Skipped):
                ctx.emit("warning", code="unreadable-image", image=item.source, reason=item.reason,
                         message=tr("{path}: not an image this app can read", path=item.source))
                ctx.done_fields["skipped"] += 1
                continue
            prepared = prepare_array(item.image, Path(item.source), imgsz, stride)
            boxes, ms = predict_item(run, prepared, batch, conf, iou)
            height, width = item.image.shape[:2]
            event = {"image": item.source, "frame": item.index, "boxes": boxes}
            outputs.write(record(event, names), item.image, boxes, video=item.video, fps=item.fps)
            ctx.done_fields["frames"] += 1
            elapsed = time.perf_counter() - started
            ctx.emit("predictions", **event, width=int(width), height=int(height), video=item.video,
                     inference_ms=ms, fps=ctx.done_fields["frames"] / elapsed if elapsed > 0 else 0.0)
    finally:
        outputs.close()
        ctx.done_fields["written"] = outputs.written[:100]
    return "stopped" if ctx.stop_requested else "completed"
