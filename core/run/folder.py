"""``RunFolder(path)``: the one owner of a run folder's layout, and of the answers that depend only on it.

A run is ``<workspace>/runs/<name>/``: yolov5's own output (``weights/last.pt``, ``weights/best.pt``,
``opt.yaml``, ``results.csv``, plots) beside the app's files (``config.json``, ``spec.json``,
``events.jsonl``, ``control.jsonl``, ``worker.log``, ``exports/``, and ``wizard.json`` for a run started with
the wizard's recommendation), ``evaluations/`` for evaluations to come and ``deployment-report*.html``. Every
other module asks this value where a file is instead of spelling the path, so the layout is written once.

Paths recorded *inside* the folder (a ``checkpoint`` event's ``path``, a ``done`` event's ``best``) name
the folder as it was when they were written; after a rename they point at a folder that no longer exists.
``rebase`` maps such a path onto the folder as it is now, and ``best_weights`` / ``last_weights`` answer
with the file that is really there. ``resume_problem`` is the single rule for "can this machine resume
this run", used by the CLI, the Train page and the Runs listing alike.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.atomic import atomic_write_text
from core.run.checkpoint_file import checkpoint_problem
from core.job.jobs import RUN_SPEC_FILE
from core.run.files import CONFIG_FILE, EVENTS_FILE, RESULTS_FILE

WEIGHTS_DIR = "weights"  # yolov5's train.py: ``w = save_dir / 'weights'``
LAST_WEIGHTS = "last.pt"  # yolov5's train.py: ``last, best = w / 'last.pt', w / 'best.pt'``
BEST_WEIGHTS = "best.pt"
CONTROL_FILE = "control.jsonl"
WORKER_LOG = "worker.log"
OPT_YAML = "opt.yaml"  # yolov5's train.py writes the run's options here; its --resume reads them back
EVALUATIONS_DIR = "evaluations"
EXPORTS_DIR = "exports"  # core.export.plan: what a run's weights were exported to
WIZARD_FILE = "wizard.json"  # the wizard's document a run was started with: its prediction, beside the measures
REPORT_STEM = "deployment-report"  # core.report: the deployment report, one page per language
#: Config fields the wizard's prediction depends on: another value in the run's config means it is not this run's.
PREDICTED_FIELDS = ("imgsz", "batch", "workers", "cache", "model", "device", "data")
#: The statuses from which a run may be resumed (``core.runs.status.RUN_STATUSES``' stopped and failed).
RESUMABLE_STATUSES = ("stopped", "failed")


@dataclass(frozen=True)
class RunFolder:
    """A run folder's layout. Cheap to make (no I/O); each question reads only what it needs."""

    path: Path

    def __post_init__(self) -> None:
        object.__setattr__(self, "path", Path(self.path))

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def config(self) -> Path:
        return self.path / CONFIG_FILE

    @property
    def spec(self) -> Path:
        return self.path / RUN_SPEC_FILE

    @property
    def events(self) -> Path:
        return self.path / EVENTS_FILE

    @property
    def control(self) -> Path:
        return self.path / CONTROL_FILE

    @property
    def worker_log(self) -> Path:
        return self.path / WORKER_LOG

    @property
    def results(self) -> Path:
        return self.path / RESULTS_FILE

    @property
    def opt_yaml(self) -> Path:
        return self.path / OPT_YAML

    @property
    def weights(self) -> Path:
        return self.path / WEIGHTS_DIR

    @property
    def last_pt(self) -> Path:
        """Where yolov5 saves (and resumes from) the latest checkpoint; it may not exist."""
        return self.weights / LAST_WEIGHTS

    @property
    def best_pt(self) -> Path:
        """Where yolov5 saves the best epoch's checkpoint; it may not exist."""
        return self.weights / BEST_WEIGHTS

    @property
    def exports(self) -> Path:
        return self.path / EXPORTS_DIR

    @property
    def evaluations(self) -> Path:
        return self.path / EVALUATIONS_DIR

    @property
    def wizard(self) -> Path:
        return self.path / WIZARD_FILE

    def deployment_report(self, language: str) -> Path:
        """The deployment report's page in ``language`` ("en": ``deployment-report.html``)."""
        return self.path / (f"{REPORT_STEM}.html" if language == "en" else f"{REPORT_STEM}.{language}.html")

    def keep_wizard(self, doc: Any, config: dict[str, Any]) -> bool:
        """Keep the wizard's document with the run when ``config`` (the run's options) still holds what the
        wizard predicted for (``PREDICTED_FIELDS``): both faces call it for every run started with one, so a
        replayed, re-attached or ``train --config`` run shows predicted against measured. True when written;
        a run trains either way, so a failed write only loses the comparison."""
        if not is_wizard_document(doc) or not predicts(doc, config):
            return False
        try:
            atomic_write_text(self.wizard, json.dumps(doc, indent=2, ensure_ascii=False) + "\n", backup=False)
        except OSError:
            return False
        return True

    def read_wizard(self) -> dict[str, Any] | None:
        """The wizard's document the run was started with, or None (not from the wizard, or unreadable)."""
        try:
            doc = json.loads(self.wizard.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return doc if is_wizard_document(doc) else None

    def rebase(self, recorded: str | Path) -> Path:
        """A path recorded in this run's files, onto the folder as it is now.

        A checkpoint yolov5 wrote lives in ``<the run folder then>/weights/``: whatever that folder was
        called, the file is now in this folder's ``weights/``. Any other path is returned unchanged."""
        recorded = Path(recorded)
        if recorded.parent.name == WEIGHTS_DIR and recorded.name:
            return self.weights / recorded.name
        return recorded

    def best_weights(self, recorded: str | Path = "") -> Path | None:
        """The run's best checkpoint that exists now: ``recorded`` (rebased) when given, else ``best.pt``."""
        return self._existing(recorded, self.best_pt)

    def last_weights(self, recorded: str | Path = "") -> Path | None:
        """The run's latest checkpoint that exists now: ``recorded`` (rebased) when given, else ``last.pt``."""
        return self._existing(recorded, self.last_pt)

    def _existing(self, recorded: str | Path, default: Path) -> Path | None:
        candidates = ([self.rebase(recorded)] if str(recorded) else []) + [default]
        return next((c for c in candidates if c.is_file()), None)

    def resume_problem(self, spec: dict[str, Any]) -> str | None:
        """Why this machine cannot resume the run from its checkpoint, in words, or None when it can.

        ``spec`` is the run's worker spec (``config.json``'s ``spec``). Only machine 0 of a several-machines
        run needs its own ``last.pt``: another machine is sent machine 0's when the ranks meet
        (``core/worker/ddp.py``, ``share_checkpoint``), so a missing file there is no problem."""
        return checkpoint_problem(self.last_pt) if machine_of(spec) == 0 else None

    def can_resume(self, status: str, spec: dict[str, Any]) -> bool:
        """Resume is offered (CLI, Train page, Runs page) for a stopped or failed run this machine can resume."""
        return status in RESUMABLE_STATUSES and self.resume_problem(spec) is None


def machine_of(spec: Any) -> int:
    """The machine number (``node_rank``) a run's spec was launched as; 0 for a one-machine run or a damaged
    value."""
    topology = spec.get("topology") if isinstance(spec, dict) else None
    rank = topology.get("node_rank") if isinstance(topology, dict) else None
    try:
        return max(0, int(rank or 0))
    except (TypeError, ValueError):
        return 0


def is_wizard_document(doc: Any) -> bool:
    """A wizard recommendation (``yolostudio wizard --save``, the wizard page's hand-over): its options and what
    it predicted, not a plain options file."""
    return isinstance(doc, dict) and isinstance(doc.get("config"), dict) and isinstance(doc.get("predicted"), dict)


def predicts(doc: dict[str, Any], config: dict[str, Any]) -> bool:
    """The wizard's prediction is about a run with ``config``: every field it depends on is the same (the
    dataset compared as the file it names)."""
    wanted = doc["config"]
    return all(str(config.get(k)) == str(wanted.get(k)) for k in PREDICTED_FIELDS if k != "data") \
        and _same_file(config.get("data"), wanted.get("data"))


def _same_file(a: Any, b: Any) -> bool:
    try:
        return Path(str(a)).expanduser().resolve() == Path(str(b)).expanduser().resolve()
    except OSError:
        return str(a) == str(b)
