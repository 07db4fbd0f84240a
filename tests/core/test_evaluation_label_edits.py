"""Label edits from the Errors browser (core.evaluation.label_edits): one line changes, a backup is kept, undo
restores, a box that is not there is refused in words."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.dataset.files import label_path_for
from core.evaluation.label_edits import LabelEditError, add_box, change_class, delete_box


@pytest.fixture
def image(tmp_path):
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    img = tmp_path / "images" / "a.jpg"
    img.write_bytes(b"")
    (tmp_path / "labels" / "a.txt").write_text("0 0.25 0.25 0.1 0.1\n1 0.75 0.75 0.2 0.2\n", newline="")
    return str(img)


def label(image):
    return Path(label_path_for(image))


def test_delete_change_and_add_touch_only_their_line_with_a_backup(image):
    edit = delete_box(image, 1, [52, 52, 68, 68], 80, 80)  # class 1 at (0.75, 0.75) ± 0.1 of an 80x80 image
    edit.apply()
    assert label(image).read_text() == "0 0.25 0.25 0.1 0.1\n"
    assert label(image).with_name("a.txt.bak").read_text() == edit.before
    edit.undo()
    assert label(image).read_text() == edit.before

    change_class(image, 0, [16, 16, 24, 24], 80, 80, new_cls=2).apply()
    assert label(image).read_text().splitlines() == ["2 0.25 0.25 0.1 0.1", "1 0.75 0.75 0.2 0.2"]

    add = add_box(image, 1, [0, 0, 40, 20], 80, 80)
    add.apply()
    assert label(image).read_text().splitlines()[-1] == "1 0.250000 0.125000 0.500000 0.250000"


def test_a_box_that_is_not_in_the_file_is_refused_and_nothing_is_written(image):
    before = label(image).read_text()
    with pytest.raises(LabelEditError, match="no class 1 box"):
        delete_box(image, 1, [0, 0, 10, 10], 80, 80)
    with pytest.raises(LabelEditError, match="no class 0 box"):
        change_class(image, 0, [52, 52, 68, 68], 80, 80, new_cls=1)  # right place, wrong class
    assert label(image).read_text() == before


def test_undo_refuses_when_the_file_changed_since(image):
    edit = delete_box(image, 0, [16, 16, 24, 24], 80, 80)
    edit.apply()
    label(image).write_text("0 0.5 0.5 0.1 0.1\n")
    with pytest.raises(LabelEditError, match="changed after this edit"):
        edit.undo()
    assert label(image).read_text() == "0 0.5 0.5 0.1 0.1\n"


def test_crlf_files_keep_their_line_endings(image):
    label(image).write_bytes(b"0 0.25 0.25 0.1 0.1\r\n")
    add_box(image, 1, [40, 40, 80, 80], 80, 80).apply()
    assert label(image).read_bytes() == b"0 0.25 0.25 0.1 0.1\r\n1 0.750000 0.750000 0.500000 0.500000\r\n"


def test_the_exported_list_has_each_image_once_in_the_browsers_order(tmp_path):
    from core.evaluation.error_list import write_image_list

    rows = [{"image": "b.jpg"}, {"image": "a.jpg"}, {"image": "b.jpg"}, {"image": "c.jpg"}]
    target = tmp_path / "review.txt"
    target.write_text("old\n")
    assert write_image_list(rows, target) == 3
    assert target.read_text() == "b.jpg\na.jpg\nc.jpg\n" and (tmp_path / "review.txt.bak").read_text() == "old\n"
