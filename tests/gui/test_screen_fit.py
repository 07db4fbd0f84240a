"""Issue 32: windows fit the screen they open on — the main window's 1360×860 wish and a geometry saved on a
larger monitor are clamped to the available screen; the secondary windows' wishes too."""

from __future__ import annotations

from PySide6.QtCore import QRect
from PySide6.QtWidgets import QWidget

from gui.screen_fit import available, clamp_to_screen, fit_to_screen


def _inside(widget: QWidget) -> bool:
    return available(widget).contains(QRect(widget.pos(), widget.size()))


def test_a_wish_larger_than_the_screen_is_clamped(qtbot):
    widget = QWidget()
    qtbot.addWidget(widget)
    area = available(widget)
    fit_to_screen(widget, area.width() + 500, area.height() + 300)
    assert widget.width() <= area.width() and widget.height() <= area.height()
    assert _inside(widget)


def test_a_restored_geometry_off_screen_is_pulled_back(qtbot):
    widget = QWidget()
    qtbot.addWidget(widget)
    area = available(widget)
    widget.setGeometry(area.right() - 50, area.bottom() - 50, area.width() * 2, area.height() * 2)
    clamp_to_screen(widget)
    assert _inside(widget)


def test_the_main_window_opens_inside_the_screen(qtbot, tmp_path):
    from gui.main_window import MainWindow  # noqa: PLC0415

    window = MainWindow(tmp_path / "ws", prepare_demo=False, check_runs=False)
    qtbot.addWidget(window)
    area = available(window)
    assert window.width() <= area.width() and window.height() <= area.height()
