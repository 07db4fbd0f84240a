"""A renamed run keeps its weights on every page: the events name the old folder, ``RunFolder`` re-bases them."""

from __future__ import annotations

from pathlib import Path

from core.runs.store import rename_run
from gui.export.export_page import ExportPage
from gui.runs.runs_page import RunsPage
from tests.core.test_run_folder import stopped_run
from tests.waits import TIMEOUT_MS


def test_the_export_page_offers_a_renamed_runs_weights(qtbot, tmp_path):
    old = stopped_run(tmp_path)
    renamed = rename_run(old, "renamed")
    page = ExportPage(tmp_path / "ws", launcher=lambda job: ([], {}))
    qtbot.addWidget(page)
    qtbot.waitUntil(lambda: page.form.weights_combo.count() > 0, timeout=TIMEOUT_MS)  # listed in the background
    offered = [page.form.weights_combo.itemData(i) for i in range(page.form.weights_combo.count())]
    assert offered == [str(renamed / "weights" / "best.pt"), str(renamed / "weights" / "last.pt")]
    assert page.form.weights_path() == str(renamed / "weights" / "best.pt")


def test_the_runs_page_shows_the_live_path_of_a_renamed_runs_weights(qtbot, tmp_path):
    old = stopped_run(tmp_path)
    renamed = rename_run(old, "renamed")
    page = RunsPage(tmp_path / "ws")
    qtbot.addWidget(page)
    page.refresh()
    qtbot.waitUntil(lambda: not page.loading, timeout=TIMEOUT_MS)
    assert page.select_run("renamed")
    shown = page.details.text()
    assert f"best weights {renamed / 'weights' / 'best.pt'}" in shown and str(old) + "/" not in shown
    assert Path(renamed / "weights" / "best.pt").is_file()
