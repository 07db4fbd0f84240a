"""The Label page (gui/label/label_page.py): a folder's images, unlabelled first, labelled by keys and drags,
written when the person moves on (D), nothing written before; 1280×720 in both languages."""

from __future__ import annotations

import pytest
from PIL import Image
from PySide6.QtCore import Qt

from core.boxedit.session import parse_rows
from gui.label.label_page import LabelPage
from tests.gui.languages import app_in_language
from tests.waits import TIMEOUT_MS


@pytest.fixture
def folder(tmp_path):
    images = tmp_path / "images"
    labels = tmp_path / "labels"
    images.mkdir()
    labels.mkdir()
    for name in ("a", "b"):
        Image.new("RGB", (64, 48), "white").save(images / f"{name}.png")
    (labels / "a.txt").write_text("0 0.5 0.5 0.25 0.5\n")
    return images


def _opened(qtbot, page, folder) -> None:
    page.open_folder(str(folder))
    qtbot.waitUntil(lambda: page.editor.session is not None, timeout=TIMEOUT_MS)


def test_unlabelled_first_drawn_and_written_on_d(qtbot, folder, tmp_path) -> None:
    page = LabelPage(tmp_path / "ws")
    qtbot.addWidget(page)
    page.resize(1280, 720)
    page.show()
    _opened(qtbot, page, folder)
    assert [r.image.rsplit("/", 1)[-1] for r in page.rows] == ["b.png", "a.png"]  # no label first
    assert page.list.model_.index(0).data() == "b.png — no labels yet"
    editor = page.editor
    qtbot.waitUntil(editor.has_picture, timeout=TIMEOUT_MS)
    view = editor.viewport()
    qtbot.mousePress(view, Qt.MouseButton.LeftButton, pos=editor.mapFromScene(8, 8))
    qtbot.mouseMove(view, editor.mapFromScene(30, 30))
    qtbot.mouseRelease(view, Qt.MouseButton.LeftButton, pos=editor.mapFromScene(30, 30))
    qtbot.keyClick(editor, Qt.Key.Key_2)
    label = tmp_path / "labels" / "b.txt"
    assert not label.exists()  # nothing written before the person moves on
    qtbot.keyClick(editor, Qt.Key.Key_D)
    qtbot.waitUntil(lambda: editor.path.endswith("a.png"), timeout=TIMEOUT_MS)
    rows, _ = parse_rows(label.read_text())
    assert len(rows) == 1 and rows[0].cls == 1


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_page_at_1280x720(qtbot, folder, tmp_path, language) -> None:
    with app_in_language(language):
        page = LabelPage(tmp_path / "ws")
        qtbot.addWidget(page)
        page.resize(1280, 720)
        page.show()
        _opened(qtbot, page, folder)
        qtbot.waitUntil(page.editor.has_picture, timeout=TIMEOUT_MS)
        shot = page.grab()
        assert (shot.width(), shot.height()) == (1280, 720)
        shot.save(str(tmp_path / f"label_page_{language}.png"))
        assert page.hint.sizeHint().width() <= 1280 or page.hint.wordWrap()


def test_class_names_come_from_the_current_dataset(qtbot, folder, tmp_path) -> None:
    data = tmp_path / "data.yaml"
    data.write_text(f"path: {tmp_path}\ntrain: images\nval: images\nnames: [cat, dog]\n")
    page = LabelPage(tmp_path / "ws")
    qtbot.addWidget(page)
    page.services.current.set_dataset(data)
    _opened(qtbot, page, folder)
    qtbot.waitUntil(lambda: page.editor.names == ["cat", "dog"], timeout=TIMEOUT_MS)
