"""The Runs page: the table of runs, open (replay on the Train page), compare, rename, delete to the trash."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import psutil
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from core.run.owner import RunLock
from core.runs.store import create_run
from core.run.files import EVENTS_FILE
from core.training.config import TrainConfig, validate_config
from gui.main_window import MainWindow
from gui.runs import operations as runs_operations
from gui.runs import runs_page as runs_module
from gui.runs.runs_page import RunsPage
from gui.runs.runs_table_model import COLUMN, COLUMNS
from tests.waits import TIMEOUT_MS

RECORDED = Path(__file__).parents[1] / "fixtures" / "recorded_train_events.jsonl"
HEADERS = ["Name", "Dataset", "Model", "Processes", "Status", "Epochs", "Best mAP@0.5", "Best mAP@0.5:0.95",
           "Images/s", "GPU busy", "Data wait", "Duration", "Started"]


@pytest.fixture
def workspace(tmp_path: Path) -> Iterator[Path]:
    """Three runs: two completed (one with efficiency figures), one still running (this very process)."""
    ws = tmp_path / "ws"
    data = tmp_path / "shapes" / "data.yaml"
    data.parent.mkdir()
    data.write_text("train: a\nval: b\nnames: [a]\n", encoding="utf-8")
    recorded = [json.loads(line) for line in RECORDED.read_text(encoding="utf-8").splitlines()]
    for name, speed in (("alpha", None), ("beta", 42.5)):
        run_dir = create_run(ws, validate_config(TrainConfig(data=str(data), epochs=3, name=name)))
        events = []
        for i, event in enumerate(recorded):
            event = dict(event, t=event["t"] + (100 if name == "beta" else 0))
            if event["type"] == "done" and speed is not None:
                event["efficiency"] = {"images_per_s": speed, "gpu_util_mean_percent": 87.0,
                                       "data_wait_share": 0.031, "epoch_time_mean_s": 7.0}
            events.append(json.dumps(event))
        (run_dir / EVENTS_FILE).write_text("\n".join(events) + "\n", encoding="utf-8")
    running = create_run(ws, validate_config(TrainConfig(data=str(data), epochs=3, name="live")))
    me = psutil.Process()
    (running / EVENTS_FILE).write_text(json.dumps({"v": 1, "type": "stage", "t": recorded[0]["t"] + 500,
                                                   "stage": "starting", "pid": me.pid,
                                                   "create_time": me.create_time()}) + "\n", encoding="utf-8")
    lock = RunLock.acquire(running, job="train")  # this process plays its worker: it owns the folder
    yield ws
    lock.release()


@pytest.fixture
def page(qtbot, workspace):
    page = RunsPage(workspace)
    qtbot.addWidget(page)
    page.refresh()
    qtbot.waitUntil(lambda: not page.loading, timeout=TIMEOUT_MS)
    return page


def _cell(page: RunsPage, name: str, column: str) -> str:
    for row in range(page.proxy.rowCount()):
        if page.proxy.index(row, 0).data() == name:
            return page.proxy.index(row, COLUMN[column]).data()
    raise KeyError(name)


def _names(page: RunsPage) -> list[str]:
    return [page.proxy.index(row, 0).data() for row in range(page.proxy.rowCount())]


def test_table_lists_runs_with_units_status_and_sorting(page):
    assert [page.proxy.headerData(i, Qt.Orientation.Horizontal) for i in range(len(COLUMNS))] == HEADERS
    assert page.stack.currentWidget() is page.table
    assert _names(page) == ["live", "beta", "alpha"]  # newest first
    assert _cell(page, "beta", "status") == "Completed" and _cell(page, "live", "status") == "Running"
    status = page.proxy.index(0, COLUMN["status"]).data(Qt.ItemDataRole.DecorationRole)
    assert status is not None and not status.isNull()  # icon + words
    assert _cell(page, "beta", "epochs") == "3/3" and _cell(page, "beta", "dataset") == "shapes"
    assert _cell(page, "beta", "model") == "yolov5n.yaml"
    assert _cell(page, "beta", "map50") == "0.002"
    assert _cell(page, "beta", "ips") == "42.5" and _cell(page, "beta", "gpu") == "87 %"
    assert _cell(page, "beta", "wait") == "3 %" and _cell(page, "beta", "duration") == "0:48"
    assert _cell(page, "alpha", "ips") == "—"
    page.table.sortByColumn(COLUMN["ips"], Qt.SortOrder.DescendingOrder)
    assert _names(page)[0] == "beta"  # numbers sort as numbers; missing figures last


def test_empty_workspace_explains_what_to_do(qtbot, tmp_path):
    page = RunsPage(tmp_path / "empty")
    qtbot.addWidget(page)
    assert page.stack.currentWidget() is page.loading_label  # "Reading the runs folder…", not "No runs yet"
    page.refresh()
    qtbot.waitUntil(lambda: not page.loading, timeout=TIMEOUT_MS)
    assert page.stack.currentWidget() is page.empty_label
    assert "No runs yet" in page.empty_label.text() and "Train page" in page.empty_label.text()


def test_rename_refuses_a_running_run_and_renames_a_finished_one(qtbot, page, workspace, monkeypatch):
    monkeypatch.setattr(runs_module, "ask_new_name", lambda parent, old: "gamma")
    assert page.select_run("live")
    page.rename_selected()
    assert page.banner.level == "warning" and "is training" in page.banner.text
    assert (workspace / "runs" / "live").is_dir()
    assert page.select_run("alpha")
    page.rename_selected()
    qtbot.waitUntil(lambda: "gamma" in _names(page) and not page.loading, timeout=TIMEOUT_MS)
    assert (workspace / "runs" / "gamma").is_dir() and not (workspace / "runs" / "alpha").exists()
    assert "Renamed run alpha to gamma" in page.banner.text
    assert [run.name for run in page.selected_runs()] == ["gamma"]  # the renamed run stays selected (issue 32)


def test_delete_moves_to_the_trash_or_says_it_could_not(qtbot, page, workspace, tmp_path, monkeypatch):
    trash = tmp_path / "xdg"
    trash.mkdir()
    monkeypatch.setenv("XDG_DATA_HOME", str(trash))  # the test's own trash, never the user's
    real_trash = runs_operations.move_to_trash
    monkeypatch.setattr(runs_module, "confirm_delete", lambda parent, names: True)
    assert page.select_run("live")
    page.delete_selected()
    assert "is training" in page.banner.text and (workspace / "runs" / "live").is_dir()

    monkeypatch.setattr(runs_operations, "move_to_trash", lambda path: False)
    assert page.select_run("alpha")
    page.delete_selected()
    qtbot.waitUntil(lambda: page.banner.level == "error", timeout=TIMEOUT_MS)
    assert "Not moved to the trash: alpha" in page.banner.text and "nothing was deleted" in page.banner.text
    assert (workspace / "runs" / "alpha").is_dir()

    monkeypatch.setattr(runs_operations, "move_to_trash", real_trash)
    qtbot.waitUntil(lambda: not page.loading, timeout=TIMEOUT_MS)
    assert page.select_run("alpha")
    page.delete_selected()
    qtbot.waitUntil(lambda: page.banner.level == "ok", timeout=TIMEOUT_MS)
    assert "Moved to the trash: alpha" in page.banner.text
    qtbot.waitUntil(lambda: "alpha" not in _names(page), timeout=TIMEOUT_MS)
    assert not (workspace / "runs" / "alpha").exists()
    assert (trash / "Trash" / "files" / "alpha").is_dir()  # restorable, with its .trashinfo
    assert (trash / "Trash" / "info" / "alpha.trashinfo").is_file()


def test_compare_overlays_the_selected_runs_curves(qtbot, page):
    from core.evaluation.store import save_evaluation
    from core.run.folder import RunFolder

    beta = next(run for run in page.model.runs if run.name == "beta")
    save_evaluation(RunFolder(Path(beta.path)).evaluations / "k1", {
        "created": 1.0, "split": "val", "metrics": {"map50": 0.777, "map": 0.555},
        "per_class": [{"name": "cat", "map50": 0.9}]}, [])
    page.table.selectAll()
    dialog = page.compare_selected()
    try:
        qtbot.waitUntil(lambda: dialog.curves is not None and dialog.compared is not None, timeout=TIMEOUT_MS)
        column = [dialog.table.horizontalHeaderItem(c).text() for c in range(dialog.table.columnCount())].index("beta")
        assert dialog.table.cell_text("accuracy from", column) == "evaluation (val)"
        assert dialog.table.cell_text("mAP@0.5", column) == "0.777"  # the stored evaluation, not training's
        assert dialog.table.cell_text("mAP@0.5 of cat", column) == "0.900"
        assert dialog.table.cell_text("epochs done", column) == f"{beta.epochs_done}/{beta.epochs_total or '—'}"
        other = 1 - column if column < 2 else 0
        assert dialog.table.cell_text("accuracy from", other) == "training's best epoch"
        assert set(dialog.curves) == {"alpha", "beta", "live"}
        epochs, values = dialog.curves["beta"]["map50"]
        assert epochs == [1, 2, 3] and len(values) == 3
        assert len(dialog.curves["beta"]["train_box"][1]) == 3
        assert dialog.curves["live"]["map50"] == ([], [])
        assert "No finished epoch yet in: live" in dialog.status_label.text()
        assert len(dialog.map_plot.getPlotItem().listDataItems()) == 3
    finally:
        dialog.close()


def test_open_replays_the_run_on_the_train_page(qtbot, workspace):
    window = MainWindow(workspace, prepare_demo=False, check_runs=False)
    qtbot.addWidget(window)
    runs = window.runs_page
    assert runs is not None
    runs.refresh()
    qtbot.waitUntil(lambda: not runs.loading and runs.proxy.rowCount() == 3, timeout=TIMEOUT_MS)
    assert runs.select_run("beta")
    page = window.train_page
    with qtbot.waitSignal(page.run_ended, timeout=TIMEOUT_MS):
        runs.open_selected()
        assert window.pages.currentWidget() is page
    assert page.session.followed and page.session.run_dir == workspace / "runs" / "beta"
    assert page.plots.series["map50"].size == 3 and page.status_panel.mode == "finished"


def test_keyboard_enter_opens_f2_renames_delete_deletes(qtbot, page, monkeypatch):
    asked: list[str] = []
    opened: list = []
    page.open_requested.connect(opened.append)
    monkeypatch.setattr(runs_module, "ask_new_name", lambda parent, old: asked.append(f"rename {old}"))
    monkeypatch.setattr(runs_module, "confirm_delete", lambda parent, names: asked.append(f"delete {names}"))
    page.show()
    qtbot.waitUntil(lambda: not page.loading, timeout=TIMEOUT_MS)
    assert page.select_run("beta")
    page.table.setFocus()
    qtbot.waitUntil(page.table.hasFocus, timeout=TIMEOUT_MS)
    qtbot.keyClick(page.table, Qt.Key.Key_Return)
    qtbot.keyClick(page.table, Qt.Key.Key_F2)
    qtbot.keyClick(page.table, Qt.Key.Key_Delete)
    assert [run.name for run in opened] == ["beta"]
    assert asked == ["rename beta", "delete ['beta']"]
    page.close()


def test_a_running_runs_duration_is_live_and_the_sort_arrow_points_down_for_newest_first(qtbot, page):
    from PySide6.QtWidgets import QTableView

    from gui.widgets.sort_arrow import SortArrowStyle, arrow_follows_order

    live = next(run for run in page.model.runs if run.name == "live")
    assert live.status == "running" and live.running_since is not None
    assert live.duration_at(live.running_since + 75) == 75  # wall time so far, not a stale figure
    assert _cell(page, "live", "duration") != "—" and page.model.tick()  # repainted every second
    header = page.table.horizontalHeader()
    assert header.sortIndicatorOrder() == Qt.SortOrder.DescendingOrder
    assert isinstance(header.style(), SortArrowStyle)
    plain, ours = QTableView(), QTableView()  # Qt's own header sorted ascending draws what ours draws descending
    arrow_follows_order(ours.horizontalHeader())
    for view, order in ((plain, Qt.SortOrder.AscendingOrder), (ours, Qt.SortOrder.DescendingOrder)):
        qtbot.addWidget(view)
        view.setModel(page.proxy)
        view.setSortingEnabled(True)
        view.resize(1600, 300)  # wide enough to show the Started column's arrow
        view.horizontalHeader().setSortIndicator(COLUMN["started"], order)
    def arrow(view: QTableView):  # the section's right end, where the arrow is drawn (the label ends before it)
        h = view.horizontalHeader()
        right = h.sectionViewportPosition(COLUMN["started"]) + h.sectionSize(COLUMN["started"])
        return h.grab().toImage().copy(right - 14, 0, 14, h.height())

    shots = [arrow(view) for view in (plain, ours)]
    assert shots[0] == shots[1]
    plain.horizontalHeader().setSortIndicator(COLUMN["started"], Qt.SortOrder.DescendingOrder)
    assert arrow(plain) != shots[1]  # the comparison can fail


def test_dates_use_the_locale_and_iso_in_the_bare_c_locale(qapp):
    from PySide6.QtCore import QLocale

    from gui.run_text import date_time_text

    moment = 1796105700  # 2026-12-01 06:15 UTC
    try:
        QLocale.setDefault(QLocale(QLocale.Language.C))
        assert date_time_text(moment)[:4] == "2026" and date_time_text(moment)[4] == "-"
        QLocale.setDefault(QLocale("de_DE"))
        assert "12.26" in date_time_text(moment)
    finally:
        QLocale.setDefault(QLocale.system())


def _header_pixels(page: RunsPage, column: int, *, text: bool, sort) -> set[int]:
    """The x of every pixel the header's own style paints in ``column`` that is not the plain section."""
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtWidgets import QStyle, QStyleOptionHeader

    header = page.table.horizontalHeader()

    def paint(with_text: bool, indicator) -> QImage:
        option = QStyleOptionHeader()
        option.initFrom(header)
        option.state |= QStyle.StateFlag.State_Horizontal | QStyle.StateFlag.State_Enabled
        option.orientation = Qt.Orientation.Horizontal
        option.rect = header.rect().adjusted(0, 0, 0, 0)
        option.rect.setWidth(header.sectionSize(column))
        option.section = column
        option.text = page.proxy.headerData(column, Qt.Orientation.Horizontal) if with_text else ""
        alignment = page.proxy.headerData(column, Qt.Orientation.Horizontal, Qt.ItemDataRole.TextAlignmentRole)
        if alignment is not None:
            option.textAlignment = Qt.AlignmentFlag(int(alignment))
        option.sortIndicator = indicator
        image = QImage(option.rect.size(), QImage.Format.Format_ARGB32)
        image.fill(0)
        painter = QPainter(image)
        header.style().drawControl(QStyle.ControlElement.CE_Header, option, painter, header)
        painter.end()
        return image

    none = QStyleOptionHeader.SortIndicator.None_
    shown, plain = paint(text, sort), paint(False, none if text else none)
    if text:  # the text's pixels: with the arrow drawn in both, only the label differs
        plain = paint(False, sort)
    return {x for x in range(shown.width()) for y in range(shown.height()) if shown.pixel(x, y) != plain.pixel(x, y)}


def test_the_sort_arrow_never_overlaps_the_header_text(qtbot, page):
    """Number columns have right-aligned titles, which Qt's style drew under the arrow ("Epochs▲")."""
    from PySide6.QtWidgets import QStyleOptionHeader

    page.resize(1800, 400)
    page.show()
    qtbot.waitUntil(lambda: not page.loading and page.proxy.rowCount() == 3, timeout=TIMEOUT_MS)
    for column in range(len(COLUMNS)):
        for sort in (QStyleOptionHeader.SortIndicator.SortUp, QStyleOptionHeader.SortIndicator.SortDown):
            text = _header_pixels(page, column, text=True, sort=sort)
            arrow = _header_pixels(page, column, text=False, sort=sort)
            assert text and arrow, COLUMNS[column]
            assert max(text) < min(arrow), (COLUMNS[column][0], max(text), min(arrow))


def _cut_buttons(window) -> list[str]:
    """Visible buttons narrower than their text needs, or clipped by a pane around them (a scroll area)."""
    from PySide6.QtWidgets import QPushButton

    def shown(b: QPushButton) -> int:  # its width left once every pane around it clips it, left and right
        left, right, x, widget = 0, b.width(), 0, b
        while widget.parentWidget() is not None:
            x += widget.x()
            widget = widget.parentWidget()
            left, right = max(left, -x), min(right, widget.width() - x)
        return max(0, right - left)

    return [f"{b.text()!r}: needs {b.sizeHint().width()} px, shows {shown(b)}" for b in window.findChildren(QPushButton)
            if b.isVisible() and b.sizeHint().width() > shown(b)]


def test_at_1280_by_720_every_button_of_the_runs_page_and_the_replay_shows_its_whole_text(qtbot, workspace):
    window = MainWindow(workspace, prepare_demo=False, check_runs=False)
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    runs = window.runs_page
    window.show_page(window.pages.indexOf(runs))
    qtbot.waitUntil(lambda: not runs.loading and runs.proxy.rowCount() == 3, timeout=TIMEOUT_MS)
    assert _cut_buttons(window) == []
    assert runs.select_run("beta")
    with qtbot.waitSignal(window.train_page.run_ended, timeout=TIMEOUT_MS):
        runs.open_selected()  # the run's replay on the Train page: its log's "Open worker.log" was cut
    page = window.train_page
    qtbot.waitUntil(lambda: page.log_view.open_button.isVisible() and page._plots.built, timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: page.log_view.open_button.width() > 0 and not page.log_view.open_button.geometry()
                    .isEmpty(), timeout=TIMEOUT_MS)
    QApplication.processEvents()  # the plots' titles laid out
    assert _cut_buttons(window) == []


def test_the_details_say_how_the_dataset_changed_since_the_parent_run(qtbot, tmp_path, workspace):
    """A fine-tune's details line: "+N images, M labels edited since <parent>" (core.run.dataset_version, read
    by the run listing into ``RunInfo.dataset_version``)."""
    from core.run.dataset_version import record_dataset_version
    from tests.core.test_dataset_validate import build, image_bytes

    data = build(tmp_path / "grown")
    record_dataset_version(workspace / "runs" / "alpha", data)
    (data.parent / "images" / "train" / "q").mkdir()
    (data.parent / "images" / "train" / "q" / "n1.png").write_bytes(image_bytes())
    (data.parent / "labels" / "train" / "t2.txt").write_text("0 0.4 0.4 0.1 0.1\n")
    record_dataset_version(workspace / "runs" / "beta", data, workspace / "runs" / "alpha")
    page = RunsPage(workspace)
    qtbot.addWidget(page)
    page.refresh()
    qtbot.waitUntil(lambda: not page.loading, timeout=TIMEOUT_MS)
    row = _names(page).index("beta")
    page.table.selectRow(row)
    qtbot.waitUntil(lambda: "since alpha" in page.details.text(), timeout=TIMEOUT_MS)
    assert "+1 image, 1 label edited since alpha" in page.details.text()
