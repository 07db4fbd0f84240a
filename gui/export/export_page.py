"""The Export page: weights → ONNX / TensorRT / TorchScript, each proven against PyTorch, then "Try it".

Owns the page's flow only. What is possible is ``core.export.options`` on this machine's facts; where files go
and which images verify them is ``core.export.plan`` — every read of the disk through ``gui/export/operations.py``
(the facts, the chosen weights' run, its reports, the validation images), off the GUI thread; the
exporting and the "Try it" inference run in worker jobs (``export``, ``predict``) on ``gui.job_runner.JobRunner``
with an injectable launcher, so the GUI never imports a runtime and tests can replay recorded events. Reports
(``export.json``) are read back when a run's weights are chosen, so earlier exports show again.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (QFileDialog, QGroupBox, QLabel, QProgressBar, QPushButton, QScrollArea, QSplitter,
                               QTabWidget, QVBoxLayout, QWidget)

from core.export.facts import ExportFacts
from core.export.options import ExportOptions, validate_options
from core.export.plan import build_predict_spec
from core.export.render import format_name
from core.i18n import tr_n
from core.job.jobs import JobOutcome
from core.usecases.jobs import PredictDoor
from core.trust import confirmed_entry
from gui import dialogs
from gui.export.operations import (WeightsInfo, export_facts_op, export_spec_op, run_reports_op, trust_op,
                                   validation_images_op, weights_info_op)
from gui.job_runner import JobRunner, Launcher, default_launcher
from gui.operations import describe_failure
from gui.pages.page import Page
from gui.widgets.banner import Banner
from gui.export.export_card import ExportCard
from gui.export.export_form import ExportForm
from gui.export.export_try import TryItView
from gui.widgets.page_header import PageHeader

if TYPE_CHECKING:  # the export's door arrives from gui/export/operations.py, checked off the GUI thread
    from core.usecases.export import ExportDoor

VALIDATE_DELAY_MS = 150
STEPS_PER_FORMAT = 3  # exporting, verifying, timing


class ExportPage(Page):
    def __init__(self, workspace: Path, parent: QWidget | None = None, *,
                 launcher: Launcher = default_launcher, facts: ExportFacts | None = None) -> None:
        super().__init__(workspace, parent)
        self.facts = facts or ExportFacts()
        self.trusted: set[str] = set()
        self.reports: list[dict[str, Any]] = []
        self._steps = 0
        self._run_data: dict[str, str] = {}  # weights -> the data.yaml its run trained on (read in the background)
        self._reading: str = ""  # the weights whose run is being read: Export waits for its dataset

        self.export_button = QPushButton(self.tr("Export"), self, clicked=self.start_export, default=True)
        self.cancel_button = QPushButton(self.tr("Cancel"), self, clicked=self.cancel, enabled=False)
        self.header = PageHeader(
            self.tr("Export"),
            self.tr("Export trained weights to ONNX, TensorRT, TorchScript or OpenVINO; each file is run on your "
                    "validation images and compared with PyTorch before it is called verified."),
            [self.export_button, self.cancel_button], self)
        self.banner = Banner(self)
        self.form = ExportForm(self)
        self.problems_label = QLabel(self, wordWrap=True)
        self.stage_label = QLabel(self.tr("Nothing exported yet — choose weights and formats, then press Export."),
                                  self, wordWrap=True)
        self.progress = QProgressBar(self, maximum=1, value=0, visible=False)
        self.cards_box = QWidget(self)
        self.cards_layout = QVBoxLayout(self.cards_box)
        self.cards_layout.setContentsMargins(0, 0, 0, 0)
        self.cards_layout.addStretch(1)
        self.try_view = TryItView(self)
        self._build_layout()

        self.exporter = JobRunner(self, launcher=launcher)
        self.exporter.event.connect(self._on_export_event)
        self.exporter.ended.connect(self._on_export_ended)
        self.predictor = JobRunner(self, launcher=launcher)
        self.predictor.event.connect(self._on_predict_event)
        self.predictor.ended.connect(self._on_predict_ended)

        self.form.changed.connect(self._schedule_validation)
        self.form.browse_requested.connect(self.browse_weights)
        self.form.weights_combo.currentIndexChanged.connect(self._on_weights_changed)
        self.try_view.run_requested.connect(self.try_images)
        self.try_view.pick_requested.connect(self.pick_try_images)
        QShortcut(QKeySequence("Ctrl+Return"), self, self.start_export,
                  context=Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self._validate_timer = QTimer(self, singleShot=True, interval=VALIDATE_DELAY_MS, timeout=self.revalidate)
        if facts is None:
            export_facts_op(self).success(self.set_facts).run()
        self.revalidate()

    def _build_layout(self) -> None:
        options = QGroupBox(self.tr("Options"), self)
        options_layout = QVBoxLayout(options)
        options_layout.addWidget(self.form)
        options_layout.addWidget(self.problems_label)
        options_layout.addStretch(1)
        left = QScrollArea(self, widgetResizable=True, frameShape=QScrollArea.Shape.NoFrame)
        left.setWidget(options)
        left.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # As wide as the form needs, beside its vertical bar: a fixed 400 px cut "Other .pt…" and the format
        # boxes at the right edge, with no way to scroll to them (issue 32).
        left.setMinimumWidth(max(400, options.minimumSizeHint().width() + left.verticalScrollBar().sizeHint().width()))
        results = QWidget(self)
        results_layout = QVBoxLayout(results)
        results_layout.addWidget(self.stage_label)
        results_layout.addWidget(self.progress)
        cards_scroll = QScrollArea(self, widgetResizable=True, frameShape=QScrollArea.Shape.NoFrame)
        cards_scroll.setWidget(self.cards_box)
        results_layout.addWidget(cards_scroll, 1)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(results, self.tr("Reports"))
        self.tabs.addTab(self.try_view, self.tr("Try it"))
        body = QSplitter(Qt.Orientation.Horizontal, self, childrenCollapsible=False)
        body.addWidget(left)
        body.addWidget(self.tabs)
        body.setStretchFactor(1, 1)
        body.setSizes([420, 820])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 8)
        layout.addWidget(self.header)
        layout.addWidget(self.banner)
        layout.addWidget(body, 1)

    # -- facts, runs, options -----------------------------------------------------------------------
    def set_facts(self, facts: ExportFacts) -> None:
        self.facts = facts
        self.revalidate()

    def refresh(self) -> None:
        """F5: list the runs again and re-check the options."""
        self.reload_runs()
        self.revalidate()

    def on_bound(self) -> None:
        store = self.services.runs
        store.changed.connect(self._on_runs)
        if store.loaded:
            self._on_runs(store.runs)
        store.ensure_loaded()

    def reload_runs(self) -> None:
        self.services.runs.reload()

    def _on_runs(self, runs: list[Any]) -> None:
        self.form.set_runs(runs)
        self._on_weights_changed()
        self.revalidate()

    def open_run(self, run_dir: Path) -> None:
        """Show a run's export reports (the Runs page calls this when a run is opened), read in the background."""
        run_reports_op(self, Path(run_dir)).success(self.show_reports).run()

    @property
    def reading_weights(self) -> bool:
        """The chosen weights' run (image size, dataset, earlier exports) is still being read."""
        return bool(self._reading)

    def _schedule_validation(self) -> None:
        self._validate_timer.start()

    def options(self) -> ExportOptions:
        options = self.form.options()
        if options.weights and not options.data:
            options.data = self._run_data.get(options.weights, "")
        return options

    def revalidate(self) -> bool:
        options = self.options()
        checked = validate_options(options, self.facts)
        self.form.apply_states(checked.states)
        checked = validate_options(self.options(), self.facts)  # with the now-disabled boxes unticked
        messages = [p.message + (f" {p.fix}" if p.fix else "") for p in checked.problems]
        if not options.weights:
            messages.insert(0, self.tr("No weights yet: train a run first, or pick a .pt with “Other .pt…”."))
        if self._reading:
            messages.insert(0, self.tr("Reading the run of {name}…").format(name=Path(self._reading).name))
        self.problems_label.setText("\n".join(messages) if messages else self.tr("Ready to export."))
        ready = checked.ok and bool(options.weights) and not self._reading
        self.export_button.setEnabled(ready and not self.exporter.active)
        self.export_button.setToolTip("\n".join(messages) or self.tr("Export and verify (Ctrl+Enter)"))
        return ready

    def _on_weights_changed(self) -> None:
        """Read the chosen weights' run in the background: its image size, dataset and earlier exports."""
        weights = self.form.weights_path()
        if not weights:
            self._reading = ""
            self.show_reports([])
            return
        self._reading = weights
        self.revalidate()  # Export waits for the run's dataset
        weights_info_op(self, Path(weights), self.form.imgsz.value()).success(self._show_weights_info).failure(
            lambda exc: self._show_weights_info(WeightsInfo(weights, self.form.imgsz.value(), ""))).run()

    def _show_weights_info(self, info: WeightsInfo) -> None:
        if info.weights != self.form.weights_path():
            return  # another file was chosen meanwhile: its own answer follows
        self._reading = ""
        self._run_data[info.weights] = info.dataset
        self.form.set_imgsz(info.imgsz)
        self.show_reports(info.reports)
        name = Path(info.weights).name
        if not self.exporter.active:
            self.progress.hide()
            self.stage_label.setText(self.tr("Earlier exports of {name}:").format(name=name)
                                     if self.reports else self.tr("No exports of {name} yet — choose formats, then "
                                                                  "press Export.").format(name=name))
        self.revalidate()

    def browse_weights(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Choose weights to export"), str(self.workspace),
                                              self.tr("PyTorch checkpoints (*.pt)"))
        if path:
            self.use_weights_file(Path(path))

    def use_weights_file(self, path: Path) -> None:
        """Add a .pt the user picked; one from outside the runs needs their confirmation (it is a pickle). Where
        it comes from is looked up in the background, then the question (if any) is asked."""
        path = path.resolve()
        trust_op(self, path, self.workspace, set(self.trusted)).success(
            lambda needs: self._add_weights_file(path) if not needs or self._confirm(path) else None).run()

    def _add_weights_file(self, path: Path) -> None:
        self.form.add_weights_file(path)

    def _confirm(self, path: Path) -> bool:
        """The user's word on a checkpoint from outside the runs; remembered for this session."""
        if not dialogs.confirm_untrusted_weights(self, path):
            return False
        self.trusted.add(confirmed_entry(path))
        return True

    # -- export ---------------------------------------------------------------------------------------
    def start_export(self) -> bool:
        """Build the job's spec in the background (asking first about weights from outside the runs), then start."""
        if self.exporter.active or not self.revalidate():
            return False
        options = self.options()
        self.export_button.setEnabled(False)
        export_spec_op(self, options, self.workspace, set(self.trusted)).success(
            lambda spec: self._start_export(options, spec)).failure(self._export_not_started).run()
        return True

    def _export_not_started(self, exc: BaseException) -> None:
        self.banner.show_message("error", self.tr("Export failed: {message} {hint}").format(
            message=describe_failure(exc), hint=""))
        self.revalidate()

    def _start_export(self, options: ExportOptions, door: ExportDoor | None) -> None:
        if door is None:  # weights from outside the runs: the user's word first, then the spec again
            if self._confirm(Path(options.weights)):
                export_spec_op(self, options, self.workspace, set(self.trusted)).success(
                    lambda again: self._start_export(options, again) if again is not None else self.revalidate()
                ).failure(self._export_not_started).run()
            else:
                self.revalidate()
            return
        self._steps = 0
        self.progress.setMaximum(2 + STEPS_PER_FORMAT * len(options.formats))
        self.progress.setValue(0)
        self.progress.show()
        self.stage_label.setText(self.tr("Starting the export worker…"))
        self.banner.hide()
        self.show_reports([])
        self.exporter.start(door)  # its pre-flight passed in the background (core.usecases.export)
        self.export_button.setEnabled(False)
        self.cancel_button.setEnabled(True)

    def cancel(self) -> None:
        self.exporter.stop()
        self.predictor.stop()

    def _on_export_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "stage" and event.get("stage") != "starting":
            self._steps += 1
            self.progress.setValue(min(self._steps, self.progress.maximum()))
            self.stage_label.setText(str(event.get("detail") or event.get("stage")))
        elif kind == "export_result":
            self.add_report(event.get("report") or {})

    def _on_export_ended(self, outcome: JobOutcome) -> None:
        status, error = outcome.status, outcome.error()
        self.cancel_button.setEnabled(False)
        self.progress.setValue(self.progress.maximum())
        verified = [r for r in self.reports if (r.get("verified") or {}).get("ok")]
        if error:
            self.banner.show_message("error", self.tr("Export failed: {message} {hint}").format(
                message=error.get("message", ""), hint=error.get("hint") or ""))
            self.stage_label.setText(self.tr("Export failed."))
        elif status == "stopped":
            self.stage_label.setText(self.tr("Export cancelled; nothing was left half-written."))
        elif status == "completed":
            self.stage_label.setText(self.tr("Done: every file was verified against PyTorch."))
        else:
            self.stage_label.setText(self.tr("Done: {ok} of {total} files verified — see the cards below.").format(
                ok=len(verified), total=len(self.reports)))
        self.revalidate()

    # -- report cards ---------------------------------------------------------------------------------
    def cards(self) -> list[ExportCard]:
        return [self.cards_layout.itemAt(i).widget() for i in range(self.cards_layout.count())
                if isinstance(self.cards_layout.itemAt(i).widget(), ExportCard)]

    def show_reports(self, reports: list[dict[str, Any]]) -> None:
        for card in self.cards():
            card.setParent(None)
            card.deleteLater()
        self.reports = []
        for report in reports:
            self.add_report(report)

    def add_report(self, report: dict[str, Any]) -> None:
        self.reports.append(report)
        card = ExportCard(report, self.cards_box)
        card.try_requested.connect(self.choose_try_model)
        self.cards_layout.insertWidget(self.cards_layout.count() - 1, card)

    # -- try it -----------------------------------------------------------------------------------------
    def choose_try_model(self, path: str) -> None:
        self.try_view.set_model(Path(path))
        self.try_view.clear_results()
        self.tabs.setCurrentWidget(self.try_view)

    def pick_try_images(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self, self.tr("Images to try"), str(self.workspace),
                                                self.tr("Images (*.jpg *.jpeg *.png *.bmp *.webp)"))
        if files:
            self.try_images([Path(f) for f in files])

    def _model_report(self) -> dict[str, Any]:
        model = self.try_view.model
        return next((r for r in self.reports if r.get("path") and Path(r["path"]) == model), {})

    def try_images(self, images: list[Path] | None) -> bool:
        """Run the chosen model on ``images`` (None: the dataset's validation images, listed off the GUI thread
        by the dataset reader, then run) in a worker."""
        model = self.try_view.model
        if model is None or self.predictor.active:
            return False
        if images is not None:
            return self._start_try(images)
        data = self.form.data_edit.text().strip()
        weights = Path(self._model_report().get("weights") or model)
        self.try_view.set_busy(True, self.tr("Finding the validation images…"))
        validation_images_op(self, data, weights).success(self._on_try_images_listed).failure(
            lambda exc: self.try_view.set_busy(False, self.tr("Could not list the validation images: {reason}")
                                               .format(reason=describe_failure(exc)))).run()
        return True

    def _on_try_images_listed(self, images: list[Path]) -> None:
        if not images:
            self.try_view.set_busy(False, self.tr("No validation images found: pick images instead."))
            return
        self._start_try(images)

    def _start_try(self, images: list[Path]) -> bool:
        model = self.try_view.model
        if model is None or self.predictor.active:
            return False
        report = self._model_report()
        imgsz = int((report.get("options") or {}).get("imgsz") or self.form.imgsz.value())
        spec = build_predict_spec(model, images, self.workspace, imgsz=imgsz)
        self.try_view.clear_results()
        self.try_view.set_busy(True, tr_n("Running {format} on {n} image…", "Running {format} on {n} images…",
                                          len(images), format=format_name(report.get("format")) if report
                                          else model.suffix))
        self.predictor.start(PredictDoor(spec, self.workspace))
        return True

    def _on_predict_event(self, event: dict[str, Any]) -> None:
        if event.get("type") == "predictions":
            self.try_view.add_result(event)
        elif event.get("type") == "warning" and event.get("code") == "unreadable-image":
            self.try_view.add_skipped(event)

    def _on_predict_ended(self, outcome: JobOutcome) -> None:
        error = outcome.error()
        if error:
            self.try_view.set_busy(False, self.tr("Try it failed: {message}").format(message=error.get("message")))
        else:
            self.try_view.set_busy(False, self.try_view.summary())

