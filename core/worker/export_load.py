"""Loading a checkpoint for export: the trust rule, and a clear message for every kind of bad file.

A ``.pt`` is a pickle, so it is fully unpickled only when ``compat`` trusts it (under the workspace's
runs, or confirmed by the user); anything else fails with ``UntrustedCheckpointError``. The other bad
inputs a user meets — not a checkpoint at all, a truncated download, a checkpoint from the GitHub
yolov5 repo or from ultralytics 8 — each get their own ``ExportError`` with what to do.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.i18n import tr
from core.worker.compat import UntrustedCheckpointError
from core.worker.job import JobError


class ExportError(JobError):
    """An export step failed for a reason the user can act on."""


@dataclass
class LoadedModel:
    model: Any  # yolov5 DetectionModel, fused, eval, FP32, Detect in export mode
    names: dict[int, str]
    stride: int
    info: dict[str, Any] = field(default_factory=dict)  # epoch, yolov5 version, date from the checkpoint


def _read(path: Path) -> Any:
    import torch

    if not path.is_file():
        raise ExportError("weights", tr("{path} does not exist.", path=path), tr("Check the weights path."))
    if path.stat().st_size == 0:
        raise ExportError("weights", tr("{path} is empty.", path=path), tr("Export a complete checkpoint."))
    if not zipfile.is_zipfile(path):
        raise ExportError("weights", tr("{path} is not a PyTorch checkpoint (or it is truncated).", path=path),
                          tr("Pick a best.pt or last.pt written by yolov5 training; if it was copied or "
                             "downloaded, copy it again."))
    try:
        return torch.load(path, map_location="cpu")
    except UntrustedCheckpointError:
        raise
    except ModuleNotFoundError as exc:
        raise ExportError("weights", tr("{path} was made by a different yolov5/ultralytics version: it needs the "
                                        "Python module '{module}', which this app does not have.", path=path,
                                        module=exc.name or "?"),
                          tr("Export it with the tool that trained it, or fine-tune a model here from it.")) from exc
    except AttributeError as exc:  # the module exists, the class doesn't: another version's layout
        raise ExportError("weights", tr("{path} was made by a different yolov5/ultralytics version: {reason}.",
                                        path=path, reason=str(exc).splitlines()[0][:200]),
                          tr("Export it with the tool that trained it, or fine-tune a model here from it.")) from exc
    except (RuntimeError, EOFError, OSError, zipfile.BadZipFile) as exc:
        if isinstance(exc, OSError) and exc.errno == 28:
            raise
        raise ExportError("weights", tr("{path} could not be read: it looks truncated or corrupt ({reason}).",
                                        path=path, reason=str(exc).splitlines()[0][:200]),
                          tr("Copy the file again, or use the run's other checkpoint (best.pt / last.pt).")) from exc


def load_for_export(path: Path) -> LoadedModel:
    """The checkpoint's model ready to export: FP32, fused, eval, Detect returning its single tensor."""
    ckpt = _read(path)
    if not isinstance(ckpt, dict) or not (ckpt.get("ema") or ckpt.get("model")):
        raise ExportError("weights", tr("{path} is a PyTorch file but not a yolov5 checkpoint (no model inside).",
                                        path=path), tr("Pick a best.pt or last.pt written by yolov5 training."))
    model = ckpt.get("ema") or ckpt["model"]
    module = type(model).__module__
    # GitHub-yolov5 checkpoints pickle "models.yolo.DetectionModel" (yolov5 pip puts its folder on sys.path
    # for them): the same classes under another module name, so compare by name, not identity.
    if not (type(model).__name__ in ("DetectionModel", "Model") and module.endswith("models.yolo")):
        maker = "ultralytics 8" if module.startswith("ultralytics") else module
        raise ExportError("weights", tr("{path} holds a {kind} model from {maker}, not a yolov5 7 detection "
                                        "model.", path=path, kind=type(model).__name__, maker=maker),
                          tr("Export it with the tool that trained it (for ultralytics 8: 'yolo export')."))
    model = model.float().fuse().eval()
    head = model.model[-1]
    if type(head).__name__ != "Detect":
        raise ExportError("weights", tr("{path} is not a detection model (its head is {head}).", path=path,
                                        head=type(head).__name__), tr("Only yolov5 detection models export here."))
    for m in model.modules():
        if type(m).__name__ == "Detect":
            m.inplace = False
            m.export = True
    names = model.names if isinstance(model.names, dict) else dict(enumerate(model.names))
    stride = int(max(model.stride)) if hasattr(model, "stride") else 32
    info = {"epoch": ckpt.get("epoch"), "yolov5": ckpt.get("yolov5pip_version"), "date": ckpt.get("date"),
            "partial": bool(ckpt.get("yolostudio_partial"))}
    return LoadedModel(model=model, names={int(k): str(v) for k, v in names.items()}, stride=stride, info=info)
