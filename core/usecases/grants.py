"""Trust at the door: every file a job's spec names that yolov5, torch or Ray would run as code passes here.

What decides is provenance alone (``core.trust``, ``core.run.provenance``): this workspace's worker wrote it,
the weights store holds it unchanged, it is packaged with yolov5 — or the user grants it now (``--trust-weights``,
``--trust-model``, the GUI's confirm). Nothing a stored file says counts: a run's ``config.json`` may list any
``trusted_weights`` or ``trusted_model``; a door never copies those into a spec.

A grant is recorded here, by the door, not by a worker: a checkpoint under this workspace's runs that the user
confirmed gets its provenance record now (``record_grants``), so the next resume or export of that run needs
no confirmation, and a worker never turns what it was handed into "the app's own".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from core.run.provenance import record_checkpoint
from core.trust import (confirmed_entry, in_runs, is_checkpoint, model_needs_trust, model_refusal, needs_trust,
                        refusal, store_refusal, stored_verdict)
from core.usecases.door import Problem


@dataclass
class Grants:
    """What the user granted for one job (resolved paths), and what the door found refused."""

    weights: list[str] = field(default_factory=list)
    model: bool = False
    problems: list[Problem] = field(default_factory=list)
    #: What was refused that the user's grant would lift: ("weights" | "model", path) — a page asks about these.
    askable: list[tuple[str, Path]] = field(default_factory=list)


def check_weights(path: str | Path | None, workspace: Path, grants: Grants, *, granted: bool,
                  entry: str | Path | None = None) -> None:
    """A checkpoint the job will unpickle: a changed store file is refused always; one that needs trust is
    refused unless ``granted`` (then ``entry`` — the file, or its folder — joins ``grants.weights``)."""
    if path is None or not str(path):
        return
    if not Path(path).is_file() or not is_checkpoint(path):
        return  # a missing file is the job's own error; a model YAML is checked by check_model
    if stored_verdict(path, workspace) is False:
        grants.problems.append(Problem(store_refusal(path)))
        return
    if needs_trust(path, workspace):
        if not granted:
            grants.problems.append(Problem(refusal(path, workspace)))
            grants.askable.append(("weights", Path(path)))
            return
        grants.weights.append(confirmed_entry(entry if entry is not None else path))


def check_model(path: str | Path | None, grants: Grants, *, granted: bool) -> None:
    """A model YAML whose strings yolov5 would ``eval``: refused unless packaged, strict-clean, or ``granted``
    (a grant covers the job's model definition, the checkpoint's own copy of it included)."""
    if path is None or not str(path):
        return
    if granted:
        grants.model = True
    elif Path(path).is_file() and model_needs_trust(path):
        grants.problems.append(Problem(model_refusal(path)))
        grants.askable.append(("model", Path(path)))


def record_grants(workspace: Path, granted: Iterable[str | Path]) -> None:
    """Record each granted checkpoint under this workspace's runs (a file, or every checkpoint in a granted
    folder) as this workspace's own: asked once. A record that cannot be written leaves the file asked about
    again next time — never trusted silently."""
    for entry in granted:
        path = Path(entry)
        files = sorted(p for p in path.iterdir() if is_checkpoint(p) and p.is_file()) if path.is_dir() else [path]
        for file in files:
            if file.is_file() and in_runs(file, workspace):
                try:
                    record_checkpoint(workspace, file.resolve())
                except OSError:
                    pass


def adopt_fetched(workspace: Path, vouched: Iterable[Path]) -> list[Path]:
    """Record fetched checkpoints under this workspace's runs as its own when the machine they came from verified
    them with its provenance key and their bytes arrived as it hashed them (``core.remote.fetch``): the run is the
    user's, trained on a machine they added and whose host key they accepted. Any other fetched file stays foreign
    (asked about before it is unpickled). The adopted files."""
    adopted = []
    for path in vouched:
        if path.is_file() and is_checkpoint(path) and in_runs(path, workspace):
            try:
                record_checkpoint(workspace, path.resolve())
            except OSError:
                continue
            adopted.append(path)
    return adopted
