"""One thing, one number — or labels that say what each is (issue 25, Train page): best mAP during training vs
best.pt's own validation, and a run's duration as the Runs page says it."""

from __future__ import annotations

import time

from core.run.progress import format_duration
from core.runs.store import read_run
from tests.gui.test_train_page import data_yaml, launcher, page  # noqa: F401 - the replaying page's fixtures
from tests.waits import TIMEOUT_MS


def test_the_best_epochs_figure_and_best_pts_say_what_each_is(qtbot, page):
    with qtbot.waitSignal(page.run_ended, timeout=TIMEOUT_MS) as ended:
        assert page.control.start_run()
    progress, final = page.session.progress, ended.args[0].done["final_metrics"]
    during, epoch = f"{progress.best_map50:.3f}", progress.best_epoch + 1
    at_end = f"{final['map50']:.3f}"
    assert during != at_end  # the recorded run: yolov5's 16-bit best.pt validated again differs a little
    assert page.progress_panel.best_label.text().startswith(
        f"Best epoch {epoch}, validated during training: mAP@0.5 {during}")
    card = page.status_panel.facts_label.text()
    assert "mAP@0.5 of best.pt" in card and at_end in card
    assert f"During training, epoch {epoch} measured mAP@0.5 {during}" in card and "16-bit" in card


def test_the_completion_cards_total_time_is_the_runs_pages_duration(qtbot, page, launcher):
    launcher.options = ["--pause-after", "60"]
    assert page.control.start_run()
    qtbot.waitUntil(lambda: page.session.progress.batch >= 1, timeout=TIMEOUT_MS)
    with qtbot.waitSignal(page.run_ended, timeout=TIMEOUT_MS):
        page.control.stop_run()  # the first start: 1.0 s by the fake worker's stop
    launcher.options = []
    with qtbot.waitSignal(page.run_ended, timeout=TIMEOUT_MS) as resumed:
        assert page.control.resume_run()  # the second start: the recording's 47.8 s
    this_start = resumed.args[0].done["elapsed_s"]
    info = read_run(page.session.run_dir)
    whole = info.duration_at(time.time())  # what the Runs page's Duration column shows
    assert format_duration(whole) != format_duration(this_start)  # two starts: the figures would differ
    row = f"<b>Total time</b></td><td>{format_duration(whole)}</td>"
    qtbot.waitUntil(lambda: row in page.status_panel.facts_label.text(), timeout=TIMEOUT_MS)
