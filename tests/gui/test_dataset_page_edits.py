"""Issue 25's Dataset page: typed YAML reaches the form after a pause, a parse error turns Save off and says
why, one document in two views; New from folders keeps the folder's split and asks the names; Fix… for the
fixes a user expects, previewed and undoable."""

from __future__ import annotations

from pathlib import Path

import pytest

from gui import background
from gui.dataset import dataset_dialogs
from gui.dataset.dataset_page import DatasetPage
from tests.core.test_dataset_validate import BOX, build, image_bytes
from tests.waits import TIMEOUT_MS

YAML = "# my dataset\npath: {root}  # where it lives\ntrain: images/train\nval: images/val\nnames: [a, 'b']  # two\n"


@pytest.fixture(autouse=True)
def _never_a_real_modal(monkeypatch):
    monkeypatch.setattr(dataset_dialogs, "ask_unsaved", lambda parent, name: dataset_dialogs.DISCARD)


@pytest.fixture
def page(qtbot, tmp_path):
    page = DatasetPage(tmp_path / "ws")
    qtbot.addWidget(page)
    yield page
    if page.checking:
        page.cancel_check()
        assert background.shutdown_background(TIMEOUT_MS)


def open_checked(qtbot, page: DatasetPage, path: Path) -> None:
    page.checker.forget()
    page.open_path(path)
    qtbot.waitUntil(lambda: page.report is not None, timeout=TIMEOUT_MS)


def type_text(qtbot, page: DatasetPage, text: str) -> None:
    """Replace the text as a user would and wait for the pause to send it (the signal, not a time)."""
    with qtbot.waitSignal(page.yaml_editor.text_edited, timeout=TIMEOUT_MS):
        page.yaml_editor.edit.selectAll()
        page.yaml_editor.edit.insertPlainText(text)


def rows(page: DatasetPage) -> dict:
    tree = page.findings.tree
    return {tree.topLevelItem(i).text(1): tree.topLevelItem(i) for i in range(tree.topLevelItemCount())}


def test_typed_yaml_reaches_the_form_after_a_pause_is_unsaved_and_saved(qtbot, page, tmp_path):
    yaml_file = build(tmp_path / "ds", yaml_text=YAML.format(root=tmp_path / "ds"))
    open_checked(qtbot, page, yaml_file)
    assert not page.save_button.isEnabled()
    type_text(qtbot, page, page.text.replace("names: [a, 'b']", "names: [a, 'b', cat]"))
    assert page.form.table.rowCount() == 3 and page.form.table.item(2, 1).text() == "cat"
    assert page.dirty and page.save_button.isEnabled() and "unsaved changes" in page.file_label.text()
    with qtbot.waitSignal(page.dataset_saved, timeout=TIMEOUT_MS) as saved:
        page.save_button.click()
    assert saved.args == [yaml_file.absolute()]
    assert "names: [a, 'b', cat]  # two\n" in yaml_file.read_text() and not page.dirty


def test_a_parse_error_shows_its_line_and_save_says_why_it_is_off(qtbot, page, tmp_path):
    yaml_file = build(tmp_path / "ds", yaml_text=YAML.format(root=tmp_path / "ds"))
    open_checked(qtbot, page, yaml_file)
    type_text(qtbot, page, page.text.replace("val: images/val", "val: [images/val"))
    assert "line 5" in page.yaml_editor.error_label.text()
    assert page.dirty and not page.save_button.isEnabled()
    assert "line 5" in page.save_button.toolTip() and "Save is off" in page.save_button.toolTip()
    assert page.save() is False and "line 5" in page.banner.text
    page.undo()
    assert page.yaml_editor.error_label.text() == "The YAML parses." and not page.dirty


def test_after_a_form_edit_and_a_save_the_text_tab_shows_the_current_text(qtbot, page, tmp_path):
    yaml_file = build(tmp_path / "ds", yaml_text=YAML.format(root=tmp_path / "ds"))
    open_checked(qtbot, page, yaml_file)
    page.form.table.item(0, 1).setText("ant")
    assert page.yaml_editor.edit.toPlainText() == page.text and "[ant, 'b']" in page.text
    with qtbot.waitSignal(page.dataset_saved, timeout=TIMEOUT_MS):
        page.save()
    assert page.yaml_editor.edit.toPlainText() == yaml_file.read_text()
    type_text(qtbot, page, page.text.replace("ant", "bee"))  # typing after the form edit, then the form again
    page.form.table.item(1, 1).setText("wasp")
    assert page.yaml_editor.edit.toPlainText() == page.text and "[bee, 'wasp']" in page.text


def test_new_from_folders_keeps_images_train_and_val_and_asks_the_names(qtbot, page, tmp_path, monkeypatch):
    folder = tmp_path / "mine"
    for split, n in (("train", 12), ("val", 8)):
        (folder / "images" / split).mkdir(parents=True)
        (folder / "labels" / split).mkdir(parents=True)
        for i in range(n):
            (folder / "images" / split / f"{split}{i}.png").write_bytes(image_bytes())
            (folder / "labels" / split / f"{split}{i}.txt").write_text(BOX if i % 2 else "1 .5 .5 .1 .1\n")
    (folder / "labels" / "train" / "train3.txt").write_text(BOX + "5 .4 .4 .1 .1\n")  # one stray id
    monkeypatch.setattr(dataset_dialogs, "choose_image_folder", lambda parent, start: str(folder))
    monkeypatch.setattr(dataset_dialogs, "ask_val_ratio", lambda parent: pytest.fail("the folder has a split"))
    asked = []
    monkeypatch.setattr(dataset_dialogs, "ask_class_names",
                        lambda parent, suggested, note: asked.append((suggested, note)) or ["cat", "dog"])
    page.new_from_folders()
    qtbot.waitUntil(lambda: page.report is not None, timeout=TIMEOUT_MS)
    [(suggested, note)] = asked
    assert suggested == ["class0", "class1"] and "id 5 at train3.txt:2" in note
    assert (folder / "val.txt").read_text().split() == [f"./images/val/val{i}.png" for i in range(8)]
    assert page.form.table.rowCount() == 2 and page.form.table.item(1, 1).text() == "dog"
    [stray] = [f for f in page.report.findings if f.code == "label-class-range"]
    assert (Path(stray.file).name, stray.line) == ("train3.txt", 2)
    assert "split is kept (train 12, val 8)" in page.banner.text and "beyond the 2 classes: 1" in page.banner.text
    assert "Errors found (1)" in page.banner.text  # the check's verdict beside what New from folders did


def test_fix_deletes_a_row_with_an_impossible_class_id_and_undo_puts_it_back(qtbot, page, tmp_path, monkeypatch):
    root = tmp_path / "ids"
    yaml_file = build(root, train={"t1": BOX + "5 .5 .5 .1 .1\n", "t2": "1 .5 .5 .1 .1\n"},
                      yaml_text=YAML.format(root=root))
    label = root / "labels" / "train" / "t1.txt"
    open_checked(qtbot, page, yaml_file)
    page.findings.tree.setCurrentItem(rows(page)["label-class-range"])
    qtbot.waitUntil(page.findings.fix_button.isEnabled, timeout=TIMEOUT_MS)
    assert "impossible class id" in page.findings.fix_button.toolTip()
    previews = []
    monkeypatch.setattr(dataset_dialogs, "confirm_fix", lambda parent, summary, before, after:
                        previews.append((summary, after)) or True)
    page.checker.forget()
    with qtbot.waitSignal(page.dataset_saved, timeout=TIMEOUT_MS):  # the Train page judges it again
        page.findings.fix_button.click()
    qtbot.waitUntil(lambda: page.report is not None, timeout=TIMEOUT_MS)
    assert previews == [(previews[0][0], BOX)] and "line 2" in previews[0][0]
    assert page.report.ok and label.read_text() == BOX and page.findings.undo_fix_button.isVisibleTo(page)
    page.checker.forget()
    page.findings.undo_fix_button.click()
    qtbot.waitUntil(lambda: page.report is not None, timeout=TIMEOUT_MS)
    assert label.read_text() == BOX + "5 .5 .5 .1 .1\n" and "label-class-range" in rows(page)


@pytest.mark.parametrize("code, train, check", [
    ("image-corrupt", {"t1": BOX, "t2": (b"not an image", BOX)},
     lambda root: (root / "_excluded_images" / "images" / "train" / "t2.png").is_file()),
    ("label-not-normalized", {"t1": "0 1.01 0.5 0.2 0.2\n", "t2": BOX},
     lambda root: (root / "labels" / "train" / "t1.txt").read_text() == "0 1 0.5 0.2 0.2\n")])
def test_fix_drops_an_unreadable_image_and_clips_slightly_out_coordinates(qtbot, page, tmp_path, monkeypatch,
                                                                          code, train, check):
    root = tmp_path / code
    yaml_file = build(root, train=train, yaml_text=YAML.format(root=root))
    open_checked(qtbot, page, yaml_file)
    page.findings.tree.setCurrentItem(rows(page)[code])
    qtbot.waitUntil(page.findings.fix_button.isEnabled, timeout=TIMEOUT_MS)
    monkeypatch.setattr(dataset_dialogs, "confirm_fix", lambda *args: True)
    page.checker.forget()
    page.findings.fix_button.click()
    qtbot.waitUntil(lambda: page.report is not None, timeout=TIMEOUT_MS)
    assert check(root) and code not in rows(page)


def test_a_finding_without_a_fix_says_so(qtbot, page, tmp_path):
    root = tmp_path / "cols"
    yaml_file = build(root, train={"t1": "0 0.5 0.5 0.2\n", "t2": BOX}, yaml_text=YAML.format(root=root))
    open_checked(qtbot, page, yaml_file)
    page.findings.tree.setCurrentItem(rows(page)["label-columns"])
    assert not page.findings.fix_button.isEnabled()
    assert "No automatic fix" in page.findings.fix_button.toolTip()


def test_leaving_while_a_save_is_in_flight_saves_now(qtbot, page, tmp_path, monkeypatch):
    yaml_file = build(tmp_path / "ds", yaml_text=YAML.format(root=tmp_path / "ds"))
    open_checked(qtbot, page, yaml_file)
    page.form.table.item(0, 1).setText("ant")
    with qtbot.waitSignal(page.dataset_saved, timeout=TIMEOUT_MS):
        page.document.save(check=False)  # in the background ...
        monkeypatch.setattr(dataset_dialogs, "ask_unsaved", lambda parent, name: dataset_dialogs.SAVE)
        assert page.saving and page.maybe_leave()  # ... and the window closing meanwhile waits for none
    assert "[ant, 'b']" in yaml_file.read_text() and not page.dirty
