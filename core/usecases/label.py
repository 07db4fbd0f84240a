"""The auto-label door: a run's best weights propose boxes for a folder of new images, into a review queue.

Both faces start it here (``yolostudio label auto``, the Label page), so the guards are the same: the run has a
whole ``best.pt`` (it predicts, or an export of it the user names: ONNX, TorchScript, TensorRT), the images folder holds images, the queue's name is a folder name and the queue is not a
different run's or being filled right now, the threshold is a confidence — and trust from provenance
(``grants.check_weights``: the run's own checkpoint is this workspace's, recorded when its worker wrote it; a run
folder copied from elsewhere needs the user's word, ``--trust-weights``). ``check`` reads files (the images
folder is searched): a GUI calls ``preflight`` off its thread. ``build`` writes the queue's header (new, or
extended with the folder's new images) and the scratch spec; the worker predicts only what has no proposals yet,
so the same door resumes a stopped or killed auto-label.
"""

from __future__ import annotations

from pathlib import Path

from core.export.plan import run_imgsz
from core.i18n import tr
from core.job.jobs import JobSpec
from core.kernel_lock import KernelLock, LockBusy
from core.labelling.plan import QueuePlan, plan_queue, write_plan
from core.labelling.store import QueueError, fold_queue
from core.run.folder import RunFolder
from core.usecases.door import Door, Problem
from core.usecases.grants import Grants, check_weights, record_grants

#: What the predictor runs (``core.worker.predict_job._runner``): the checkpoint or an export of it.
MODEL_SUFFIXES = (".pt", ".onnx", ".torchscript", ".engine")
#: yolov5 detect.py's ``--conf-thres`` default: the threshold a box is proposed at unless ``--conf`` says.
DEFAULT_CONF = 0.25


class AutoLabelDoor(Door):
    """``run_dir``'s best weights on ``images_dir`` into queue ``name`` (default ``<run>-<folder>``)."""

    kind = "autolabel"

    def __init__(self, run_dir: Path, images_dir: Path, workspace: Path, *, name: str | None = None,
                 conf: float = DEFAULT_CONF, trust_weights: bool = False, model: Path | None = None) -> None:
        super().__init__()
        self.run_dir, self.images_dir, self.workspace = Path(run_dir), Path(images_dir), Path(workspace)
        self.model = None if model is None else Path(model).expanduser()  # an export of the run, instead of best.pt
        self.name, self.conf, self.trust_weights = name, conf, trust_weights
        self.grants = Grants()
        self.plan: QueuePlan | None = None
        self.weights: Path | None = None
        self.to_predict = 0  # images without proposals yet, once checked (new ones and a stopped start's rest)

    def check(self) -> list[Problem]:
        if not 0.0 < self.conf <= 1.0:
            return [Problem(tr("--conf {value} is not a confidence.", value=self.conf),
                            tr("Give a value above 0 and at most 1 (0.25 is yolov5's default)."))]
        best = RunFolder(self.run_dir).best_weights()
        if best is None:
            return [Problem(tr("Run {name} has no best.pt to label with.", name=self.run_dir.name),
                            tr("Train it first (or let it finish an epoch), or choose another run."))]
        weights = best if self.model is None else self.model
        if not weights.is_file() or weights.suffix not in MODEL_SUFFIXES:
            return [Problem(tr("{path} is not a model file this app can run (.pt, .onnx, .torchscript or .engine).",
                               path=weights), tr("Give --model the run's best.pt or one of its exports."))]
        self.weights = weights
        self.plan = plan = plan_queue(self.workspace, self.run_dir, weights, self.images_dir, name=self.name,
                                      threshold=self.conf, imgsz=run_imgsz(best))
        found = [Problem(message, hint) for message, hint in plan.problems]
        if found:
            return found
        try:
            known = set(fold_queue(plan.folder).pending()) if plan.folder.exists() else set()
        except QueueError as exc:
            return [Problem(exc.message, exc.hint)]
        self.to_predict = len(known) + plan.new_images
        check_weights(weights, self.workspace, self.grants, granted=self.trust_weights)
        if self.grants.problems:
            return self.grants.problems
        if plan.folder.exists():  # a queue being filled now (a new one is nobody's yet: nothing made before build)
            try:
                with KernelLock(plan.folder.lock):
                    pass
            except LockBusy as busy:
                return [Problem(tr("Queue '{name}' is being filled by another auto-label (pid {pid}).",
                                   name=plan.folder.name, pid=busy.owner.pid), tr("Wait for it to end, or stop it."))]
        return []

    @property
    def queue_name(self) -> str:
        return self.plan.folder.name if self.plan is not None else (self.name or "")

    def build(self) -> JobSpec:
        assert self.plan is not None and self.weights is not None
        record_grants(self.workspace, self.grants.weights)
        write_plan(self.plan)
        spec = {"job": "autolabel", "workspace": str(self.workspace), "queue": str(self.plan.folder.path),
                "model": str(self.weights.resolve()), "trusted_weights": list(self.grants.weights)}
        return JobSpec.scratch(self.kind, spec, self.workspace)
