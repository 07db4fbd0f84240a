"""A header sort arrow that points the way the values go: ▼ when they decrease down the column.

Qt's header hands the style ``SortUp`` for a descending sort (a Windows convention), and Fusion draws that as
▲ above a list that runs newest-first — the arrow said the opposite of the order shown. This proxy style,
set on one header, swaps the two before the real style draws the arrow.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QApplication, QHeaderView, QProxyStyle, QStyle, QStyleOptionHeader


class SortArrowStyle(QProxyStyle):
    def drawPrimitive(self, element: QStyle.PrimitiveElement, option: Any, painter: Any, widget: Any = None) -> None:
        if element == QStyle.PrimitiveElement.PE_IndicatorHeaderArrow and isinstance(option, QStyleOptionHeader):
            flipped = QStyleOptionHeader(option)
            up, down = QStyleOptionHeader.SortIndicator.SortUp, QStyleOptionHeader.SortIndicator.SortDown
            flipped.sortIndicator = down if option.sortIndicator == up else up if option.sortIndicator == down \
                else option.sortIndicator
            option = flipped
        super().drawPrimitive(element, option, painter, widget)


def arrow_follows_order(header: QHeaderView) -> None:
    """Make ``header``'s sort arrow point the way its values go (the style is owned by the header)."""
    style = SortArrowStyle(QApplication.style().name())  # not header.style(): see gui.widgets.levels.level_icon
    style.setParent(header)
    header.setStyle(style)
