"""The Errors browser fixes the box a row points at in the box editor: E opens it with that box selected, a
resize written with Enter joins the browser's undo (Ctrl+Z puts the file back), and the drawing reads the file."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from gui.evaluate.errors_browser import ErrorsBrowser
from gui.labelling.editor_dialog import BoxEditorDialog
from tests.gui import test_errors_browser as base
from tests.waits import TIMEOUT_MS

dataset = base.dataset  # the fixture: two images of a three-class dataset


def test_e_opens_the_editor_on_the_rows_box_and_its_write_is_undone(qtbot, dataset):
    result, images = base.evaluation(dataset)
    browser = ErrorsBrowser(result, images, base.data_yaml(dataset))
    qtbot.addWidget(browser)
    browser.list.setCurrentRow(1)  # b.png: the emu box at 10..30
    qtbot.waitUntil(browser.change_button.isEnabled, timeout=TIMEOUT_MS)
    label = dataset[1].replace("images", "labels").replace(".png", ".txt")
    before = open(label).read()
    browser.list.setFocus()
    qtbot.keyClick(browser.list, Qt.Key.Key_E)
    dialog = browser.findChild(BoxEditorDialog)
    editor = dialog.editor
    qtbot.waitUntil(lambda: editor.session is not None, timeout=TIMEOUT_MS)
    assert editor.selected == 0 and editor.session.pixels(0) == pytest.approx((10, 10, 30, 30), abs=1e-3)
    qtbot.keyClick(editor, Qt.Key.Key_Right, Qt.KeyboardModifier.AltModifier)  # its right edge out
    assert open(label).read() == before  # nothing written before Enter
    with qtbot.waitSignal(dialog.written, timeout=TIMEOUT_MS):
        qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert open(label).read() != before
    qtbot.waitUntil(lambda: browser.undo_button.isEnabled(), timeout=TIMEOUT_MS)
    assert browser.list.item(1).text().startswith("✓")
    browser.undo()
    qtbot.waitUntil(lambda: open(label).read() == before, timeout=TIMEOUT_MS)
