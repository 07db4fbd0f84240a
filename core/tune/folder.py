"""A search's folder, ``<workspace>/tune/NAME``: the one owner of its layout, its name and its Ray state's record.

Why one owner: the layout was spelled in the planner, the tune job and each trial; a third spelling of
``trials/<id>.hyp.yaml`` is how two of them drift. And why the record: Ray Tune's experiment folder (``ray/``:
``tuner.pkl``, ``experiment_state-*.json`` with cloudpickled trials, ``searcher-state-*.pkl``) is code —
``Tuner.restore`` unpickles it. So the tune job records each state file it leaves there with the workspace's keyed
hash (``core.run.provenance``, as for checkpoints: after the Tuner writes ``tuner.pkl``, after every step of the
search, at its end), and a resume restores only a folder whose every such file verifies (``state_problem``).
A NAME from the user is one folder name under ``tune/``: no separator, no ``..``, not absolute.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from core.i18n import tr
from core.run import provenance

#: The tuning folders live under ``<workspace>/tune``; Ray Tune's experiment (what ``--resume`` restores) in ``ray``.
TUNE_FOLDER = "tune"
EXPERIMENT = "ray"
TUNER_STATE = "tuner.pkl"  # ray/tune/impl/tuner_internal.py _TUNER_PKL (ray 2.x): pickle.loads on restore
#: The files of ``ray/`` that a restore reads as code: pickles, and Ray's JSON with cloudpickled trials inside.
STATE_SUFFIXES = (".pkl", ".json")


def tune_root(workspace: Path) -> Path:
    return Path(workspace) / TUNE_FOLDER


def name_problem(name: str) -> str | None:
    """Why ``name`` is not one folder name under ``tune/`` (None when it is)."""
    text = str(name)
    if not text.strip() or text in (".", "..") or "/" in text or "\\" in text or "\0" in text \
            or Path(text).is_absolute() or Path(text).name != text:
        return tr("{name} is not the name of a search: give the name of a folder under {root}, without a path.",
                  name=text, root=TUNE_FOLDER)
    return None


@dataclass(frozen=True)
class TuneFolder:
    """The paths of one search; ``path`` is ``<workspace>/tune/NAME``."""

    path: Path

    @classmethod
    def named(cls, workspace: Path, name: str) -> TuneFolder:
        """The search NAME of ``workspace``; ValueError (with words) for a name that is not one folder name."""
        problem = name_problem(name)
        if problem is not None:
            raise ValueError(problem)
        return cls(tune_root(workspace) / name)

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def experiment(self) -> Path:
        return self.path / EXPERIMENT

    @property
    def tuner_state(self) -> Path:
        return self.experiment / TUNER_STATE

    @property
    def trials(self) -> Path:
        return self.path / "trials"

    def trial_hyp(self, trial: str) -> Path:
        return self.trials / f"{trial}.hyp.yaml"

    @property
    def best_hyp(self) -> Path:
        return self.path / "best_hyp.yaml"

    @property
    def best_config(self) -> Path:
        return self.path / "best_config.json"

    @property
    def events(self) -> Path:
        return self.path / "events.jsonl"

    @property
    def stop_flag(self) -> Path:
        """Present while a Stop asks each running trial to save and end (``core.tune.stopping``)."""
        return self.path / "stopping"

    def can_resume(self) -> bool:
        """A search folder with Ray Tune's experiment in it (stopped or interrupted searches)."""
        return self.experiment.is_dir()

    def state_files(self) -> list[Path]:
        """The files of ``ray/`` a restore reads as code (links included: they are refused, never followed)."""
        if not self.experiment.is_dir():
            return []
        return sorted(p for p in self.experiment.iterdir()
                      if p.name != provenance.RECORD_FILE and p.suffix in STATE_SUFFIXES
                      and (p.is_file() or p.is_symlink()))

    def record_state(self, workspace: Path) -> None:
        """Record each state file that changed since its last record (the tune job: Ray wrote it, for this app)."""
        for path in self.state_files():
            if path.is_file() and not path.is_symlink() and not provenance.sealed(workspace, path):
                provenance.record_checkpoint(workspace, path)

    def state_problem(self, workspace: Path) -> str | None:
        """Why Ray's state here must not be restored (None: every file is the one this workspace's app wrote)."""
        files = self.state_files()
        if self.tuner_state not in files:
            return tr("{path} holds no search to resume.", path=self.path)
        for path in files:
            if path.is_symlink() or not provenance.verified(workspace, path):
                return tr("{path} is not the search state YOLO Studio recorded writing (copied from elsewhere, "
                          "changed since, or left by a search that was killed before it was recorded). Ray would "
                          "unpickle it, which can run code; it was not loaded. Start a new search instead.",
                          path=path)
        return None
