"""Which checkpoint files may be unpickled without asking the user: the one rule, for every front end and the worker.

A ``.pt`` file is a Python pickle: loading it fully can run any code it carries, and yolov5's checkpoints
need full unpickling (torch >= 2.6 refuses them with ``weights_only=True``). So the app unpickles without
asking only what it wrote itself — files under *this* workspace's ``runs/`` folder whose keyed hash its
worker recorded when it wrote them (``core.run.provenance``: a run folder copied in from elsewhere, or one from
before this record existed, is foreign until the user confirms it once) — and files the user
confirmed (a dialog, or ``--trust-weights``) — and the checkpoints in the workspace's weights store
(``core.weights.store``: fetched from the official release or imported after the user confirmed) *while
their bytes still hash to the SHA-256 the store's manifest recorded when they came in*. Everything else is
loaded ``weights_only`` or refused.

Asking (``needs_trust``, the GUI while the user types) checks a stored file cheaply: listed, with its
recorded size. Loading (``stored_verdict``, the worker's ``torch.load`` guard) hashes it: a file changed on
disk after it came in is refused there, with words that say so (``store_refusal``).

Paths are compared after resolving links and ``..``: a link inside ``runs/`` to a file elsewhere is that
file, and ``runs/../x.pt`` is not under ``runs/``. Another workspace's run folder is "elsewhere" too: only
this workspace's runs were written by this user's app. The CLI (train, resume, export), the Train form, the
Export page and the worker's ``torch.load`` guard all ask here, so they can never disagree.

A model YAML is code too (yolov5's ``parse_model`` ``eval``s its strings): one packaged with yolov5 passes, any
other passes ``core.training.model_yaml_check``'s strict check of every string that would reach ``eval``, or needs the
user's confirmation (``--trust-model``, the Train page's dialog) — ``model_needs_trust``. The worker applies
the same check to what ``parse_model`` receives unless the spec carries that confirmation.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Iterable

from core.i18n import tr
from core.model_catalog import yolov5_package_dir
from core.training.model_yaml_check import model_yaml_problem
from core.run.provenance import has_record, key_made_after_record, key_path, sealed
from core.weights.store import WeightsStore
from core.workspace import runs_dir

#: What ``torch.load`` reads: pickles, code when fully unpickled.
CHECKPOINT_SUFFIXES = (".pt", ".pth")
#: What yolov5's ``Model`` reads as a model definition: code through ``parse_model``'s ``eval``.
MODEL_YAML_SUFFIXES = (".yaml", ".yml")


def is_checkpoint(path: str | os.PathLike[str]) -> bool:
    return Path(path).suffix.lower() in CHECKPOINT_SUFFIXES


def _resolved(path: str | os.PathLike[str]) -> Path:
    return Path(path).expanduser().resolve()


def trusted_roots(workspace: Path, confirmed: Iterable[str | os.PathLike[str]] = ()) -> list[Path]:
    """The places a checkpoint may be unpickled from: this workspace's runs — where the worker also asks
    ``core.run.provenance`` that its own worker wrote the file — and each confirmed file or folder."""
    return [_resolved(runs_dir(workspace)), *(_resolved(p) for p in confirmed)]


def within(path: str | os.PathLike[str], roots: Iterable[Path]) -> bool:
    """``path`` is one of ``roots`` or lies under one (links and ``..`` resolved first)."""
    candidate = _resolved(path)
    return any(candidate == root or root in candidate.parents for root in roots)


def needs_trust(path: str | os.PathLike[str], workspace: Path,
                confirmed: Iterable[str | os.PathLike[str]] = ()) -> bool:
    """True when using ``path`` would unpickle a checkpoint the user has not vouched for: not confirmed, not
    in the weights store, and not one this workspace's worker recorded writing (``core.run.provenance.sealed``)."""
    if not is_checkpoint(path) or within(path, [_resolved(p) for p in confirmed]):
        return False
    if in_runs(path, workspace):
        return not sealed(workspace, _resolved(path))
    return not _listed_in_store(path, workspace)


def in_runs(path: str | os.PathLike[str], workspace: Path) -> bool:
    """Under this workspace's ``runs/`` (links and ``..`` resolved): where the app's own checkpoints live."""
    return within(path, [_resolved(runs_dir(workspace))])


def _listed_in_store(path: str | os.PathLike[str], workspace: Path) -> bool:
    store = WeightsStore(workspace)
    name = store.contains(path)
    return name is not None and store.state(name) == "ok"


_verified: dict[tuple[str, int, int, int, int], bool] = {}


def stored_verdict(path: str | os.PathLike[str], workspace: Path) -> bool | None:
    """For a checkpoint in the workspace's weights store: True when its bytes hash to the manifest's
    SHA-256, False when they don't (changed on disk, or not recorded); None for a file outside the store.

    The verdict is kept per (file, size, mtime, ctime, inode) for the life of the process: a worker that loads
    the same file twice reads it once."""
    store = WeightsStore(workspace)
    name = store.contains(path)
    if name is None:
        return None
    target = store.path(name)
    try:
        stat = target.stat()
    except OSError:
        return False
    key = (str(target), stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino)
    if key not in _verified:
        _verified[key] = store.verify(name)
    return _verified[key]


def store_refusal(path: str | os.PathLike[str]) -> str:
    """Why a stored checkpoint is refused: it is not what came in."""
    name = Path(path).stem
    return tr("{path} is not the file that was stored: its SHA-256 differs from the one recorded when it was "
              "downloaded or imported (changed on disk?). Remove it (yolostudio weights remove {name}), then get "
              "or import it again.", path=path, name=name)


def confirmed_entry(path: str | os.PathLike[str]) -> str:
    """How a confirmed file is remembered (and written into a worker spec): its resolved path."""
    return str(_resolved(path))


def refusal(path: str | os.PathLike[str], workspace: Path | None = None) -> str:
    """What a front end without a dialog (the CLI) says when it refuses an unconfirmed checkpoint."""
    if workspace is not None and in_runs(path, workspace):
        return foreign_refusal(path, workspace)
    return tr("{path} is outside your runs. A .pt file is a pickle and can run code when loaded; if you trust "
              "it, add --trust-weights.", path=path)


def foreign_refusal(path: str | os.PathLike[str], workspace: Path | None = None) -> str:
    """A checkpoint under ``runs/`` that this workspace's worker did not record writing (or that changed); when
    the workspace's key is newer than the run's record, the words say a new key was made and what it means."""
    renewed = key_made_after_record(workspace, Path(path)) if workspace is not None else None
    if renewed is not None:
        return tr("{path} was recorded with an earlier secret key of this workspace: {key} was made anew on {when} "
                  "(the earlier one was deleted), so every checkpoint recorded before then — this one too — counts "
                  "as foreign until you trust it again. A .pt file is a pickle and can run code when loaded; if "
                  "this is your own run, add --trust-weights (asked once: it is recorded with the new key then).",
                  path=path, key=key_path(workspace), when=time.strftime("%Y-%m-%d %H:%M", time.localtime(renewed)))
    if has_record(Path(path)):
        return tr("{path} is in your runs, but it is not the file YOLO Studio recorded writing there (copied from "
                  "another workspace, or changed since). A .pt file is a pickle and can run code when loaded; if "
                  "you trust it, add --trust-weights.", path=path)
    return tr("{path} is in your runs, but YOLO Studio has no record of writing it: the run was copied in from "
              "elsewhere, or made before this version recorded its checkpoints. A .pt file is a pickle and can "
              "run code when loaded; if you trust it, add --trust-weights (asked once: the file is recorded "
              "then).", path=path)


def is_model_yaml(path: str | os.PathLike[str]) -> bool:
    return Path(path).suffix.lower() in MODEL_YAML_SUFFIXES


def packaged_model(path: str | os.PathLike[str]) -> bool:
    """One of the model YAMLs the installed yolov5 package ships (its ``models/`` folder)."""
    package = yolov5_package_dir()
    return package is not None and within(path, [_resolved(package / "models")])


def model_problem(path: str | os.PathLike[str]) -> str | None:
    """Why the model YAML at ``path`` could run code in yolov5 (None: packaged, or it passes the strict check)."""
    if not is_model_yaml(path) or packaged_model(path):
        return None
    return model_yaml_problem(path)


def model_needs_trust(path: str | os.PathLike[str], confirmed: Iterable[str | os.PathLike[str]] = ()) -> bool:
    """True when training from the model YAML at ``path`` would let yolov5 ``eval`` what the user has not
    vouched for (``confirmed``: the resolved paths the user confirmed)."""
    if _resolved(path) in {_resolved(p) for p in confirmed}:
        return False
    return model_problem(path) is not None


def model_refusal(path: str | os.PathLike[str]) -> str:
    """What the CLI says when it refuses a model YAML that would reach yolov5's ``eval``."""
    return tr("{path}: {reason} A model YAML is code to yolov5; if you trust this file, add --trust-model.",
              path=path, reason=model_problem(path) or "")
