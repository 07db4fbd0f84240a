"""A slot in a layout whose widget is built the first time somebody needs it, not when the page is.

Start-up pays for what the first screen shows, nothing more (issue 15): the Train page's plots import
pyqtgraph and numpy (about 0.3 s) and build a dozen plot items, yet before the first run there is nothing
to plot. Until ``widget()`` is first asked for, the slot shows one line that says what will appear there;
then it builds the widget with its factory (the heavy import happens inside the factory) and shows it in
the same place.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QStackedLayout, QWidget


class DeferredWidget(QWidget):
    def __init__(self, factory: Callable[[QWidget], QWidget], empty_text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._factory = factory
        self._widget: QWidget | None = None
        self.empty = QLabel(empty_text, self)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.empty.setEnabled(False)  # the palette's muted text: a note, not content
        self._stack = QStackedLayout(self)
        self._stack.setContentsMargins(0, 0, 0, 0)
        self._stack.addWidget(self.empty)

    @property
    def built(self) -> bool:
        return self._widget is not None

    def widget(self) -> QWidget:
        """The real widget, built (and shown in place of the note) on the first call."""
        if self._widget is None:
            self._widget = self._factory(self)
            self._stack.addWidget(self._widget)
            self._stack.setCurrentWidget(self._widget)
            self.updateGeometry()
        return self._widget
