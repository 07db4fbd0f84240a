"""The Dataset page's Import… dialog: another tool's export (VOC, LabelMe, COCO, YOLO) as a YOLO dataset.

The flow of issue 22, in one window: pick a folder or a COCO .json; Look (the ``dataset_import`` worker in
``preview`` mode: nothing written) shows what was found — images, annotations, backgrounds, each class with
its box count, names spelled two ways, and every annotation that cannot be converted with its reason; the
user renames (two rows with one name merge), drops (unchecks) classes and picks the split; Import writes
the dataset in the worker (progress, Cancel: nothing is left behind), which checks it with the validator;
then "Train with this dataset". All reading and writing is the worker's (``core.worker.import_job``);
this module holds no rule — class maps and options are ``core.dataset.importers``'.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDoubleSpinBox, QFormLayout, QHBoxLayout, QLabel,
                               QLineEdit, QPlainTextEdit, QProgressBar, QPushButton, QSpinBox, QTableWidget,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from core.dataset.importers.classes import ClassMap, output_names, spelling_variants
from core.dataset.importers.convert import ConvertOptions
from core.dataset.importers.plan import ImportOptions, options_to_json
from core.i18n import tr_n
from core.job.jobs import JobOutcome
from core.usecases.jobs import DatasetImportDoor
from gui.job_runner import JobRunner, Launcher, default_launcher
from gui.screen_fit import fit_to_screen

MAX_LISTED = 500  # problems shown in the list; the report file has them all
SOURCE_COL, BOXES_COL, NAME_COL = 0, 1, 2


def _tr(text: str) -> str:
    return QCoreApplication.translate("DatasetImportDialog", text)


def choose_source_folder(parent: QWidget, start: str) -> str:
    """Module functions so tests answer them instead of a file dialog."""
    from PySide6.QtWidgets import QFileDialog

    return QFileDialog.getExistingDirectory(parent, _tr("The export's folder"), start)


def choose_coco_file(parent: QWidget, start: str) -> str:
    from PySide6.QtWidgets import QFileDialog

    path, _ = QFileDialog.getOpenFileName(parent, _tr("A COCO annotation file"), start, _tr("COCO JSON (*.json)"))
    return path


def choose_out_folder(parent: QWidget, start: str) -> str:
    from PySide6.QtWidgets import QFileDialog

    return QFileDialog.getExistingDirectory(parent, _tr("Where to write the new dataset"), start)


class DatasetImportDialog(QDialog):
    imported = Signal(object)  # the new data.yaml (Path)
    train_requested = Signal(object)  # the new data.yaml, to train with

    def __init__(self, workspace: Path, parent: QWidget | None = None, *,
                 launcher: Launcher = default_launcher) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.setWindowTitle(self.tr("Import a dataset"))
        self.runner = JobRunner(self, launcher=launcher)
        self.runner.event.connect(self._event)
        self.runner.ended.connect(self._ended)
        self.mode = ""
        self.preview: dict[str, Any] | None = None
        self.result: dict[str, Any] | None = None

        self.source_edit = QLineEdit(self, placeholderText=self.tr("A folder, or a COCO .json file"))
        folder_button = QPushButton(self.tr("Folder…"), self, clicked=self._pick_folder)
        coco_button = QPushButton(self.tr("COCO file…"), self, clicked=self._pick_coco)
        self.format_combo = QComboBox(self)
        for value, words in (("auto", self.tr("Detect")), ("voc", "Pascal VOC"), ("labelme", "LabelMe"),
                             ("coco", "COCO"), ("yolo", "YOLO")):
            self.format_combo.addItem(words, value)
        self.source_edit.returnPressed.connect(self.look)  # a typed path: Enter looks, as the button does
        self.look_button = QPushButton(self.tr("Look"), self, clicked=self.look)
        self.look_button.setToolTip(self.tr("Read the export and show what it holds; nothing is written"))
        source_row = QHBoxLayout()
        for widget in (self.source_edit, folder_button, coco_button, self.format_combo, self.look_button):
            source_row.addWidget(widget)
        source_row.setStretch(0, 1)

        self.summary = QLabel(self.tr("Pick the export, then Look."), self, wordWrap=True)
        self.classes = QTableWidget(0, 3, self)
        self.classes.setHorizontalHeaderLabels([self.tr("Class in the export"), self.tr("Boxes"),
                                                self.tr("Name in the dataset")])
        self.classes.horizontalHeader().setStretchLastSection(True)
        self.classes.verticalHeader().hide()
        self.classes.setToolTip(self.tr("Uncheck a class to leave it out; give two classes one name to merge them"))
        self.merge_button = QPushButton(self.tr("Merge spellings"), self, clicked=self.merge_variants, enabled=False)
        self.merge_button.setToolTip(self.tr("Give every class spelled several ways its commonest spelling"))
        self.order_label = QLabel(self, wordWrap=True)  # the classes as they will be written, ids first
        self.order_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.classes.itemChanged.connect(lambda item: self.show_order())
        self.problems = QPlainTextEdit(self, readOnly=True)
        self.problems.setPlaceholderText(self.tr("Annotations that cannot be converted are listed here, with why."))
        self.problems.setMaximumBlockCount(MAX_LISTED + 2)

        self.train_share = self._share(80)
        self.val_share = self._share(20)
        self.test_share = self._share(0)
        split_row = QHBoxLayout()
        for words, box in ((self.tr("train"), self.train_share), (self.tr("val"), self.val_share),
                           (self.tr("test"), self.test_share)):
            split_row.addWidget(QLabel(words, self))
            split_row.addWidget(box)
        self.seed = QSpinBox(self, minimum=0, maximum=2**31 - 1)
        split_row.addWidget(QLabel(self.tr("seed"), self))
        split_row.addWidget(self.seed)
        split_row.addStretch(1)
        self.polygons = QComboBox(self, sizeAdjustPolicy=QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.polygons.addItem(self.tr("their bounding box"), "bbox")
        self.polygons.addItem(self.tr("kept as segments"), "segments")
        self.difficult = QCheckBox(self.tr("Keep VOC objects marked difficult"), self)
        self.crowd = QCheckBox(self.tr("Keep COCO crowd regions"), self)
        self.copy_images = QCheckBox(self.tr("Copy the images (else hard links where possible)"), self)
        self.out_edit = QLineEdit(self, placeholderText=self.tr("A new, empty folder"))
        out_button = QPushButton(self.tr("Choose…"), self, clicked=self._pick_out)
        out_row = QHBoxLayout()
        out_row.addWidget(self.out_edit, 1)
        out_row.addWidget(out_button)
        form = QFormLayout()
        form.addRow(self.tr("Split (shares)"), split_row)
        polygons_row = QHBoxLayout()
        polygons_row.addWidget(self.polygons)
        polygons_row.addStretch(1)
        form.addRow(self.tr("Polygons"), polygons_row)
        form.addRow("", self.difficult)
        form.addRow("", self.crowd)
        form.addRow("", self.copy_images)
        form.addRow(self.tr("Write to"), out_row)

        self.progress = QProgressBar(self, visible=False)
        self.cancel_button = QPushButton(self.tr("Cancel"), self, clicked=self.runner.stop, visible=False)
        self.status = QLabel(self, wordWrap=True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.import_button = QPushButton(self.tr("Import"), self, clicked=self.start_import, enabled=False,
                                         default=True)
        self.train_button = QPushButton(self.tr("Train with this dataset"), self, visible=False,
                                        clicked=self._train)
        close_button = QPushButton(self.tr("Close"), self, clicked=self.reject)
        buttons = QHBoxLayout()
        buttons.addWidget(self.progress, 1)
        buttons.addWidget(self.cancel_button)
        buttons.addStretch(0)
        for button in (self.import_button, self.train_button, close_button):
            buttons.addWidget(button)

        layout = QVBoxLayout(self)
        layout.addLayout(source_row)
        layout.addWidget(self.summary)
        class_row = QHBoxLayout()
        class_row.addWidget(self.classes, 1)
        class_row.addWidget(self.problems, 1)
        layout.addLayout(class_row, 1)
        merge_row = QHBoxLayout()
        merge_row.addWidget(self.merge_button)
        merge_row.addWidget(self.order_label, 1)
        layout.addLayout(merge_row)
        layout.addLayout(form)
        layout.addWidget(self.status)
        layout.addLayout(buttons)
        fit_to_screen(self, 960, 640)

    def _share(self, value: int) -> QDoubleSpinBox:
        box = QDoubleSpinBox(self, minimum=0, maximum=100, decimals=0, suffix=" %")
        box.setValue(value)
        return box

    # -- choosing ------------------------------------------------------------------------------------
    def _start_dir(self) -> str:
        text = self.source_edit.text().strip()
        return str(Path(text).parent if text else Path.home())

    def _pick_folder(self) -> None:
        path = choose_source_folder(self, self._start_dir())
        if path:
            self.set_source(path)

    def _pick_coco(self) -> None:
        path = choose_coco_file(self, self._start_dir())
        if path:
            self.set_source(path)

    def _pick_out(self) -> None:
        path = choose_out_folder(self, self._start_dir())
        if path:
            self.out_edit.setText(path)

    def set_source(self, path: str) -> None:
        self.source_edit.setText(path)
        self.look()

    def _propose_out(self) -> None:
        """An empty "Write to" gets ``<export>-yolo`` beside the export, whether the path was browsed or typed."""
        text = self.source_edit.text().strip()
        if text and not self.out_edit.text().strip():
            source = Path(text).expanduser()
            base = source.parent if source.suffix.lower() == ".json" else source  # a COCO file: its folder
            self.out_edit.setText(str(base.parent / f"{base.name}-yolo"))

    # -- the options the user set -----------------------------------------------------------------------
    def class_map(self) -> ClassMap:
        rename, drop = {}, set()
        for row in range(self.classes.rowCount()):
            source_item, name_item = self.classes.item(row, SOURCE_COL), self.classes.item(row, NAME_COL)
            source = source_item.data(Qt.ItemDataRole.UserRole)
            if source_item.checkState() != Qt.CheckState.Checked:
                drop.add(source)
            elif name_item.text().strip() and name_item.text().strip() != source:
                rename[source] = name_item.text().strip()
        return ClassMap(rename, drop)

    def options(self) -> ImportOptions:
        return ImportOptions(
            fmt=self.format_combo.currentData(),
            ratios=(self.train_share.value(), self.val_share.value(), self.test_share.value()),
            seed=self.seed.value(), classes=self.class_map(), link="copy" if self.copy_images.isChecked() else "auto",
            convert=ConvertOptions(segments=self.polygons.currentData() == "segments",
                                   difficult=self.difficult.isChecked(), crowd=self.crowd.isChecked()))

    # -- running ------------------------------------------------------------------------------------
    def _start(self, mode: str, **extra: Any) -> None:
        source = self.source_edit.text().strip()
        if not source or self.runner.active:
            return
        self.mode = mode
        spec = {"workspace": str(self.workspace), "source": source, "mode": mode,
                "options": options_to_json(self.options()), **extra}
        self._busy(True)
        self.status.setText(self.tr("Reading the export…") if mode == "preview" else self.tr("Importing…"))
        try:
            self.runner.start(DatasetImportDoor(spec, self.workspace))
        except OSError as exc:
            self._busy(False)
            self.status.setText(self.tr("Cannot start the import: {reason}").format(reason=exc.strerror or exc))

    def look(self) -> None:
        self.train_button.hide()
        self._propose_out()
        self._start("preview")

    def start_import(self) -> None:
        out = self.out_edit.text().strip()
        if not out:
            self.status.setText(self.tr("Choose where to write the new dataset."))
            return
        if self.train_share.value() <= 0:
            self.status.setText(self.tr("The train share must be above 0 %."))
            return
        self._start("write", out=out)

    def _busy(self, busy: bool) -> None:
        self.progress.setVisible(busy)
        self.progress.setRange(0, 0)
        self.cancel_button.setVisible(busy)
        self.look_button.setEnabled(not busy)
        self.import_button.setEnabled(not busy and self.preview is not None)

    def _event(self, event: dict) -> None:
        if event.get("type") == "import_progress" and event.get("total"):
            self.progress.setRange(0, int(event["total"]))
            self.progress.setValue(int(event["done"]))
            words = {"reading": self.tr("Reading images"), "writing": self.tr("Writing the dataset"),
                     "checking": self.tr("Checking the result")}
            self.progress.setFormat(f"{words.get(event['phase'], event['phase'])}: %v / %m")

    def _ended(self, outcome: JobOutcome) -> None:
        self._busy(False)
        report = outcome.done.get("report") if outcome.done else None
        if outcome.status == "stopped":
            self.status.setText(self.tr("Cancelled; nothing was written."))
        elif outcome.failed or not isinstance(report, dict):
            hint = f"\n{outcome.hint}" if outcome.hint else ""
            self.status.setText(self.tr("The import failed: {reason}").format(reason=outcome.message) + hint)
        elif self.mode == "preview":
            self.show_preview(report)
        else:
            self.show_result(report)
        self.import_button.setEnabled(self.preview is not None and not self.runner.active)

    # -- showing -------------------------------------------------------------------------------------
    def show_preview(self, report: dict[str, Any]) -> None:
        self.preview = report
        counts = report.get("counts", {})
        summary = self.tr(
            "{fmt}: {images} images, {boxes} annotations, {bg} without objects (kept as backgrounds); {clipped} boxes "
            "cut to the image's edge, {rotated} images turned with their EXIF orientation.").format(
            fmt=self.format_combo.itemText(max(self.format_combo.findData(report["format"]), 0)),
            images=report["images"], boxes=report["annotations"],
            bg=counts.get("background", 0), clipped=counts.get("clipped", 0), rotated=counts.get("exif_rotated", 0))
        left_out = []
        if counts.get("difficult"):
            left_out.append(tr_n("{n} object marked difficult left out (“Keep VOC objects marked difficult” keeps it)",
                                 "{n} objects marked difficult left out (“Keep VOC objects marked difficult” keeps "
                                 "them)", counts["difficult"]))
        if counts.get("crowd"):
            left_out.append(tr_n("{n} crowd region left out (“Keep COCO crowd regions” keeps it)",
                                 "{n} crowd regions left out (“Keep COCO crowd regions” keeps them)", counts["crowd"]))
        left_out_words = self.tr("{items}.").format(items=self.tr("; ").join(left_out)) if left_out else ""
        self.summary.setText(summary + ("\n" + left_out_words if left_out else ""))
        self.classes.blockSignals(True)  # a row half filled is no class map: the order is shown once filled
        self.classes.setRowCount(0)
        for name, boxes in report["classes"].items():
            row = self.classes.rowCount()
            self.classes.insertRow(row)
            source = QTableWidgetItem(name)
            source.setData(Qt.ItemDataRole.UserRole, name)
            source.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
            source.setCheckState(Qt.CheckState.Checked)
            count = QTableWidgetItem(str(boxes))
            count.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.classes.setItem(row, SOURCE_COL, source)
            self.classes.setItem(row, BOXES_COL, count)
            self.classes.setItem(row, NAME_COL, QTableWidgetItem(name))
        self.classes.blockSignals(False)
        self.classes.resizeColumnsToContents()
        self.show_order()
        variants = report.get("variants", [])
        self.merge_button.setEnabled(bool(variants))
        lines = [self.tr("Spelled several ways: {names}").format(names=" / ".join(repr(n) for n in group))
                 for group in variants]
        lost = report.get("skipped", [])
        if lost:
            lines.append(self.tr("Cannot be converted ({n}):").format(n=report.get("skipped_total", len(lost))))
        lines += [f"{item['reason']}: {item['file']}: {item['message']}" for item in lost[:MAX_LISTED]]
        lines += [f"{item['reason']}: {item['file']}: {item['message']}" for item in report.get("notes", [])[:50]]
        self.problems.setPlainText("\n".join(lines))
        self.status.setText(self.tr("Nothing written yet. Rename, merge or drop classes, choose the split, then "
                                    "Import."))

    def written_names(self) -> list[str]:
        """The classes the import will write, in id order, with the renames, merges and drops set now."""
        if self.preview is None:
            return []
        seen = self.preview.get("seen_order") or list(self.preview.get("classes", {}))
        return output_names(self.class_map(), list(self.preview.get("class_order") or []), seen)

    def show_order(self) -> None:
        names = self.written_names()
        self.order_label.setText(self.tr("Written as: {classes}").format(
            classes=self.tr(", ").join(f"{i} {name}" for i, name in enumerate(names))) if names else
            self.tr("No class is kept: only backgrounds would be written.") if self.preview is not None else "")

    def merge_variants(self) -> None:
        if self.preview is None:
            return
        for group in spelling_variants(Counter(self.preview["classes"])):
            for row in range(self.classes.rowCount()):
                if self.classes.item(row, SOURCE_COL).data(Qt.ItemDataRole.UserRole) in group:
                    self.classes.item(row, NAME_COL).setText(group[0])

    def show_result(self, report: dict[str, Any]) -> None:
        self.result = report
        splits, check = report["splits"], report.get("check", {})
        verdict = (self.tr("The check found no errors.") if check.get("ok") else
                   self.tr("The check found {n} errors: open it on the Dataset page to see them.").format(
                       n=check.get("errors", 0)))
        self.status.setText(self.tr("Wrote {path}: train {train}, val {val}, test {test} images, {boxes} boxes. "
                                    "{verdict}").format(path=report["data_yaml"], train=splits["train"],
                                                        val=splits["val"], test=splits["test"],
                                                        boxes=report["boxes"], verdict=verdict))
        self.train_button.setVisible(bool(check.get("ok")))
        self.imported.emit(Path(report["data_yaml"]))

    def _train(self) -> None:
        if self.result is not None:
            self.train_requested.emit(Path(self.result["data_yaml"]))
            self.accept()

    def reject(self) -> None:
        if self.runner.active:
            self.runner.stop()  # the worker removes its temporary folder; nothing is left half-written
        super().reject()
