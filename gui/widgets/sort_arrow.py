"""A header sort arrow that points the way the values go (▼ when they decrease down the column), beside the text.

Qt's header hands the style ``SortUp`` for a descending sort (a Windows convention), and Fusion draws that as
▲ above a list that runs newest-first — the arrow said the opposite of the order shown. This proxy style,
set on one header, swaps the two before the real style draws the arrow. It also ends the label's rectangle
before the arrow: Qt's common style leaves the label a few pixels over the arrow's place (``SE_HeaderLabel``
takes off half the header's height, ``SE_HeaderArrow`` starts further left), so a right-aligned title such as a
number column's ("Epochs") was drawn under the arrow.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRect
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

    def drawControl(self, element: QStyle.ControlElement, option: Any, painter: Any, widget: Any = None) -> None:
        """``CE_Header`` as Qt's common style draws it (section, label, arrow), with the label's rectangle from
        ``subElementRect`` below: Qt's own asks its base class, past a proxy."""
        if element != QStyle.ControlElement.CE_Header or not isinstance(option, QStyleOptionHeader):
            super().drawControl(element, option, painter, widget)
            return
        painter.save()
        painter.setClipRect(option.rect)
        self.drawControl(QStyle.ControlElement.CE_HeaderSection, option, painter, widget)
        part = QStyleOptionHeader(option)
        part.rect = self.subElementRect(QStyle.SubElement.SE_HeaderLabel, option, widget)
        if part.rect.isValid():
            self.drawControl(QStyle.ControlElement.CE_HeaderLabel, part, painter, widget)
        if option.sortIndicator != QStyleOptionHeader.SortIndicator.None_:
            part.rect = self.subElementRect(QStyle.SubElement.SE_HeaderArrow, option, widget)
            self.drawPrimitive(QStyle.PrimitiveElement.PE_IndicatorHeaderArrow, part, painter, widget)
        painter.restore()

    def subElementRect(self, element: QStyle.SubElement, option: Any, widget: Any = None) -> QRect:
        rect = super().subElementRect(element, option, widget)
        if element == QStyle.SubElement.SE_HeaderLabel and isinstance(option, QStyleOptionHeader) \
                and option.sortIndicator != QStyleOptionHeader.SortIndicator.None_ \
                and option.state & QStyle.StateFlag.State_Horizontal:
            arrow = super().subElementRect(QStyle.SubElement.SE_HeaderArrow, option, widget)
            gap = self.pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, option, widget)
            if arrow.isValid() and arrow.left() > rect.left() and rect.right() >= arrow.left() - gap:
                rect.setRight(arrow.left() - gap - 1)
        return rect


def arrow_follows_order(header: QHeaderView) -> None:
    """Make ``header``'s sort arrow point the way its values go (the style is owned by the header)."""
    style = SortArrowStyle(QApplication.style().name())  # not header.style(): see gui.widgets.levels.level_icon
    style.setParent(header)
    header.setStyle(style)
