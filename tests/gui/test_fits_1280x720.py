"""Issue 32: at 1280×720, in English and in Chinese, every action stays on screen.

The screen is made a 1280×720 one (``gui.screen_fit.available``, the one place windows ask), the main window
opens on it with the first-run guide showing, and each page is opened in turn: every button a person can see
must lie whole inside the window, not clipped by a parent nor scrolled off; the rail shows every page
(Export and Machines included, in Chinese too); a page's form in a scroll area keeps a useful height beside
the guide. The Evaluate, Errors and Compare windows are opened on the same screen and held to the same rule.
Screenshots go to ``tests/artifacts/screens/fit-*.png``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QAbstractButton, QAbstractScrollArea, QScrollArea, QTabBar, QWidget

from gui import screen_fit
from gui.pages.catalog import PAGES
from gui.widgets.scrolled import FORM_HEIGHT
from tests.gui.languages import app_in_language
from tests.waits import TIMEOUT_MS

SCREEN = QRect(0, 0, 1280, 720)
SCREENS = Path(__file__).resolve().parents[2] / "tests" / "artifacts" / "screens"


#: The same screen less a panel and a title bar (what a 1280×720 laptop leaves a window): the guide folded.
SHORT = QRect(0, 0, 1280, 660)


@pytest.fixture(params=["en", "zh_CN"])
def language(request, monkeypatch):
    monkeypatch.setattr(screen_fit, "available", lambda widget: QRect(SCREEN))
    SCREENS.mkdir(parents=True, exist_ok=True)
    with app_in_language(request.param):
        yield request.param


def _scrolled(widget: QWidget, top: QWidget) -> QAbstractScrollArea | None:
    """The scroll area ``widget`` scrolls in (below ``top``), if any; a scroll area's own bars are not in it."""
    parent = widget.parentWidget()
    while parent is not None and parent is not top:
        if isinstance(parent, QAbstractScrollArea) and widget is not parent and parent.viewport().isAncestorOf(widget):
            return parent
        parent = parent.parentWidget()
    return None


def cut_buttons(top: QWidget, *, scrolled_ok: tuple[QAbstractScrollArea, ...] = ()) -> list[str]:
    """The buttons a person can see in ``top`` that are not whole on its screen area: outside ``top``, or
    clipped by a parent (a scroll area showing a part of them). Buttons in a scroll area the user scrolls on
    purpose (a long form: ``scrolled_ok``), a tab bar's arrows and hidden ones are left out."""
    cut = []
    area = top.rect()
    for button in top.findChildren(QAbstractButton):
        if not button.isVisibleTo(top) or isinstance(button.parentWidget(), QTabBar) or button.width() == 0:
            continue
        scroll = _scrolled(button, top)
        if scroll is not None and scroll in scrolled_ok:  # scrolls up and down on purpose, never sideways
            inside = QRect(button.mapTo(scroll.viewport(), button.rect().topLeft()), button.size())
            shown = scroll.viewport().rect()
            if inside.left() < shown.left() or inside.right() > shown.right():
                cut.append(f"{type(button).__name__} {button.text()!r} cut at the side of its scroll area: "
                           f"{inside.getRect()} in {shown.getRect()}")
            continue
        rect = QRect(button.mapTo(top, button.rect().topLeft()), button.size())
        whole = button.visibleRegion().boundingRect().size() == button.size()
        if not area.contains(rect) or not whole:
            cut.append(f"{type(button).__name__} {button.text() or button.toolTip() or button.objectName()!r} "
                       f"at {rect.getRect()}, visible {button.visibleRegion().boundingRect().getRect()}")
    return cut


def forms(top: QWidget) -> list[QScrollArea]:
    """The visible scroll areas that hold a form (their buttons scroll with the fields, on purpose)."""
    return [s for s in top.findChildren(QScrollArea) if s.isVisibleTo(top) and s.objectName() != "guide-scroll"]


@pytest.mark.parametrize("screen, folded", [(SCREEN, False), (SHORT, True)], ids=["720", "660-folded"])
def test_the_main_window_and_every_page_fit_1280x720(language, screen, folded, qtbot, tmp_path, monkeypatch):
    from gui.main_window import MainWindow  # noqa: PLC0415 - after the language is installed

    monkeypatch.setattr(screen_fit, "available", lambda widget: QRect(screen))
    window = MainWindow(tmp_path / "ws", prepare_demo=False, check_runs=False)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    assert screen.size().boundedTo(window.size()) == window.size()  # the 1360×860 wish, clamped
    guide = window.show_guide()
    if folded:
        guide.fold_button.click()
        qtbot.waitUntil(lambda: not guide.steps_box.isVisible(), timeout=TIMEOUT_MS)
        qtbot.waitUntil(lambda: guide.height() <= guide.needed_height() + 4, timeout=TIMEOUT_MS)
    language = f"{language}-{screen.height()}"
    SCREENS.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    for index, spec in enumerate(PAGES):
        if spec.page is None:
            continue
        assert window.show_page(index)
        window.page(index)
        qtbot.wait(50)
        window.grab().save(str(SCREENS / f"fit-{language}-{spec.key}.png"))
        rail = window.rail
        shown = rail.viewport().rect()
        problems += [f"{spec.key}: rail row {rail.item(row).text()!r} not whole" for row in range(rail.count())
                     if not shown.contains(rail.visualItemRect(rail.item(row)))]
        scrolled = forms(window.pages.currentWidget())
        problems += [f"{spec.key}: {b}" for b in cut_buttons(window, scrolled_ok=tuple(scrolled))]
        problems += [f"{spec.key}: a form shows {s.viewport().height()} px" for s in scrolled
                     if s.viewport().height() < FORM_HEIGHT and s.widget().sizeHint().height() > s.viewport().height()]
        if spec.key == "export":  # the Try it tab's hint, wrapped in its view (it was cut at both ends)
            page = window.page(index)
            page.tabs.setCurrentWidget(page.try_view)
            qtbot.wait(20)
            window.grab().save(str(SCREENS / f"fit-{language}-export-try.png"))
            if not page.try_view.view.hint_fits():
                problems.append("export: the Try it hint does not fit its view")
    assert guide.isVisible()
    assert problems == [], "\n".join(problems)


def _secondary_windows(tmp_path: Path) -> list[tuple[str, QWidget]]:
    from gui.evaluate.errors_browser import ErrorsBrowser  # noqa: PLC0415 - after the language is installed
    from gui.evaluate.evaluate_window import EvaluateWindow  # noqa: PLC0415
    from gui.runs.runs_overlay import RunsOverlayDialog  # noqa: PLC0415
    from tests.fixtures.evaluable_run import evaluable_run  # noqa: PLC0415
    from tests.gui.test_errors_browser import data_yaml, evaluation  # noqa: PLC0415

    from core.evaluation.request import plan_run_evaluation  # noqa: PLC0415
    from core.evaluation.store import save_evaluation  # noqa: PLC0415
    from tests.gui.test_evaluate_view import result as stored_result  # noqa: PLC0415

    run, data = evaluable_run(tmp_path / "evaluate", train=3, val=3)
    (run / "config.json").write_text(json.dumps({"spec": {"config": {"data": str(data), "imgsz": 64, "batch": 4}}}))
    save_evaluation(plan_run_evaluation(run, run.parents[1]).plan.folder, {**stored_result(), "prescription": []}, [])
    images = tmp_path / "errors" / "images"
    images.mkdir(parents=True)
    (tmp_path / "errors" / "labels").mkdir()
    paths = []
    for name in ("a", "b"):
        from PySide6.QtGui import QImage  # noqa: PLC0415

        image = QImage(80, 60, QImage.Format.Format_RGB32)
        image.fill(0xFFFFFFFF)
        image.save(str(images / f"{name}.png"))
        paths.append(str(images / f"{name}.png"))
    (tmp_path / "errors" / "labels" / "b.txt").write_text("1 0.25 0.3333333 0.25 0.3333333\n")
    (tmp_path / "errors" / "data.yaml").write_text(
        f"path: {tmp_path / 'errors'}\ntrain: images\nval: images\nnames: [cat, emu, owl]\n")
    result, stored = evaluation(paths)
    return [("evaluate", EvaluateWindow(run, run.parents[1])),
            ("errors", ErrorsBrowser(result, stored, data_yaml(paths))),
            ("compare", RunsOverlayDialog([run]))]


def test_the_evaluate_errors_and_compare_windows_fit_1280x720(language, qtbot, tmp_path):
    problems: list[str] = []
    for name, window in _secondary_windows(tmp_path):
        qtbot.addWidget(window)
        window.show()
        qtbot.waitExposed(window)
        if name == "evaluate":  # the stored evaluation on screen, its buttons with it
            qtbot.waitUntil(lambda: window.view is not None, timeout=TIMEOUT_MS)
        qtbot.wait(50)
        window.grab().save(str(SCREENS / f"fit-{language}-{name}.png"))
        if window.width() > SCREEN.width() or window.height() > SCREEN.height():  # placing it is the WM's
            problems.append(f"{name}: {window.width()}×{window.height()} is larger than the screen")
        problems += [f"{name}: {b}" for b in cut_buttons(window, scrolled_ok=tuple(forms(window)))]
        window.close()
    assert problems == [], "\n".join(problems)
