"""Test-wide isolation: Qt offscreen, config and workspace in temp dirs, no leaked windows or workers."""

from __future__ import annotations

import gc
import os
import signal
import sys
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["YOLOSTUDIO_LANG"] = "en"  # tests read the source texts, whatever the developer's locale
# The suite runs in two processes on two cores (installer/test.sh) and many tests start workers of their own.
# torch's default, one OpenMP thread per core in every process, then oversubscribes the cores and its
# spinning threads slow every run down: the e2e weights and training tests, two at once, took 84 s and 94 s
# with the default and 56 s and 47 s with one thread each (2 cores). Workers inherit this environment.
for _threads in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_threads, "1")
# pytest-xdist's worker processes ignore SIGTERM, and every child inherits that: a yolov5 label cache run by a
# test's own script then hangs in Pool.terminate (core.worker.__main__.restore_default_sigterm has the story).
# The children start with the default, as they do under a user's shell.
if hasattr(signal, "SIGTERM") and signal.getsignal(signal.SIGTERM) == signal.SIG_IGN:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(autouse=True)
def _isolated_config(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads or writes the developer's real settings, window state or workspace."""
    monkeypatch.setenv("YOLOSTUDIO_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))
    monkeypatch.setenv("YOLOSTUDIO_WORKSPACE", str(tmp_path_factory.mktemp("workspace")))


@pytest.fixture(scope="session", autouse=True)
def _gc_in_the_main_thread_only():
    """As the app does (gui/app.py): automatic GC off, collected here in the main thread after each test.
    Otherwise a background job's thread may collect leftover Qt objects and deadlock on Qt's locks."""
    gc.disable()
    yield
    gc.enable()


@pytest.fixture(scope="module", autouse=True)
def _collect_after_each_module():
    """The full collection at a test file's end: everything ``_collect_after_each_test`` froze is looked at again
    (an object a module fixture held, garbage now), so no leftover outlives its file; what survives is frozen
    again, or the next file's first test would walk it all a second time."""
    yield
    gc.unfreeze()
    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True)
def _collect_after_each_test():
    """The test's garbage collected here, then what is still alive frozen (``gc.freeze``): the next collection
    skips it. A full collection walks every object the session has (the imported app, Qt, numpy: ~120,000 and
    more), ~70-150 ms each, which over ~2,000 tests was ~10% of the suite's CPU; a frozen object is still freed
    by its reference count, and the file's end (``_collect_after_each_module``) unfreezes and collects all."""
    yield
    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True)
def _no_leaks():
    """Fail a test that leaves a visible top-level window; kill workers a test detached."""
    yield
    workers = sys.modules.get("gui.worker_process")
    for proc in workers.detached_processes() if workers else []:
        proc.kill()
        proc.waitForFinished(5000)
    if workers:
        workers._DETACHED.clear()
    qt = sys.modules.get("PySide6.QtWidgets")
    if qt is None or qt.QApplication.instance() is None:
        return
    leaked = [w for w in qt.QApplication.topLevelWidgets() if w.isVisible()]
    for widget in leaked:
        widget.close()
    assert not leaked, f"test left windows open: {leaked}"


@pytest.fixture
def fake_worker():
    """``fake_worker(*options, events=...)`` -> argv replaying a recorded stream (see fixtures/fake_worker.py)."""

    def argv(*options: str, events: Path = FIXTURES / "recorded_train_events.jsonl") -> list[str]:
        return [sys.executable, str(FIXTURES / "fake_worker.py"), str(events), *options]

    return argv


class UnexpectedDialog(AssertionError):
    """A modal dialog opened that the test did not answer: offscreen it would wait forever."""


@pytest.fixture(autouse=True)
def _no_unanswered_modal_dialogs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail fast instead of hanging: a test that expects a dialog patches the app's dialog helper."""
    try:
        from PySide6 import QtWidgets as widgets  # noqa: N813
    except ImportError:
        return

    def refuse(*args, **kwargs):
        raise UnexpectedDialog(f"unanswered modal dialog: {args[:3]!r}")

    for cls, names in ((widgets.QDialog, ("exec", "exec_")), (widgets.QMessageBox, ("exec", "exec_", "question",
                       "warning", "critical", "information", "about")),
                       (widgets.QFileDialog, ("exec", "getOpenFileName", "getOpenFileNames", "getSaveFileName",
                                              "getExistingDirectory")),
                       (widgets.QInputDialog, ("exec", "getInt", "getText", "getItem", "getDouble"))):
        for name in names:
            if hasattr(cls, name):
                monkeypatch.setattr(cls, name, refuse, raising=False)


@pytest.fixture(scope="session")
def sshd(tmp_path_factory: pytest.TempPathFactory):
    """A real OpenSSH server on 127.0.0.1 (tests/fixtures/sshd.py); skips, saying why, where none is installed."""
    from tests.fixtures.sshd import SshServer, missing_reason  # noqa: PLC0415 - only the SSH tests need it

    reason = missing_reason()
    if reason:
        pytest.skip(reason)
    server = SshServer.start(tmp_path_factory.mktemp("sshd"))
    yield server
    server.stop()


@pytest.fixture
def remote_command(tmp_path_factory: pytest.TempPathFactory) -> str:
    """This checkout's ``yolostudio``, as the machine's remote command: one thread, English, its own config dir."""
    import shlex  # noqa: PLC0415

    app = Path(sys.executable).with_name("yolostudio")
    return shlex.join(["env", "OMP_NUM_THREADS=1", "YOLOSTUDIO_LANG=en",
                       f"YOLOSTUDIO_CONFIG_DIR={tmp_path_factory.mktemp('remote-config')}", str(app)])
