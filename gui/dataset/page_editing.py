"""The Dataset page's one document and its two views: the Form and the YAML text, one history, the save.

``DocumentEditing`` is a controller the page owns (composition, not a mixin): it holds the document's state
(the file, its text as saved and as edited, the parsed ``doc`` and what its paths mean on disk) and drives
the two views it is given, the form and the YAML editor. It tells the page through signals: ``changed``
(Save's state may differ), ``message`` (a line for the banner), ``saved`` (a save landed) and ``spec_ready``.

The YAML *text* is the single source of truth: form edits become text edits (``core.dataset.yaml_edit``,
which touches only the edited characters), typed edits are parsed back after a pause, and both go through
one ``QUndoStack`` — so after a form edit, an undo or a save the text tab shows the current text, and typed
text reaches the form, marks the file unsaved and is what Save writes. The form's fields and classes come
from the parsed text at once; what the paths mean on disk (``read_spec``: the root, each split folder or
list, missing or not) is looked up by an operation and fills the previews when it answers (``spec_ready``).
A text that does not parse turns Save off, and Save's tooltip and the editor's status line say why (the
error's line and column).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack
from PySide6.QtWidgets import QTabWidget, QWidget

from core.dataset.spec import DatasetSpec
from core.dataset.yaml_doc import YamlDocument, parse_text
from core.dataset.yaml_edit import EditError, names_of, remove_key, set_names, set_value
from core.findings import Finding
from gui.dataset import dataset_dialogs, operations
from gui.dataset.dataset_form import DatasetForm
from gui.dataset.dataset_yaml_editor import YamlEditor

OPTIONAL_KEYS = ("test",)  # cleared in the form: the key goes, after asking
YAML_ERRORS = ("yaml-syntax", "yaml-not-mapping", "yaml-duplicate-key", "yaml-encoding", "yaml-too-large")


class TextEdit(QUndoCommand):
    """One edit of the YAML text, from the form or typed; undo puts the previous text back."""

    def __init__(self, document: "DocumentEditing", before: str, after: str, label: str) -> None:
        super().__init__(label)
        self.document, self.before, self.after = document, before, after

    def redo(self) -> None:
        self.document.apply_text(self.after)

    def undo(self) -> None:
        self.document.apply_text(self.before)


class DocumentEditing(QObject):
    """The data.yaml being edited: showing, editing, undoing and saving its text (see the module's docstring)."""

    changed = Signal()  # the text, the file or the save state changed: the page updates its buttons
    message = Signal(str, str)  # level, text: a line for the page's banner
    saved = Signal(Path, bool)  # a save of this file landed; whether what it touched is to be checked again
    spec_ready = Signal()  # what the text's paths mean on disk was looked up for the current text

    def __init__(self, form: DatasetForm, yaml_editor: YamlEditor, tabs: QTabWidget, parent: QWidget) -> None:
        super().__init__(parent)
        self.form, self.yaml_editor, self._tabs, self._window = form, yaml_editor, tabs, parent
        self.path: Path | None = None
        self.text = ""
        self.saved_text = ""
        self.bom = False
        self.crlf = False
        self.doc: YamlDocument | None = None
        self.spec: DatasetSpec | None = None
        self.saving = False
        self.undo_stack = QUndoStack(self)
        # Signal to signal (a C++ connection): the stack's destructor clears it, which says cleanChanged once more,
        # after this object is gone — a Python slot here would then emit from a deleted object.
        self.undo_stack.cleanChanged.connect(self.changed)
        form.field_edited.connect(self._field_edited)
        form.names_edited.connect(self._names_edited)
        yaml_editor.text_edited.connect(self._typed)
        yaml_editor.edit.undo_requested.connect(self.undo)
        yaml_editor.edit.redo_requested.connect(self.redo)

    @property
    def dirty(self) -> bool:
        return self.path is not None and (self.text != self.saved_text or self.yaml_editor.pending)

    @property
    def edited(self) -> bool:
        """The text differs from the file's (a pending, not yet parsed typing pause aside)."""
        return self.text != self.saved_text

    def commit(self) -> None:
        """Typing waiting for its pause is taken now (before a save, a check or leaving)."""
        self.yaml_editor.commit()

    def load(self, path: Path, doc: YamlDocument) -> None:
        """Show the file just read: its text is both the saved and the current one, with an empty history."""
        self.path = path
        self.bom = doc.bom
        self.crlf = "\r\n" in doc.text
        self.text = self.saved_text = doc.text
        self.undo_stack.clear()
        self.apply_text(doc.text, doc)

    def discard(self) -> None:
        """Unsaved edits are dropped: the text goes back to the file's."""
        self.undo_stack.clear()
        self.apply_text(self.saved_text)

    def yaml_error(self) -> Finding | None:
        """The parse error that keeps the text from being saved (None: it parses)."""
        return next((f for f in self.doc.findings if f.code in YAML_ERRORS), None) if self.doc else None

    def apply_text(self, text: str, doc: YamlDocument | None = None) -> None:
        """Show ``text`` everywhere (form, text view, error mark); called by open, undo, redo and every edit."""
        self.text = text
        file = str(self.path) if self.path else "data.yaml"
        if doc is None:
            doc = parse_text(text, file)
            doc.bom = self.bom
        self.doc = doc
        self.form.show_spec(doc.data, names_of(doc.data) or [], doc.editable)
        if self.path is not None and doc.ok:  # the paths' meaning on disk: looked up off the GUI thread
            operations.read_dataset_spec(self._window, doc, self.path).success(
                lambda found: self._spec_read(doc, *found)).run()
        else:
            self.spec = None
            self.form.show_paths(None, {})
        shown = text.encode("utf-8", errors="surrogateescape").decode("utf-8", errors="replace")
        self.yaml_editor.set_text(shown.replace("\r\n", "\n"))
        error = self.yaml_error()
        self.yaml_editor.set_error(None if error is None else (max(1, error.line), error.column, self.tr(
            "{message} Save is off until the text parses.").format(message=error.message)))
        self.changed.emit()

    def _spec_read(self, doc: YamlDocument, spec: DatasetSpec, states: dict[str, str]) -> None:
        if doc is not self.doc:
            return  # the text changed again meanwhile: its own answer follows
        self.spec = spec
        self.form.show_paths(spec, states)
        self.spec_ready.emit()

    def push(self, after: str, label: str) -> None:
        """``after`` becomes the text, as one step of the history (nothing when it is the text already)."""
        if after != self.text:
            self.undo_stack.push(TextEdit(self, self.text, after, label))

    def _typed(self, shown: str) -> None:
        self.push(shown.replace("\n", "\r\n") if self.crlf else shown, self.tr("Edit the YAML text"))

    def _field_edited(self, key: str, value: str) -> None:
        self.yaml_editor.commit()
        try:
            if not value and key in OPTIONAL_KEYS and self.doc is not None and self.doc.key_pair(key) is not None:
                if dataset_dialogs.confirm_remove_key(self._window, key):  # "no test split", not "test: ''"
                    self.push(remove_key(self.doc, key), self.tr("Remove {key}").format(key=key))
                else:
                    self.apply_text(self.text)  # the field shows what the file says again
                return
            self.push(set_value(self.doc, [key], value), self.tr("Set {key}").format(key=key))
        except EditError as exc:
            self.message.emit("error", str(exc))
            self.apply_text(self.text)

    def _names_edited(self, names: list[str], id_change: str) -> None:
        self.yaml_editor.commit()
        if id_change and not dataset_dialogs.confirm_id_change(self._window, id_change):
            self.apply_text(self.text)  # the table goes back to what the file says
            return
        try:
            self.push(set_names(self.doc, names), self.tr("Change the classes"))
        except EditError as exc:
            self.message.emit("error", str(exc))
            self.apply_text(self.text)

    def undo(self) -> None:
        self.yaml_editor.commit()
        self.undo_stack.undo()

    def redo(self) -> None:
        self.yaml_editor.commit()
        self.undo_stack.redo()

    def go_to_yaml(self, line: int, column: int) -> None:
        self._tabs.setCurrentWidget(self.yaml_editor)
        self.yaml_editor.go_to_line(line, column)

    # -- saving -------------------------------------------------------------------------------------
    def save_refusal(self) -> str:
        """Why Save is off now, in words ("" when it is on)."""
        if self.path is None:
            return self.tr("Open or create a data.yaml first.")
        error = self.yaml_error()
        if error is not None:
            return self.tr("Save is off: the YAML has an error at line {line} ({message}). Fix it in the YAML "
                           "tab, or undo (Ctrl+Z).").format(line=max(1, error.line), message=error.message)
        if self.saving:
            return self.tr("Saving…")
        if not self.dirty:
            return self.tr("Nothing to save: the file is as it is on disk.")
        return ""

    def save(self, *, check: bool = True) -> bool:
        """Save atomically in the background (a backup before the first overwrite), then check again what the
        edit touched; False when there is nothing to save or it cannot be (``save_refusal`` says why)."""
        self.yaml_editor.commit()
        refusal = self.save_refusal()
        if refusal:
            if self.yaml_error() is not None:
                self.message.emit("error", refusal)
            return False
        path, doc, text = self.path, self.doc, self.text
        self.saving = True
        operations.save_yaml(self._window, path, doc).success(lambda backup: self._saved(path, text, backup, check)) \
            .failure(lambda exc: self._save_failed(path, exc)).run()
        self.changed.emit()
        return True

    def save_before_leaving(self) -> bool:
        """Save now, for a window that waits to close or switch page; False (and why) when it could not.
        A background save still in flight is no reason to refuse: the same text is written again, atomically."""
        refusal = "" if self.saving and self.yaml_error() is None and self.path is not None else self.save_refusal()
        if refusal:
            self.message.emit("error", refusal)
            return False
        try:
            backup = operations.save_yaml_before_leaving(self.path, self.doc)
        except OSError as exc:
            self._save_failed(self.path, exc)
            return False
        self._saved(self.path, self.text, backup, check=False)
        return True

    def _saved(self, path: Path, text: str, backup: bool, check: bool) -> None:
        self.saving = False
        if path != self.path:
            return  # another file was opened meanwhile
        self.saved_text = text
        if text == self.text:
            self.undo_stack.setClean()
        if backup:
            self.message.emit("ok", self.tr("Saved. The original file is kept as {name}.").format(
                name=path.name + ".bak"))
        self.changed.emit()
        self.saved.emit(path, check)

    def _save_failed(self, path: Path, exc: BaseException) -> None:
        self.saving = False
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        self.message.emit("error", self.tr("Could not save {path}: {reason}").format(path=path, reason=reason))
        self.changed.emit()
