"""Pretrained weights in the window: the Train form fine-tunes from the stored checkpoint by default (and says
why), offers to get it when it is absent, follows model changes until the user chooses; the Weights dialog
asks before it downloads, shows progress, cancels (the part stays for a resume), removes, and refuses an
import the user does not trust. The downloads run the real ``weights_get`` worker job against a release
server on 127.0.0.1 (the file's load check, which needs torch, is covered by tests/cli/test_weights_verb.py)."""

from __future__ import annotations

import os

import pytest

from core.job.jobs import JobSpec
from core.environment.machine import MachineFacts
from core.weights.catalog import find_checkpoint
from core.weights.download import TEST_BASE_ENV
from core.weights.store import WeightsStore
from gui import dialogs
from gui.train.train_page import TrainPage
from gui.weights import weights_dialog
from tests.gui.test_train_page import data_yaml  # noqa: F401 - the fixture
from tests.stored_weights import store_file
from tests.waits import TIMEOUT_MS
from tests.weights_server import ReleaseServer


@pytest.fixture
def page(qtbot, tmp_path, data_yaml):
    page = TrainPage(tmp_path / "ws", prepare_demo=False, machine_facts=MachineFacts())
    qtbot.addWidget(page)
    page.form.set_data_path(str(data_yaml))
    page.form.set_model("yolov5s.yaml")
    page.revalidate()
    return page


def cell(dialog, row: int, column: int) -> str:
    item = dialog.table.item(row, column)  # None until the store's first reading is shown
    return item.text() if item is not None else ""


def weights_value(page) -> str:
    return str(page.form.editors["weights"].value())


def test_form_fine_tunes_from_the_stored_checkpoint_until_the_user_chooses(page, tmp_path):
    hint = page.form.start_hint
    assert weights_value(page) == "" and not hint.get_button.isHidden()
    assert "No pretrained weights on this machine" in hint.text.text() and "yolov5s.pt" in hint.get_button.text()
    assert page.options.last_checked.ok and page.options.last_checked.weights_path is None

    store = store_file(tmp_path / "ws", "yolov5s.pt")
    page.revalidate()
    checked = page.options.last_checked
    assert weights_value(page) == "yolov5s.pt" and checked.ok
    assert checked.weights_path == store.path("yolov5s.pt").resolve()  # the bare name is the store's file
    assert hint.level == "ok" and hint.text.text().startswith("Fine-tuning from yolov5s.pt")
    assert not hint.scratch_button.isHidden() and hint.get_button.isHidden()
    assert page.options.trusted_weights(checked) == ()  # a store file needs no pickle question

    hint.scratch_button.click()
    assert weights_value(page) == "" and page.options.last_checked.weights_path is None
    assert "as you chose" in hint.text.text() and not hint.pretrained_button.isHidden()
    page.form.set_model("yolov5m.yaml")
    page.revalidate()
    assert weights_value(page) == ""  # still the user's "from scratch"
    page.form.set_model("yolov5s.yaml")
    page.revalidate()
    assert not hint.pretrained_button.isHidden()
    hint.pretrained_button.click()
    assert weights_value(page) == "yolov5s.pt"

    page.form.set_model("yolov5m.yaml")  # the default follows the model: no yolov5m.pt here
    page.revalidate()
    assert weights_value(page) == "" and "yolov5m.pt" in hint.get_button.text()

    page.form.editors["weights"].set_value(str(tmp_path / "mine.pt"))  # typed by the user: kept
    page.form.set_model("yolov5s.yaml")
    page.revalidate()
    assert weights_value(page) == str(tmp_path / "mine.pt") and "Starting from" in hint.text.text()


def test_a_changed_store_file_is_not_used_and_the_hint_says_so(page, tmp_path):
    store = store_file(tmp_path / "ws", "yolov5s.pt")
    store.path("yolov5s.pt").write_bytes(b"other bytes, other size")
    page.revalidate()
    hint = page.form.start_hint
    assert weights_value(page) == "" and hint.level == "warning" and "not the file that was stored" in hint.text.text()


def release_launcher(base: str):
    def launch(job: JobSpec):
        assert job.job in ("weights_get", "weights_import")
        env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
        return job.argv(), job.env(dict(env, **{TEST_BASE_ENV: base}))
    return launch


def test_get_asks_shows_progress_and_cancel_keeps_the_part(page, qtbot, tmp_path, monkeypatch):
    size = find_checkpoint("yolov5s").estimated_bytes  # plausible for a yolov5s
    asked = []
    monkeypatch.setattr(dialogs, "confirm_download", lambda parent, name, size_text, url: asked.append(url) and False)
    with ReleaseServer({"yolov5s.pt": bytes(size)}) as server:
        server.stall_after["yolov5s.pt"] = 300_000
        page.options.weights_launcher = release_launcher(server.base)
        dialog = page.options.open_weights(get="yolov5s")  # the hint's "Get yolov5s.pt…": it asks first
        qtbot.addWidget(dialog)
        assert asked == ["https://github.com/ultralytics/yolov5/releases/download/v7.0/yolov5s.pt"]
        assert not dialog.running and server.requests == []  # no: nothing was fetched

        monkeypatch.setattr(dialogs, "confirm_download", lambda *args: True)
        qtbot.waitUntil(lambda: dialog.selected_file() == "yolov5s.pt", timeout=TIMEOUT_MS)  # read in the background
        dialog.get_button.click()
        assert dialog.running and not dialog.cancel_button.isHidden() and not dialog.get_button.isEnabled()
        total = f"{size / 1e6:.1f} MB"
        # Until the server's stall shows (no byte for the 5 s speed window): then all it sent has arrived, and
        # the part kept is all of it — cancelling at the first progress line kept 64 kB or 300 kB (a race).
        qtbot.waitUntil(lambda: f"0.3 MB of {total} · waiting for the server" in dialog.progress_label.text(),
                        timeout=TIMEOUT_MS)
        assert dialog.progress_label.text().startswith("Downloading yolov5s.pt: ")  # then speed and ETA
        dialog.reject()  # Escape while it arrives: refused, with the way out
        assert dialog.isVisible() and "cancel the download first" in dialog.banner.text
        with qtbot.waitSignal(dialog._worker.ended, timeout=TIMEOUT_MS):
            dialog.cancel_button.click()
    assert dialog.status == "stopped" and "Get resumes it" in dialog.progress_label.text()
    store = WeightsStore(tmp_path / "ws")
    assert store.state("yolov5s.pt") == "absent" and not store.path("yolov5s.pt").exists()
    assert store.partial_path("yolov5s.pt").stat().st_size == 300_000  # kept for the resume
    qtbot.waitUntil(lambda: cell(dialog, 1, 3) == "0.3 MB downloaded — get it again to resume",
                    timeout=TIMEOUT_MS)  # the store is read again in the background after the job
    assert dialog.get_button.isEnabled() and weights_value(page) == ""


def test_a_failed_get_says_why_in_the_dialog(page, qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(dialogs, "confirm_download", lambda *args: True)
    with ReleaseServer({}) as server:  # nothing there: 404
        page.options.weights_launcher = release_launcher(server.base)
        dialog = page.options.open_weights()
        qtbot.addWidget(dialog)
        qtbot.waitUntil(lambda: dialog.selected_file() == "yolov5s.pt", timeout=TIMEOUT_MS)  # the model's own
        with qtbot.waitSignal(dialog._worker.ended, timeout=TIMEOUT_MS):
            dialog.get_button.click()
    assert dialog.status == "failed" and dialog.banner.level == "error" and "404" in dialog.banner.text
    assert WeightsStore(tmp_path / "ws").state("yolov5s.pt") == "absent"


def test_remove_asks_and_an_untrusted_import_is_not_started(page, qtbot, tmp_path, monkeypatch):
    store = store_file(tmp_path / "ws", "yolov5s.pt")
    page.revalidate()
    assert weights_value(page) == "yolov5s.pt"
    dialog = page.options.open_weights()
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: "✓ on this machine" in cell(dialog, 1, 3), timeout=TIMEOUT_MS)
    assert not dialog.get_button.isEnabled()

    monkeypatch.setattr(dialogs, "ask_yes", lambda *args, **kw: False)
    dialog.remove_button.click()
    assert store.state("yolov5s.pt") == "ok"
    monkeypatch.setattr(dialogs, "ask_yes", lambda *args, **kw: True)
    with qtbot.waitSignal(dialog.changed, timeout=TIMEOUT_MS):
        dialog.remove_button.click()
    assert store.state("yolov5s.pt") == "absent" and weights_value(page) == ""  # the form follows

    mine = tmp_path / "mine.pt"
    mine.write_bytes(b"a pickle from somewhere")
    monkeypatch.setattr(weights_dialog, "ask_import_path", lambda parent: str(mine))
    monkeypatch.setattr(dialogs, "confirm_untrusted_weights", lambda parent, path: False)
    dialog.import_button.click()
    assert not dialog.running and store.state("mine.pt") == "absent"
