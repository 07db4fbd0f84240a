"""The Predict page: a run's model (its ``.pt`` or any export) on an image, a folder, a video, a camera or a
stream, watched live; the outputs written to a new folder the page offers to open.

The flow only. What a source is, where outputs go and the job's door are core's (``gui/predict/operations.py``,
off the GUI thread); predicting is the worker's ``predict`` job on ``gui.job_runner.JobRunner`` with that
``PredictSourceDoor``, the CLI's own door. The worker sends a few ``preview`` events a second (the latest frame,
small, and its boxes down to ``core.predict.boxes.FLOOR_CONF``); the confidence and IoU sliders filter those boxes
here with ``core.predict.boxes`` (pure Python), so moving one redraws at once and starts nothing. The files the
job writes use the thresholds the sliders had when Start was pressed. A failure (no camera at that index, a file
that is not an image) is said in the banner with its way out, never a traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QByteArray, Qt, QUrl
from PySide6.QtGui import QDesktopServices, QImage
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDoubleSpinBox, QFileDialog, QFormLayout, QGroupBox,
                               QHBoxLayout, QLabel, QLineEdit, QPushButton, QScrollArea, QSizePolicy, QSlider, QSpinBox,
                               QSplitter, QVBoxLayout, QWidget)

from core.i18n import tr_n
from core.job.jobs import JobOutcome
from core.predict.boxes import FLOOR_IOU, counts, nms
from core.predict.plan import CONF_DEFAULT, IOU_DEFAULT
from core.predict.slicing import (OVERLAP_DEFAULT, OVERLAP_MAX, SLICE_DEFAULT, SLICE_MAX, SLICE_MIN,
                                  slice_cost_words)
from gui import dialogs
from gui.job_runner import JobRunner, Launcher, default_launcher
from gui.operations import describe_failure
from gui.pages.page import Page
from gui.predict.live_view import LiveView
from gui.predict.operations import ModelChoice, PredictRequest, prepare_op, run_models_op
from gui.widgets.banner import Banner
from gui.widgets.page_header import PageHeader

SCALE = 1000  # slider steps per unit


class PredictPage(Page):
    def __init__(self, workspace: Path, parent: QWidget | None = None, *,
                 launcher: Launcher = default_launcher) -> None:
        super().__init__(workspace, parent)
        self.start_button = QPushButton(self.tr("Start"), self, clicked=self.start, default=True)
        self.stop_button = QPushButton(self.tr("Stop"), self, clicked=self.stop, enabled=False)
        self.header = PageHeader(
            self.tr("Predict"),
            self.tr("Run a trained model (its .pt or any export) on images, a folder, a video, a camera or a stream, "
                    "and watch what it finds."), [self.start_button, self.stop_button], self)
        self.banner = Banner(self)
        self.model_combo = QComboBox(self, minimumContentsLength=12,
                                     sizeAdjustPolicy=QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.model_combo.setPlaceholderText(self.tr("No run with weights yet: Browse… for a model file"))
        self.model_combo.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)  # the placeholder's width
        self.model_combo.setMinimumWidth(160)
        self.model_browse = QPushButton(self.tr("Browse…"), self, clicked=self.browse_model)
        self.source_edit = QLineEdit(self, placeholderText=self.tr("an image, a folder, a video, 0 for the first "
                                                                   "camera, or rtsp://…"))
        self.file_button = QPushButton(self.tr("File…"), self, clicked=self.browse_file)
        self.folder_button = QPushButton(self.tr("Folder…"), self, clicked=self.browse_folder)
        self.imgsz = QSpinBox(self, minimum=32, maximum=4096, singleStep=32, value=640)
        self.slice_check = QCheckBox(self.tr("Sliced inference (small objects in large images)"), self)
        self.slice_check.setToolTip(self.tr("Also predicts overlapping tiles of each image and merges the boxes: "
                                            "finds smaller objects, costs one model call per tile."))
        self.slice_size = QSpinBox(self, minimum=SLICE_MIN, maximum=SLICE_MAX, singleStep=64, value=SLICE_DEFAULT,
                                   suffix=self.tr(" px"), enabled=False)
        self.slice_overlap = QDoubleSpinBox(self, minimum=0.0, maximum=OVERLAP_MAX, singleStep=0.05, decimals=2,
                                            value=OVERLAP_DEFAULT, enabled=False)
        self.slice_check.toggled.connect(self.slice_size.setEnabled)
        self.slice_check.toggled.connect(self.slice_overlap.setEnabled)
        self.conf_slider = QSlider(Qt.Orientation.Horizontal, self, minimum=1, maximum=SCALE - 10,
                                   value=int(CONF_DEFAULT * SCALE))
        self.conf_slider.setToolTip(self.tr("Show only boxes at or above this confidence (applies at once)"))
        self.iou_slider = QSlider(Qt.Orientation.Horizontal, self, minimum=50, maximum=int(FLOOR_IOU * SCALE),
                                  value=int(IOU_DEFAULT * SCALE))
        self.iou_slider.setToolTip(self.tr("Boxes of one class overlapping more than this are merged (applies at "
                                           "once)"))
        self.conf_value, self.iou_value = QLabel(self), QLabel(self)
        for value in (self.conf_value, self.iou_value):
            value.setMinimumWidth(value.fontMetrics().horizontalAdvance("0.000") + 4)
        self.counts_label = QLabel(self, wordWrap=True, textFormat=Qt.TextFormat.PlainText)
        self.stats_label = QLabel(self, wordWrap=True)
        self.out_label = QLabel(self.tr("Outputs: a new folder under the run, made when you start."), self,
                                wordWrap=True, textInteractionFlags=Qt.TextInteractionFlag.TextSelectableByMouse)
        self.open_button = QPushButton(self.tr("Open folder"), self, clicked=self.open_outputs, enabled=False)
        for label in (self.counts_label, self.stats_label, self.out_label):  # long text (a path) never widens the panel
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.view = LiveView(self)
        self.view.set_placeholder(self.tr("Choose a model and a source, then press Start: the frames and the "
                                          "model's boxes show here."))
        self._build_layout()

        self.runner = JobRunner(self, launcher=launcher)
        self._closing = False  # stopping so that the window can close (a second request kills)
        self.runner.event.connect(self._on_event)
        self.runner.ended.connect(self._on_ended)
        self.names: dict[int, str] = {}
        self.floor_boxes: list[list[float]] = []
        self.totals: dict[int, int] = {}  # boxes written so far by class (at the thresholds of Start)
        self.out = ""
        self.done: dict[str, Any] = {}
        self.skipped = 0
        self.preparing = False
        self.trusted: set[str] = set()
        self.conf_slider.valueChanged.connect(self.refilter)
        self.iou_slider.valueChanged.connect(self.refilter)
        self.model_combo.currentIndexChanged.connect(self._on_model_chosen)
        self.refilter()

    def _build_layout(self) -> None:
        form_box = QGroupBox(self.tr("Model and source"), self)
        form = QFormLayout(form_box)
        model_row = QHBoxLayout()
        model_row.addWidget(self.model_combo, 1)
        model_row.addWidget(self.model_browse)
        form.addRow(self.tr("Model"), model_row)
        form.addRow(self.tr("Source"), self.source_edit)
        pick_row = QHBoxLayout()
        pick_row.addWidget(self.file_button)
        pick_row.addWidget(self.folder_button)
        pick_row.addStretch(1)
        form.addRow("", pick_row)
        form.addRow(self.tr("Image size"), self.imgsz)
        form.addRow(self.slice_check)
        slice_row = QHBoxLayout()
        slice_row.addWidget(QLabel(self.tr("Tile"), self))
        slice_row.addWidget(self.slice_size)
        slice_row.addWidget(QLabel(self.tr("Overlap"), self))
        slice_row.addWidget(self.slice_overlap)
        slice_row.addStretch(1)
        form.addRow("", slice_row)
        filter_box = QGroupBox(self.tr("Shown boxes"), self)
        filters = QFormLayout(filter_box)
        for label, slider, value in ((self.tr("Confidence ≥"), self.conf_slider, self.conf_value),
                                     (self.tr("IoU ≤"), self.iou_slider, self.iou_value)):
            row = QHBoxLayout()
            row.addWidget(slider, 1)
            row.addWidget(value)
            filters.addRow(label, row)
        filters.addRow(self.counts_label)
        out_box = QGroupBox(self.tr("Outputs"), self)
        out_layout = QVBoxLayout(out_box)
        out_layout.addWidget(self.out_label)
        out_layout.addWidget(self.open_button, 0, Qt.AlignmentFlag.AlignLeft)
        left_box = QWidget(self)
        left = QVBoxLayout(left_box)
        left.setContentsMargins(0, 0, 0, 0)
        for box in (form_box, filter_box, out_box):
            left.addWidget(box)
        left.addStretch(1)
        scroll = QScrollArea(self, widgetResizable=True, frameShape=QScrollArea.Shape.NoFrame)
        scroll.setWidget(left_box)
        scroll.setMinimumWidth(400)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        right_box = QWidget(self)
        right = QVBoxLayout(right_box)
        right.setContentsMargins(0, 0, 0, 0)
        right.addWidget(self.stats_label)
        right.addWidget(self.view, 1)
        body = QSplitter(Qt.Orientation.Horizontal, self, childrenCollapsible=False)
        body.addWidget(scroll)
        body.addWidget(right_box)
        body.setStretchFactor(1, 1)
        body.setSizes([420, 860])
        layout = QVBoxLayout(self)
        layout.addWidget(self.header)
        layout.addWidget(self.banner)
        layout.addWidget(body, 1)

    # -- models -------------------------------------------------------------------------------------
    def on_bound(self) -> None:
        self.services.runs.changed.connect(self._on_runs)
        self.services.runs.ensure_loaded()
        if self.services.runs.loaded:
            self._on_runs(self.services.runs.runs)

    def _on_runs(self, runs: list[Any]) -> None:
        weights = [Path(r.best_weights or r.last_weights) for r in runs if r.best_weights or r.last_weights]
        run_models_op(self, weights).success(self.set_models).run()

    def set_models(self, models: list[ModelChoice]) -> None:
        """The runs' models in the list; a file the user browsed to stays (and stays chosen)."""
        chosen = self.model_path()
        browsed = [(self.model_combo.itemText(i), self.model_combo.itemData(i)) for i in range(self.model_combo.count())
                   if self.model_combo.itemData(i, Qt.ItemDataRole.UserRole + 1) == "browsed"]
        self.model_combo.blockSignals(True)
        self.model_combo.clear()
        for text, data in browsed:
            self._add_model(text, data, browsed=True)
        for model in models:
            self._add_model(model.label, (model.path, model.imgsz))
        index = next((i for i in range(self.model_combo.count()) if self.model_combo.itemData(i)[0] == chosen), 0)
        self.model_combo.blockSignals(False)
        self.model_combo.setCurrentIndex(index)
        self._on_model_chosen()

    def _add_model(self, text: str, data: tuple[str, int], *, browsed: bool = False) -> None:
        self.model_combo.addItem(text, data)
        self.model_combo.setItemData(self.model_combo.count() - 1, data[0], Qt.ItemDataRole.ToolTipRole)
        if browsed:
            self.model_combo.setItemData(self.model_combo.count() - 1, "browsed", Qt.ItemDataRole.UserRole + 1)

    def model_path(self) -> str:
        data = self.model_combo.currentData()
        return data[0] if data else ""

    def _on_model_chosen(self, *_: Any) -> None:
        data = self.model_combo.currentData()
        if data:
            self.imgsz.setValue(int(data[1]))

    def browse_model(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Choose a model"), str(self.workspace),
                                              self.tr("Models (*.pt *.onnx *.torchscript *.engine *.xml)"))
        if path:
            self.use_model_file(Path(path))

    def use_model_file(self, path: Path) -> None:
        self._add_model(path.name, (str(path), self.imgsz.value()), browsed=True)
        self.model_combo.setCurrentIndex(self.model_combo.count() - 1)

    def browse_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Choose an image or a video"), str(self.workspace),
                                              self.tr("Images and videos (*.jpg *.jpeg *.png *.bmp *.webp *.tif *.tiff *.mp4 *.avi "
                                                      "*.mov *.mkv *.webm)"))
        if path:
            self.source_edit.setText(path)

    def browse_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, self.tr("Choose a folder of images or videos"),
                                                str(self.workspace))
        if path:
            self.source_edit.setText(path)

    # -- start and stop ------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self.runner.active

    def request(self, *, trust: bool = False) -> PredictRequest:
        return PredictRequest(self.model_path(), self.source_edit.text().strip(), self.imgsz.value(),
                              self.conf_slider.value() / SCALE, self.iou_slider.value() / SCALE,
                              self.slice_size.value() if self.slice_check.isChecked() else 0,
                              self.slice_overlap.value(), trust or self.model_path() in self.trusted)

    def start(self) -> bool:
        """Check the source and build the door off the GUI thread, then start the job; False when it cannot."""
        if self.running or self.preparing:
            return False
        if not self.model_path():
            self.banner.show_message("error", self.tr("Choose a model first: a run's weights or an exported file "
                                                      "(Browse…)."))
            return False
        if not self.source_edit.text().strip():
            self.banner.show_message("error", self.tr("Give a source: an image, a folder, a video, a camera index "
                                                      "(0) or a stream's address."))
            return False
        self._prepare(self.request())
        return True

    def _prepare(self, request: PredictRequest) -> None:
        self.preparing = True
        self._set_running(True)
        self.banner.hide()
        prepare_op(self, request, self.workspace).success(self._on_prepared).failure(self._on_prepare_failed).run()

    def _on_prepare_failed(self, exc: BaseException) -> None:
        self.preparing = False
        self._set_running(False)
        message = " ".join(part for part in (getattr(exc, "message", ""), getattr(exc, "hint", "")) if part)
        self.banner.show_message("error", message or describe_failure(exc))

    def _on_prepared(self, door: Any) -> None:
        self.preparing = False
        if not door.ok:
            self._set_running(False)
            asked = [path for what, path in door.grants.askable if what == "weights"]
            if asked and not door.trust_weights and dialogs.confirm_untrusted_weights(self, asked[0]):
                self.trusted.add(self.model_path())
                self._prepare(self.request(trust=True))
                return
            self.banner.show_message("error", " ".join(p.text() for p in door.problems or [] if p.is_error))
            return
        self.names, self.floor_boxes, self.totals, self.done, self.skipped = {}, [], {}, {}, 0
        self.out = str(door.worker_spec["out"])
        self.out_label.setText(self.tr("Outputs: {path}").format(path=self.out))
        self.out_label.setToolTip(self.out)
        self.open_button.setEnabled(False)
        self.stats_label.setText(self.tr("Loading the model…"))
        self.view.set_frame(None, 0, 0)
        self.view.set_placeholder(self.tr("Loading the model…"))
        try:
            self.runner.start(door)
        except OSError as exc:  # the job's spec file could not be written (a full disk, a read-only cache)
            self._set_running(False)
            self.banner.show_message("error", describe_failure(exc))

    def stop(self) -> None:
        if self.running:
            self.runner.stop()
            self.stats_label.setText(self.tr("Stopping…"))

    def work_on_close(self) -> str:
        if not self.running:
            return ""
        return self.tr("A prediction is running; its outputs ({folder}) are closed properly only when it stops — "
                       "a video cut off by a kill does not play.").format(folder=self.out or self.tr("not created yet"))

    def stop_for_close(self, then: Callable[[], None]) -> None:
        """A graceful stop (the worker closes its video and files), then ``then``; at once when nothing runs. A
        second call while it stops kills the worker (``then`` still runs once, when it has ended)."""
        if not self.running:
            then()
        elif self._closing:
            self.runner.kill()
        else:
            self._closing = True
            self.runner.ended.connect(lambda _outcome: then(), Qt.ConnectionType.SingleShotConnection)
            self.stop()  # nothing new when Stop was pressed already: the same end is waited for

    def _set_running(self, running: bool) -> None:
        self.start_button.setEnabled(not running)
        self.stop_button.setEnabled(running and not self.preparing)
        for widget in (self.model_combo, self.model_browse, self.source_edit, self.file_button, self.folder_button,
                       self.imgsz, self.slice_check):
            widget.setEnabled(not running)
        self.slice_size.setEnabled(not running and self.slice_check.isChecked())
        self.slice_overlap.setEnabled(not running and self.slice_check.isChecked())

    # -- what the worker says ------------------------------------------------------------------------
    def _on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "stage" and event.get("stage") == "predicting":
            self._set_running(True)
            self.names = {int(k): str(v) for k, v in (event.get("names") or {}).items()}
            self.stats_label.setText(self.tr("Predicting with {backend} at {imgsz} pixels…").format(
                backend=event.get("backend", ""), imgsz=event.get("imgsz", "")))
            self.open_button.setEnabled(True)
        elif kind == "preview":
            self.show_preview(event)
        elif kind == "warning" and event.get("code") == "unreadable-image":
            self.skipped += 1
        elif kind == "done":
            self.done = event

    def show_preview(self, event: dict[str, Any]) -> None:
        """The latest frame: its picture decoded (a small JPEG, a few ms), its floor boxes filtered by the sliders."""
        image = QImage.fromData(QByteArray.fromBase64(str(event.get("jpeg", "")).encode("ascii")))
        self.view.set_frame(image, int(event.get("width", 0)), int(event.get("height", 0)))
        self.floor_boxes = [list(b) for b in event.get("boxes") or []]
        self.totals = {int(k): int(v) for k, v in (event.get("totals") or {}).items()}
        self.refilter()
        where = Path(str(event.get("image", ""))).name or str(event.get("image", ""))
        text = self.tr("{fps:.1f} frames/s · {n} done · {where}").format(fps=float(event.get("fps", 0.0)),
                                                                         n=int(event.get("frames", 0)), where=where)
        if event.get("tiles"):
            text += self.tr(" · {tiles} tiles, {ms:.0f} ms (whole image {whole:.0f} ms)").format(
                tiles=event["tiles"], ms=float(event.get("sliced_ms", 0)), whole=float(event.get("whole_ms", 0)))
        self.stats_label.setText(text)

    def shown_boxes(self) -> list[list[float]]:
        return nms(self.floor_boxes, self.iou_slider.value() / SCALE, self.conf_slider.value() / SCALE)

    def refilter(self, *_: Any) -> None:
        """The sliders moved (or a frame came): the latest frame's boxes filtered again, nothing re-run."""
        self.conf_value.setText(f"{self.conf_slider.value() / SCALE:.3f}")
        self.iou_value.setText(f"{self.iou_slider.value() / SCALE:.2f}")
        shown = self.shown_boxes()
        self.view.set_boxes(shown, self.names)
        found = counts(shown, self.names)
        text = (self.tr("This frame: {counts}").format(counts=self.tr(", ").join(f"{name} {n}" for name, n in found))
                if found else self.tr("This frame: no boxes at these thresholds."))
        written = sorted(((self.names.get(k, str(k)), n) for k, n in self.totals.items()), key=lambda i: (-i[1], i[0]))
        if written:
            text += "\n" + self.tr("Written so far (thresholds of Start): {counts}").format(
                counts=self.tr(", ").join(f"{name} {n}" for name, n in written))
        self.counts_label.setText(text)

    def _on_ended(self, outcome: JobOutcome) -> None:
        self._closing = False
        self._set_running(False)
        self.open_button.setEnabled(bool(self.out) and Path(self.out).is_dir())
        error = outcome.error()
        if error:
            self.banner.show_message("error", " ".join(part for part in (error.get("message", ""),
                                                                         error.get("hint", "")) if part))
            self.stats_label.setText(self.tr("Prediction failed."))
            if self.view.image is None:
                self.view.set_placeholder(self.tr("No frames: see the message above."))
            return
        frames = int(self.done.get("frames", 0))
        text = (tr_n("Stopped after {n} image or frame.", "Stopped after {n} images or frames.", frames)
                if outcome.status == "stopped" else tr_n("Done: {n} image or frame.", "Done: {n} images or frames.",
                                                         frames))
        if self.skipped:
            text += " " + self.tr("{n} files skipped (not readable).").format(n=self.skipped)
        if self.done.get("slice"):
            text += " " + slice_cost_words(self.done["slice"])
        self.stats_label.setText(text)

    def open_outputs(self) -> bool:
        return bool(self.out) and QDesktopServices.openUrl(QUrl.fromLocalFile(self.out))
