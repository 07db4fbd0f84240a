"""The Export page: weights → ONNX / TensorRT / TorchScript, each proven against PyTorch, then "Try it".

Owns the page's flow only. What is possible is ``core.export.options`` on this machine's facts
(gathered in the background); where files go and which images verify them is ``core.export.plan``; the
exporting and the "Try it" inference run in worker jobs (``export``, ``predict``) on ``gui.job_runner.JobRunner``
with an injectable launcher, so the GUI never imports a runtime and tests can replay recorded events. Reports
(``export.json``) are read back when a run's weights are chosen, so earlier exports show again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (QFileDialog, QGroupBox, QLabel, QProgressBar, QPushButton, QScrollArea, QSplitter,
                               QTabWidget, QVBoxLayout, QWidget)

from core.export.facts import ExportFacts, gather_export_facts
from core.export.options import ExportOptions, validate_options
from core.dataset.split_images import split_images
from core.export.plan import build_export_spec, build_predict_spec, export_root, find_reports, run_dataset, run_imgsz
from core.export.render import format_name
from core.i18n import tr_n
from core.job.jobs import JobOutcome, JobSpec
from core.trust import confirmed_entry, needs_trust
from gui import dialogs
from gui.background import run_in_background
from gui.job_runner import JobRunner, Launcher, default_launcher
from gui.pages.page import Page
from gui.widgets.banner import Banner
from gui.export.export_card import ExportCard
from gui.export.export_form import ExportForm
from gui.export.export_try import TryItView
from gui.widgets.page_header import PageHeader

VALIDATE_DELAY_MS = 150
TRY_IMAGES = 16
STEPS_PER_FORMAT = 3  # exporting, verifying, timing


class ExportPage(Page):
    def __init__(self, workspace: Path, parent: QWidget | None = None, *,
                 launcher: Launcher = default_launcher, facts: ExportFacts | None = None) -> None:
        super().__init__(workspace, parent)
        self.facts = facts or ExportFacts()
        self.trusted: set[str] = set()
        self.reports: list[dict[str, Any]] = []
        self._steps = 0

        self.export_button = QPushButton(self.tr("Export"), self, clicked=self.start_export, default=True)
        self.cancel_button = QPushButton(self.tr("Cancel"), self, clicked=self.cancel, enabled=False)
        self.header = PageHeader(
            self.tr("Export"),
            self.tr("Export trained weights to ONNX, TensorRT or TorchScript; each file is run on your validation "
                    "images and compared with PyTorch before it is called verified."),
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
            run_in_background(self, lambda progress, cancelled: gather_export_facts(),
                              on_done=self.set_facts, what=self.tr("Checking which export formats this machine can do"))
        self.revalidate()

    def _build_layout(self) -> None:
        options = QGroupBox(self.tr("Options"), self)
        options_layout = QVBoxLayout(options)
        options_layout.addWidget(self.form)
        options_layout.addWidget(self.problems_label)
        options_layout.addStretch(1)
        left = QScrollArea(self, widgetResizable=True, frameShape=QScrollArea.Shape.NoFrame)
        left.setWidget(options)
        left.setMinimumWidth(400)
        left.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
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
        """Show a run's export reports (the Runs page calls this when a run is opened)."""
        self.show_reports(find_reports(Path(run_dir)))

    def _schedule_validation(self) -> None:
        self._validate_timer.start()

    def options(self) -> ExportOptions:
        options = self.form.options()
        if options.weights and not options.data:
            options.data = run_dataset(Path(options.weights))
        return options

    def revalidate(self) -> bool:
        options = self.options()
        checked = validate_options(options, self.facts)
        self.form.apply_states(checked.states)
        checked = validate_options(self.options(), self.facts)  # with the now-disabled boxes unticked
        messages = [p.message + (f" {p.fix}" if p.fix else "") for p in checked.problems]
        if not options.weights:
            messages.insert(0, self.tr("No weights yet: train a run first, or pick a .pt with “Other .pt…”."))
        self.problems_label.setText("\n".join(messages) if messages else self.tr("Ready to export."))
        ready = checked.ok and bool(options.weights)
        self.export_button.setEnabled(ready and not self.exporter.active)
        self.export_button.setToolTip("\n".join(messages) or self.tr("Export and verify (Ctrl+Enter)"))
        return ready

    def _on_weights_changed(self) -> None:
        weights = self.form.weights_path()
        if not weights:
            self.show_reports([])
            return
        self.form.set_imgsz(run_imgsz(Path(weights), self.form.imgsz.value()))
        root = export_root(Path(weights))
        self.show_reports([r for r in find_reports(root) if Path(r.get("weights", "")) == Path(weights)])
        if not self.exporter.active:
            self.progress.hide()
            self.stage_label.setText(self.tr("Earlier exports of {name}:").format(name=Path(weights).name)
                                     if self.reports else self.tr("No exports of {name} yet — choose formats, then "
                                                                  "press Export.").format(name=Path(weights).name))

    def browse_weights(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Choose weights to export"), str(self.workspace),
                                              self.tr("PyTorch checkpoints (*.pt)"))
        if path:
            self.use_weights_file(Path(path))

    def use_weights_file(self, path: Path) -> bool:
        """Add a .pt the user picked; one from outside the runs needs their confirmation (it is a pickle)."""
        path = path.resolve()
        if needs_trust(path, self.workspace, self.trusted):
            if not dialogs.confirm_untrusted_weights(self, path):
                return False
            self.trusted.add(confirmed_entry(path))
        self.form.add_weights_file(path)
        return True

    # -- export ---------------------------------------------------------------------------------------
    def start_export(self) -> bool:
        if self.exporter.active or not self.revalidate():
            return False
        options = self.options()
        if needs_trust(options.weights, self.workspace, self.trusted):
            if not self.use_weights_file(Path(options.weights)):
                return False
        spec = build_export_spec(options, self.workspace,
                                 trusted=needs_trust(options.weights, self.workspace))  # confirmed just now
        self._steps = 0
        self.progress.setMaximum(2 + STEPS_PER_FORMAT * len(options.formats))
        self.progress.setValue(0)
        self.progress.show()
        self.stage_label.setText(self.tr("Starting the export worker…"))
        self.banner.hide()
        self.show_reports([])
        self.exporter.start(JobSpec.scratch("export", spec, self.workspace))
        self.export_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        return True

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
        run_in_background(self, lambda progress, cancelled: _validation_images(data, weights),
                          on_done=self._on_try_images_listed, what=self.tr("Finding the validation images"))
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
        self.predictor.start(JobSpec.scratch("predict", spec, self.workspace))
        return True

    def _on_predict_event(self, event: dict[str, Any]) -> None:
        if event.get("type") == "predictions":
            self.try_view.add_result(event)

    def _on_predict_ended(self, outcome: JobOutcome) -> None:
        error = outcome.error()
        if error:
            self.try_view.set_busy(False, self.tr("Try it failed: {message}").format(message=error.get("message")))
        else:
            self.try_view.set_busy(False, self.try_view.summary())


def _validation_images(data: str, weights: Path) -> list[Path]:
    """Up to ``TRY_IMAGES`` validation images of ``data`` (else of the dataset the weights' run trained on);
    runs on a pool thread: it reads the data.yaml and lists the split."""
    data = data or run_dataset(weights)
    return split_images(data, limit=TRY_IMAGES).images if data else []
