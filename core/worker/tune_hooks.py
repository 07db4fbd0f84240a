"""What the tuning driver hangs on Ray Tune: the trial table it reports from, and the Stop it passes on.

Ray pickles the run configuration into its experiment state (for ``Tuner.restore``), so these hooks hold no
state of their own: ``LIVE`` (this process's book and job context) is module state set by
``core/worker/tune_job.run_tune``, and a restored experiment's unpickled hooks find the new one there.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path
from typing import Any

from ray import tune

from core.i18n import tr, tr_n


class TrialBook:
    """What each trial did, as the driver saw it: the rows of the live table and of the summary."""

    def __init__(self, emit: Any, tune_name: str, runs_root: Path, epochs: int, deadline: float,
                 stop_requested: Any, tune_dir: Path | None = None) -> None:
        self.emit, self.tune_name, self.runs_root, self.epochs = emit, tune_name, runs_root, epochs
        self.tune_dir = tune_dir  # where the stop flag goes (core.tune.stopping)
        self.deadline, self.stop_requested = deadline, stop_requested
        self.rows: dict[str, dict[str, Any]] = {}
        self.interrupted = False  # the Stop has been passed to Ray Tune (StopOnRequest)

    def row(self, trial: Any) -> dict[str, Any]:
        from core.worker.tune_trial import trial_run_name

        if trial.trial_id not in self.rows:
            run = self.runs_root / trial_run_name(self.tune_name, trial.trial_id)
            self.rows[trial.trial_id] = {"trial": trial.trial_id, "run": str(run), "state": "pending",
                                         "fitness": None, "epochs": 0, "config": _plain(trial.config),
                                         "metrics": {}, "reason": ""}
        return self.rows[trial.trial_id]

    def update(self, trial: Any, **fields: Any) -> None:
        row = self.row(trial)
        row.update(fields)
        self.emit("trial", **{k: v for k, v in row.items() if k != "metrics"})

    def let_running_trials_save(self) -> None:
        """Before Ray's interrupt ends the actors: each running trial's worker stops and saves ``last.pt``
        (``core.tune.stopping``: the search's stop flag, then a bounded wait for their runs' ``done``)."""
        from core.tune.folder import TuneFolder
        from core.tune.stopping import wait_for_runs

        if self.tune_dir is None:
            return
        flag = TuneFolder(self.tune_dir).stop_flag
        flag.write_text("stop\n", encoding="utf-8")
        running = [Path(row["run"]) for row in self.rows.values() if row["state"] == "running"]
        if running:
            self.emit("stage", stage="stopping", detail=tr_n(
                "Stopping: the running trial saves its last.pt…",
                "Stopping: the {n} running trials save their last.pt…", len(running)))
            wait_for_runs(running)

    def close_unfinished(self) -> list[dict[str, Any]]:
        """The search has ended: trials still pending or running were stopped — said once more, so a live table
        shows them stopped at their last epoch (a restore resumes them)."""
        closed = []
        for row in self.rows.values():
            if row["state"] in ("pending", "running"):
                row["state"] = "stopped"
                self.emit("trial", **{k: v for k, v in row.items() if k != "metrics"})
                closed.append(row)
        return closed

    def ending_state(self, trial: Any) -> str:
        """completed (every epoch, or yolov5's own patience), stopped (a Stop or the budget), else ASHA's
        stopped_early."""
        row = self.row(trial)
        if row["epochs"] >= self.epochs or (trial.last_result or {}).get("finished"):
            return "completed"
        return "stopped" if self.stop_requested() or time.monotonic() >= self.deadline else "stopped_early"


LIVE: dict[str, Any] = {}  # "book": the TrialBook; "record": records the search state (core.tune.folder)


def _plain(config: dict[str, Any]) -> dict[str, Any]:
    return {k: (v if isinstance(v, (str, int, float, bool)) or v is None else str(v)) for k, v in config.items()}


class TrialEvents(tune.Callback):
    """One ``trial`` event per start, epoch and ending (docs/protocol.md)."""

    def on_trial_start(self, iteration: int, trials: list, trial: Any, **info: Any) -> None:
        LIVE["book"].update(trial, state="running")

    def on_trial_result(self, iteration: int, trials: list, trial: Any, result: dict, **info: Any) -> None:
        book = LIVE["book"]
        best = max(float(result["fitness"]), book.row(trial)["fitness"] or float("-inf"))
        book.update(trial, state="running", fitness=best, epochs=int(result["epoch"]),
                    metrics=result.get("metrics", {}), run=str(result.get("run") or book.row(trial)["run"]))

    def on_trial_complete(self, iteration: int, trials: list, trial: Any, **info: Any) -> None:
        LIVE["book"].update(trial, state=LIVE["book"].ending_state(trial))

    def on_trial_error(self, iteration: int, trials: list, trial: Any, **info: Any) -> None:
        LIVE["book"].update(trial, state="failed", reason=error_words(trial))

    def on_step_end(self, iteration: int, trials: list, **info: Any) -> None:
        """After each step's experiment checkpoint (``TuneController.step`` saves it first): record what changed,
        so a search killed later still resumes from state the app can prove it wrote."""
        if "record" in LIVE:
            LIVE["record"]()


class StopOnRequest(tune.Stopper):
    """The user's Stop interrupts the search as Ctrl+C does, so it can be resumed (``Tuner.restore``).

    ``stop_all`` returning True would mark every trial finished (``TuneController._stop_experiment_if_needed``
    terminates them and ends the searcher), and a restore would not run them again. Ray Tune's own SIGINT
    handler (``tune.py``'s ``_setup_signal_catching``, installed by ``fit`` in the main thread, where this is
    called) instead saves the experiment with its unfinished trials unfinished; ending the run then ends each
    trial's actor, whose ``cleanup`` has its worker save ``last.pt``."""

    def __call__(self, trial_id: str, result: dict) -> bool:
        return False

    def stop_all(self) -> bool:
        book = LIVE["book"]
        if book.stop_requested() and not book.interrupted:
            book.interrupted = True
            book.let_running_trials_save()
            signal.raise_signal(signal.SIGINT)
        return False


def error_words(trial: Any) -> str:
    """The trial's own reason: the last line of Ray's record of the exception the trial raised."""
    try:
        text = Path(trial.error_file).read_text(encoding="utf-8", errors="replace") if trial.error_file else ""
    except OSError:
        text = ""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    reason = lines[-1] if lines else tr("the trial failed")
    return reason.split("RuntimeError: ", 1)[-1]
