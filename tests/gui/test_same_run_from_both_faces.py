"""The same inputs start the same run from either face (issue 30): ``yolostudio train`` on the demo's data.yaml
with no flags and the Train page's Start on the demo build the same options — the demo's own size and epochs
from the one table of dataset defaults (``core.training.defaults``), not yolov5's 640 px and 100 epochs."""

from __future__ import annotations

import sys
from pathlib import Path

from cli.main import main
from cli.verbs import train as train_verb
from core.demo.dataset import ensure_demo_dataset
from core.job.jobs import JobOutcome, JobSpec
from core.training.config import MachineFacts
from core.training.defaults import DEMO_DEFAULTS
from gui.train.train_page import TrainPage
from tests.waits import TIMEOUT_MS


def test_cli_train_on_the_demo_and_the_pages_start_build_the_same_options(qtbot, tmp_path, monkeypatch, capsys):
    ws = tmp_path / "ws"
    demo = ensure_demo_dataset(ws)
    by_cli: list[dict] = []
    monkeypatch.setattr(train_verb, "render_job", lambda renderer, door, **kw: by_cli.append(door.spec().spec)
                        or JobOutcome("completed"))
    assert main(["--workspace", str(ws), "train", str(demo)]) == 0
    capsys.readouterr()

    by_page: list[dict] = []

    def launcher(job: JobSpec) -> tuple[list[str], dict[str, str]]:
        by_page.append(job.spec)
        return [sys.executable, "-c", "pass"], {}

    page = TrainPage(ws, launcher=launcher, prepare_demo=False, machine_facts=MachineFacts(gpu_count=0))
    qtbot.addWidget(page)
    page.form.set_data_path(str(demo))
    qtbot.waitUntil(page.start_button.isEnabled, timeout=TIMEOUT_MS)
    assert page.control.start_run()
    qtbot.waitUntil(lambda: not page.active, timeout=TIMEOUT_MS)

    cli, gui = by_cli[0]["config"], by_page[0]["config"]
    assert {k: cli[k] for k in DEMO_DEFAULTS} == DEMO_DEFAULTS == {"epochs": 30, "imgsz": 128}
    differ = {k: (cli.get(k), gui.get(k)) for k in cli.keys() | gui.keys() if cli.get(k) != gui.get(k)}
    assert set(differ) <= {"name"}, differ  # the second run in the workspace is exp2
    assert Path(gui["data"]).resolve() == Path(cli["data"]).resolve() == demo.resolve()
