"""One real short training driven through the Train page: the production launcher, the real worker."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.demo.dataset import DemoSpec, generate_demo_dataset
from core.training.config import MachineFacts
from gui.train.train_page import TrainPage

pytestmark = pytest.mark.e2e


def test_real_worker_trains_and_the_page_shows_the_result(qtbot, tmp_path):
    data = generate_demo_dataset(tmp_path / "tiny", DemoSpec(n_train=16, n_val=8, image_size=64, seed=5))
    page = TrainPage(tmp_path / "ws", prepare_demo=False, machine_facts=MachineFacts(gpu_count=0))
    qtbot.addWidget(page)
    form = page.form
    form.set_data_path(str(data))
    form.set_model("yolov5n.yaml")
    form.spin("epochs").setValue(1)
    form.spin("imgsz").setValue(64)
    form.spin("batch").setValue(8)
    form.spin("workers").setValue(0)
    form.device_combo.setEditText("cpu")
    page.revalidate()
    qtbot.waitUntil(page.start_button.isEnabled, timeout=60_000)  # after the dataset check before Start

    with qtbot.waitSignal(page.run_ended, timeout=240_000) as ended:
        page.start_button.click()
    outcome = ended.args[0]
    assert outcome.status == "completed", outcome
    run_dir = page.session.run_dir
    assert (run_dir / "weights" / "best.pt").is_file() and (run_dir / "results.csv").is_file()
    assert page.session.progress.epochs == 1 and page.session.progress.status == "completed"
    assert page.plots.series["train/box"].size >= 1 and page.plots.series["map50"].size == 1
    assert page.status_panel.mode == "finished"
    assert str(run_dir / "weights" / "best.pt") in page.status_panel.facts_label.text()
    log = page.log_view.text.toPlainText()
    assert "Image sizes 64 train" in log
    assert " 100% 2/2" in log and "0/0" in log  # yolov5's per-batch row (epoch 0/0), not only its header
