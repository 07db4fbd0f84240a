"""One current dataset for the whole window: the Dataset and Train pages follow each other (issue 11)."""

from __future__ import annotations

from pathlib import Path

from gui.main_window import MainWindow
from gui.pages.catalog import page_index
from gui.dataset.dataset_page import DatasetPage
from tests.core.test_dataset_validate import build
from tests.waits import TIMEOUT_MS


def test_dataset_and_train_pages_share_the_current_dataset(qtbot, tmp_path):
    first, second = build(tmp_path / "first"), build(tmp_path / "second")
    window = MainWindow(tmp_path / "ws", launcher=lambda job: ([], {}), prepare_demo=False, check_runs=False)
    qtbot.addWidget(window)
    dataset_page = window.page(page_index("dataset"))
    assert isinstance(dataset_page, DatasetPage)
    train = window.train_page

    window.train_page.form.set_data_path(str(first))  # chosen on the Train page ...
    train.revalidate()
    qtbot.waitUntil(lambda: dataset_page.path is not None, timeout=TIMEOUT_MS)  # read off the GUI thread
    assert dataset_page.path == first.resolve()  # ... open on the Dataset page, not "No dataset yet"
    assert dataset_page.stack.currentIndex() == 1

    with qtbot.waitSignal(dataset_page.opened, timeout=TIMEOUT_MS):
        assert dataset_page.open_path(second)  # opened on the Dataset page: Train follows
    assert Path(train.form.data_edit.text()) == second.resolve()
    assert window.services.current.dataset == str(second.resolve())

    window.show()
    window.show_page(page_index("dataset"))
    qtbot.waitUntil(lambda: not dataset_page.checking, timeout=TIMEOUT_MS)
    with qtbot.waitSignal(dataset_page.opened, timeout=TIMEOUT_MS):
        dataset_page.open_path(first)
    assert dataset_page.train_button.isEnabled()
    dataset_page.train_button.click()  # "Train with this dataset"
    assert window.pages.currentWidget() is train
    assert Path(train.form.data_edit.text()) == first.resolve()
    qtbot.waitUntil(train.start_button.isEnabled, timeout=TIMEOUT_MS)


def test_unsaved_edits_on_the_dataset_page_are_never_replaced_unasked(qtbot, tmp_path):
    first, second = build(tmp_path / "first"), build(tmp_path / "second")
    page = DatasetPage(tmp_path / "ws")
    qtbot.addWidget(page)
    with qtbot.waitSignal(page.opened, timeout=TIMEOUT_MS):
        page.open_path(first, check=False)
    page.document.apply_text(page.text + "# edited\n")
    page.services.current.set_dataset(second)  # another page chose another dataset
    assert page.path == first.absolute() and page.dirty
    assert page.banner.level == "info" and str(second.resolve()) in page.banner.text
