"""The real Dataset page: form ↔ text sync, undo/redo, the id-change warning, saving and the save prompt,
a background check with findings, statistics and the gallery, and "new from folders"."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from gui import background
from gui.dataset.dataset_page import DatasetPage
from gui.dataset import dataset_dialogs
from tests.core.test_dataset_validate import BOX, build, image_bytes
from tests.waits import TIMEOUT_MS

YAML = "# my dataset\npath: {root}  # where it lives\ntrain: images/train\nval: images/val\nnames: [a, 'b']  # two\n"


@pytest.fixture(autouse=True)
def _never_a_real_modal(monkeypatch):
    """A test that ends with unsaved edits must not block on a real message box when its widget closes."""
    monkeypatch.setattr(dataset_dialogs, "ask_unsaved", lambda parent, name: dataset_dialogs.DISCARD)
    monkeypatch.setattr(dataset_dialogs, "confirm_id_change", lambda parent, what: True)


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    root = tmp_path / "ds"
    return build(root, yaml_text=YAML.format(root=root))


@pytest.fixture
def page(qtbot, tmp_path):
    page = DatasetPage(tmp_path / "ws")
    qtbot.addWidget(page)
    yield page
    if page.checking:  # pytest-qt may have deleted the page already: wait for the job itself, not its answer
        page.cancel_check()
        assert background.shutdown_background(TIMEOUT_MS)


def open_checked(qtbot, page: DatasetPage, path: Path) -> None:
    page.open_path(path)
    qtbot.waitUntil(lambda: page.report is not None, timeout=TIMEOUT_MS)


def test_empty_state_says_what_to_do(page):
    assert page.stack.currentIndex() == 0
    assert "No dataset yet" in page.empty_state.text.text()
    assert not page.save_button.isEnabled() and not page.check_button.isEnabled()


def test_form_edit_changes_only_that_text_and_undo_redo(qtbot, page, dataset):
    original = dataset.read_text()
    open_checked(qtbot, page, dataset)
    assert page.form.table.item(1, 1).text() == "b"
    page.form.table.item(1, 1).setText("bee")  # a rename keeps every id: no warning
    assert page.text == original.replace("'b'", "'bee'")
    assert "'bee'" in page.yaml_editor.edit.toPlainText()
    assert page.dirty and page.save_button.isEnabled()
    page.undo()
    assert page.text == original and not page.dirty
    assert page.form.table.item(1, 1).text() == "b"
    page.redo()
    assert page.text == original.replace("'b'", "'bee'")


def test_typed_text_updates_the_form_and_marks_a_parse_error(qtbot, page, dataset):
    open_checked(qtbot, page, dataset)
    page.yaml_editor.edit.setPlainText(page.text.replace("names: [a, 'b']", "names: [a, 'b', c]"))
    page.yaml_editor.commit()
    assert page.form.table.rowCount() == 3
    page.yaml_editor.edit.setPlainText("train: [oops\nval: x\n")
    page.yaml_editor.commit()
    assert "line 2" in page.yaml_editor.error_label.text().lower()
    assert not page.form.add_button.isEnabled()  # the form cannot edit a file that does not parse
    page.undo()
    assert page.form.table.rowCount() == 3 and page.yaml_editor.error_label.text() == "The YAML parses."


def test_reorder_and_delete_ask_first(qtbot, page, dataset, monkeypatch):
    open_checked(qtbot, page, dataset)
    before = page.text
    asked = []
    monkeypatch.setattr(dataset_dialogs, "confirm_id_change", lambda parent, what: asked.append(what) or False)
    page.form.select_class(0)
    page.form.move_class(1)
    assert asked and page.text == before and page.form.table.item(0, 1).text() == "a"
    monkeypatch.setattr(dataset_dialogs, "confirm_id_change", lambda parent, what: True)
    page.form.select_class(0)
    page.form.delete_class()
    assert page.form.table.rowCount() == 1 and "names: ['b']" in page.text


def test_save_keeps_a_backup_and_unsaved_prompt(qtbot, page, dataset, monkeypatch):
    original = dataset.read_bytes()
    open_checked(qtbot, page, dataset)
    page.form.edits["val"].setText("images/train")
    page.form.edits["val"].editingFinished.emit()
    answers = iter([dataset_dialogs.CANCEL, dataset_dialogs.SAVE])
    monkeypatch.setattr(dataset_dialogs, "ask_unsaved", lambda parent, name: next(answers))
    assert page.maybe_leave() is False and page.dirty
    assert page.maybe_leave() is True and not page.dirty
    assert dataset.read_bytes() == original.replace(b"val: images/val", b"val: images/train")
    assert (dataset.parent / "data.yaml.bak").read_bytes() == original


@pytest.fixture
def window(qtbot, tmp_path):
    """The Dataset page inside the real window: leaving it (another page, closing) is the window's question."""
    from gui.main_window import MainWindow
    from gui.pages.catalog import page_index

    window = MainWindow(tmp_path / "ws", prepare_demo=False, check_runs=False)
    qtbot.addWidget(window)
    window.show()
    index = page_index("dataset")
    assert window.show_page(index)
    page = window.pages.widget(index)
    assert isinstance(page, DatasetPage)
    return window, page, index


def test_discard_reverts_and_a_close_can_be_cancelled(qtbot, window, dataset, monkeypatch):
    window, page, _ = window
    open_checked(qtbot, page, dataset)
    page.form.table.item(0, 1).setText("ant")
    monkeypatch.setattr(dataset_dialogs, "ask_unsaved", lambda parent, name: dataset_dialogs.CANCEL)
    assert window.close() is False and window.isVisible()
    monkeypatch.setattr(dataset_dialogs, "ask_unsaved", lambda parent, name: dataset_dialogs.DISCARD)
    assert window.close() is True
    assert "ant" not in page.text and dataset.read_text() == YAML.format(root=dataset.parent)


def test_switching_page_with_unsaved_edits_asks(qtbot, window, dataset, monkeypatch):
    window, page, index = window
    open_checked(qtbot, page, dataset)
    page.form.table.item(0, 1).setText("ant")
    asked = []
    monkeypatch.setattr(dataset_dialogs, "ask_unsaved",
                        lambda parent, name: asked.append(name) or dataset_dialogs.CANCEL)
    window.rail.setCurrentRow(index + 2)  # the Train page
    assert asked == ["data.yaml"] and window.pages.currentIndex() == index and window.rail.currentRow() == index
    assert page.dirty
    monkeypatch.setattr(dataset_dialogs, "ask_unsaved", lambda parent, name: dataset_dialogs.DISCARD)
    window.rail.setCurrentRow(index + 2)
    assert window.pages.currentIndex() == index + 2 and not page.dirty
    window.close()


def test_check_fills_findings_stats_and_gallery(qtbot, page, tmp_path):
    root = tmp_path / "bad"
    yaml_file = build(root, train={"t1": BOX + "5 0.5 0.5 0.1 0.1\n", "t2": BOX, "t3": "1 .5 .5 .1 .1\n"},
                      yaml_text=YAML.format(root=root) + "nc: 3\n")
    open_checked(qtbot, page, yaml_file)
    codes = [page.findings.tree.topLevelItem(i).text(1) for i in range(page.findings.tree.topLevelItemCount())]
    assert "label-class-range" in codes and "names-nc-mismatch" in codes
    assert page.banner.level == "error"
    row = codes.index("names-nc-mismatch")
    page.findings.tree.setCurrentItem(page.findings.tree.topLevelItem(row))
    assert page.left_tabs.currentWidget() is page.yaml_editor
    assert page.yaml_editor.edit.textCursor().blockNumber() == 5  # line 6: nc
    row = codes.index("label-class-range")
    page.findings.tree.setCurrentItem(page.findings.tree.topLevelItem(row))
    qtbot.waitUntil(lambda: "5 0.5 0.5 0.1 0.1" in page.findings.preview.toPlainText(), timeout=TIMEOUT_MS)
    assert page.report.stats["splits"]["train"]["per_class"] == [2, 1]
    page.right_tabs.setCurrentWidget(page.gallery)
    page.show()
    qtbot.waitUntil(lambda: page.gallery.thumbnails_loaded == 4, timeout=TIMEOUT_MS)
    page.gallery.only_problems.setChecked(True)
    assert page.gallery.list.count() == 1
    assert "t1.png" in page.gallery.list.item(0).text()
    page.hide()


def test_new_dataset_from_folders(qtbot, page, tmp_path, monkeypatch):
    folder = tmp_path / "flat"
    folder.mkdir()
    for i in range(10):
        (folder / f"img{i}.png").write_bytes(image_bytes())
        (folder / f"img{i}.txt").write_text(BOX)
    (folder / "classes.txt").write_text("cat\n")
    monkeypatch.setattr(dataset_dialogs, "choose_image_folder", lambda parent, start: str(folder))
    monkeypatch.setattr(dataset_dialogs, "ask_val_ratio", lambda parent: 0.2)
    page.new_from_folders()
    qtbot.waitUntil(lambda: page.report is not None, timeout=TIMEOUT_MS)
    assert page.path == folder / "data.yaml"
    assert page.form.table.item(0, 1).text() == "cat"
    assert len((folder / "val.txt").read_text().split()) == 2
    assert page.report.ok


def test_save_shortcut(qtbot, page, dataset):
    open_checked(qtbot, page, dataset)
    page.show()
    page.activateWindow()
    qtbot.waitUntil(page.isActiveWindow, timeout=TIMEOUT_MS)
    page.form.table.item(0, 1).setText("ant")
    page.form.table.setFocus()
    qtbot.keyClick(page.form.table, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not page.dirty, timeout=TIMEOUT_MS)
    assert "ant" in dataset.read_text()
    page.hide()


def test_one_click_fix_is_previewed_then_applied(qtbot, page, tmp_path, monkeypatch):
    root = tmp_path / "dup"
    yaml_file = build(root, train={"t1": BOX + BOX, "t2": "1 .5 .5 .1 .1\n"}, yaml_text=YAML.format(root=root))
    open_checked(qtbot, page, yaml_file)
    row = [page.findings.tree.topLevelItem(i).text(1)
           for i in range(page.findings.tree.topLevelItemCount())].index("label-duplicate-row")
    page.findings.tree.setCurrentItem(page.findings.tree.topLevelItem(row))
    qtbot.waitUntil(page.findings.fix_button.isEnabled, timeout=TIMEOUT_MS)  # planned in the background
    previews = []
    monkeypatch.setattr(dataset_dialogs, "confirm_fix", lambda parent, summary, before, after:
                        previews.append((before, after)) or True)
    page.checker.forget()
    page.findings.fix_button.click()
    assert previews == [(BOX + BOX, BOX)]
    qtbot.waitUntil(lambda: page.report is not None, timeout=TIMEOUT_MS)
    assert page.report.findings == []
    assert (root / "labels" / "train" / "t1.txt.bak").read_text() == BOX + BOX


def test_reroot_a_colab_path_is_an_undoable_edit(qtbot, page, tmp_path, monkeypatch):
    root = tmp_path / "moved"
    yaml_file = build(root, yaml_text="path: /content/drive/MyDrive/ds\ntrain: images/train\nval: images/val\n"
                                      "names: [a, b]\n")
    open_checked(qtbot, page, yaml_file)
    [finding] = [f for f in page.report.findings if f.code == "path-foreign"]
    monkeypatch.setattr(dataset_dialogs, "confirm_fix", lambda *args: True)
    page.checker.forget()
    assert page.fixes.fix_finding(finding)
    assert page.text.startswith(f"path: {root}\n") and page.dirty
    qtbot.waitUntil(lambda: page.report is not None, timeout=TIMEOUT_MS)
    assert page.report.ok
    page.undo()
    assert page.text.startswith("path: /content/")


def test_ctrl_z_in_the_text_view_uses_the_page_history(qtbot, page, dataset):
    open_checked(qtbot, page, dataset)
    page.show()
    page.activateWindow()
    qtbot.waitUntil(page.isActiveWindow, timeout=TIMEOUT_MS)
    original = page.text
    page.form.table.item(0, 1).setText("ant")  # a form edit ...
    page.left_tabs.setCurrentWidget(page.yaml_editor)
    page.yaml_editor.edit.setFocus()
    page.yaml_editor.edit.moveCursor(page.yaml_editor.edit.textCursor().MoveOperation.End)
    qtbot.keyClicks(page.yaml_editor.edit, "test: images/val")  # ... then typing (QTest has no '\n' key)
    qtbot.keyClick(page.yaml_editor.edit, Qt.Key.Key_Return)
    qtbot.keyClick(page.yaml_editor.edit, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert "test:" not in page.text and "ant" in page.text  # typing undone first
    qtbot.keyClick(page.yaml_editor.edit, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert page.text == original
    page.hide()


def test_statistics_tab_draws_box_and_image_size_histograms(qtbot, page, tmp_path):
    import pyqtgraph as pg

    root = tmp_path / "h"
    yaml_file = build(root, train={"t1": BOX + "1 .3 .3 .05 .4\n", "t2": "0 .5 .5 .6 .3\n"},
                      yaml_text=YAML.format(root=root))
    open_checked(qtbot, page, yaml_file)
    histograms = page.report.stats["histograms"]
    assert sum(histograms["box_area_log10"]["counts"]) == 5 == sum(histograms["box_aspect_log2"]["counts"])
    assert sum(histograms["image_side_px"]["counts"]) == 3
    for plot, counts in ((page.stats.box_area, histograms["box_area_log10"]["counts"]),
                         (page.stats.box_aspect, histograms["box_aspect_log2"]["counts"]),
                         (page.stats.image_side, histograms["image_side_px"]["counts"])):
        [bars] = [item for item in plot.getPlotItem().items if isinstance(item, pg.BarGraphItem)]
        assert list(bars.opts["height"]) == counts


def test_fix_is_enabled_only_for_a_finding_that_has_a_fix(qtbot, page, tmp_path):
    root = tmp_path / "pixels"
    yaml_file = build(root, train={"t1": "0 50 40 10 12\n", "t2": BOX + BOX}, yaml_text=YAML.format(root=root))
    open_checked(qtbot, page, yaml_file)
    rows = {page.findings.tree.topLevelItem(i).text(1): page.findings.tree.topLevelItem(i)
            for i in range(page.findings.tree.topLevelItemCount())}
    page.findings.tree.setCurrentItem(rows["label-not-normalized"])  # pixel coordinates: a person must convert
    qtbot.waitUntil(lambda: "No automatic fix" in page.findings.fix_button.toolTip(), timeout=TIMEOUT_MS)
    assert not page.findings.fix_button.isEnabled()
    page.findings.tree.setCurrentItem(rows["label-duplicate-row"])
    qtbot.waitUntil(page.findings.fix_button.isEnabled, timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: page.findings.preview.toPlainText() == BOX + BOX, timeout=TIMEOUT_MS)  # read off the GUI thread
    (root / "labels" / "train" / "t2.txt").write_text(BOX)  # fixed outside; the next check's preview is fresh
    page.checker.forget()
    page.check()
    qtbot.waitUntil(lambda: page.report is not None, timeout=TIMEOUT_MS)
    assert BOX + BOX not in page.findings.preview.toPlainText() and page.findings.current is None


def test_typed_form_edits_apply_after_a_pause_and_save_checks_again(qtbot, page, tmp_path):
    root = tmp_path / "typed"
    yaml_file = build(root, yaml_text=YAML.format(root=root))
    open_checked(qtbot, page, yaml_file)
    edit = page.form.edits["val"]
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClicks(edit, "images/nowhere")  # focus stays in the field
    qtbot.waitUntil(page.save_button.isEnabled, timeout=TIMEOUT_MS)  # as typed, not only when focus leaves
    assert "val: images/nowhere" in page.text
    qtbot.waitUntil(lambda: "missing" in page.form.previews["val"].text(), timeout=TIMEOUT_MS)  # looked up off the GUI thread
    assert edit.text() == "images/nowhere" and page.left_tabs.currentWidget() is page.form_scroll
    page.checker.forget()
    assert page.save()
    qtbot.waitUntil(lambda: page.report is not None, timeout=TIMEOUT_MS)  # the save was checked again
    assert "split-path-missing" in {f.code for f in page.report.findings}
    assert page.left_tabs.currentWidget() is page.form_scroll  # the re-check did not switch to the YAML view


def test_clearing_test_offers_to_remove_the_key(qtbot, page, tmp_path, monkeypatch):
    root = tmp_path / "withtest"
    yaml_file = build(root, yaml_text=YAML.format(root=root) + "test: images/val  # for later\n")
    open_checked(qtbot, page, yaml_file)
    asked = []
    monkeypatch.setattr(dataset_dialogs, "confirm_remove_key", lambda parent, key: asked.append(key) or True)
    page.form.edits["test"].setText("")
    page.form.edits["test"].editingFinished.emit()
    assert asked == ["test"] and "\ntest:" not in page.text and page.text.startswith("# my dataset\n")
    page.undo()
    assert page.text.endswith("test: images/val  # for later\n")


def test_problem_filter_includes_duplicates_and_missing_labels_and_double_click_shows_it_large(qtbot, page, tmp_path):
    root = tmp_path / "warn"
    same = image_bytes()
    yaml_file = build(root, train={"t1": (same, BOX), "t2": (same, BOX), "t3": (None, None), "t4": BOX},
                      yaml_text=YAML.format(root=root))
    open_checked(qtbot, page, yaml_file)
    assert {"image-duplicate", "label-missing"} <= {f.code for f in page.report.findings}
    page.right_tabs.setCurrentWidget(page.gallery)
    page.show()
    page.gallery.only_problems.setChecked(True)
    shown = sorted(page.gallery.list.item(i).text() for i in range(page.gallery.list.count()))
    assert shown == ["⚠ t2.png", "⚠ t3.png"]  # a duplicate (of t1) and a missing label: not only errors
    assert "label-missing" in page.gallery.list.item(shown.index("⚠ t3.png")).toolTip()
    page.gallery.list.itemDoubleClicked.emit(page.gallery.list.item(0))
    view = page.gallery.large_view  # a window of its own; closing deletes it
    qtbot.waitUntil(lambda: view.pixmap() is not None and not view.pixmap().isNull(), timeout=TIMEOUT_MS)
    assert max(view.pixmap().width(), view.pixmap().height()) > 150  # larger than a thumbnail
    view.close()
    page.hide()


def test_every_thumbnail_has_the_size_of_the_broken_image_tile(tmp_path):
    from core.dataset.records import ImageRecord
    from gui.dataset.dataset_gallery import THUMB, render_thumbnail

    root = build(tmp_path / "d").parent
    small = next((root / "images" / "train").iterdir())  # 32 x 24 px
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"not an image")
    sizes = [render_thumbnail(ImageRecord(str(path), "train", "", False, 0, 0), [])[1:] for path in (small, broken)]
    assert max(sizes[0]) == THUMB and sizes[1] == (THUMB, THUMB)


def test_every_class_bar_is_labelled_and_no_label_runs_into_the_next(qtbot):
    """Issue 25: only the first bar had a name (the tab was hidden when the report came, so the plot had a
    hidden widget's width); names are elided to a bar's width, ids when no name fits."""
    from gui.dataset.dataset_stats import DatasetStats

    stats = DatasetStats()
    qtbot.addWidget(stats)
    names = [f"class_with_a_long_name_{i}" for i in range(12)]
    stats.show_stats({"classes": names, "splits": {"train": {"per_class": [1] * 12, "images": 12, "instances": 12,
                                                             "backgrounds": 0}}})  # before it is shown
    stats.resize(620, 500)
    stats.show()
    qtbot.waitExposed(stats)
    metrics = stats.plot.fontMetrics()

    def fits() -> bool:
        room = (stats.plot.width() - 60) / len(names) * stats.class_step  # a label has its bars' width
        return all(metrics.horizontalAdvance(text) <= room for text in stats.class_labels.values())

    qtbot.waitUntil(lambda: len(stats.class_labels) == 12 and fits())
    assert all(text.rstrip("…") and names[i].startswith(text.rstrip("…")) for i, text in stats.class_labels.items())
    stats.resize(stats.minimumSizeHint().width(), 500)
    qtbot.waitUntil(lambda: stats.plot.width() < 300 and fits())
    assert len(stats.class_labels) >= 12 // stats.class_step
    stats.hide()


def test_histogram_ticks_never_overlap_and_titles_are_whole(qtbot):
    from gui.dataset.dataset_stats import DatasetStats

    stats = DatasetStats()
    qtbot.addWidget(stats)
    stats.resize(600, 600)
    stats.show()
    qtbot.waitExposed(stats)
    edges = [0, 32, 64, 128, 256, 320, 480, 640, 800, 1024, 1280, 1600, 2048, 4096, 8192]
    stats.show_stats({"classes": [], "splits": {}, "histograms": {
        "image_side_px": {"edges": edges, "counts": [1] * (len(edges) - 1)}}})
    plot = stats.image_side
    metrics = plot.fontMetrics()
    per_bin = (plot.width() - 46) / (len(edges) - 1)
    spans = [(x * per_bin - metrics.horizontalAdvance(t) / 2, x * per_bin + metrics.horizontalAdvance(t) / 2)
             for x, t in plot.shown_ticks]
    assert len(spans) >= 2 and all(a[1] < b[0] for a, b in zip(spans, spans[1:]))
    titles = [label.text() for label in stats.findChildren(QLabel) if label.wordWrap()]
    assert {plot.title, stats.box_area.title, stats.box_aspect.title} <= set(titles)
    stats.hide()


def test_a_class_id_beyond_the_names_can_be_given_a_class_and_its_message_is_whole(qtbot, page, tmp_path,
                                                                                  monkeypatch):
    """Issue 32: the finding's text was cut to "Class id 99 but th…" and the only fix deleted the row: the whole
    message is shown for the chosen finding, and "Change its class" keeps the box with a class of the dataset
    (previewed, with a .bak, undone by Undo fix)."""
    root = tmp_path / "range"
    yaml_file = build(root, train={"t1": "99 .5 .5 .2 .2\n", "t2": BOX}, yaml_text=YAML.format(root=root))
    open_checked(qtbot, page, yaml_file)
    rows = {page.findings.tree.topLevelItem(i).text(1): page.findings.tree.topLevelItem(i)
            for i in range(page.findings.tree.topLevelItemCount())}
    page.findings.tree.setCurrentItem(rows["label-class-range"])
    finding = page.findings.current
    assert page.findings.message_label.text() == finding.message and finding.message.startswith("Class id 99")
    qtbot.waitUntil(lambda: page.findings.reassign_button.isVisibleTo(page.findings), timeout=TIMEOUT_MS)
    assert [a.text() for a in page.findings.reassign_menu.actions()] == ["0: a", "1: b"]
    previews = []
    monkeypatch.setattr(dataset_dialogs, "confirm_fix", lambda parent, summary, before, after:
                        previews.append((summary, before, after)) or True)
    page.findings.reassign_menu.actions()[1].trigger()
    label = root / "labels" / "train" / "t1.txt"
    qtbot.waitUntil(lambda: label.read_text() == "1 .5 .5 .2 .2\n", timeout=TIMEOUT_MS)
    assert previews[0][1:] == ("99 .5 .5 .2 .2\n", "1 .5 .5 .2 .2\n") and "(b)" in previews[0][0]
    assert (root / "labels" / "train" / "t1.txt.bak").read_text() == "99 .5 .5 .2 .2\n"
    qtbot.waitUntil(lambda: page.report is not None and not page.checking and "label-class-range" not in {
        f.code for f in page.report.findings}, timeout=TIMEOUT_MS)  # checked again
    qtbot.waitUntil(lambda: page.findings.undo_fix_button.isVisibleTo(page.findings), timeout=TIMEOUT_MS)
    page.findings.undo_fix_button.click()
    qtbot.waitUntil(lambda: label.read_text() == "99 .5 .5 .2 .2\n", timeout=TIMEOUT_MS)
