"""The Errors browser (gui/evaluate/errors_browser.py): the stored order, filters, J/K, the boxes drawn, fixes
written to the label file with a backup and undone with Ctrl+Z — the class changed to any class, the drawing
read again from the edited file —, and "Export this list"."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage

from core.dataset.files import label_path_for
from gui.evaluate import errors_browser
from gui.evaluate.errors_browser import ErrorsBrowser
from tests.waits import TIMEOUT_MS


@pytest.fixture
def dataset(tmp_path):
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    paths = []
    for name in ("a", "b"):
        image = QImage(80, 60, QImage.Format.Format_RGB32)
        image.fill(Qt.GlobalColor.white)
        image.save(str(tmp_path / "images" / f"{name}.png"))
        paths.append(str(tmp_path / "images" / f"{name}.png"))
    (tmp_path / "labels" / "a.txt").write_text("")
    (tmp_path / "labels" / "b.txt").write_text("1 0.25 0.3333333 0.25 0.3333333\n")  # emu at 10..30 x 10..30
    (tmp_path / "data.yaml").write_text(f"path: {tmp_path}\ntrain: images\nval: images\nnames: [cat, emu, owl]\n")
    return paths


def data_yaml(paths):
    """The data.yaml the evaluation was planned from: the one label edits are confined to."""
    return Path(paths[0]).parents[1] / "data.yaml"


def evaluation(paths):
    a, b = paths
    errors = [
        {"image": a, "kind": "false_positive", "class": "cat", "predicted_name": "cat", "label": None,
         "prediction": 0, "label_class": None, "predicted_class": 0, "confidence": 0.9, "label_issue": "overlooked",
         "label_score": 0.01},
        {"image": b, "kind": "wrong_class", "class": "emu", "predicted_name": "cat", "label": 0, "prediction": 0,
         "label_class": 1, "predicted_class": 0, "confidence": 0.8, "label_issue": "swap", "label_score": 0.2},
    ]
    images = [{"image": a, "width": 80, "height": 60, "labels": [], "predictions": [[40, 20, 60, 40, 0.9, 0]]},
              {"image": b, "width": 80, "height": 60, "labels": [[1, 10, 10, 30, 30]],
               "predictions": [[10, 10, 30, 30, 0.8, 0]]}]
    result = {"weights": "/r/best.pt", "split": "val", "names": {"0": "cat", "1": "emu", "2": "owl"}, "errors": errors,
              "error_conf": 0.3, "store": str(Path(a).parents[1] / "result.json")}
    return result, images


def test_filters_keys_and_the_drawn_image(qtbot, dataset):
    result, images = evaluation(dataset)
    browser = ErrorsBrowser(result, images, data_yaml(dataset))
    qtbot.addWidget(browser)
    assert browser.list.count() == 2 and browser.list.currentRow() == 0
    assert "Predictions of best.pt on the val split" in browser.scope.text() and "k-fold" in browser.scope.text()
    assert not browser.review_button.isVisibleTo(browser)  # offered only by an Evaluate window over val/test
    qtbot.waitUntil(lambda: browser.image.pixmap() is not None and not browser.image.pixmap().isNull(),
                    timeout=TIMEOUT_MS)
    drawn = browser.image.pixmap().toImage()
    scale = drawn.width() / 80  # a small image is drawn enlarged
    assert scale >= 2 and drawn.height() == round(60 * scale)
    edge = {drawn.pixelColor(x, int(40 * scale)).name()  # the prediction's bottom edge, on white
            for x in range(int(41 * scale), int(60 * scale))}
    assert errors_browser.PREDICTION_COLOUR.name() in edge and "#ffffff" in edge  # dashed: colour and gaps
    assert not browser.delete_button.isEnabled() and browser.accept_button.isEnabled()  # no label on a
    browser.show()
    qtbot.waitExposed(browser)
    browser.activateWindow()
    browser.list.setFocus()
    qtbot.keyClick(browser.list, Qt.Key.Key_J)
    assert browser.list.currentRow() == 1
    qtbot.waitUntil(browser.change_button.isEnabled, timeout=TIMEOUT_MS)
    assert [a.text() for a in browser.change_menu.actions()] == ["cat (predicted)", "owl"]  # every other class
    qtbot.keyClick(browser.list, Qt.Key.Key_K)
    assert browser.list.currentRow() == 0
    qtbot.keyClick(browser.list, Qt.Key.Key_Down)
    assert browser.list.currentRow() == 1
    browser.kind.setCurrentIndex(browser.kind.findData("wrong_class"))
    assert browser.list.count() == 1 and "wrong class" in browser.list.item(0).text()
    browser.kind.setCurrentIndex(0)
    browser.confidence.setValue(0.85)
    assert browser.list.count() == 1
    browser.confidence.setValue(0.95)
    assert browser.list.count() == 0 and "No errors match" in browser.image.text()
    browser.close()


def test_change_class_then_undo_and_accept_a_prediction(qtbot, dataset):
    result, images = evaluation(dataset)
    browser = ErrorsBrowser(result, images, data_yaml(dataset))
    qtbot.addWidget(browser)
    b_label = Path(label_path_for(dataset[1]))
    before = b_label.read_text()
    browser.show()
    qtbot.waitExposed(browser)
    browser.activateWindow()
    browser.step(1)
    qtbot.waitUntil(browser.change_button.isEnabled, timeout=TIMEOUT_MS)
    browser.change_menu.actions()[1].trigger()  # owl: a class the model did not predict
    qtbot.waitUntil(lambda: bool(browser.undo_stack), timeout=TIMEOUT_MS)
    assert b_label.read_text().split()[0] == "2" and b_label.with_name("b.txt.bak").read_text() == before
    assert browser.list.item(1).text().startswith("✓")
    # the drawing is read again from the edited file: the box is an owl now, and owl is no longer offered
    qtbot.waitUntil(lambda: browser.labels_now.get(dataset[1]) == [[2, 10.0, 10.0, 30.0, 30.0]], timeout=TIMEOUT_MS)
    qtbot.waitUntil(browser.change_button.isEnabled, timeout=TIMEOUT_MS)
    assert [a.text() for a in browser.change_menu.actions()] == ["cat (predicted)", "emu"]
    qtbot.keyClick(browser.list, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: b_label.read_text() == before, timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: not browser.list.item(1).text().startswith("✓"), timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: browser.labels_now.get(dataset[1]) == [[1, 10.0, 10.0, 30.0, 30.0]], timeout=TIMEOUT_MS)

    qtbot.waitUntil(browser.delete_button.isEnabled, timeout=TIMEOUT_MS)
    browser.delete_button.click()
    qtbot.waitUntil(lambda: browser.labels_now.get(dataset[1]) == [], timeout=TIMEOUT_MS)
    assert b_label.read_text() == ""
    drawn = browser.image.pixmap().toImage()  # no stale label box: the deleted emu is not drawn
    scale = drawn.width() / 80
    assert errors_browser.LABEL_COLOUR.name() not in {drawn.pixelColor(x, int(30 * scale)).name()
                                                      for x in range(int(10 * scale), int(31 * scale))}
    assert not browser.delete_button.isEnabled() and not browser.change_button.isEnabled()
    browser.undo()
    qtbot.waitUntil(lambda: b_label.read_text() == before, timeout=TIMEOUT_MS)

    browser.step(-1)
    qtbot.waitUntil(browser.accept_button.isEnabled, timeout=TIMEOUT_MS)
    browser.accept_button.click()
    qtbot.waitUntil(lambda: bool(browser.undo_stack), timeout=TIMEOUT_MS)
    assert Path(label_path_for(dataset[0])).read_text() == "0 0.625000 0.500000 0.250000 0.333333\n"
    qtbot.waitUntil(lambda: browser.labels_now.get(dataset[0]) == [[0, 40.0, 20.0, 60.0, 40.0]], timeout=TIMEOUT_MS)
    assert not browser.accept_button.isEnabled()  # the file holds that box now: accepting twice is not offered
    browser.close()


def test_an_edit_that_cannot_be_made_is_said_and_export_writes_the_list(qtbot, dataset, monkeypatch, tmp_path):
    result, images = evaluation(dataset)
    browser = ErrorsBrowser(result, images, data_yaml(dataset))
    qtbot.addWidget(browser)
    browser.step(1)
    qtbot.waitUntil(browser.delete_button.isEnabled, timeout=TIMEOUT_MS)
    Path(label_path_for(dataset[1])).write_text("")  # the label was removed after the browser read the file
    browser.delete_button.click()
    qtbot.waitUntil(lambda: browser.banner.level == "error", timeout=TIMEOUT_MS)
    assert "no class 1 box" in browser.banner.text and not browser.undo_stack
    qtbot.waitUntil(lambda: browser.labels_now.get(dataset[1]) == [], timeout=TIMEOUT_MS)  # read again
    assert not browser.delete_button.isEnabled()

    out = tmp_path / "list.txt"
    monkeypatch.setattr(errors_browser, "ask_save_path", lambda parent, suggested: str(out))
    browser.export_button.click()
    qtbot.waitUntil(out.exists, timeout=TIMEOUT_MS)
    assert out.read_text().splitlines() == dataset  # each image once, in the browser's order


def test_a_tampered_store_edits_nothing_outside_the_dataset(qtbot, dataset, tmp_path):
    """result.json / images.json naming an image outside the dataset: the browser says so, naming the path, and
    neither drawing it nor Accept creates or changes a file there."""
    outside = tmp_path.parent / f"{tmp_path.name}-elsewhere"
    (outside / "images").mkdir(parents=True)
    (outside / "labels").mkdir()
    victim = outside / "labels" / "v.txt"
    victim.write_text("precious\n")
    foreign = str(outside / "images" / "v.png")
    Path(dataset[0]).rename(foreign)  # a real image, but not the dataset's
    result, images = evaluation(dataset)
    result["errors"] = [{**result["errors"][0], "image": foreign}]
    images[0]["image"] = foreign
    browser = ErrorsBrowser(result, images, data_yaml(dataset))
    qtbot.addWidget(browser)
    qtbot.waitUntil(lambda: browser.banner.level == "error", timeout=TIMEOUT_MS)
    assert foreign in browser.banner.text and "not an image of the dataset" in browser.banner.text
    assert not browser.accept_button.isEnabled() and not browser.delete_button.isEnabled()
    browser.banner.show_message("ok", "before the edit")
    browser.accept_prediction()  # even called directly (a keyboard path), the edit is refused in the background
    qtbot.waitUntil(lambda: browser.banner.level == "error" and not browser.undo_stack, timeout=TIMEOUT_MS)
    assert victim.read_text() == "precious\n" and sorted(p.name for p in (outside / "labels").iterdir()) == ["v.txt"]


def test_the_picture_refits_the_row_box_stands_out_and_edits_say_class_names(qtbot, dataset):
    """Issue 32: after maximising the picture stayed small; the selected box barely stood out; a row could be
    cut; an edit was described with ids ("change class 1 to 2")."""
    result, images = evaluation(dataset)
    images[1]["labels"].append([0, 50, 35, 75, 55])  # another box on b: not the row's
    (Path(dataset[1]).parents[1] / "labels" / "b.txt").write_text(
        "1 0.25 0.3333333 0.25 0.3333333\n0 0.78125 0.75 0.3125 0.3333333\n")
    browser = ErrorsBrowser(result, images, data_yaml(dataset))
    qtbot.addWidget(browser)
    browser.resize(700, 420)
    browser.show()
    qtbot.waitExposed(browser)
    browser.step(1)
    qtbot.waitUntil(browser.change_button.isEnabled, timeout=TIMEOUT_MS)
    small = browser.image.pixmap().width()
    assert browser.image.pixmap().height() <= browser.image.contentsRect().height()  # whole in the pane
    browser.resize(1270, 710)  # maximised
    qtbot.waitUntil(lambda: browser.image.pixmap().width() > small, timeout=TIMEOUT_MS)
    assert browser.image.pixmap().width() <= browser.drawn.width()  # never past its drawn size

    drawn = browser.drawn.toImage()
    scale = drawn.width() / 80
    row_edge = drawn.pixelColor(int(20 * scale), int(10 * scale))  # the row's boxes (emu, the cat on it), top edge
    other_edge = drawn.pixelColor(int(62 * scale), int(55 * scale))  # the other label box (cat), bottom edge
    assert row_edge.name() in {errors_browser.LABEL_COLOUR.name(), errors_browser.PREDICTION_COLOUR.name()}
    assert other_edge.name() != errors_browser.LABEL_COLOUR.name() and other_edge.green() > other_edge.red()
    halo = drawn.pixelColor(int(20 * scale), int(10 * scale) - errors_browser.SELECTED_WIDTH // 2 - 1)
    assert halo.name() == "#ffffff"
    assert all(browser.list.item(r).toolTip() == browser.list.item(r).text() for r in range(browser.list.count()))
    assert browser.list.wordWrap()

    browser.change_menu.actions()[1].trigger()  # owl
    qtbot.waitUntil(lambda: bool(browser.undo_stack), timeout=TIMEOUT_MS)
    assert browser.undo_stack[-1][0].description == "change class emu to owl"
    assert "(change class emu to owl)" in browser.list.item(1).text()
    browser.undo()
    browser.close()
