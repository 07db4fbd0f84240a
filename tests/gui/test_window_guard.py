"""One window per workspace: a second start finds the first (its kernel lock), brings it forward through a
local socket and says so; a crashed window (its process gone, the kernel's lock with it) never blocks a start."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtNetwork import QLocalServer
from PySide6.QtWidgets import QMainWindow

from core.workspace import window_lock_path
from gui.window_guard import WindowGuard, bring_forward, server_name
from tests.waits import TIMEOUT_MS


def test_a_second_start_on_the_workspace_brings_the_first_window_forward(qtbot, tmp_path):
    first = WindowGuard(tmp_path / "ws")
    assert first.claim() and first.listening
    window = QMainWindow()
    qtbot.addWidget(window)
    first.raise_requested.connect(lambda: bring_forward(window))
    window.show()
    window.showMinimized()
    second = WindowGuard(tmp_path / "ws")
    with qtbot.waitSignal(first.raise_requested, timeout=TIMEOUT_MS):
        assert not second.claim()  # "open": the lock is held; asked to come forward
    assert second.holder_pid == os.getpid() and not second.listening
    assert not window.isMinimized() and window.isVisible()
    other = WindowGuard(tmp_path / "another")  # another workspace: its own window
    assert other.claim()
    for guard in (first, other):
        guard.release()
    third = WindowGuard(tmp_path / "ws")
    assert third.claim()  # the first closed: the next start is the window
    third.release()


def test_only_the_one_request_is_understood(qtbot, tmp_path):
    from PySide6.QtNetwork import QLocalSocket

    first = WindowGuard(tmp_path / "ws")
    assert first.claim()
    raised: list[bool] = []
    first.raise_requested.connect(lambda: raised.append(True))
    stranger = QLocalSocket()
    stranger.connectToServer(first.name)
    assert stranger.waitForConnected(TIMEOUT_MS)
    stranger.write(b"open /etc/passwd\n")
    stranger.flush()
    qtbot.waitUntil(lambda: stranger.state() == QLocalSocket.LocalSocketState.UnconnectedState, timeout=TIMEOUT_MS)
    assert raised == []  # dropped without a word
    first.release()


def test_the_server_is_a_local_socket_named_for_the_workspace_and_user(tmp_path):
    assert server_name(tmp_path / "ws") == server_name(tmp_path / "ws" / ".." / "ws")
    assert server_name(tmp_path / "ws") != server_name(tmp_path / "other")
    guard = WindowGuard(tmp_path / "ws")
    assert guard.claim()
    assert guard._server.socketOptions() == QLocalServer.SocketOption.UserAccessOption  # this user only
    assert not guard._server.fullServerName().startswith(("tcp:", "http"))
    guard.release()


CRASHING_WINDOW = """
import sys, time
from PySide6.QtCore import QCoreApplication
from gui.window_guard import WindowGuard
app = QCoreApplication([])
guard = WindowGuard(sys.argv[1])
assert guard.claim() and guard.listening
print("open", flush=True)
time.sleep(600)
"""


def test_a_crashed_window_leaves_no_lock_and_its_socket_is_taken_over(qtbot, tmp_path):
    """The first window dies (SIGKILL: no clean-up at all); the next start is the window, on the same name."""
    ws = tmp_path / "ws"
    child = subprocess.Popen([sys.executable, "-c", CRASHING_WINDOW, str(ws)], stdout=subprocess.PIPE, text=True,
                             env=dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(Path.cwd())))
    try:
        assert child.stdout.readline().strip() == "open"
        while_open = WindowGuard(ws)
        assert not while_open.claim() and while_open.holder_pid == child.pid  # "open", not "crashed"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert window_lock_path(ws).exists()  # the file stays; the kernel's lock went with the process
    after = WindowGuard(ws)
    assert after.claim() and after.listening  # the stale socket file did not stop it
    after.release()


def test_the_apps_second_start_says_one_is_open_and_ends(qtbot, tmp_path, monkeypatch):
    """``gui.app.main`` on a workspace a window holds: the words (with that window's process), exit 0, no window."""
    import gui.app as app_module
    from gui import window_guard

    told: list[tuple[Path, int | None]] = []
    monkeypatch.setattr(window_guard, "tell_already_open", lambda workspace, pid: told.append((workspace, pid)))
    monkeypatch.setattr(app_module, "MainWindow", lambda *a, **k: (_ for _ in ()).throw(AssertionError("a window")))
    first = WindowGuard(tmp_path / "ws")
    assert first.claim()
    with qtbot.waitSignal(first.raise_requested, timeout=TIMEOUT_MS):
        assert app_module.main(["--workspace", str(tmp_path / "ws")]) == 0
    assert told == [((tmp_path / "ws").resolve(), os.getpid())]
    first.release()
