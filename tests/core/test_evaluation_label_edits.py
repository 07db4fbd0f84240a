"""Label edits from the Errors browser (core.evaluation.label_edits): one line changes, a backup is kept, undo
restores, a box that is not there is refused in words; the label file is read back as it is now, and the
dataset check's cache sees every edit."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image

from core.dataset.files import label_path_for
from core.dataset.validate import validate_dataset
from core.evaluation import label_edits
from core.evaluation.label_edits import LabelEditError, add_box, change_class, delete_box, label_boxes
from core.evaluation.label_scope import DatasetLabels
from tests.core.test_dataset_validate import build


@pytest.fixture
def image(tmp_path):
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    img = tmp_path / "images" / "a.jpg"
    img.write_bytes(b"")
    (tmp_path / "labels" / "a.txt").write_text("0 0.25 0.25 0.1 0.1\n1 0.75 0.75 0.2 0.2\n", newline="")
    (tmp_path / "images" / "none.jpg").write_bytes(b"")  # an image without a label file
    (tmp_path / "data.yaml").write_text(f"path: {tmp_path}\ntrain: images\nval: images\nnames: [a, b, c]\n")
    return str(img)


def ds(image):
    """The dataset the edits of ``image`` are confined to."""
    return DatasetLabels(Path(image).parents[1] / "data.yaml")


def label(image):
    return Path(label_path_for(image))


def test_delete_change_and_add_touch_only_their_line_with_a_backup(image):
    edit = delete_box(image, 1, [52, 52, 68, 68], 80, 80, dataset=ds(image))  # class 1 at (0.75, 0.75) ± 0.1 of an 80x80 image
    edit.apply()
    assert label(image).read_text() == "0 0.25 0.25 0.1 0.1\n"
    assert label(image).with_name("a.txt.bak").read_text() == edit.before
    edit.undo()
    assert label(image).read_text() == edit.before
    assert not label(image).with_name("a.txt.bak").exists()  # undone: no .bak of the undone edit left (issue 32)

    change_class(image, 0, [16, 16, 24, 24], 80, 80, new_cls=2, dataset=ds(image)).apply()
    assert label(image).read_text().splitlines() == ["2 0.25 0.25 0.1 0.1", "1 0.75 0.75 0.2 0.2"]

    add = add_box(image, 1, [0, 0, 40, 20], 80, 80, dataset=ds(image))
    add.apply()
    assert label(image).read_text().splitlines()[-1] == "1 0.250000 0.125000 0.500000 0.250000"


def test_a_box_that_is_not_in_the_file_is_refused_and_nothing_is_written(image):
    before = label(image).read_text()
    with pytest.raises(LabelEditError, match="no class 1 box"):
        delete_box(image, 1, [0, 0, 10, 10], 80, 80, dataset=ds(image))
    with pytest.raises(LabelEditError, match="no class 0 box"):
        change_class(image, 0, [52, 52, 68, 68], 80, 80, new_cls=1, dataset=ds(image))  # right place, wrong class
    assert label(image).read_text() == before


def test_undo_refuses_when_the_file_changed_since(image):
    edit = delete_box(image, 0, [16, 16, 24, 24], 80, 80, dataset=ds(image))
    edit.apply()
    label(image).write_text("0 0.5 0.5 0.1 0.1\n")
    with pytest.raises(LabelEditError, match="changed after this edit"):
        edit.undo()
    assert label(image).read_text() == "0 0.5 0.5 0.1 0.1\n"


def test_crlf_files_keep_their_line_endings(image):
    label(image).write_bytes(b"0 0.25 0.25 0.1 0.1\r\n")
    add_box(image, 1, [40, 40, 80, 80], 80, 80, dataset=ds(image)).apply()
    assert label(image).read_bytes() == b"0 0.25 0.25 0.1 0.1\r\n1 0.750000 0.750000 0.500000 0.500000\r\n"


def test_the_exported_list_has_each_image_once_in_the_browsers_order(tmp_path):
    from core.evaluation.error_list import write_image_list

    rows = [{"image": "b.jpg"}, {"image": "a.jpg"}, {"image": "b.jpg"}, {"image": "c.jpg"}]
    target = tmp_path / "review.txt"
    target.write_text("old\n")
    assert write_image_list(rows, target) == 3
    assert target.read_text() == "b.jpg\na.jpg\nc.jpg\n" and (tmp_path / "review.txt.bak").read_text() == "old\n"


def test_label_boxes_reads_the_file_as_it_is_now(image):
    assert label_boxes(image, 80, 80, dataset=ds(image)) == [[0, 16.0, 16.0, 24.0, 24.0],
                                                            [1, 52.0, 52.0, 68.0, 68.0]]
    delete_box(image, 0, [16, 16, 24, 24], 80, 80, dataset=ds(image)).apply()
    assert label_boxes(image, 80, 80, dataset=ds(image)) == [[1, 52.0, 52.0, 68.0, 68.0]]
    assert label_boxes(str(Path(image).with_name("none.jpg")), 80, 80, dataset=ds(image)) == []


def coarse_clock(monkeypatch):
    """A file system whose clock did not tick between two writes: the new file keeps the old mtime."""
    real = label_edits.atomic_write_text

    def write(path, text, **kw):
        old = os.stat(path).st_mtime_ns if Path(path).exists() else None
        real(path, text, **kw)
        if old is not None:
            os.utime(path, ns=(old, old))

    monkeypatch.setattr(label_edits, "atomic_write_text", write)


def test_the_dataset_checks_cache_sees_an_edit_and_its_undo(tmp_path, monkeypatch):
    """The check's cache keys an entry by its files' (size, mtime): a class change keeps the size, and on a
    coarse clock the mtime too — the edit moves the mtime on, so the next check reads the label again."""
    coarse_clock(monkeypatch)
    root = tmp_path / "ds"
    yaml_file = build(root)  # t1: one class-0 box; t2: one class-1 box
    cache = tmp_path / "cache"
    assert validate_dataset(yaml_file, cache_dir=cache).stats["splits"]["train"]["per_class"] == [1, 1]
    t1 = str(root / "images" / "train" / "t1.png")
    width, height = 32, 32
    with Image.open(t1) as im:
        width, height = im.size
    box = [0.4 * width, 0.4 * height, 0.6 * width, 0.6 * height]
    edit = change_class(t1, 0, box, width, height, new_cls=1, dataset=DatasetLabels(yaml_file))
    assert len(edit.after) == len(edit.before)  # same size: only the mtime can tell the cache
    edit.apply()
    again = validate_dataset(yaml_file, cache_dir=cache)
    assert again.stats["splits"]["train"]["per_class"] == [0, 2]
    assert again.stats["scan"]["read"] == 1 and again.stats["scan"]["from_cache"] == 2
    edit.undo()
    assert validate_dataset(yaml_file, cache_dir=cache).stats["splits"]["train"]["per_class"] == [1, 1]
