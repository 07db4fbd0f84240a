"""The Dataset page: open or create a data.yaml, edit it as a form or as text, check every image and label.

Owns the page's widgets and flow: opening (a file, the demo, a folder, an import) and leaving. The rest is
done by three controllers the page owns and calls (composition: each is given the views it drives and
speaks back through signals): ``DocumentEditing`` (``page_editing``: one document, two views, one history,
the save), ``DatasetChecking`` (``page_checking``: the background check and its three tabs) and
``FindingFixes`` (``page_fixes``: Fix… and Undo fix). Every call into core that touches the disk is an
operation of ``gui/dataset/operations.py``. Leaving with unsaved edits asks first: opening another file
here, and switching page or closing the window (the window asks ``can_leave``). ``dataset_saved(Path)`` says
a save landed, so the Train page checks again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QLabel, QPushButton, QSplitter, QStackedWidget, QTabWidget, QVBoxLayout, QWidget

from core.dataset.validate import Report
from core.dataset.yaml_doc import YamlDocument
from core.findings import Finding
from gui.dataset import dataset_dialogs, operations
from gui.dataset.dataset_findings import PREVIEW_BYTES, FindingsView
from gui.dataset.dataset_form import DatasetForm
from gui.dataset.dataset_gallery import DatasetGallery
from gui.dataset.dataset_sources import DatasetSources
from gui.dataset.dataset_stats import DatasetStats
from gui.dataset.dataset_yaml_editor import YamlEditor
from gui.dataset.page_checking import DatasetChecking
from gui.dataset.page_editing import DocumentEditing
from gui.dataset.page_fixes import FindingFixes
from gui.dataset.prepare_action import PrepareAction
from gui.pages.page import Page
from gui.widgets.banner import Banner
from gui.widgets.empty_state import EmptyState
from gui.widgets.page_header import PageHeader
from gui.widgets.progress_row import ProgressRow
from gui.widgets.scrolled import scrolled


class DatasetPage(Page):
    #: the dataset's files were written — the data.yaml saved (Save, or before leaving), or a fix applied or
    #: undone in its label or list files: whoever judged the dataset (the Train page) judges it again
    dataset_saved = Signal(Path)
    #: a data.yaml is open and shown (tests and the demo flow wait on it)
    opened = Signal(Path)
    #: what the text's paths mean on disk (``spec``) was looked up for the current text
    spec_ready = Signal()

    def __init__(self, workspace: Path, parent: QWidget | None = None) -> None:
        super().__init__(workspace, parent)
        self.opening: Path | None = None  # a file being read

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
        self.form_scroll = scrolled(self.form, self)  # a long form scrolls: the page fits 1280×720 with the guide
        self.left_tabs.addTab(self.form_scroll, self.tr("Form"))
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

        self.document = DocumentEditing(self.form, self.yaml_editor, self.left_tabs, self)
        self.checker = DatasetChecking(self.workspace, self.document, self.progress_row, self.findings, self.stats,
                                       self.gallery, self)
        self.fixes = FindingFixes(self.document, self.checker, self.findings, self)
        for controller in (self.document, self.checker):
            controller.changed.connect(self._update_state)
        for controller in (self.document, self.checker, self.fixes):
            controller.message.connect(self.banner.show_message)
        self.document.saved.connect(self._saved)
        self.document.spec_ready.connect(self.spec_ready)
        self.fixes.files_changed.connect(self.dataset_saved)
        self.findings.yaml_location.connect(self.document.go_to_yaml)
        self.findings.finding_opened.connect(self._finding_opened)
        context = Qt.ShortcutContext.WidgetWithChildrenShortcut
        QShortcut(QKeySequence.StandardKey.Save, self, self.save, context=context)
        QShortcut(QKeySequence.StandardKey.Open, self, self.choose_and_open, context=context)
        QShortcut(QKeySequence.StandardKey.Undo, self, self.undo, context=context)
        QShortcut(QKeySequence.StandardKey.Redo, self, self.redo, context=context)
        QShortcut(QKeySequence("Ctrl+Y"), self, self.redo, context=context)
        self._update_state()

    # -- state (the controllers'; read here by the window, the guide and tests) ---------------------
    @property
    def path(self) -> Path | None:
        return self.document.path

    @property
    def text(self) -> str:
        return self.document.text

    @property
    def doc(self) -> YamlDocument | None:
        return self.document.doc

    @property
    def dirty(self) -> bool:
        return self.document.dirty

    @property
    def saving(self) -> bool:
        return self.document.saving

    @property
    def report(self) -> Report | None:
        return self.checker.report

    @property
    def checking(self) -> bool:
        return self.checker.checking

    def save(self) -> bool:
        return self.document.save()

    def undo(self) -> None:
        self.document.undo()

    def redo(self) -> None:
        self.document.redo()

    def check(self) -> None:
        self.checker.check()

    def cancel_check(self) -> None:
        self.checker.cancel()

    def _saved(self, path: Path, check: bool) -> None:
        self.dataset_saved.emit(path)
        if check:
            self.check()  # what the edit touched is judged again (unchanged files come from the cache)

    def _update_state(self) -> None:
        has_file = self.path is not None
        refusal = self.document.save_refusal()
        self.save_button.setEnabled(not refusal)
        self.save_button.setToolTip(refusal or self.tr("Save the data.yaml (Ctrl+S); the original is kept as .bak"))
        self.check_button.setEnabled(has_file and not self.checking)
        self.train_button.setEnabled(has_file)
        self.prepare_button.setEnabled(has_file)
        if has_file:
            mark = self.tr(" — unsaved changes") if self.document.edited else ""
            self.file_label.setText(self.tr("{path}{mark}").format(path=self.path, mark=mark))

    def can_leave(self) -> bool:
        """The window asks before switching page or closing: unsaved edits are saved, discarded or kept."""
        return self.maybe_leave()

    def maybe_leave(self) -> bool:
        """True when it is fine to leave this file (saved, discarded, or nothing to save)."""
        self.document.commit()
        if not self.dirty:
            return True
        choice = dataset_dialogs.ask_unsaved(self, self.path.name if self.path else "data.yaml")
        if choice == dataset_dialogs.SAVE:
            return self.document.save_before_leaving()  # leaving the file: no re-check to wait for
        if choice == dataset_dialogs.DISCARD:
            self.document.discard()
            return True
        return False

    def _finding_opened(self, finding: Finding) -> None:
        """A finding was chosen in the Problems list: its file is read for the preview, its fix planned."""
        operations.read_preview(self, Path(finding.file), PREVIEW_BYTES) \
            .success(lambda text: self.findings.show_preview(finding, text)) \
            .failure(lambda exc: self.findings.show_preview(finding, str(exc))).run()
        self.fixes.plan_fix_of(finding)

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
        self.document.commit()
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
        """Read ``path`` in the background and show it; False when the user kept unsaved edits instead."""
        if not self.maybe_leave():
            return False
        path = Path(path).absolute()
        self.opening = path
        operations.load_yaml(self, path).success(lambda doc: self._opened(path, doc, check)) \
            .failure(lambda exc: self._open_failed(path, exc)).run()
        return True

    def _open_failed(self, path: Path, exc: BaseException) -> None:
        if self.opening == path:
            self.opening = None
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        self.banner.show_message("error", self.tr("Cannot open {path}: {reason}").format(path=path, reason=reason))

    def _opened(self, path: Path, doc: YamlDocument, check: bool) -> None:
        if self.opening != path:
            return  # another file was asked for meanwhile
        self.opening = None
        self.cancel_check()
        self.checker.forget()
        self.fixes.forget()
        self.findings.set_findings([], str(path), self.tr("Not checked yet."))
        self.banner.hide()
        self.document.load(path, doc)
        self.stack.setCurrentIndex(1)
        self.services.current.set_dataset(self.path)
        if check:
            self.check()
        self.opened.emit(path)

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
            self.checker.made_message = message  # the check's verdict would replace it: shown with that (``_checked``)
