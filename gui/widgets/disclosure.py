"""A disclosure button: "▸ Advanced options" that shows a hidden part of a form while checked (arrow down).

The Train form's advanced options and several-machines section and the run panel's error details all fold
this way; one function makes the button and keeps its arrow and the part's visibility together.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolButton, QWidget


def disclosure_button(parent: QWidget, text: str, body: QWidget, *, tooltip: str = "",
                      auto_raise: bool = False) -> QToolButton:
    """A checkable tool button labelled ``text`` that shows ``body`` while checked; ``body`` starts hidden."""
    button = QToolButton(parent, checkable=True, text=text, autoRaise=auto_raise)
    button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
    button.setArrowType(Qt.ArrowType.RightArrow)
    if tooltip:
        button.setToolTip(tooltip)
    body.setVisible(False)

    def show(shown: bool) -> None:
        body.setVisible(shown)
        button.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)

    button.toggled.connect(show)
    return button
