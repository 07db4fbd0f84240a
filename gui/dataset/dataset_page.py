"""The Dataset page: open or create a data.yaml, edit it as a form or as text, check every image and label.

Owns the page's flow only. The YAML *text* is the single source of truth: form edits become text edits
(``core.dataset.yaml_doc``, which touches only the edited characters), typed edits are parsed back into
the form, and both go through one ``QUndoStack``. Checking runs ``core.dataset.validate`` in the
background (it spawns its own processes) with progress, ETA and Cancel; results fill the findings list,
the statistics and the gallery. Saving is atomic with a backup of the original before the first
overwrite, and leaving with unsaved edits asks first: opening another file here, and switching page or
closing the window (the window asks ``can_leave``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut, QUndoCommand, QUndoStack
from PySide6.QtWidgets import (QLabel, QPushButton, QSplitter, QStackedWidget,
                               QTabWidget, QVBoxLayout, QWidget)

from core.dataset.fixes import YAML_FIXES, apply_fix, plan_fix
from core.dataset.scan import ScanCancelled
from core.dataset.spec import DatasetSpec, read_spec, reroot_target
from core.dataset.validate import Report, validate_dataset
from core.dataset.yaml_doc import YamlDocument, parse_bytes, parse_text, save_document
from core.dataset.yaml_edit import EditError, remove_key, set_names, set_value
from core.findings import Finding, has_errors
from core.workspace import app_cache_dir
from gui.background import BackgroundTask, run_in_background
from gui.pages.page import Page
from gui.dataset import dataset_dialogs
from gui.widgets.banner import Banner
from gui.dataset.dataset_findings import FindingsView
from gui.dataset.dataset_form import DatasetForm
from gui.dataset.dataset_gallery import DatasetGallery
from gui.dataset.dataset_sources import DatasetSources
from gui.dataset.dataset_stats import DatasetStats
from gui.dataset.dataset_yaml_editor import YamlEditor
from gui.widgets.empty_state import EmptyState
from gui.widgets.page_header import PageHeader
from gui.dataset.prepare_action import PrepareAction
from gui.widgets.progress_row import ProgressRow

OPTIONAL_KEYS = ("test",)  # cleared in the form: the key goes, after asking
YAML_ERRORS = ("yaml-syntax", "yaml-not-mapping", "yaml-duplicate-key", "yaml-encoding")


def flagged_images(report: Report) -> dict[str, list[str]]:
    """Images that findings name besides their own per-image ones (duplicates, leaks, missing labels)."""
    flagged: dict[str, list[str]] = {}
    for f in report.findings:
        if Path(f.file).suffix.lower() not in (".txt", ".yaml", ".yml", ""):
            flagged.setdefault(f.file, []).append(f.code)
    return flagged


class TextEdit(QUndoCommand):
    """One edit of the YAML text, from the form or typed; undo puts the previous text back."""

    def __init__(self, page: "DatasetPage", before: str, after: str, label: str) -> None:
        super().__init__(label)
        self.page, self.before, self.after = page, before, after

    def redo(self) -> None:
        self.page.apply_text(self.after)

    def undo(self) -> None:
        self.page.apply_text(self.before)


class DatasetPage(Page):
    dataset_saved = Signal(Path)  # a save landed: the Train page checks that dataset again

    def __init__(self, workspace: Path, parent: QWidget | None = None) -> None:
        super().__init__(workspace, parent)
        self.path: Path | None = None
        self.text = ""
        self.saved_text = ""
        self.bom = False
        self.crlf = False
        self.doc: YamlDocument | None = None
        self.spec: DatasetSpec | None = None
        self.report: Report | None = None
        self._task: BackgroundTask | None = None
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(lambda _: self._update_state())

        self.open_button = QPushButton(self.tr("Open…"), self, clicked=self.choose_and_open)
        self.open_button.setToolTip(self.tr("Open a data.yaml (Ctrl+O)"))
        self.new_button = QPushButton(self.tr("New from folders…"), self, clicked=self.new_from_folders)
        self.new_button.setToolTip(self.tr("Split a folder of images and labels into train/val and write a data.yaml"))
        self.import_button = QPushButton(self.tr("Import…"), self, clicked=self.import_dataset)
        self.import_button.setToolTip(self.tr("Convert a Pascal VOC, LabelMe, COCO or YOLO export into a dataset "
                                              "(yolostudio dataset import)"))
        self.import_dialog: Any = None
        self.demo_button = QPushButton(self.tr("Use the demo"), self, clicked=self.open_demo)
        self.save_button = QPushButton(self.tr("Save"), self, clicked=self.save)
        self.save_button.setToolTip(self.tr("Save the data.yaml (Ctrl+S); the original is kept as .bak"))
        self.check_button = QPushButton(self.tr("Check"), self, clicked=self.check, default=True)
        self.check_button.setToolTip(self.tr("Check every image and label (F5)"))
        self.prepare_button = QPushButton(self.tr("Prepare resized copy…"), self,
                                          clicked=lambda: self.path is not None and self.preparer.run(self.path))
        self.prepare_button.setToolTip(self.tr("Write a copy with every image resized to the training size: large "
                                               "photos then load several times faster (yolostudio dataset prepare)"))
        self.preparer = PrepareAction(self.workspace, self)
        self.preparer.finished.connect(lambda level, text: self.banner.show_message(level, text))
        self.train_button = QPushButton(self.tr("Train with this dataset"), self, clicked=self.train_with_this)
        self.train_button.setToolTip(self.tr("Make this data.yaml the Train page's dataset and go there"))
        self.header = PageHeader(
            self.tr("Dataset"),
            self.tr("Open or create a data.yaml, fix it safely, and catch every label problem before training."),
            [self.open_button, self.new_button, self.import_button, self.demo_button, self.save_button,
             self.check_button, self.prepare_button, self.train_button], self)
        self.banner = Banner(self)
        self.progress_row = ProgressRow(self)
        self.progress_row.cancel_requested.connect(self.cancel_check)
        self.sources = DatasetSources(self.workspace, self.progress_row, self)
        self.sources.made.connect(self._made)
        self.sources.failed.connect(lambda message: self.banner.show_message("error", message))
        self.sources.busy_changed.connect(lambda busy: self.demo_button.setEnabled(not busy))

        self.form = DatasetForm(self)
        self.yaml_editor = YamlEditor(self)
        self.findings = FindingsView(self)
        self.stats = DatasetStats(self)
        self.gallery = DatasetGallery(self)
        self.file_label = QLabel(self)
        self.file_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.left_tabs = QTabWidget(self)
        self.left_tabs.addTab(self.form, self.tr("Form"))
        self.left_tabs.addTab(self.yaml_editor, self.tr("YAML"))
        self.right_tabs = QTabWidget(self)
        self.right_tabs.addTab(self.findings, self.tr("Problems"))
        self.right_tabs.addTab(self.stats, self.tr("Statistics"))
        self.right_tabs.addTab(self.gallery, self.tr("Gallery"))
        self.stack = QStackedWidget(self)
        self.empty_state = EmptyState(
            self.tr("No dataset yet — open a data.yaml, create one from folders, import another tool's labels, or "
                    "use the demo."),
            [(self.tr("Open a data.yaml…"), self.choose_and_open), (self.tr("New from folders…"), self.new_from_folders),
             (self.tr("Import VOC, LabelMe or COCO…"), self.import_dataset),
             (self.tr("Use the demo dataset"), self.open_demo)], self)
        self.stack.addWidget(self.empty_state)
        editor = QWidget(self)
        editor_layout = QVBoxLayout(editor)
        editor_layout.setContentsMargins(0, 0, 0, 0)
        editor_layout.addWidget(self.file_label)
        body = QSplitter(Qt.Orientation.Horizontal, editor, childrenCollapsible=False)
        body.addWidget(self.left_tabs)
        body.addWidget(self.right_tabs)
        body.setStretchFactor(1, 1)
        body.setSizes([480, 760])
        editor_layout.addWidget(body, 1)
        self.stack.addWidget(editor)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 8)
        layout.addWidget(self.header)
        layout.addWidget(self.banner)
        layout.addWidget(self.progress_row)
        layout.addWidget(self.stack, 1)

        self.form.field_edited.connect(self._field_edited)
        self.form.names_edited.connect(self._names_edited)
        self.yaml_editor.text_edited.connect(self._typed)
        self.yaml_editor.edit.undo_requested.connect(self.undo)
        self.yaml_editor.edit.redo_requested.connect(self.redo)
        self.findings.yaml_location.connect(self._go_to_yaml)
        self.findings.fix_requested.connect(self.fix_finding)
        self.findings.has_fix = self._has_fix
        context = Qt.ShortcutContext.WidgetWithChildrenShortcut
        QShortcut(QKeySequence.StandardKey.Save, self, self.save, context=context)
        QShortcut(QKeySequence.StandardKey.Open, self, self.choose_and_open, context=context)
        QShortcut(QKeySequence.StandardKey.Undo, self, self.undo, context=context)
        QShortcut(QKeySequence.StandardKey.Redo, self, self.redo, context=context)
        QShortcut(QKeySequence("Ctrl+Y"), self, self.redo, context=context)
        self._update_state()

    # -- state --------------------------------------------------------------------------------------
    @property
    def dirty(self) -> bool:
        return self.path is not None and (self.text != self.saved_text or self.yaml_editor.pending)

    @property
    def checking(self) -> bool:
        return self._task is not None

    def _update_state(self) -> None:
        has_file = self.path is not None
        self.save_button.setEnabled(has_file and self.dirty)
        self.check_button.setEnabled(has_file and not self.checking)
        self.train_button.setEnabled(has_file)
        self.prepare_button.setEnabled(has_file)
        if has_file:
            mark = self.tr(" — unsaved changes") if self.text != self.saved_text else ""
            self.file_label.setText(self.tr("{path}{mark}").format(path=self.path, mark=mark))

    def can_leave(self) -> bool:
        """The window asks before switching page or closing: unsaved edits are saved, discarded or kept."""
        return self.maybe_leave()

    def maybe_leave(self) -> bool:
        """True when it is fine to leave this file (saved, discarded, or nothing to save)."""
        self.yaml_editor.commit()
        if not self.dirty:
            return True
        choice = dataset_dialogs.ask_unsaved(self, self.path.name if self.path else "data.yaml")
        if choice == dataset_dialogs.SAVE:
            return self.save(check=False)  # leaving the file: no re-check to wait for
        if choice == dataset_dialogs.DISCARD:
            self.undo_stack.clear()
            self.apply_text(self.saved_text)
            return True
        return False

    def refresh(self) -> None:
        """F5: check again (only files that changed are read)."""
        self.check()

    # -- the app's current dataset ------------------------------------------------------------------
    def on_bound(self) -> None:
        self.services.current.dataset_changed.connect(self._follow_dataset)
        if self.path is None and self.services.current.dataset:
            self._follow_dataset(self.services.current.dataset)

    def _follow_dataset(self, path: str) -> None:
        """Another page chose a dataset: show it here too, unless edits here are unsaved (never ask unprompted)."""
        if self.path is not None and str(self.path.resolve()) == path:
            return
        self.yaml_editor.commit()
        if self.dirty:
            self.banner.show_message("info", self.tr(
                "The Train page now uses {path}; your unsaved edits to {name} stay here (Open… shows it).").format(
                path=path, name=self.path.name if self.path else ""))
            return
        self.open_path(Path(path), check=self.isVisible())

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        if self.path is not None and self.report is None and not self.checking:
            self.check()  # a dataset chosen on another page is checked when it is first looked at

    def train_with_this(self) -> bool:
        """Make this data.yaml the app's dataset (saved first, if edited) and show the Train page."""
        if self.path is None or not self.maybe_leave():
            return False
        self.services.current.set_dataset(self.path)
        self.services.current.show_train()
        return True

    # -- opening ------------------------------------------------------------------------------------
    def choose_and_open(self) -> None:
        start = str(self.path.parent) if self.path else str(Path.home())
        path = dataset_dialogs.choose_data_yaml(self, start)
        if path:
            self.open_path(Path(path))

    def open_path(self, path: Path, *, check: bool = True) -> bool:
        if not self.maybe_leave():
            return False
        try:
            raw = Path(path).read_bytes()
        except OSError as exc:
            self.banner.show_message("error", self.tr("Cannot open {path}: {reason}").format(
                path=path, reason=exc.strerror or exc))
            return False
        self.cancel_check()
        doc = parse_bytes(raw, str(Path(path).absolute()))
        self.path = Path(path).absolute()
        self.bom = doc.bom
        self.crlf = "\r\n" in doc.text
        self.text = self.saved_text = doc.text
        self.undo_stack.clear()
        self.report = None
        self.findings.set_findings([], str(self.path), self.tr("Not checked yet."))
        self.banner.hide()
        self.apply_text(doc.text, doc)
        self.stack.setCurrentIndex(1)
        self.services.current.set_dataset(self.path)
        if check:
            self.check()
        return True

    def open_demo(self) -> None:
        self.sources.demo()

    def new_from_folders(self) -> None:
        self.sources.from_folders()

    def import_dataset(self) -> None:
        """Issue 22's Import… flow (``gui/dataset/dataset_import_dialog.py``); the new data.yaml opens here."""
        from gui.dataset.dataset_import_dialog import DatasetImportDialog  # on demand: kept out of start-up

        dialog = DatasetImportDialog(self.workspace, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.imported.connect(self.open_path)
        dialog.train_requested.connect(lambda _path: self.train_with_this())
        dialog.destroyed.connect(lambda: setattr(self, "import_dialog", None))
        self.import_dialog = dialog
        dialog.open()

    def _made(self, path: Path, message: str) -> None:
        if self.open_path(path) and message:
            self.banner.show_message("ok", message)

    # -- editing ------------------------------------------------------------------------------------
    def apply_text(self, text: str, doc: YamlDocument | None = None) -> None:
        """Show ``text`` everywhere (form, text view, error mark); called by open, undo and redo."""
        self.text = text
        file = str(self.path) if self.path else "data.yaml"
        if doc is None:
            doc = parse_text(text, file)
            doc.bom = self.bom
        self.doc = doc
        self.spec = read_spec(doc, self.path) if self.path is not None and doc.ok else None
        self.form.show_spec(doc.data, self.spec, doc.editable)
        shown = text.encode("utf-8", errors="surrogateescape").decode("utf-8", errors="replace")
        self.yaml_editor.set_text(shown.replace("\r\n", "\n"))
        error = next((f for f in doc.findings if f.code in YAML_ERRORS), None)
        self.yaml_editor.set_error(None if error is None else (max(1, error.line), error.column, error.message))
        self._update_state()

    def _push(self, after: str, label: str) -> None:
        if after != self.text:
            self.undo_stack.push(TextEdit(self, self.text, after, label))

    def _typed(self, shown: str) -> None:
        self._push(shown.replace("\n", "\r\n") if self.crlf else shown, self.tr("Edit the YAML text"))

    def _field_edited(self, key: str, value: str) -> None:
        self.yaml_editor.commit()
        try:
            if not value and key in OPTIONAL_KEYS and self.doc is not None and self.doc.key_pair(key) is not None:
                if dataset_dialogs.confirm_remove_key(self, key):  # "no test split", not "test: ''"
                    self._push(remove_key(self.doc, key), self.tr("Remove {key}").format(key=key))
                else:
                    self.apply_text(self.text)  # the field shows what the file says again
                return
            self._push(set_value(self.doc, [key], value), self.tr("Set {key}").format(key=key))
        except EditError as exc:
            self.banner.show_message("error", str(exc))
            self.apply_text(self.text)

    def _names_edited(self, names: list[str], id_change: str) -> None:
        self.yaml_editor.commit()
        if id_change and not dataset_dialogs.confirm_id_change(self, id_change):
            self.apply_text(self.text)  # the table goes back to what the file says
            return
        try:
            self._push(set_names(self.doc, names), self.tr("Change the classes"))
        except EditError as exc:
            self.banner.show_message("error", str(exc))
            self.apply_text(self.text)

    def undo(self) -> None:
        self.yaml_editor.commit()
        self.undo_stack.undo()

    def redo(self) -> None:
        self.yaml_editor.commit()
        self.undo_stack.redo()

    def _go_to_yaml(self, line: int, column: int) -> None:
        self.left_tabs.setCurrentWidget(self.yaml_editor)
        self.yaml_editor.go_to_line(line, column)

    # -- saving -------------------------------------------------------------------------------------
    def save(self, *, check: bool = True) -> bool:
        """Save atomically (a backup before the first overwrite), then check again what the edit touched."""
        self.yaml_editor.commit()
        if self.path is None:
            return False
        first = not self.path.with_name(self.path.name + ".bak").exists()
        try:
            save_document(self.path, self.doc)  # the bytes as read, edits spliced in; atomic, with a backup
        except OSError as exc:
            self.banner.show_message("error", self.tr("Could not save {path}: {reason}").format(
                path=self.path, reason=exc.strerror or exc))
            return False
        self.saved_text = self.text
        self.undo_stack.setClean()
        self.dataset_saved.emit(self.path)
        if first and self.path.with_name(self.path.name + ".bak").exists():
            self.banner.show_message("ok", self.tr("Saved. The original file is kept as {name}.").format(
                name=self.path.name + ".bak"))
        self._update_state()
        if check:
            self.check()  # what the edit touched is judged again (unchanged files come from the cache)
        return True

    def fix_finding(self, finding: Finding) -> bool:
        """Plan the one-click fix, show what it changes, apply it on yes, then check again."""
        if finding.code in YAML_FIXES and self.path is not None:
            return self._reroot()
        plan, reason = self._plan_fix(finding)
        if plan is None:
            self.banner.show_message("info", self.tr(
                "There is no safe automatic fix for this finding{reason}; its message says what to do.").format(
                reason=f" ({reason})" if reason else ""))
            return False
        if not dataset_dialogs.confirm_fix(self, plan.summary, plan.before, plan.after):
            return False
        try:
            apply_fix(plan)
        except OSError as exc:
            self.banner.show_message("error", self.tr("The fix failed: {reason}").format(reason=exc))
            return False
        self.banner.show_message("ok", self.tr("Done: {what}.").format(what=plan.summary))
        self.check()
        return True

    def _plan_fix(self, finding: Finding) -> tuple[Any, str]:
        """The fix ``plan_fix`` would make now (None and why, when there is none)."""
        val = self.spec.splits.get("val") if self.spec else None
        val_lists = [str(p) for p in val.paths if p.is_file()] if val else []
        try:
            return plan_fix(finding, val_lists=val_lists, root=self.spec.root if self.spec else None), ""
        except OSError as exc:
            return None, str(exc)

    def _has_fix(self, finding: Finding) -> bool:
        """Fix… is enabled only when there is a fix to preview (a label file that needs no rewrite has none)."""
        return finding.code in YAML_FIXES or self._plan_fix(finding)[0] is not None

    def _reroot(self) -> bool:
        """Set ``path:`` to where the dataset most likely is now (``spec.reroot_target``): an undoable edit,
        saved when the user saves."""
        assert self.spec is not None  # the finding being fixed came from it
        target = str(reroot_target(self.spec))
        if not dataset_dialogs.confirm_fix(self, self.tr("Set 'path' to {folder}").format(folder=target), "", ""):
            return False
        try:
            self._push(set_value(self.doc, ["path"], target), self.tr("Re-root the dataset"))
        except EditError as exc:
            self.banner.show_message("error", str(exc))
            return False
        self.banner.show_message("ok", self.tr("'path' is now {folder}. Save (Ctrl+S) to keep it.").format(
            folder=target))
        self.check()
        return True

    # -- checking -----------------------------------------------------------------------------------
    def check(self) -> None:
        if self.path is None or self.checking:
            return
        self.yaml_editor.commit()
        path, doc = self.path, parse_text(self.text, str(self.path))
        cache_dir = app_cache_dir(self.workspace) / "dataset-check"
        self.progress_row.start(self.tr("Checking images and labels…"))

        def job(progress: Any, cancelled: Any) -> Report:
            return validate_dataset(path, progress=progress, cancelled=cancelled, cache_dir=cache_dir, doc=doc)

        self._task = run_in_background(self, job, on_done=self._checked, on_failed=self._check_failed,
                                       on_progress=self.progress_row.update_counts)
        self._update_state()

    def cancel_check(self) -> None:
        if self._task is not None:
            self._task.cancel()

    def _checked(self, report: Report) -> None:
        self._task = None
        self.progress_row.hide()
        self.report = report
        counts = report.stats.get("findings", {})
        scan = report.stats.get("scan", {})
        summary = self.tr("Errors: {e} · warnings: {w} · notes: {i} — {files} files checked in {s} s "
                          "({cached} unchanged since the last check)").format(
            e=counts.get("error", 0), w=counts.get("warning", 0), i=counts.get("info", 0),
            files=scan.get("files", 0), s=scan.get("seconds", 0), cached=scan.get("from_cache", 0))
        self.findings.set_findings(report.findings, report.yaml_file, summary)
        self.stats.show_stats(report.stats)
        self.gallery.set_records(report.images, report.names, flagged_images(report))
        if has_errors(report.findings):
            self.banner.show_message("error", self.tr(
                "Errors found ({e}): yolov5 would drop images or stop. See the Problems list.").format(
                e=counts.get("error", 0)))
        elif counts.get("warning"):
            self.banner.show_message("warning", self.tr(
                "No errors; warnings worth a look ({w}) in the Problems list.").format(w=counts["warning"]))
        else:
            self.banner.show_message("ok", self.tr("No problems found: the dataset is ready to train."))
        self._update_state()

    def _check_failed(self, exc: BaseException) -> None:
        self._task = None
        self.progress_row.hide()
        if isinstance(exc, ScanCancelled):
            self.banner.show_message("info", self.tr("Check cancelled. Files checked so far are remembered."))
        else:
            self.banner.show_message("error", self.tr("The check failed: {reason}").format(reason=exc))
        self._update_state()
