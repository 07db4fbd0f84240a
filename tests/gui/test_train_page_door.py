"""The Train page starts through the same door as ``yolostudio train`` (core.usecases.train): its pre-flight —
what only the moment of Start can tell — runs for the GUI too, before any run folder exists."""

from __future__ import annotations

from tests.gui.test_train_page import data_yaml, launcher, page  # noqa: F401 - the page's fixtures
from tests.stored_weights import store_file


def test_a_weights_store_file_that_changed_is_refused_at_start_before_any_run(qtbot, page):  # noqa: F811
    """Same size, other bytes: the form's cheap check (listed, recorded size) passes; the door hashes it."""
    store = store_file(page.workspace, "yolov5s.pt", b"weights")
    store.path("yolov5s.pt").write_bytes(b"weightz")
    page.form.set_model(str(store.path("yolov5s.pt")))
    page.revalidate()
    assert page.control.start_run() is False
    assert page.banner.isVisibleTo(page) and page.banner.level == "error" and "SHA-256" in page.banner.text
    assert not (page.workspace / "runs").exists() and not page.control.active
