"""The Dataset page's Import… dialog with its real worker: Look shows what the export holds and writes
nothing; renames, merges and drops reach the dataset; the written dataset opens on the page and
"Train with this dataset" hands it to the Train page; Cancel leaves nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from gui.dataset.dataset_page import DatasetPage
from gui.dataset import dataset_dialogs
from gui.dataset.dataset_import_dialog import NAME_COL, SOURCE_COL, DatasetImportDialog
from tests.import_samples import write_voc
from tests.waits import TIMEOUT_MS


@pytest.fixture(autouse=True)
def _never_a_real_modal(monkeypatch):
    monkeypatch.setattr(dataset_dialogs, "ask_unsaved", lambda parent, name: dataset_dialogs.DISCARD)


@pytest.fixture
def export(tmp_path: Path) -> Path:
    src = tmp_path / "labelimg"
    for i in range(5):
        write_voc(src, f"{i}.jpg", (64, 48), [("Cat" if i == 0 else "cat", 4, 4, 40, 40), ("bike", 42, 5, 60, 30)])
    write_voc(src, "zero.jpg", (64, 48), [("cat", 4, 4, 4, 40)])
    return src


def row_of(dialog: DatasetImportDialog, name: str) -> int:
    return next(r for r in range(dialog.classes.rowCount()) if dialog.classes.item(r, SOURCE_COL).text() == name)


def looked(qtbot, dialog: DatasetImportDialog, source: Path) -> None:
    dialog.set_source(str(source))
    qtbot.waitUntil(lambda: dialog.preview is not None and not dialog.runner.active, timeout=TIMEOUT_MS)


def test_look_then_import_with_classes_merged_and_dropped(qtbot, tmp_path, export):
    page = DatasetPage(tmp_path / "ws")
    qtbot.addWidget(page)
    page.import_dataset()
    dialog = page.import_dialog
    assert isinstance(dialog, DatasetImportDialog)
    looked(qtbot, dialog, export)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["labelimg", "ws"]  # Look wrote nothing
    assert {dialog.classes.item(r, SOURCE_COL).text() for r in range(dialog.classes.rowCount())} == {
        "cat", "Cat", "bike"}
    text = dialog.problems.toPlainText()
    assert "'cat' / 'Cat'" in text and "zero_size" in text and "zero.xml" in text
    dialog.merge_button.click()
    assert dialog.classes.item(row_of(dialog, "Cat"), NAME_COL).text() == "cat"
    dialog.classes.item(row_of(dialog, "bike"), SOURCE_COL).setCheckState(Qt.CheckState.Unchecked)
    out = tmp_path / "labelimg-yolo"
    assert dialog.out_edit.text() == str(out)  # proposed beside the export

    dialog.import_button.click()
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=TIMEOUT_MS)
    assert dialog.result["names"] == ["cat"] and dialog.result["boxes"] == 5
    qtbot.waitUntil(lambda: page.path == out / "data.yaml", timeout=TIMEOUT_MS)  # the page opened it
    assert dialog.train_button.isVisible()
    with qtbot.waitSignal(dialog.train_requested, timeout=TIMEOUT_MS) as sent:
        dialog.train_button.click()
    assert sent.args == [out / "data.yaml"]


def test_cancel_leaves_a_whole_dataset_or_nothing(qtbot, tmp_path, export):
    """Cancel as soon as the worker reports writing: the stop may land before the last image or after it
    (the worker does not wait for it), and either way there is no half dataset under the output's name."""
    dialog = DatasetImportDialog(tmp_path / "ws")
    qtbot.addWidget(dialog)
    looked(qtbot, dialog, export)
    dialog.out_edit.setText(str(tmp_path / "out"))
    dialog.runner.event.connect(lambda e: e.get("phase") == "writing" and dialog.cancel_button.click())
    dialog.start_import()
    qtbot.waitUntil(lambda: not dialog.runner.active, timeout=TIMEOUT_MS)
    assert not list(tmp_path.glob(".out.importing-*"))
    if dialog.result is None:
        assert dialog.status.text() == "Cancelled; nothing was written."
        assert not (tmp_path / "out").exists()
    else:
        assert (tmp_path / "out" / "data.yaml").is_file() and len(list((tmp_path / "out").rglob("*.jpg"))) == 6


def test_a_folder_that_is_no_export_says_so(qtbot, tmp_path):
    (tmp_path / "empty").mkdir()
    dialog = DatasetImportDialog(tmp_path / "ws")
    qtbot.addWidget(dialog)
    dialog.set_source(str(tmp_path / "empty"))
    qtbot.waitUntil(lambda: not dialog.runner.active, timeout=TIMEOUT_MS)
    assert "no VOC .xml, LabelMe .json, COCO .json or YOLO labels found" in dialog.status.text()
    assert not dialog.import_button.isEnabled()


def test_a_typed_path_the_difficult_objects_the_written_order_and_a_full_folder(qtbot, tmp_path):
    """Issue 32's papercuts: a typed path proposes "Write to" as a browsed one does; the preview says how many
    difficult objects it leaves out; the classes' written order (ids) is shown before writing and follows a drop;
    a folder that is not empty is said once, in the dialog's words (no CLI flag)."""
    src = tmp_path / "voc"
    write_voc(src, "0.jpg", (64, 48), [("dog", 4, 4, 30, 30), ("cat", 32, 4, 60, 40)], difficult=(1,))
    write_voc(src, "1.jpg", (64, 48), [("bird", 4, 4, 30, 30), ("dog", 32, 4, 60, 40)])
    dialog = DatasetImportDialog(tmp_path / "ws")
    qtbot.addWidget(dialog)
    qtbot.keyClicks(dialog.source_edit, str(src))
    qtbot.keyClick(dialog.source_edit, Qt.Key.Key_Return)  # typed, then Enter: no browsing
    qtbot.waitUntil(lambda: dialog.preview is not None and not dialog.runner.active, timeout=TIMEOUT_MS)
    assert dialog.out_edit.text() == str(tmp_path / "voc-yolo")
    assert "1 object marked difficult left out" in dialog.summary.text()
    assert dialog.order_label.text() == "Written as: 0 dog, 1 bird"  # first appearance; the difficult cat is out
    dialog.classes.item(row_of(dialog, "dog"), SOURCE_COL).setCheckState(Qt.CheckState.Unchecked)
    assert dialog.order_label.text() == "Written as: 0 bird"

    full = tmp_path / "full"
    full.mkdir()
    (full / "mine.txt").write_text("keep")
    dialog.out_edit.setText(str(full))
    dialog.start_import()
    qtbot.waitUntil(lambda: not dialog.runner.active and "failed" in dialog.status.text(), timeout=TIMEOUT_MS)
    status = dialog.status.text()
    assert "already exists and is not empty" in status and "--out" not in status
    assert status.lower().count("pick a new") == 1, status
    assert (full / "mine.txt").read_text() == "keep"
