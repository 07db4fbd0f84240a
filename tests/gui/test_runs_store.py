"""The app's one runs store: one listing at start-up for every page, reloads that never overlap."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from core.runs.index import RunIndex
from core.runs.store import create_run
from core.run.files import EVENTS_FILE
from core.training.config import MachineFacts, TrainConfig, validate_config
from gui.main_window import MainWindow
from gui.export.export_page import ExportPage
from gui.pages.page import Page
from gui.runs.runs_page import RunsPage
from gui.runs_store import RunsStore
from tests.waits import TIMEOUT_MS

RECORDED = Path(__file__).resolve().parents[1] / "fixtures" / "recorded_train_events.jsonl"


def make_run(workspace: Path, name: str) -> Path:
    data = workspace.parent / "data.yaml"
    data.write_text("path: .\ntrain: a\nval: a\nnames: [x]\n")
    run = create_run(workspace, validate_config(TrainConfig(data=str(data), name=name, device="cpu"),
                                                MachineFacts(0)))
    shutil.copyfile(RECORDED, run / EVENTS_FILE)
    return run


@pytest.fixture
def listings(monkeypatch) -> list[Path]:
    """Every listing of the runs folder (each one is a pass over its events files)."""
    seen: list[Path] = []
    original = RunIndex.list_runs
    monkeypatch.setattr(RunIndex, "list_runs", lambda self, ws: seen.append(ws) or original(self, ws))
    return seen


def test_reloads_never_overlap_and_the_last_one_wins(qtbot, tmp_path, listings):
    workspace = tmp_path / "ws"
    make_run(workspace, "a")
    store = RunsStore(workspace)
    seen = []
    store.changed.connect(lambda runs: seen.append([r.name for r in runs]))
    store.reload()
    make_run(workspace, "b")
    store.reload()  # asked while the first one runs: done right after it, not alongside
    store.reload()
    qtbot.waitUntil(lambda: len(seen) == 2 and not store.loading, timeout=TIMEOUT_MS)
    assert len(listings) == 2 and sorted(seen[-1]) == ["a", "b"] == sorted(r.name for r in store.runs)


def test_a_failed_listing_says_why(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(RunIndex, "list_runs", lambda self, ws: (_ for _ in ()).throw(PermissionError("denied")))
    store = RunsStore(tmp_path)
    reasons = []
    store.failed.connect(reasons.append)
    store.reload()
    qtbot.waitUntil(lambda: reasons == ["denied"] and not store.loading, timeout=TIMEOUT_MS)


def test_the_window_lists_runs_once_for_every_page(qtbot, tmp_path, listings):
    workspace = tmp_path / "ws"
    make_run(workspace, "exp")
    window = MainWindow(workspace, prepare_demo=False, check_runs=True)
    qtbot.addWidget(window)
    runs_page, export_page = window.page_for("runs"), window.page_for("export")  # opened: built now
    assert isinstance(runs_page, RunsPage) and isinstance(export_page, ExportPage)
    assert all(isinstance(page, Page) and page.services is window.services for page in window.built_pages())
    # Every page asks the store when it is built (above); a second listing would be in flight now (``loading``).
    qtbot.waitUntil(lambda: window.runs_store.loaded and not window.runs_store.loading
                    and export_page.form.weights_path() == "", timeout=TIMEOUT_MS)
    assert len(listings) == 1  # main window, Runs page and Export page: one listing
    assert runs_page.model.rowCount() == 1
    runs_page.refresh()  # F5: the store reads again (only what changed)
    qtbot.waitUntil(lambda: len(listings) == 2 and not window.runs_store.loading, timeout=TIMEOUT_MS)
