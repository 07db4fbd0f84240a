"""Label edits are confined to the evaluation's dataset (core.evaluation.label_scope): a tampered store — an
image path outside the dataset, one that climbs out with ``..``, a label file or ``.bak`` that is a link — is
refused in words naming the path, and no file outside the dataset is created or changed (sha256 / existence)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from core.evaluation.error_browse import RowBoxes, accept_edit, delete_edit
from core.evaluation.label_edits import LabelEditError, label_boxes
from core.evaluation.label_scope import DatasetLabels, OutsideDataset
from tests.core.test_dataset_validate import build

BOX = [12.8, 12.8, 19.2, 19.2]  # t1's class-0 box (0.5 ± 0.1 of a 32-pixel image)


def snapshot(root: Path) -> dict[str, str]:
    """Every file under ``root`` (links as links) and its sha256."""
    out = {}
    for path in sorted(root.rglob("*")):
        if path.is_symlink():
            out[str(path)] = "-> " + os.readlink(path)
        elif path.is_file():
            out[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


@pytest.fixture
def world(tmp_path):
    """A dataset (ds/) and, beside it, files of the user's that are not the dataset's (home/)."""
    data = build(tmp_path / "ds")
    home = tmp_path / "home"
    (home / "images").mkdir(parents=True)
    (home / "labels").mkdir()
    (home / "images" / "x.png").write_bytes((tmp_path / "ds" / "images" / "train" / "t1.png").read_bytes())
    (home / "labels" / "x.txt").write_text("0 0.5 0.5 0.2 0.2\n")
    (home / ".bashrc").write_text("export PATH=/usr/bin\n")
    return data, home


def row(image: str) -> tuple[dict, RowBoxes]:
    return {"image": image}, RowBoxes(32, 32, [0, *BOX], [*BOX, 0.9, 1])


@pytest.mark.parametrize("stored", [
    "{home}/images/x.png",  # an image elsewhere: Accept would create, Delete rewrite, {home}/labels/x.txt
    "{home}/images/new.png",  # one that is not there at all
    "{ds}/images/train/../../../home/images/x.png",  # climbing out of the dataset with ..
])
def test_a_stored_path_outside_the_dataset_is_refused_and_nothing_outside_changes(world, stored):
    data, home = world
    image = stored.format(home=home, ds=data.parent)
    before = snapshot(home)
    scope = DatasetLabels(data)
    for edit in (accept_edit, delete_edit):
        with pytest.raises(OutsideDataset, match="is not an image of the dataset") as refused:
            edit(*row(image), scope)
        assert image in str(refused.value) and str(data) in str(refused.value)
    with pytest.raises(OutsideDataset):
        label_boxes(image, 32, 32, dataset=scope)  # nor is its label read for the browser
    assert snapshot(home) == before


def test_a_label_or_backup_that_links_outside_is_refused(world):
    data, home = world
    t1 = str(data.parent / "images" / "train" / "t1.png")
    label = data.parent / "labels" / "train" / "t1.txt"
    label.unlink()
    label.symlink_to(home / "labels" / "x.txt")
    before = snapshot(home)
    with pytest.raises(OutsideDataset, match="is a link") as refused:
        delete_edit(*row(t1), DatasetLabels(data))
    assert str(label) in str(refused.value)
    label.unlink()
    label.write_text("0 0.5 0.5 0.2 0.2\n")
    label.with_name("t1.txt.bak").symlink_to(home / ".bashrc")  # a backup copy would follow the link
    with pytest.raises(OutsideDataset, match="is a link"):
        delete_edit(*row(t1), DatasetLabels(data))
    assert snapshot(home) == before


def test_a_label_that_becomes_a_link_before_undo_is_left_alone(world):
    data, home = world
    t1 = str(data.parent / "images" / "train" / "t1.png")
    label = data.parent / "labels" / "train" / "t1.txt"
    edit = delete_edit(*row(t1), DatasetLabels(data))
    edit.apply()
    label.unlink()
    (home / "same.txt").write_text(edit.after)  # a link to a file that reads as the edit left it
    label.symlink_to(home / "same.txt")
    before = snapshot(home)
    with pytest.raises(LabelEditError, match="is a link now"):
        edit.undo()
    assert snapshot(home) == before


def test_the_datasets_own_images_are_edited_by_any_spelling_of_their_path(world):
    data, _home = world
    t1 = data.parent / "images" / "train" / "t1.png"
    spelled = str(t1.parent / ".." / "train" / "t1.png")  # the store may hold another spelling: resolved
    edit = accept_edit(*row(spelled), DatasetLabels(data))
    edit.apply()
    assert edit.path == data.parent / "labels" / "train" / "t1.txt"
    assert edit.path.read_text().splitlines()[-1].startswith("1 ")
