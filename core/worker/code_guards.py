"""The worker's guards for the files yolov5 would run as code: model YAMLs and a data.yaml's ``download:``.

- ``guarded_parse_model``: yolov5's ``parse_model`` ``eval``s a model YAML's activation, module and argument
  strings (``models/yolo.py`` 299-314). Before it sees the dictionary, ``core.training.model_yaml_check`` must pass it,
  unless the job's spec says the user confirmed the model (``trusted_model``). It covers every way a model
  dictionary reaches yolov5: ``--model``, a ``--config`` file naming one, and the YAML a checkpoint carries.
- ``safe_check_dataset``: yolov5's ``check_dataset`` runs ``download:`` (``exec``, a shell line, or a URL
  fetched and unzipped; ``utils/general.py`` 516-533) whenever a val path is missing. The app never runs or
  fetches it: the key is removed and ``autodownload`` is off for every caller (train, each DDP rank, resume,
  val, export's calibration), so a missing val path is yolov5's plain "Dataset not found".

``compat.apply`` installs both (``install``), next to the other yolov5 patches.
"""

from __future__ import annotations

from typing import Any, Callable

from core.i18n import tr
from core.training.model_yaml_check import model_dict_problem

_model_trusted: list[bool] = [False]


class UntrustedModelError(RuntimeError):
    """A model YAML whose strings would reach yolov5's ``eval`` and that the user has not confirmed."""


def set_model_trusted(trusted: bool) -> None:
    """The user confirmed this job's model YAML (``--trust-model`` / the Train page's dialog)."""
    _model_trusted[0] = bool(trusted)


def guard_model_dict(d: Any) -> None:
    """Raise ``UntrustedModelError`` when ``d`` has a string ``parse_model`` must not ``eval``."""
    if _model_trusted[0]:
        return
    problem = model_dict_problem(d)
    if problem is not None:
        raise UntrustedModelError(tr("The model definition was not loaded: {reason}", reason=problem))


def guarded_parse_model(original: Callable[..., Any]) -> Callable[..., Any]:
    def parse_model(d: Any, *args: Any, **kwargs: Any) -> Any:
        guard_model_dict(d)
        return original(d, *args, **kwargs)

    parse_model._yolostudio = True  # type: ignore[attr-defined]
    parse_model._yolostudio_original = original  # type: ignore[attr-defined]
    return parse_model


def without_download(data: Any) -> Any:
    """``data`` (a data.yaml path or dictionary) as a dictionary without ``download:``; a path that is an
    archive is left to yolov5 (it unzips a local file, nothing runs)."""
    from yolov5.utils.general import yaml_load

    if not isinstance(data, dict):
        from pathlib import Path
        from zipfile import is_zipfile
        from tarfile import is_tarfile

        if Path(str(data)).is_file() and (is_zipfile(data) or is_tarfile(data)):
            return data
        data = yaml_load(data)
    if isinstance(data, dict) and data.get("download"):
        from yolov5.utils.general import LOGGER

        data = {k: v for k, v in data.items() if k != "download"}
        LOGGER.warning(tr("This data.yaml has a download: entry; YOLO Studio never runs or fetches it."))
    return data


def safe_check_dataset(original: Callable[..., Any]) -> Callable[..., Any]:
    def check_dataset(data: Any, autodownload: bool = True) -> Any:
        return original(without_download(data), autodownload=False)

    check_dataset._yolostudio = True  # type: ignore[attr-defined]
    return check_dataset


def install(trusted_model: bool) -> None:
    """Put the guards in yolov5 (idempotent): ``parse_model`` in ``models.yolo``; ``check_dataset`` is bound
    by ``compat``'s replacement table (it also rebinds the modules that imported it by name)."""
    from yolov5.models import yolo

    set_model_trusted(trusted_model)
    if not getattr(yolo.parse_model, "_yolostudio", False):
        yolo.parse_model = guarded_parse_model(yolo.parse_model)
