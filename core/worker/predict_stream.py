"""``yolostudio predict``'s job: a model on a source's frames, one at a time, outputs written as it goes.

The model is loaded by "Try it"'s loader (``predict_job.load_runner``: the ``.pt`` and every export through one
function) and each frame is predicted by the same ``predict_item``, so a box here is the box "Try it" shows.
One ``predictions`` event per image or frame (``image``, ``frame``, ``boxes`` in original pixels,
``inference_ms``); a file of a folder OpenCV cannot read is a ``warning`` and the others go on. A camera or a
stream runs until it ends or the job is stopped.

``slice`` (``--slice``): each frame is also predicted tile by tile and merged (``predict_slices``); the
``done`` event's ``slice`` says what it cost. ``live`` (the Predict page): the model runs at the floor
(``core.predict.boxes.FLOOR_CONF``/``FLOOR_IOU``), the outputs are those boxes filtered at the job's conf and
IoU, and instead of an event per frame the page gets a few ``preview`` events a second (``predict_preview``)
carrying the floor boxes, which its sliders filter without running the model again, and ``totals``: the boxes
written so far by class (at the job's conf and IoU).
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

from core.i18n import tr
from core.predict.boxes import FLOOR_CONF, FLOOR_IOU, nms
from core.predict.records import record
from core.predict.source import Source, classify
from core.worker.export_verify import prepare_array
from core.worker.job import JobContext
from core.worker.predict_frames import Skipped, frames
from core.worker.predict_job import input_shape, load_runner, predict_item
from core.worker.predict_output import Outputs
from core.worker.predict_preview import Preview
from core.worker.predict_slices import SliceCost, predict_sliced


def run_source(ctx: JobContext) -> str:
    spec = ctx.spec
    source = Source(spec["source_kind"], spec["source"]) if spec.get("source_kind") else classify(spec["source"])
    model = Path(spec["model"])
    run, names, stride, backend = load_runner(model)
    batch, imgsz = input_shape(model, int(spec.get("imgsz", 640)))
    conf, iou = float(spec.get("conf", 0.25)), float(spec.get("iou", 0.45))
    live = spec.get("live") or None
    run_conf, run_iou = (min(conf, FLOOR_CONF), max(iou, FLOOR_IOU)) if live else (conf, iou)
    sliced = spec.get("slice") or None
    cost = SliceCost(int(sliced["size"]), float(sliced["overlap"])) if sliced else None
    out = Path(spec["out"])
    ctx.emit("stage", stage="predicting", detail=backend, backend=backend, imgsz=imgsz, source=source.value,
             source_kind=source.kind, out=str(out), names=names, slice=sliced)
    ctx.done_fields.update(frames=0, skipped=0, out=str(out))
    outputs = Outputs(out, names, save_images=bool(spec.get("save_images", True)),
                      save_labels=bool(spec.get("save_labels", True)))
    preview = Preview(ctx, float(live.get("fps", 4.0)), int(live.get("max_side", 960))) if live else None
    totals: Counter[int] = Counter()  # boxes written, by class: the page's counts over every frame so far
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
            if cost is not None:
                found, ms = predict_sliced(run, item.image, Path(item.source), batch=batch, imgsz=imgsz,
                                           stride=stride, conf=run_conf, iou=run_iou, cost=cost)
            else:
                found, ms = predict_item(run, prepare_array(item.image, Path(item.source), imgsz, stride), batch,
                                         run_conf, run_iou)
            boxes = nms(found, iou, conf) if live else found
            height, width = item.image.shape[:2]
            event = {"image": item.source, "frame": item.index, "boxes": boxes}
            outputs.write(record(event, names), item.image, boxes, video=item.video, fps=item.fps)
            totals.update(int(b[5]) for b in boxes)
            ctx.done_fields["frames"] += 1
            elapsed = time.perf_counter() - started
            fields = {**event, "width": int(width), "height": int(height), "video": item.video, "inference_ms": ms,
                      "fps": ctx.done_fields["frames"] / elapsed if elapsed > 0 else 0.0,
                      "frames": ctx.done_fields["frames"], **(cost.last if cost is not None else {})}
            if preview is not None:
                preview.offer(item.image, {**fields, "boxes": found, "totals": dict(totals)})
            else:
                ctx.emit("predictions", **fields)
    finally:
        if preview is not None and not ctx.stop_requested:
            preview.flush()
        outputs.close()
        ctx.done_fields["written"] = outputs.written[:100]
        if cost is not None:
            ctx.done_fields["slice"] = cost.summary()
    return "stopped" if ctx.stop_requested else "completed"
