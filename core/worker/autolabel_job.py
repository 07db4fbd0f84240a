"""The auto-label job: a run's weights propose boxes for each image of a review queue, into the queue only.

The predictor is the "Try it" job's (``core.worker.predict_job.load_runner``/``predict_item``: the same loading, letterbox, NMS and
mapping back to the original pixels). Each image's proposals are appended to the queue as one whole line
(``core.labelling.store``) before the next image starts, so a stop, a kill or a crash loses at most the image
being predicted; a new start reads the queue and predicts only the images without a line. The queue's
``worker.lock`` is held for the job's life (``core.kernel_lock``): two predictors never fill one queue.

Events: ``stage: predicting`` (``backend``, ``imgsz``, ``images`` still to predict), one ``label_progress``
per image (``index``: images of the queue predicted so far, ``count``: its images, ``image``: the id,
``proposed``: its boxes at the queue's threshold), a ``warning`` ``unreadable-image`` for an image OpenCV
cannot read (recorded in the queue as unreadable, not retried), then ``done`` (``images``: predicted by this
start, ``queue``).
"""

from __future__ import annotations

import time
from pathlib import Path

from core.i18n import tr
from core.kernel_lock import KernelLock, LockBusy
from core.labelling.store import QueueFolder, append, fold_queue
from core.worker.job import JobContext, JobError
from core.worker.export_verify import prepare_images
from core.worker.predict_job import (input_shape, load_runner, predict_item, unreadable_message,
                                     unreadable_reason)

#: Non-maximum suppression's IoU, yolov5 detect.py's default (``--iou-thres 0.45``).
IOU = 0.45


def run_autolabel(ctx: JobContext) -> str:
    spec = ctx.spec
    folder = QueueFolder(Path(spec["queue"]))
    ctx.done_fields.update(images=0, queue=folder.name)
    try:
        with KernelLock(folder.lock):
            return _fill(ctx, folder, Path(spec["model"]))
    except LockBusy as busy:
        raise JobError("config", tr("Queue '{name}' is being filled by another auto-label (pid {pid}).",
                                    name=folder.name, pid=busy.owner.pid),
                       tr("Wait for it to end, or stop it.")) from None


def _fill(ctx: JobContext, folder: QueueFolder, model: Path) -> str:
    queue = fold_queue(folder)
    header = queue.header
    todo = queue.pending()
    total = len(header.images)
    done = total - len(todo)
    run, names, stride, backend = load_runner(model)
    batch, imgsz = input_shape(model, header.imgsz)
    append(folder.proposals, {"kind": "model", "names": {str(k): v for k, v in names.items()},
                              "weights": str(model), "backend": backend, "t": time.time()})
    ctx.emit("stage", stage="predicting", detail=backend, backend=backend, imgsz=imgsz, images=len(todo))
    for image_id in todo:
        if ctx.stop_requested:
            return "stopped"
        path = header.path_of(image_id)
        prepared = prepare_images([path], imgsz, stride)
        proposed = 0
        if not prepared:
            reason = unreadable_reason(path)
            append(folder.proposals, {"kind": "image", "id": image_id, "unreadable": reason})
            ctx.emit("warning", code="unreadable-image", image=str(path), reason=reason,
                     message=unreadable_message(path, reason))
        else:
            boxes, _ = predict_item(run, prepared[0], batch, header.keep_floor, IOU)
            height, width = prepared[0].original.shape[:2]
            append(folder.proposals, {"kind": "image", "id": image_id, "width": int(width), "height": int(height),
                                      "boxes": boxes})
            ctx.done_fields["images"] += 1
            proposed = sum(b[4] >= header.threshold for b in boxes)
        done += 1
        ctx.emit("label_progress", index=done, count=total, image=image_id, proposed=int(proposed))
    return "stopped" if ctx.stop_requested else "completed"
