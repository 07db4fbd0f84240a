"""The box editor (gui/labelling/box_editor.py): boxes where yolov5 reads them on an EXIF-rotated photo, drags
that draw / move / resize, every action on the keyboard, undo and redo, nothing written until Enter or save,
and the view in both languages at 1280×720."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from PySide6.QtCore import QPoint, Qt

from core.boxedit.session import EditSession, parse_rows
from gui.labelling.box_editor import BoxEditor
from gui.labelling.image_cache import oriented_size
from tests.gui.languages import app_in_language
from tests.waits import TIMEOUT_MS


@pytest.fixture
def rotated(tmp_path: Path) -> tuple[str, Path]:
    """A 60×30 JPEG stored landscape with EXIF orientation 6: yolov5 sees it 30 wide, 60 high."""
    image = Image.new("RGB", (60, 30), "white")
    exif = image.getexif()
    exif[0x0112] = 6
    path = tmp_path / "r.jpg"
    image.save(path, exif=exif.tobytes())
    label = tmp_path / "r.txt"
    label.write_text("0 0.5 0.25 0.5 0.1\n")
    return str(path), label


def _editor(qtbot, image: str, label: Path, names=("cat", "dog", "owl")) -> BoxEditor:
    editor = BoxEditor()
    qtbot.addWidget(editor)
    editor.resize(600, 600)
    w, h = oriented_size(image)
    editor.show_image(image, EditSession(label, w, h), list(names))
    editor.show()
    qtbot.waitUntil(editor.has_picture, timeout=TIMEOUT_MS)
    return editor


def _screen(editor: BoxEditor, x: float, y: float) -> QPoint:
    return editor.mapFromScene(x, y)


def test_boxes_are_where_yolov5_reads_them_on_an_exif_rotated_image(qtbot, rotated) -> None:
    image, label = rotated
    assert oriented_size(image) == (30, 60)
    editor = _editor(qtbot, image, label)
    assert editor._pixmap.boundingRect().width() * editor._pixmap.scale() == pytest.approx(30)
    rect = editor._items[0].rect()
    assert (rect.x(), rect.y(), rect.width(), rect.height()) == pytest.approx((7.5, 12, 15, 6))


def test_drag_draws_moves_and_resizes_then_undo_redo_and_enter_writes(qtbot, rotated) -> None:
    image, label = rotated
    editor = _editor(qtbot, image, label)
    before = label.read_text()
    qtbot.keyClick(editor, Qt.Key.Key_2)  # the next box drawn is class 1
    qtbot.mousePress(editor.viewport(), Qt.MouseButton.LeftButton, pos=_screen(editor, 5, 30))
    qtbot.mouseMove(editor.viewport(), _screen(editor, 25, 50))
    qtbot.mouseRelease(editor.viewport(), Qt.MouseButton.LeftButton, pos=_screen(editor, 25, 50))
    session = editor.session
    assert len(session.boxes) == 2 and session.boxes[1].cls == 1
    assert session.pixels(1) == pytest.approx((5, 30, 25, 50), abs=0.3)
    # move the new box by 2 px down, then resize its right edge
    qtbot.mousePress(editor.viewport(), Qt.MouseButton.LeftButton, pos=_screen(editor, 15, 40))
    qtbot.mouseMove(editor.viewport(), _screen(editor, 15, 42))
    qtbot.mouseRelease(editor.viewport(), Qt.MouseButton.LeftButton, pos=_screen(editor, 15, 42))
    assert session.pixels(1) == pytest.approx((5, 32, 25, 52), abs=0.3)
    qtbot.mousePress(editor.viewport(), Qt.MouseButton.LeftButton, pos=_screen(editor, 25, 42))
    qtbot.mouseRelease(editor.viewport(), Qt.MouseButton.LeftButton, pos=_screen(editor, 28, 42))
    assert session.pixels(1) == pytest.approx((5, 32, 28, 52), abs=0.3)
    assert label.read_text() == before  # nothing written yet
    qtbot.keyClick(editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert session.pixels(1) == pytest.approx((5, 32, 25, 52), abs=0.3)
    qtbot.keyClick(editor, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert session.pixels(1) == pytest.approx((5, 32, 28, 52), abs=0.3)
    with qtbot.waitSignal(editor.accepted, timeout=TIMEOUT_MS):
        qtbot.keyClick(editor, Qt.Key.Key_Return)
    rows, _ = parse_rows(label.read_text())
    assert [r.text() for r in rows] == [b.text() for b in session.boxes]
    assert label.with_name("r.txt.bak").read_text() == before


def test_every_action_on_the_keyboard(qtbot, rotated) -> None:
    image, label = rotated
    editor = _editor(qtbot, image, label)
    s = editor.session
    seen = []
    editor.next_requested.connect(lambda: seen.append("next"))
    editor.previous_requested.connect(lambda: seen.append("prev"))
    for key in (Qt.Key.Key_D, Qt.Key.Key_Right, Qt.Key.Key_A, Qt.Key.Key_Left):
        qtbot.keyClick(editor, key)
    assert seen == ["next", "next", "prev", "prev"]
    qtbot.keyClick(editor, Qt.Key.Key_Tab)  # select the box
    assert editor.selected == 0
    qtbot.keyClick(editor, Qt.Key.Key_3)
    assert s.boxes[0].cls == 2
    x1, y1, x2, y2 = s.pixels(0)
    qtbot.keyClick(editor, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)  # move
    qtbot.keyClick(editor, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)  # grow down
    assert s.pixels(0) == pytest.approx((x1 + 1, y1, x2 + 1, y2 + 1), abs=1e-3)
    qtbot.keyClick(editor, Qt.Key.Key_N)  # a new box mid-view, class 2 (the last digit)
    assert len(s.boxes) == 2 and s.boxes[1].cls == 2 and editor.selected == 1
    qtbot.keyClick(editor, Qt.Key.Key_Delete)
    assert len(s.boxes) == 1
    for _ in range(4):
        qtbot.keyClick(editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert s.boxes[0].cls == 2  # four steps back: before the move, after the class change
    qtbot.keyClick(editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert not s.dirty
    qtbot.keyClick(editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert s.boxes[0].cls == 2
    zoom = editor.transform().m11()
    qtbot.keyClick(editor, Qt.Key.Key_Plus)
    assert editor.transform().m11() > zoom
    qtbot.keyClick(editor, Qt.Key.Key_0)
    assert editor.transform().m11() == pytest.approx(zoom)
    assert label.read_text() == "0 0.5 0.25 0.5 0.1\n"  # still nothing written


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_view_at_1280x720(qtbot, rotated, language, tmp_path) -> None:
    image, label = rotated
    with app_in_language(language):
        editor = _editor(qtbot, image, label, names=("猫", "狗") if language == "zh_CN" else ("cat", "dog"))
        editor.resize(1280, 720)
        qtbot.wait(10)
        shot = editor.grab()
        assert (shot.width(), shot.height()) == (1280, 720)
        shot.save(str(tmp_path / f"box_editor_{language}.png"))
        assert editor._items[0].mapRectToScene(editor._items[0].rect()).width() == pytest.approx(15)


def test_proposals_confirmed_by_space_rejected_by_r(qtbot, rotated) -> None:
    from core.boxedit.session import Box

    image, label = rotated
    editor = _editor(qtbot, image, label)
    w, h = editor.session.width, editor.session.height
    editor.show_image(image, EditSession(label, w, h, [Box(1, 0.5, 0.5, 0.2, 0.2, origin="model", conf=0.4),
                                                       Box(2, 0.3, 0.3, 0.2, 0.2, origin="model", conf=0.2)]))
    s = editor.session
    qtbot.keyClick(editor, Qt.Key.Key_Tab)
    qtbot.keyClick(editor, Qt.Key.Key_Tab)  # the first proposal
    qtbot.keyClick(editor, Qt.Key.Key_Space)
    qtbot.keyClick(editor, Qt.Key.Key_R)
    assert [(b.cls, b.origin) for b in s.boxes] == [(0, "file"), (1, "confirmed")]
    qtbot.keyClick(editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert len(s.boxes) == 3
