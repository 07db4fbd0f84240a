"""The Train page's Start on the wizard's prepared copy ("Training never uses stale data"): the hand-over made
the copy, and a photo changed before Start is resized again (``copy_for_training``, off the GUI thread) before
any worker starts; the page says why that Start did not train, checks the refreshed copy, and the next Start
trains on it. An up-to-date copy starts at once."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image

from core.training.config import MachineFacts
from core.wizard.prepared_copy import copy_for_training, current_copy, request_for
from gui.train.train_page import TrainPage
from tests.core.test_dataset_prepare import dataset
from tests.gui.test_train_page import FakeLauncher
from tests.waits import TIMEOUT_MS


@pytest.fixture
def handed_over(qtbot, tmp_path, fake_worker):
    """A Train page with the wizard's settings on a fresh prepared copy (what "Train with these settings" hands)."""
    workspace = tmp_path / "ws"
    source = dataset(tmp_path / "ds", {"a": (800, 600), "b": (800, 600)})
    request = request_for(str(source), 64)
    copy = copy_for_training(request, workspace).data_yaml
    page = TrainPage(workspace, launcher=FakeLauncher(fake_worker), prepare_demo=False,
                     machine_facts=MachineFacts(gpu_count=0))
    qtbot.addWidget(page)
    assert page.control.use_wizard({"config": {"data": str(copy), "model": "yolov5n.yaml", "imgsz": 64, "batch": 2,
                                       "workers": 1, "device": "cpu", "epochs": 1},
                            "prepared_copy": request.to_json()})
    qtbot.waitUntil(page.start_button.isEnabled, timeout=TIMEOUT_MS)  # the copy's check passed
    yield page, request, source.parent
    if page.active:
        page.session.kill()
        qtbot.waitUntil(lambda: not page.active, timeout=TIMEOUT_MS)


def test_a_photo_changed_after_the_hand_over_is_refreshed_before_training(qtbot, handed_over):
    page, request, root = handed_over
    photo = root / "images" / "train" / "a.jpg"
    Image.new("RGB", (640, 480), (10, 200, 10)).save(photo, quality=90)  # the user edits a photo
    later = photo.stat().st_mtime + 5
    os.utime(photo, (later, later))
    assert current_copy(request, page.workspace) is None  # the copy is stale now

    assert page.control.start_run()  # the check runs in the background; Start waits for it
    assert not page.start_button.isEnabled()
    qtbot.waitUntil(lambda: page.control.copy_task is None, timeout=TIMEOUT_MS)
    assert page.session is None  # no worker started on the stale copy
    assert current_copy(request, page.workspace) is not None  # refreshed by copy_for_training
    assert "was out of date and has been refreshed (1 image resized again)" in page.banner.text
    with Image.open(request.out_dir(page.workspace) / "images" / "train" / "a.jpg") as copied:
        red, green, _ = copied.convert("RGB").getpixel((4, 4))
    assert green > 150 and red < 60  # the edited photo's pixels, not the stale red ones
    assert page.start_button.text() == "Start"

    qtbot.waitUntil(page.start_button.isEnabled, timeout=TIMEOUT_MS)  # the refreshed copy passed its check
    with qtbot.waitSignal(page.run_ended, timeout=TIMEOUT_MS):
        page.start_button.click()
    assert page.session is not None and page.session.run_dir.is_dir()


def test_an_up_to_date_copy_starts_at_once(qtbot, handed_over):
    page, request, _ = handed_over
    with qtbot.waitSignal(page.run_ended, timeout=TIMEOUT_MS):
        assert page.control.start_run()
    assert page.session is not None and "out of date" not in page.banner.text


def test_a_copy_that_cannot_be_refreshed_refuses_with_words(qtbot, handed_over):
    page, request, root = handed_over
    for image in (root / "images").rglob("*.jpg"):
        image.unlink()
    for label in (root / "labels").rglob("*.txt"):
        label.unlink()
    assert page.control.start_run()
    qtbot.waitUntil(lambda: page.control.copy_task is None, timeout=TIMEOUT_MS)
    assert page.session is None
    assert "Training did not start: the prepared copy of" in page.banner.text and str(request.source) in page.banner.text
