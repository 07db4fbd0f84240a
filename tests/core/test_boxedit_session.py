"""The box editor's model: a round trip is exact, only edited rows change, undo/redo, nothing written unasked."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.boxedit.session import Box, EditSession, box_from_pixels, parse_rows
from core.evaluation.label_edits import LabelEditError


def _session(tmp_path: Path, text: str | None, w: int = 640, h: int = 480) -> EditSession:
    path = tmp_path / "a.txt"
    if text is not None:
        path.write_bytes(text.encode())
    return EditSession(path, w, h)


def test_round_trip_is_exact_and_untouched_rows_keep_their_text(tmp_path: Path) -> None:
    s = _session(tmp_path, "0 0.5 0.5 0.2 0.2\r\n1   0.25 0.25 0.1 0.1\r\n")
    s.add(2, (10.3, 20.7, 100.1, 200.9))
    s.set_rect(0, (100, 100, 300, 250))
    s.save()
    again = EditSession(s.path, 640, 480)
    assert [(b.cls, b.x, b.y, b.w, b.h) for b in again.boxes] == [(b.cls, b.x, b.y, b.w, b.h) for b in s.boxes]
    text = s.path.read_bytes().decode()
    assert "1   0.25 0.25 0.1 0.1\r\n" in text and text.count("\r\n") == 3  # untouched row as it was, CRLF kept
    assert s.path.with_name("a.txt.bak").read_bytes() == b"0 0.5 0.5 0.2 0.2\r\n1   0.25 0.25 0.1 0.1\r\n"


def test_pixels_round_trip_on_a_rotated_size(tmp_path: Path) -> None:
    box = box_from_pixels(0, (300, 50, 10, 500), 480, 640)  # corners in any order, a portrait (EXIF 6) image
    assert box.pixels(480, 640) == pytest.approx((10, 50, 300, 500), abs=1e-3)
    clipped = box_from_pixels(0, (-20, -5, 900, 900), 480, 640)
    assert (clipped.x, clipped.y, clipped.w, clipped.h) == (0.5, 0.5, 1.0, 1.0)


def test_undo_redo_and_nothing_written_until_saved(tmp_path: Path) -> None:
    s = _session(tmp_path, "0 0.5 0.5 0.2 0.2\n")
    before = s.path.stat().st_mtime_ns
    s.set_class(0, 3)
    s.delete(0)
    assert s.boxes == [] and s.path.stat().st_mtime_ns == before
    assert s.undo() and s.boxes[0].cls == 3
    assert s.undo() and s.boxes[0].cls == 0 and not s.dirty and not s.undo()
    assert s.redo() and s.boxes[0].cls == 3 and s.dirty
    assert s.save() is not None and s.path.read_text() == "3 0.500000 0.500000 0.200000 0.200000\n"
    assert s.save() is None  # nothing more to write


def test_saved_edit_undoes_and_a_changed_file_is_refused(tmp_path: Path) -> None:
    s = _session(tmp_path, "0 0.5 0.5 0.2 0.2\n")
    s.delete(0)
    edit = s.save()
    assert s.path.read_text() == ""
    edit.undo()
    assert s.path.read_text() == "0 0.5 0.5 0.2 0.2\n"
    s.add(1, (0, 0, 10, 10))
    with pytest.raises(LabelEditError):  # the file moved on under the editor (the undo above)
        s.save()


def test_no_file_and_proposals(tmp_path: Path) -> None:
    path = tmp_path / "new.txt"
    s = EditSession(path, 100, 100, proposals=[Box(0, 0.5, 0.5, 0.5, 0.5, origin="model", conf=0.4)])
    assert not path.exists() and s.dirty
    s.confirm(0)
    s.save()
    assert parse_rows(path.read_text())[0][0].cls == 0


def test_polygon_file_is_shown_not_rewritten(tmp_path: Path) -> None:
    s = _session(tmp_path, "0 0.1 0.1 0.5 0.1 0.5 0.5 0.1 0.5\n")
    assert not s.editable and len(s.boxes) == 1
    with pytest.raises(LabelEditError):
        s.delete(0)


def test_a_same_size_edit_moves_the_check_caches_key(tmp_path: Path) -> None:
    """The dataset check's cache keys on (size, mtime): a class change keeps the size, so the mtime must move."""
    s = _session(tmp_path, "0 0.500000 0.500000 0.200000 0.200000\n")
    before = s.path.stat()
    s.set_class(0, 1)
    s.set_rect(0, (0.5 * 640 - 64, 0.5 * 480 - 48, 0.5 * 640 + 64, 0.5 * 480 + 48))  # the same box: no step
    s.save()
    after = s.path.stat()
    assert after.st_size == before.st_size and after.st_mtime_ns != before.st_mtime_ns
