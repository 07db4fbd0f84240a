"""Which checkpoint files may be unpickled without asking the user: the one rule, for every front end and the worker.

A ``.pt`` file is a Python pickle: loading it fully can run any code it carries, and yolov5's checkpoints
need full unpickling (torch >= 2.6 refuses them with ``weights_only=True``). So the app unpickles without
asking only what it wrote itself — files under *this* workspace's ``runs/`` folder — and files the user
confirmed (a dialog, or ``--trust-weights``). Everything else is loaded ``weights_only`` or refused.

Paths are compared after resolving links and ``..``: a link inside ``runs/`` to a file elsewhere is that
file, and ``runs/../x.pt`` is not under ``runs/``. Another workspace's run folder is "elsewhere" too: only
this workspace's runs were written by this user's app. The CLI (train, resume, export), the Train form, the
Export page and the worker's ``torch.load`` guard all ask here, so they can never disagree.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

from core.i18n import tr
from core.workspace import runs_dir

#: What ``torch.load`` reads: the files this rule is about (a model YAML is plain text, nothing to trust).
CHECKPOINT_SUFFIXES = (".pt", ".pth")


def is_checkpoint(path: str | os.PathLike[str]) -> bool:
    return Path(path).suffix.lower() in CHECKPOINT_SUFFIXES


def _resolved(path: str | os.PathLike[str]) -> Path:
    return Path(path).expanduser().resolve()


def trusted_roots(workspace: Path, confirmed: Iterable[str | os.PathLike[str]] = ()) -> list[Path]:
    """The places a checkpoint may be unpickled from: this workspace's runs and each confirmed file."""
    return [_resolved(runs_dir(workspace)), *(_resolved(p) for p in confirmed)]


def within(path: str | os.PathLike[str], roots: Iterable[Path]) -> bool:
    """``path`` is one of ``roots`` or lies under one (links and ``..`` resolved first)."""
    candidate = _resolved(path)
    return any(candidate == root or root in candidate.parents for root in roots)


def needs_trust(path: str | os.PathLike[str], workspace: Path,
                confirmed: Iterable[str | os.PathLike[str]] = ()) -> bool:
    """True when using ``path`` would unpickle a checkpoint the user has not vouched for."""
    return is_checkpoint(path) and not within(path, trusted_roots(workspace, confirmed))


def confirmed_entry(path: str | os.PathLike[str]) -> str:
    """How a confirmed file is remembered (and written into a worker spec): its resolved path."""
    return str(_resolved(path))


def refusal(path: str | os.PathLike[str]) -> str:
    """What a front end without a dialog (the CLI) says when it refuses an unconfirmed checkpoint."""
    return tr("{path} is outside your runs. A .pt file is a pickle and can run code when loaded; if you trust "
              "it, add --trust-weights.", path=path)
