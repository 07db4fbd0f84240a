"""The Dataset page's one document and its two views: the Form and the YAML text, one history, the save.

The YAML *text* is the single source of truth: form edits become text edits (``core.dataset.yaml_edit``,
which touches only the edited characters), typed edits are parsed back after a pause, and both go through
one ``QUndoStack`` — so after a form edit, an undo or a save the text tab shows the current text, and typed
text reaches the form, marks the file unsaved and is what Save writes. The form's fields and classes come
from the parsed text at once; what the paths mean on disk (``read_spec``: the root, each split folder or
list, missing or not) is looked up by an operation and fills the previews when it answers (``spec_ready``). A text that does not parse turns
Save off, and Save's tooltip and the editor's status line say why (the error's line and column).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtGui import QUndoCommand

from core.dataset.spec import DatasetSpec
from core.dataset.yaml_doc import YamlDocument, parse_text
from core.dataset.yaml_edit import EditError, names_of, remove_key, set_names, set_value
from core.findings import Finding
from gui.dataset import dataset_dialogs, operations

if TYPE_CHECKING:
    from gui.dataset.dataset_page import DatasetPage

OPTIONAL_KEYS = ("test",)  # cleared in the form: the key goes, after asking
YAML_ERRORS = ("yaml-syntax", "yaml-not-mapping", "yaml-duplicate-key", "yaml-encoding", "yaml-too-large")


class TextEdit(QUndoCommand):
    """One edit of the YAML text, from the form or typed; undo puts the previous text back."""

    def __init__(self, page: "DatasetPage", before: str, after: str, label: str) -> None:
        super().__init__(label)
        self.page, self.before, self.after = page, before, after

    def redo(self) -> None:
        self.page.apply_text(self.after)

    def undo(self) -> None:
        self.page.apply_text(self.before)


class DocumentEditing:
    """Mixed into ``DatasetPage``: showing, editing, undoing and saving the data.yaml text."""

    def yaml_error(self: "DatasetPage") -> Finding | None:
        """The parse error that keeps the text from being saved (None: it parses)."""
        return next((f for f in self.doc.findings if f.code in YAML_ERRORS), None) if self.doc else None

    def apply_text(self: "DatasetPage", text: str, doc: YamlDocument | None = None) -> None:
        """Show ``text`` everywhere (form, text view, error mark); called by open, undo, redo and every edit."""
        self.text = text
        file = str(self.path) if self.path else "data.yaml"
        if doc is None:
            doc = parse_text(text, file)
            doc.bom = self.bom
        self.doc = doc
        self.form.show_spec(doc.data, names_of(doc.data) or [], doc.editable)
        if self.path is not None and doc.ok:  # the paths' meaning on disk: looked up off the GUI thread
            operations.read_dataset_spec(self, doc, self.path).success(
                lambda found: self._spec_read(doc, *found)).run()
        else:
            self.spec = None
            self.form.show_paths(None, {})
        shown = text.encode("utf-8", errors="surrogateescape").decode("utf-8", errors="replace")
        self.yaml_editor.set_text(shown.replace("\r\n", "\n"))
        error = self.yaml_error()
        self.yaml_editor.set_error(None if error is None else (max(1, error.line), error.column, self.tr(
            "{message} Save is off until the text parses.").format(message=error.message)))
        self._update_state()

    def _spec_read(self: "DatasetPage", doc: YamlDocument, spec: DatasetSpec, states: dict[str, str]) -> None:
        if doc is not self.doc:
            return  # the text changed again meanwhile: its own answer follows
        self.spec = spec
        self.form.show_paths(spec, states)
        self.spec_ready.emit()

    def _push(self: "DatasetPage", after: str, label: str) -> None:
        if after != self.text:
            self.undo_stack.push(TextEdit(self, self.text, after, label))

    def _typed(self: "DatasetPage", shown: str) -> None:
        self._push(shown.replace("\n", "\r\n") if self.crlf else shown, self.tr("Edit the YAML text"))

    def _field_edited(self: "DatasetPage", key: str, value: str) -> None:
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

    def _names_edited(self: "DatasetPage", names: list[str], id_change: str) -> None:
        self.yaml_editor.commit()
        if id_change and not dataset_dialogs.confirm_id_change(self, id_change):
            self.apply_text(self.text)  # the table goes back to what the file says
            return
        try:
            self._push(set_names(self.doc, names), self.tr("Change the classes"))
        except EditError as exc:
            self.banner.show_message("error", str(exc))
            self.apply_text(self.text)

    def undo(self: "DatasetPage") -> None:
        self.yaml_editor.commit()
        self.undo_stack.undo()

    def redo(self: "DatasetPage") -> None:
        self.yaml_editor.commit()
        self.undo_stack.redo()

    def _go_to_yaml(self: "DatasetPage", line: int, column: int) -> None:
        self.left_tabs.setCurrentWidget(self.yaml_editor)
        self.yaml_editor.go_to_line(line, column)

    # -- saving -------------------------------------------------------------------------------------
    def save_refusal(self: "DatasetPage") -> str:
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

    def save(self: "DatasetPage", *, check: bool = True) -> bool:
        """Save atomically in the background (a backup before the first overwrite), then check again what the
        edit touched; False when there is nothing to save or it cannot be (``save_refusal`` says why)."""
        self.yaml_editor.commit()
        refusal = self.save_refusal()
        if refusal:
            if self.yaml_error() is not None:
                self.banner.show_message("error", refusal)
            return False
        path, doc, text = self.path, self.doc, self.text
        self.saving = True
        operations.save_yaml(self, path, doc).success(lambda backup: self._saved(path, text, backup, check)) \
            .failure(lambda exc: self._save_failed(path, exc)).run()
        self._update_state()
        return True

    def save_before_leaving(self: "DatasetPage") -> bool:
        """Save now, for a window that waits to close or switch page; False (and why) when it could not.
        A background save still in flight is no reason to refuse: the same text is written again, atomically."""
        refusal = "" if self.saving and self.yaml_error() is None and self.path is not None else self.save_refusal()
        if refusal:
            self.banner.show_message("error", refusal)
            return False
        try:
            backup = operations.save_yaml_before_leaving(self.path, self.doc)
        except OSError as exc:
            self._save_failed(self.path, exc)
            return False
        self._saved(self.path, self.text, backup, check=False)
        return True

    def _saved(self: "DatasetPage", path: Path, text: str, backup: bool, check: bool) -> None:
        self.saving = False
        if path != self.path:
            return  # another file was opened meanwhile
        self.saved_text = text
        if text == self.text:
            self.undo_stack.setClean()
        if backup:
            self.banner.show_message("ok", self.tr("Saved. The original file is kept as {name}.").format(
                name=path.name + ".bak"))
        self._update_state()
        self.dataset_saved.emit(path)
        if check:
            self.check()  # what the edit touched is judged again (unchanged files come from the cache)

    def _save_failed(self: "DatasetPage", path: Path, exc: BaseException) -> None:
        self.saving = False
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        self.banner.show_message("error", self.tr("Could not save {path}: {reason}").format(path=path, reason=reason))
        self._update_state()
