"""Evaluate a finished run from the app: a window of its own, like the Runs page's run viewer.

The flow, none of it on the GUI thread: plan (``core.evaluation.request.plan_run_evaluation``: it hashes
the weights and stats the split) in a background job; when the same inputs were evaluated before, the
stored result is shown at once; else the ``evaluate`` worker job runs on a ``JobRunner`` (progress from its
``eval_progress`` events, Cancel sends the protocol's stop) and its stored result is shown when it ends.
The result goes through the CLI's ``presented`` (store path and prescription), into ``EvaluationView``.
Any refusal or failure is said in words in the window, never as a traceback.

With ``kfold`` the window is the held-out (k-fold) evaluation of the run's train split
(``core.evaluation.kfold_request``): planned the same way, but the k short trainings are only offered — the
estimated time and its basis above a Start button — and run on Start as the ``evaluate_kfold`` job, with a
progress bar over folds and epochs and Cancel. The val window offers it ("Held-out predictions for the
training images…"), and so does its Errors browser. Every core read (the plan, the stored result, its
presentation, the evaluated images) is an operation of ``gui/evaluate/operations.py``, in the k-fold path too.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (QHBoxLayout, QInputDialog, QLabel, QMenu, QProgressBar, QPushButton, QVBoxLayout,
                               QWidget)

from core.evaluation.kfold import KFOLD_DEFAULT, estimate_text
from core.evaluation.kfold_request import KfoldPlan
from core.evaluation.request import EvaluationRefused, RunEvaluation
from core.evaluation.words import is_held_out
from core.i18n import language, tr_n
from core.job.jobs import JobOutcome
from core.report.gather import Choice, ReportError
from gui import dialogs
from gui.background import BackgroundTask
from gui.evaluate import operations
from gui.evaluate.errors_browser import ErrorsBrowser
from gui.evaluate.view import EvaluationView
from gui.job_runner import JobRunner, Launcher, default_launcher
from gui.widgets.banner import Banner
from gui.screen_fit import fit_to_screen

if TYPE_CHECKING:  # the doors arrive from gui/evaluate/operations.py, planned off the GUI thread
    from core.usecases.door import Problem
    from core.usecases.evaluate import EvaluateDoor, KfoldDoor


class EvaluateWindow(QWidget):
    """Evaluates ``run_dir``'s best weights on its val split (``kfold`` 0), or offers and runs held-out
    predictions for its train split (``kfold`` folds), and shows the result."""

    def __init__(self, run_dir: Path, workspace: Path, parent: QWidget | None = None, *,
                 launcher: Launcher = default_launcher, kfold: int = 0) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.run_dir, self.workspace, self.kfold, self.launcher = Path(run_dir), Path(workspace), kfold, launcher
        self.planned: RunEvaluation | KfoldPlan | None = None
        self.door: EvaluateDoor | KfoldDoor | None = None  # the job's door (core.usecases), from the planning op
        self.view: EvaluationView | None = None
        self.held_out_window: EvaluateWindow | None = None
        self.errors_browser: ErrorsBrowser | None = None  # the last one opened
        self.setWindowTitle((self.tr("Held-out predictions for run {name} — YOLO Studio") if kfold else
                             self.tr("Evaluate run {name} — YOLO Studio")).format(name=self.run_dir.name))
        self.status = QLabel(self.tr("Reading the weights and the dataset of run {name}…").format(
            name=self.run_dir.name), self, wordWrap=True)
        self.progress = QProgressBar(self, minimum=0, maximum=0)  # busy until the worker counts batches
        self.start_button = QPushButton(self.tr("Start the {k} trainings").format(k=kfold), self,
                                        clicked=self.start_kfold)
        self.start_button.hide()
        self.cancel_button = QPushButton(self.tr("Cancel"), self, clicked=self.cancel)
        self.errors_button = QPushButton(self.tr("Browse the errors…"), self, clicked=self.browse_errors)
        self.errors_button.hide()
        self.held_out_button = QPushButton(self.tr("Held-out predictions for the training images…"), self,
                                           clicked=self.open_held_out)
        self.held_out_button.setToolTip(self.tr(
            "The run's own predictions on its training images are biased. {k} short trainings, each on the other "
            "folds, predict the images they did not learn; the time it takes is said before it starts.").format(
            k=KFOLD_DEFAULT))
        self.held_out_button.hide()
        self.report_button = QPushButton(self.tr("Deployment report"), self)
        self.report_button.setToolTip(self.tr(
            "One printable page a QA engineer can sign: the model, its dataset, the operating confidence, "
            "precision and recall per class with their intervals, false alarms, latency and INT8's cost."))
        menu = QMenu(self.report_button)
        menu.addAction(self.tr("At the best-F1 confidence"), lambda: self.write_report(Choice()))
        menu.addAction(self.tr("At a target recall…"), self.report_at_recall)
        menu.addAction(self.tr("At a false-alarm limit…"), self.report_at_false_alarms)
        self.report_button.setMenu(menu)
        self.report_button.hide()
        self.report_path: Path | None = None  # the last report written
        self.banner = Banner(self)
        row = QHBoxLayout()
        row.addWidget(self.progress, 1)
        row.addWidget(self.start_button)
        row.addWidget(self.cancel_button)
        row.addWidget(self.errors_button)
        row.addWidget(self.held_out_button)
        row.addWidget(self.report_button)
        self.layout_ = QVBoxLayout(self)
        self.layout_.addWidget(self.status)
        self.layout_.addLayout(row)
        self.layout_.addWidget(self.banner)
        self.layout_.addStretch(1)
        self.runner = JobRunner(self, launcher=launcher)
        self.runner.event.connect(self._on_event)
        self.runner.ended.connect(self._on_ended)
        fit_to_screen(self, 1100, 760)
        planning = (operations.plan_held_out(self, self.run_dir, self.workspace, kfold) if kfold else
                    operations.plan_evaluation(self, self.run_dir, self.workspace))
        self._planning: BackgroundTask | None = planning.success(self._on_planned) \
            .failure(self._on_plan_failed).run()

    # -- state --------------------------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        return self._planning is not None or self.runner.active

    def cancel(self) -> None:
        """Cancel planning (nothing started) or ask the worker to stop (it answers with ``done: stopped``)."""
        if self._planning is not None:
            self._planning.cancel()
            self._planning = None
            self._stopped(self.tr("Cancelled before the evaluation started."))
        elif isinstance(self.planned, KfoldPlan) and not self.start_button.isHidden():
            self._stopped(self.tr("Cancelled: nothing was trained."))
        elif self.runner.active:
            self.runner.stop()
            self.cancel_button.setEnabled(False)
            self.status.setText(self.tr("Stopping the evaluation…"))

    # -- planning -----------------------------------------------------------------------------------
    def _on_planned(self, door: EvaluateDoor | KfoldDoor) -> None:
        if self._planning is None:
            return  # cancelled meanwhile
        self._planning = None
        self.door, self.planned = door, door.planned
        planned = door.planned
        if planned.stored is not None:
            self._show(planned.stored, from_store=True)
            return
        refused = [p for p in door.preflight() if p.is_error]
        if refused:  # the door's trust check of what the worker would load
            if not self._ask_grants(door, refused):
                self._failed(refused[0].message, refused[0].hint)
            return
        if isinstance(planned, KfoldPlan):
            self._offer_kfold(planned)
            return
        self.status.setText(tr_n("Evaluating {weights} on the {split} split ({n} image) with yolov5's validation…",
                                 "Evaluating {weights} on the {split} split ({n} images) with yolov5's validation…",
                                 len(planned.plan.images), weights=planned.plan.weights.name,
                                 split=planned.plan.settings.split))
        try:
            self.runner.start(door)
        except OSError as exc:
            self._failed(self.tr("Could not start the evaluation: {reason}").format(reason=exc), "")

    def _ask_grants(self, door: EvaluateDoor | KfoldDoor, refused: list[Problem]) -> bool:
        """The fold trainings load a start .pt or model YAML that only the user can vouch for (a run trained from a
        file they confirmed then): ask now, and on yes plan again with the grant — the door records it. False when
        a refusal is not the user's to lift, or they say no."""
        askable = getattr(door, "grants", None) and door.grants.askable
        if not askable or len(askable) != len(refused):
            return False
        for (what, path), problem in zip(askable, refused):
            confirmed = (dialogs.confirm_untrusted_weights(self, path) if what == "weights" else
                         dialogs.confirm_untrusted_model(self, path, problem.message))
            if not confirmed:
                return False
        kinds = {what for what, _path in askable}
        self._planning = operations.plan_held_out(
            self, self.run_dir, self.workspace, self.kfold, trust_weights="weights" in kinds,
            trust_model="model" in kinds).success(self._on_planned).failure(self._on_plan_failed).run()
        return True

    def _on_plan_failed(self, exc: BaseException) -> None:
        if self._planning is None:
            return
        self._planning = None
        if isinstance(exc, EvaluationRefused):
            self._failed(exc.message, exc.hint)
        else:
            self._failed(self.tr("Could not plan the evaluation of run {name}: {reason}").format(
                name=self.run_dir.name, reason=str(exc) or type(exc).__name__), "")

    # -- the worker ---------------------------------------------------------------------------------
    def _offer_kfold(self, plan: KfoldPlan) -> None:
        """The k trainings are long: say what they are and what they cost, and start them only on Start."""
        self.progress.hide()
        self.start_button.show()
        self.start_button.setFocus()
        self.status.setText(self.tr(
            "Held-out predictions for the {n} training images of run {run}: the run's own predictions on them are "
            "biased (it learned their labels), so {k} short trainings of {epochs} epochs — each on the other folds, "
            "with the run's settings and start weights — predict the images they did not learn. Estimated time: "
            "{estimate}.").format(n=sum(len(f) for f in plan.folds), run=self.run_dir.name, k=plan.k,
                                  epochs=plan.epochs, estimate=estimate_text(plan.estimate)))

    def start_kfold(self) -> None:
        plan = self.planned
        if not isinstance(plan, KfoldPlan) or self.runner.active:
            return
        self.start_button.hide()
        self.progress.show()
        self.progress.setRange(0, plan.k * (plan.epochs + 1))  # each fold: its epochs, then its predictions
        self.progress.setValue(0)
        self.status.setText(self.tr("Training fold 1 of {k}…").format(k=plan.k))
        try:
            self.runner.start(self.door)
        except OSError as exc:
            self._failed(self.tr("Could not start the held-out predictions: {reason}").format(reason=exc), "")

    def _on_event(self, event: dict[str, Any]) -> None:
        if event.get("type") == "kfold_progress" and event.get("folds"):
            epochs = int(event.get("epochs") or 1)
            fold, step = int(event["fold"]), int(event.get("epoch") or 0)
            predicting = event.get("stage") == "predicting"
            self.progress.setValue((fold - 1) * (epochs + 1) + (epochs if predicting else max(0, step - 1)))
            self.progress.setFormat(
                (self.tr("fold {fold} of {folds}: predicting its held-out images") if predicting else
                 self.tr("fold {fold} of {folds}: epoch {epoch} of {epochs}")).format(
                    fold=fold, folds=event["folds"], epoch=step, epochs=epochs))
        elif event.get("type") == "eval_progress" and event.get("count") and not self.kfold:
            self.progress.setRange(0, int(event["count"]))
            self.progress.setValue(int(event.get("index") or 0))
            self.progress.setFormat(tr_n("{n} image validated", "{n} images validated",
                                         int(event.get("images") or 0)))
        elif event.get("type") == "stage" and event.get("detail") and not self.runner.stopping:
            self.status.setText(str(event["detail"]))

    def _on_ended(self, outcome: JobOutcome) -> None:
        assert self.planned is not None
        if outcome.status == "completed":  # the stored result, read off the GUI thread
            operations.read_evaluation(self, self._folder()).success(
                lambda result: self._ended(outcome, result)).run()
        else:
            self._ended(outcome, None)

    def _ended(self, outcome: JobOutcome, result: dict[str, Any] | None) -> None:
        if result is not None:
            self._show(result, from_store=False)
        elif outcome.status == "stopped":
            self._stopped(self.tr("The evaluation was stopped; nothing was stored."))
        else:
            self._failed(outcome.message or self.tr("The evaluation ended without a result."), outcome.hint)

    # -- what the window shows ----------------------------------------------------------------------
    def _show(self, result: dict[str, Any], *, from_store: bool) -> None:
        assert self.planned is not None
        plan = self.planned if isinstance(self.planned, KfoldPlan) else self.planned.plan
        operations.present_evaluation(self, result, plan, self.planned.config, self.run_dir,
                                      from_store=from_store).success(
            lambda shown: self._display(shown, from_store=from_store)).run()

    def _display(self, shown: dict[str, Any], *, from_store: bool) -> None:
        self._done_controls()
        self.status.setText(self.tr("Read back from the store: these inputs were evaluated before.")
                            if from_store else self.tr("Evaluated and stored."))
        self.view = EvaluationView(shown, self)
        self.layout_.takeAt(self.layout_.count() - 1)  # the stretch: the view takes the room
        self.layout_.addWidget(self.view, 1)
        self.errors_button.setVisible(bool(shown.get("errors")))
        self.held_out_button.setVisible(not is_held_out(shown))
        self.report_button.setVisible(not is_held_out(shown) and shown.get("split") == "val")
        self.view.show()  # added to a shown window: without this it appears only a turn of the event loop later

    def browse_errors(self) -> None:
        """Open the Errors browser over this evaluation (``errors_browser``) once its images.json is read; over
        val/test it offers the held-out review of the training images."""
        if self.view is None or self.planned is None:
            return
        result = self.view.result
        operations.read_evaluated_images(self, self._folder()).success(
            lambda images: self._open_browser(result, images)).run()

    def _open_browser(self, result: dict[str, Any], images: list[dict[str, Any]]) -> None:
        assert self.planned is not None
        data = self.planned.data if isinstance(self.planned, KfoldPlan) else self.planned.plan.data  # the run's
        self.errors_browser = ErrorsBrowser(result, images, data, self, offer_review=not is_held_out(result))
        self.errors_browser.review_requested.connect(self.open_held_out)
        self.errors_browser.show()

    def open_held_out(self) -> EvaluateWindow:
        """The held-out (k-fold) window of this run: its estimate first, the trainings on its Start."""
        if self.held_out_window is None:
            self.held_out_window = EvaluateWindow(self.run_dir, self.workspace, self, launcher=self.launcher,
                                                  kfold=KFOLD_DEFAULT)
            self.held_out_window.destroyed.connect(lambda *_: setattr(self, "held_out_window", None))
        self.held_out_window.show()
        self.held_out_window.raise_()
        return self.held_out_window

    # -- the deployment report ----------------------------------------------------------------------
    def report_at_recall(self) -> None:
        value, ok = QInputDialog.getDouble(self, self.tr("Deployment report"), self.tr(
            "Operate at the highest confidence that finds at least this share of the objects (0–1):"),
            0.9, 0.01, 1.0, 2)
        if ok:
            self.write_report(Choice(target_recall=value))

    def report_at_false_alarms(self) -> None:
        value, ok = QInputDialog.getDouble(self, self.tr("Deployment report"), self.tr(
            "Operate at the lowest confidence with at most this many false alarms per 100 images:"),
            5.0, 0.0, 100000.0, 1)
        if ok:
            self.write_report(Choice(max_false_alarms=value))

    def write_report(self, choice: Choice) -> None:
        """Write the report in the app's language off the GUI thread (it hashes the weights and bootstraps the
        matches), then offer to open it."""
        self.report_button.setEnabled(False)
        self.status.setText(self.tr("Writing the deployment report…"))
        operations.write_deployment_report(self, self.run_dir, language(), choice).success(
            self._report_written).failure(self._report_failed).run()

    def _report_written(self, written: tuple[Path, dict[str, Any]]) -> None:
        self.report_button.setEnabled(True)
        self.report_path = written[0]
        self.status.setText(self.tr("Deployment report written to {path}").format(path=written[0]))
        if dialogs.ask_yes(self, self.tr("Deployment report"),
                           self.tr("The report is written to {path}. Open it?").format(path=written[0]),
                           cancel=False, default_yes=True):
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(written[0])))

    def _report_failed(self, exc: BaseException) -> None:
        self.report_button.setEnabled(True)
        self.status.setText(self.tr("No deployment report was written."))
        if isinstance(exc, ReportError):
            self.banner.show_message("error", exc.message + (f"\n{exc.hint}" if exc.hint else ""))
        else:
            self.banner.show_message("error", self.tr("The report could not be written: {reason}").format(
                reason=exc))

    def _folder(self) -> Path:
        assert self.planned is not None
        return self.planned.folder if isinstance(self.planned, KfoldPlan) else self.planned.plan.folder

    def _failed(self, message: str, hint: str) -> None:
        self._done_controls()
        self.status.setText(self.tr("Run {name} was not evaluated.").format(name=self.run_dir.name))
        self.banner.show_message("error", message + (f"\n{hint}" if hint else ""))

    def _stopped(self, message: str) -> None:
        self._done_controls()
        self.status.setText(message)

    def _done_controls(self) -> None:
        self.progress.hide()
        self.start_button.hide()
        self.cancel_button.hide()

    def closeEvent(self, event: Any) -> None:  # noqa: N802 - Qt's name
        self.cancel()  # a window closed mid-evaluation stops its worker; nothing half-written is kept
        super().closeEvent(event)
