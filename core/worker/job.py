"""What a worker job is given, and how a failure becomes words: the contract between a job and the entry.

A job is a plain function ``run(ctx: JobContext) -> status`` (``completed``, ``stopped`` or ``failed``).
It reports through ``ctx.emit`` and checks ``ctx.stop_requested``; it raises on failure. Everything
around it belongs to the worker entry (``core/worker/__main__.py``): the ``stage: starting`` and
``hello`` events, the control channel (stdin and ``control.jsonl``), turning an exception into an
``error`` event, and the final ``done`` event — with the fields the job put in ``ctx.done_fields``.

``JobError`` is a failure the job can name (kind, message, hint); any other exception is classified by
``core.training.errors.classify_failure``.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from core.training.errors import classify_failure
from core.i18n import tr
from core.job.protocol import EventWriter
from core.worker.control import ControlChannel


class JobError(RuntimeError):
    """A job step failed for a reason the user can act on."""

    def __init__(self, kind: str, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.hint = hint


def failure_of(exc: BaseException) -> tuple[str, str, str]:
    """(kind, message, hint) of an exception raised inside a job."""
    if isinstance(exc, JobError):
        return exc.kind, exc.message, exc.hint
    if type(exc).__name__ == "UntrustedCheckpointError":  # compat's trust refusal (no torch import here)
        return "untrusted", str(exc), tr("Pick weights from your runs, or confirm that you trust this file "
                                       "(--trust-weights).")
    if type(exc).__name__ == "UntrustedModelError":  # code_guards' refusal of a model YAML's strings
        return "model", str(exc), tr("Use a model YAML packaged with yolov5 (yolov5s.yaml …), or confirm that you "
                                     "trust this file (--trust-model).")
    failure = classify_failure(type(exc).__name__, str(exc))
    if failure.kind == "internal" and raised_reading_data(exc):
        return "dataset", failure.message, tr(
            "The dataset could not be read: a file it names is missing, damaged or not what yolov5 expects. Run "
            "'yolostudio dataset check' on the data.yaml (or open it on the Dataset page) to find it.")
    return failure.kind, failure.message, failure.hint


#: Where yolov5 (and what it calls) reads a dataset: a failure raised there is about the data, not a bug.
_DATA_READERS = ("yolov5/utils/dataloaders.py", "yolov5/utils/augmentations.py", "/PIL/", "/yaml/", "/cv2/")
_DATA_FUNCTIONS = {"check_dataset", "create_dataloader", "img2label_paths", "verify_image_label", "load_image",
                   "cache_labels", "check_det_dataset"}


def raised_reading_data(exc: BaseException) -> bool:
    """Did ``exc`` come from reading the dataset (its traceback passes through a data reader)?"""
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        filename = code.co_filename.replace("\\", "/")
        if code.co_name in _DATA_FUNCTIONS or any(part in filename for part in _DATA_READERS):
            return True
        tb = tb.tb_next
    return False


@dataclass
class JobContext:
    job: str
    spec: dict[str, Any]
    writer: EventWriter
    control: ControlChannel
    hello: dict[str, Any] | None = None  # the ``hello`` event the entry emitted (None for a job without one)
    done_fields: dict[str, Any] = field(default_factory=dict)  # extra fields of the final ``done`` event
    stack_loader: Callable[[], dict[str, Any]] | None = None  # the entry's: compat patches, then ``hello``

    def prepare_stack(self) -> dict[str, Any] | None:
        """yolov5's offline/trust patches and the ``hello`` event, once. The entry calls it before a job
        with ``stack=True``; a job that needs torch only after other work (``weights_get``: the download
        first, then the load check) calls it when it gets there."""
        if self.hello is None and self.stack_loader is not None:
            self.hello = self.stack_loader()
        return self.hello

    @property
    def workspace(self) -> Path:
        return Path(self.spec.get("workspace") or ".")

    @property
    def run_dir(self) -> Path | None:
        return Path(self.spec["run_dir"]) if self.spec.get("run_dir") else None

    @property
    def stop_requested(self) -> bool:
        return self.control.stop_requested.is_set()

    def emit(self, event_type: str, **fields: Any) -> dict[str, Any]:
        return self.writer.emit(event_type, **fields)

    def report_error(self, exc: BaseException, **extra: Any) -> dict[str, str]:
        """Emit the ``error`` event for ``exc`` (with its traceback); returns its ``{kind, message, hint}``.

        The entry calls this for the exception that ends a job; a job calls it for a failure it survives
        (an export format that failed while the others go on, with ``format=``)."""
        kind, message, hint = failure_of(exc)
        self.emit("error", kind=kind, message=message, hint=hint, exception=type(exc).__name__,
                  traceback="".join(traceback.format_exception(type(exc), exc, exc.__traceback__)), **extra)
        return {"kind": kind, "message": message, "hint": hint}
