"""The box editor in a window of its own, for one image: the Errors browser's "Edit the boxes" opens it on the
row's image with the box the row points at selected. Enter writes and closes; Escape with nothing selected, or
closing the window, leaves the file as it was."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QDialog, QLabel, QVBoxLayout, QWidget

from gui.labelling import operations
from gui.labelling.box_editor import BoxEditor
from gui.widgets.banner import Banner

if TYPE_CHECKING:
    from pathlib import Path

    from core.boxedit.session import EditSession


def keys_hint() -> str:
    """The editor's keys in one line (shared by every host)."""
    return QCoreApplication.translate("BoxEditor", "Drag to draw, drag a box to move it, its edge to resize · 1–9 class · Delete · "
                                      "Tab next box · Space / R confirm / reject proposals · D / A next / previous "
                                      "image · Ctrl+Z / Ctrl+Y · +/−/0 zoom · Enter accept and write")


class BoxEditorDialog(QDialog):
    """One image's boxes edited; ``written(edit)`` once the file is written (the host's undo takes it)."""

    written = Signal(object)

    def __init__(self, parent: QWidget | None, image: str, label: Path | Callable[[], Path], width: int,
                 height: int, names: list[str], point_at: tuple[int, tuple[float, float, float, float]] | None
                 = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Edit the boxes — {name}").format(name=image.rsplit("/", 1)[-1]))
        self.editor = BoxEditor(self)
        self.banner = Banner(self)
        self.hint = QLabel(keys_hint(), self, wordWrap=True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.hint)
        self.editor.failed.connect(lambda words: self.banner.show_message("error", words))
        self.editor.saved.connect(self._saved)
        self.editor.accepted.connect(self.accept)
        self._image, self._names, self._point_at = image, names, point_at
        self.resize(1000, 700)
        operations.open_session(self, label, width, height).success(self._opened) \
            .failure(lambda exc: self.banner.show_message("error", str(exc) or type(exc).__name__)).run()

    def _opened(self, session: EditSession) -> None:
        select = session.find(*self._point_at) if self._point_at else -1
        self.editor.show_image(self._image, session, self._names, select=select)
        self.editor.setFocus(Qt.FocusReason.OtherFocusReason)

    def _saved(self, edit: object) -> None:
        if edit is not None:
            self.written.emit(edit)
