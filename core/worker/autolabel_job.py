"""The auto-label job: a run's weights propose boxes for each image of a review queue, into the queue only.

The predictor is the "Try it" job's (``core.worker.predict_job``: the same loading, letterbox, NMS and
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
from core.worker.predict_job import load_predictor, predict_image, unreadable_message

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
    predictor = load_predictor(model, header.imgsz)
    append(folder.proposals, {"kind": "model", "names": {str(k): v for k, v in predictor.names.items()},
                              "weights": str(model), "backend": predictor.backend, "t": time.time()})
    ctx.emit("stage", stage="predicting", detail=predictor.backend, backend=predictor.backend,
             imgsz=predictor.imgsz, images=len(todo))
    for image_id in todo:
        if ctx.stop_requested:
            return "stopped"
        path = header.path_of(image_id)
        found = predict_image(predictor, path, header.keep_floor, IOU)
        if isinstance(found, str):
            append(folder.proposals, {"kind": "image", "id": image_id, "unreadable": found})
            ctx.emit("warning", code="unreadable-image", image=str(path), reason=found,
                     message=unreadable_message(path, found))
        else:
            append(folder.proposals, {"kind": "image", "id": image_id, "width": found["width"],
                                      "height": found["height"], "boxes": found["boxes"]})
            ctx.done_fields["images"] += 1
        done += 1
        proposed = 0 if isinstance(found, str) else sum(b[4] >= header.threshold for b in found["boxes"])
        ctx.emit("label_progress", index=done, count=total, image=image_id, proposed=int(proposed))
    return "stopped" if ctx.stop_requested else "completed"
