"""The prepared copy a wizard recommendation trains on: said in its document, made or refreshed before training.

Why: on large photos the wizard's main remedy is a copy resized to the training size (``core.dataset.prepare``),
and its predicted speed is the copy's. A saved recommendation (``yolostudio wizard --save wizard.json``) that
only pointed ``config.data`` at the originals lost it — ``train --config`` decoded the originals every epoch
(8.5 img/s where the copy gave 1,200) — and one that pointed at an existing copy could train on stale pixels
after an image changed. So the document says which copy it asks for (``prepared_copy``: source, size,
format), and every front end that starts a run from it calls ``copy_for_training``: the up-to-date copy, or
the copy made (or refreshed: only changed images are redone, an interrupted run resumes) first, through the
one owner ``prepare_dataset``. The CLI's ``train --config`` and the Wizard page's "Train with these settings"
both go through here, so the same document starts the same run.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.dataset.prepare import (DATA_YAML, FORMATS, Cancelled, PrepareResult, Progress, default_out_dir,
                                  find_prepared, prepare_dataset)
from core.i18n import tr, tr_n
from core.workspace import app_cache_dir

#: The wizard document's key for the copy it asks for (beside ``config``; ``load_config_file`` reads only
#: ``config``, so older readers ignore it).
DOC_KEY = "prepared_copy"


@dataclass(frozen=True)
class CopyRequest:
    """A prepared copy of ``source`` at ``imgsz`` in ``fmt``, in the workspace's cache (``default_out_dir``)."""

    source: Path
    imgsz: int
    fmt: str = "jpg"

    def out_dir(self, workspace: Path) -> Path:
        return default_out_dir(app_cache_dir(workspace), self.source, self.imgsz, self.fmt)

    def data_yaml(self, workspace: Path) -> Path:
        return self.out_dir(workspace) / DATA_YAML

    def to_json(self) -> dict[str, Any]:
        return {"source": str(self.source), "imgsz": self.imgsz, "format": self.fmt}

    def concerns(self, data: str, workspace: Path) -> bool:
        """``data`` (a config's dataset) is this request's source or its copy: the request applies to it."""
        if not data:
            return True
        given = _absolute(data)
        return given in (_absolute(self.source), _absolute(self.data_yaml(workspace)))


def _absolute(path: Path | str) -> Path:
    return Path(path).expanduser().absolute()


def request_for(source: str, imgsz: int | None, fmt: str = "jpg") -> CopyRequest | None:
    """The request a recommendation makes (``Recommendation.prepare_imgsz``; None: it trains on the originals)."""
    return None if imgsz is None else CopyRequest(_absolute(source), int(imgsz), fmt)


def request_of(doc: Any, where: str | Path) -> CopyRequest | None:
    """The copy a wizard document asks for, or None. Raises ValueError naming ``where`` when the entry is not one."""
    raw = doc.get(DOC_KEY) if isinstance(doc, dict) else None
    if raw is None:
        return None
    source, imgsz, fmt = (raw.get(k) for k in ("source", "imgsz", "format")) if isinstance(raw, dict) else (None,) * 3
    if not isinstance(source, str) or not source or isinstance(imgsz, bool) or not isinstance(imgsz, int) \
            or imgsz < 32 or (fmt or "jpg") not in FORMATS:
        raise ValueError(tr("{path}: {key} = {value!r} is not a prepared copy (source, imgsz ≥ 32, format jpg or "
                            "png).", path=where, key=DOC_KEY, value=raw))
    return CopyRequest(_absolute(source), imgsz, fmt or "jpg")


def read_request(path: Path) -> CopyRequest | None:
    """The copy a saved config file asks for (``yolostudio wizard --save``), or None (a plain options file)."""
    import yaml  # safe_load reads JSON too

    try:
        raw = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ValueError(tr("Cannot read the config {path}: {reason}", path=path, reason=exc)) from exc
    return request_of(raw, path)


def current_copy(request: CopyRequest, workspace: Path) -> Path | None:
    """The copy's data.yaml when it is up to date with every source image and label, else None (quick: stats only)."""
    return find_prepared(request.source, request.imgsz, app_cache_dir(workspace), request.fmt)


def copy_for_training(request: CopyRequest, workspace: Path, *, progress: Progress | None = None,
                      cancelled: Cancelled | None = None) -> PrepareResult:
    """The up-to-date copy to train on: made, refreshed (changed images only) or resumed first when it is not.

    Raises ``PrepareError`` (the source cannot be prepared) or ``PrepareCancelled`` (finished images kept)."""
    return prepare_dataset(request.source, request.imgsz, request.out_dir(workspace), fmt=request.fmt,
                           progress=progress, cancelled=cancelled)


def copy_words(result: PrepareResult, request: CopyRequest) -> str:
    """What training on the copy means, for the terminal and the window: which copy, and what was done to it."""
    if result.up_to_date:
        state = tr("up to date")
    elif result.resumed and result.written:
        state = tr_n("{n} image resized now, {resumed} kept", "{n} images resized now, {resumed} kept",
                     result.written, resumed=result.resumed)
    else:
        state = tr_n("{n} image resized now", "{n} images resized now", result.written)
    return tr("Training on the prepared copy of {source} (images resized to {imgsz} px; {state}): {copy}",
              source=request.source, imgsz=request.imgsz, state=state, copy=result.data_yaml)
