"""A pane of a splitter that is never squashed below the height its wrapped text needs at its width.

Why: ``QSplitter`` gives a pane at least its ``minimumSizeHint``, and a layout's minimum ignores word wrap
(a wrapped label's minimum is one line). While a run trained with the bottleneck card and the wizard's
prediction shown, the Train page's progress pane got less than its content, so the progress lines (run,
epoch, ETA, best mAP) were painted on top of each other and dragging the splitter could not help. With
``keep_whole_height`` the pane's minimum height follows ``heightForWidth`` at its current width, so the
splitter hands the rest of the room to the panes below, and the page scrolls when the window is short.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QSplitter, QWidget


def content_height(widget: QWidget) -> int:
    """The height ``widget``'s layout needs at its current width (wrapped text included)."""
    layout = widget.layout()
    if layout is not None and layout.hasHeightForWidth():
        return max(layout.totalHeightForWidth(widget.width()), layout.totalMinimumSize().height())
    return widget.sizeHint().height()


class _KeepWholeHeight(QObject):
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if isinstance(watched, QWidget) and event.type() in (QEvent.Type.LayoutRequest, QEvent.Type.Resize,
                                                             QEvent.Type.Show):
            needed = content_height(watched)
            if watched.minimumHeight() != needed:
                watched.setMinimumHeight(needed)  # settles: the same width asks for the same height
        return False


def keep_whole_height(widget: QWidget) -> None:
    """Keep ``widget``'s minimum height at what its content needs, as its content and width change."""
    keeper = _KeepWholeHeight(widget)
    widget.installEventFilter(keeper)
    widget.setMinimumHeight(content_height(widget))


def keep_log_in_sight(splitter: QSplitter, top: QWidget, log_min_px: int) -> None:
    """``top`` (the first pane) grows to its content: the room comes from the panes below the second (the log),
    down to their minimum, never from the log, which keeps ``log_min_px`` at least (the page scrolls when the
    window is short)."""
    card = content_height(top)
    below = [splitter.widget(i).minimumSizeHint().height() for i in range(2, splitter.count())]
    log = max(log_min_px, splitter.height() - card - sum(below) - (splitter.count() - 1) * splitter.handleWidth())
    splitter.setSizes([card, log, *below])
