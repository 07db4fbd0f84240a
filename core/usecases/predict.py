"""``yolostudio predict``'s door: the "Try it" job (``PredictDoor``) on a source, with the checkpoint's trust.

A ``.pt`` is unpickled by the worker, so this door decides its trust (``core.usecases.grants``): outside this
workspace's runs and store it needs the user's grant (``--trust-weights``); a changed weights-store file is
refused. An export (ONNX, TorchScript, TensorRT, OpenVINO) runs no pickled code and passes. ``preflight`` may
hash the file (a page calls it in the background).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.job.jobs import JobSpec
from core.usecases.door import Problem
from core.usecases.grants import Grants, check_weights, record_grants
from core.usecases.jobs import PredictDoor


class PredictSourceDoor(PredictDoor):
    """A model on an image, folder, glob, video, camera or stream (``core.predict.plan.build_source_spec``)."""

    def __init__(self, spec: dict[str, Any], workspace: Path, *, trust_weights: bool = False) -> None:
        super().__init__(spec, workspace)
        self.trust_weights = trust_weights
        self.grants = Grants()

    def check(self) -> list[Problem]:
        check_weights(self.worker_spec.get("model"), self.workspace, self.grants, granted=self.trust_weights)
        return self.grants.problems

    def build(self) -> JobSpec:
        record_grants(self.workspace, self.grants.weights)
        if self.grants.weights:
            self.worker_spec = {**self.worker_spec, "trusted_weights": [str(self.worker_spec["model"])]}
        return super().build()
