"""The 简体中文 interface (issue 15): every string translated, placeholders kept, nothing clipped; screenshots.

Strings added later are caught twice: the catalogue test reads the sources (every ``tr()`` call site and
the tables translated when shown), and the window walk reads what is on screen in Chinese. Both failures
say which strings and the one command that updates the catalogue (docs/architecture.md, "Translation").
The walk saves a screenshot of every page, menu and dialog in English and Chinese under
``tests/artifacts/screens`` (ignored by git) — look at them after changing a page.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import (QAbstractButton, QAbstractScrollArea, QApplication, QComboBox, QDockWidget, QGroupBox,
                               QHeaderView, QLabel, QLineEdit, QListWidget, QMainWindow, QStatusBar, QTabBar, QWidget)

from core import i18n
from core.i18n import tr
from gui.i18n import install_language
from gui.pages.catalog import PAGES
from gui.environment.environment_page import EnvironmentPage
from tests.core.environment_builders import healthy_gpu_machine
from tests.latin_words import stray_words
from tools.i18n import UPDATE_COMMAND, extract, placeholders, problems, report

ROOT = Path(__file__).resolve().parents[2]
SCREENS = ROOT / "tests" / "artifacts" / "screens"
HOW_TO_FIX = (f"\nRun `{UPDATE_COMMAND}`, translate the strings it lists in resources/i18n/*_zh_CN.ts (Qt Linguist: "
              "pyside6-linguist FILE, or any editor: fill <translation>, drop type=\"unfinished\"), run it again "
              "and commit the .ts, the .qm and the font it rebuilt.")

CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
TAG = re.compile(r"<[^>]+>")


def _plain(text: str) -> str:
    return TAG.sub(" ", text).replace("&&", "\0").replace("&", "").replace("\0", "&")


def untranslated(text: str, names: set[str] = frozenset()) -> bool:
    """English words a Chinese reader would meet (``latin_words.stray_words``: ``names``, paths, flags, units,
    quotations and its few listed terms aside) — mixed into Chinese text or on their own."""
    return bool(stray_words(text, names))


def visible_texts(root: QWidget) -> list[tuple[QWidget, str]]:
    """Every string a person can read in ``root`` now: texts, titles, placeholders, items, headers, tooltips."""
    found: list[tuple[QWidget, str]] = []
    for widget in [root, *root.findChildren(QWidget)]:
        if widget is not root and not widget.isVisibleTo(root):
            continue
        texts = [widget.toolTip()]
        if isinstance(widget, (QLabel, QAbstractButton)):
            texts.append(widget.text())
        if isinstance(widget, QGroupBox):
            texts.append(widget.title())
        if isinstance(widget, QDockWidget):
            texts.append(widget.windowTitle())
        if isinstance(widget, QLineEdit):
            texts.append(widget.placeholderText())
        if isinstance(widget, QComboBox):
            texts += [widget.itemText(i) for i in range(widget.count())]
        if isinstance(widget, QTabBar):
            texts += [widget.tabText(i) for i in range(widget.count())]
        if isinstance(widget, QListWidget):
            texts += [t for i in range(widget.count()) for t in (widget.item(i).text(), widget.item(i).toolTip())]
        if isinstance(widget, QHeaderView) and widget.model() is not None:
            texts += [str(widget.model().headerData(i, widget.orientation()) or "") for i in range(widget.count())
                      if not widget.isSectionHidden(i)]
        found += [(widget, t) for t in texts if t]
    return found


def _inside(widget: QWidget, kind: type) -> bool:
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, kind):
            return True
        parent = parent.parentWidget()
    return False


def clipped(root: QWidget) -> list[str]:
    """Labels and buttons on screen whose text needs more room than they have, or that their parents cut
    (outside a scroll area, where scrolling to them is the point)."""
    out = []
    for widget in root.findChildren(QWidget):
        if not widget.isVisible() or widget.width() <= 1 or not isinstance(widget, (QLabel, QAbstractButton)):
            continue
        if not widget.text() or _inside(widget, QStatusBar):
            continue  # the status bar's live readings change every second; their layout follows a tick later
        if isinstance(widget, QLabel) and widget.wordWrap():
            short = widget.heightForWidth(widget.contentsRect().width()) > widget.contentsRect().height() + 2
        else:
            short = widget.minimumSizeHint().width() > widget.width() + 1
        shown = widget.visibleRegion().boundingRect()
        cut = not _inside(widget, QAbstractScrollArea) and (shown.width() < widget.width() - 1
                                                            or shown.height() < widget.height() - 1)
        if short or cut:
            out.append(f"{type(widget).__name__} {_plain(widget.text())!r} ({widget.width()}x{widget.height()} px, "
                       f"{'too small for its text' if short else 'cut by its parent'})")
    return out


def _walk(window: QMainWindow, qtbot, language: str) -> tuple[list[str], list[str]]:
    SCREENS.mkdir(parents=True, exist_ok=True)
    texts: list[tuple[QWidget, str]] = []
    cut: list[str] = []

    def shoot(widget: QWidget, name: str) -> None:
        qtbot.wait(30)
        texts.extend(visible_texts(widget))
        cut.extend(f"{name}: {c}" for c in clipped(widget))
        widget.grab().save(str(SCREENS / f"{language}-{name}.png"))

    window.show_guide()
    for index, spec in enumerate(PAGES):
        if spec.page is None:
            texts.extend(visible_texts(window.rail))
            continue
        assert window.show_page(index)
        if spec.key == "environment":  # findings, verdict and details on screen, in the page's language
            facts = healthy_gpu_machine()
            facts.torch.version, facts.torch.cuda, facts.torch.cuda_available = "2.9.1+cpu", None, False
            page = window.page(index)
            page.show_facts(facts)
            page.list.setCurrentRow(0)
        shoot(window, f"page-{spec.key}")
    for menu_action in window.menuBar().actions():
        texts.append((window, menu_action.text()))
        texts += [(window, action.text()) for action in menu_action.menu().actions() if action.text()]
    from gui.weights.weights_dialog import WeightsDialog  # noqa: PLC0415 - after the language is installed

    dialogs = [("settings", window.open_settings()), ("about", window.open_about()),
               ("weights", WeightsDialog(window.workspace, window))]
    for name, dialog in dialogs:
        dialog.show()
        shoot(dialog, f"dialog-{name}")
        dialog.close()
    assert len({t for _w, t in texts}) > 150  # the walk is real: pages, menus and dialogs were read
    if language == "zh_CN":
        assert sum(bool(CJK.search(t)) for _w, t in texts) > 150
    from core.wizard.session import quick_facts  # noqa: PLC0415 - the facts the wizard's Hardware step shows

    machine = set(re.findall(r"[A-Za-z]+", quick_facts().system.cpu_model or ""))  # this machine's CPU name
    words = sorted({f"{type(w).__name__}: {t!r}" for w, t in texts if untranslated(t, machine)})
    return words, cut


@pytest.fixture
def window_in(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(EnvironmentPage, "recheck", lambda self: False)  # no real probe: facts are injected
    app = QApplication.instance()
    font = app.font()
    made = []

    def make(language: str) -> QMainWindow:
        from gui.main_window import MainWindow  # noqa: PLC0415 - after the language is installed

        install_language(app, language)
        window = MainWindow(tmp_path / "ws", prepare_demo=False, check_runs=False)
        qtbot.addWidget(window)
        window.resize(1360, 860)  # the default size of a first start
        window.show()
        qtbot.waitExposed(window)
        made.append(window)
        return window

    yield make
    install_language(app, "en")
    app.setFont(font)
    os.environ[i18n.LANGUAGE_ENV] = "en"


def test_the_catalogue_has_every_string_of_the_sources():
    messages, errors = extract()
    missing, wrong = problems(messages=messages)
    assert not missing and not wrong and not errors, report(missing, errors + wrong) + HOW_TO_FIX


def test_a_renamed_or_dropped_placeholder_is_caught():
    assert placeholders("Epoch {epoch}/{epochs} {box:.4f} %v/%m") == ["%m", "%v", "box", "epoch", "epochs"]
    assert placeholders("轮次 {epoch}/{epochs}") != placeholders("Epoch {epoch}/{epochs} {box:.4f}")
    assert placeholders("轮次 {epoch}/{epoch_count}") != placeholders("Epoch {epoch}/{epochs}")


def test_chinese_window_shows_no_english_and_clips_nothing(window_in, qtbot):
    window = window_in("zh_CN")
    assert window.rail.item(3).text() == "训练" and tr("No dataset chosen.") == "未选择数据集。"
    words, cut = _walk(window, qtbot, "zh_CN")
    assert words == [], "Untranslated on screen:\n" + "\n".join(words) + HOW_TO_FIX
    assert cut == [], "Clipped at 1360x860:\n" + "\n".join(cut)


def test_english_window_clips_nothing(window_in, qtbot):
    window = window_in("en")
    _words, cut = _walk(window, qtbot, "en")
    assert cut == [], "Clipped at 1360x860:\n" + "\n".join(cut)


def test_the_cli_follows_lang_and_json_stays_english(tmp_path):
    env = dict(os.environ, LANG="zh_CN.UTF-8", PYTHONPATH=str(ROOT))
    env.pop(i18n.LANGUAGE_ENV, None)
    env.pop("LC_ALL", None)
    command = [sys.executable, "-m", "cli.main", "--workspace", str(tmp_path), "runs"]
    chinese = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert "中还没有训练" in chinese.stdout, chinese.stdout + chinese.stderr
    machine = subprocess.run([*command, "--json"], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert machine.returncode == 0 and not CJK.search(machine.stdout), machine.stdout


def test_the_bundled_font_draws_every_character_of_the_catalogues():
    """On a machine without CJK fonts the bundled subset is all there is: no catalogue character may be missing
    (``python -m tools.i18n update`` rebuilds the subset from the catalogues)."""
    from PySide6.QtGui import QFont, QFontMetrics  # noqa: PLC0415

    from gui.fonts import register_cjk_font  # noqa: PLC0415
    from tools.i18n import ts_path  # noqa: PLC0415

    app = QApplication.instance()
    font = app.font()
    family = register_cjk_font(app)
    app.setFont(font)
    assert family is not None
    metrics = QFontMetrics(QFont(family))
    text = "".join(ts_path(name).read_text(encoding="utf-8") for name in ("yolostudio", "core"))
    missing = sorted({c for c in text if CJK.search(c) and not metrics.inFontUcs4(ord(c))})
    assert len({c for c in text if CJK.search(c)}) > 500 and missing == [], missing
