"""One window per workspace: a second start says a window is open, brings that one forward, and ends.

Why: two windows on one workspace each keep their own list of runs, their own Train page and their own idea of
which run they follow; a second start "without a word" let a user start the same run twice or edit a dataset
in two places. The first window holds a kernel lock in the workspace (``core.workspace.window_lock_path``,
``core.kernel_lock``) for as long as it is open — the kernel drops it when the process ends, however it ends, so
a crashed window never blocks the next start — and listens on a ``QLocalServer`` named after the workspace and
the user. A second start finds the lock held ("open", not "crashed"), asks the first window through a
``QLocalSocket`` to come forward, and tells the user so (``tell_already_open``, a module function tests answer).

Nothing listens beyond this machine: a ``QLocalServer`` is a Unix-domain socket (a named pipe on Windows), made
accessible to this user only (``UserAccessOption``). It understands one line, ``raise``; anything else is ignored.
"""

from __future__ import annotations

import getpass
import hashlib
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket
from PySide6.QtWidgets import QMessageBox, QWidget

from core.kernel_lock import KernelLock, LockBusy
from core.workspace import window_lock_path

RAISE = b"raise\n"
MAX_REQUEST = 64  # bytes read from a client: the one request is 6


def _tr(text: str) -> str:
    return QCoreApplication.translate("WindowGuard", text)


def server_name(workspace: Path) -> str:
    """The local server's name: the same for every start on this workspace by this user, short enough for a
    Unix socket path (Qt puts it under the temp folder)."""
    try:
        user = getpass.getuser()
    except (OSError, KeyError):  # no name for this uid (a container)
        user = "?"
    digest = hashlib.sha256(f"{user}\0{Path(workspace).expanduser().resolve()}".encode()).hexdigest()[:24]
    return f"yolostudio-{digest}"


def already_open_box(workspace: Path, pid: int | None) -> QMessageBox:
    """The words a second start shows: which workspace, which process, what happened, how to have two."""
    return QMessageBox(
        QMessageBox.Icon.Information, _tr("YOLO Studio is already open"),
        _tr("YOLO Studio is already open on the workspace {workspace} (process {pid}); that window was brought "
            "to the front. One window per workspace keeps its runs and datasets in one place — to work on "
            "another workspace at the same time, start the app with --workspace FOLDER.").format(
            workspace=workspace, pid=pid if pid is not None else "?"), QMessageBox.StandardButton.Ok)


def tell_already_open(workspace: Path, pid: int | None) -> None:
    """Module attribute so tests answer it instead of a modal dialog; its event loop carries the raise request."""
    already_open_box(workspace, pid).exec()


class WindowGuard(QObject):
    """``claim()`` once at start: True for the first window (it then answers later starts), False when another
    window holds the workspace (it has been asked to come forward)."""

    raise_requested = Signal()  # a later start asked this window to come forward

    def __init__(self, workspace: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.workspace = Path(workspace)
        self.name = server_name(self.workspace)
        self.holder_pid: int | None = None  # the other window's process, when claim() said no
        self._lock: KernelLock | None = None
        self._server: QLocalServer | None = None
        self._asking: QLocalSocket | None = None

    @property
    def listening(self) -> bool:
        return self._server is not None and self._server.isListening()

    def claim(self, wait_s: float = 0.0) -> bool:
        """``wait_s``: a restart waits for the window that started it to close (``gui.app_restart``)."""
        lock = KernelLock(window_lock_path(self.workspace), wait_s=wait_s)
        try:
            lock.__enter__()  # held until release(): the window's lifetime, not a block's
        except LockBusy as busy:
            self.holder_pid = busy.owner.pid
            self._ask_to_raise()
            return False
        except OSError:  # a read-only workspace: no guard, the window still opens
            return True
        self._lock = lock
        QLocalServer.removeServer(self.name)  # a socket a crashed window left: no live window owns it (the lock)
        server = QLocalServer(self)
        server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        server.newConnection.connect(self._on_connection)
        if server.listen(self.name):
            self._server = server
        return True

    def release(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        lock, self._lock = self._lock, None
        if lock is not None:
            lock.__exit__(None, None, None)

    # -- the first window's side --------------------------------------------------------------------
    def _on_connection(self) -> None:
        assert self._server is not None
        while (client := self._server.nextPendingConnection()) is not None:
            client.readyRead.connect(self._on_request)  # bound methods only: no lambda keeps a socket alive
            client.disconnected.connect(client.deleteLater)

    def _on_request(self) -> None:
        client = self.sender()
        if not isinstance(client, QLocalSocket):
            return
        if bytes(client.read(MAX_REQUEST).data()) == RAISE:
            self.raise_requested.emit()
            client.write(b"ok\n")
            client.flush()
        client.disconnectFromServer()

    # -- a later start's side -------------------------------------------------------------------------
    def _ask_to_raise(self) -> None:
        """Connect and send ``raise``; asynchronous: the event loop (the message box's) carries it."""
        self._asking = QLocalSocket(self)
        self._asking.connected.connect(self._send_raise)
        self._asking.connectToServer(self.name)  # a failure to connect is silent: the words are still true

    def _send_raise(self) -> None:
        if self._asking is not None:
            self._asking.write(RAISE)
            self._asking.flush()


def bring_forward(window: QWidget) -> None:
    """Show ``window`` un-minimised and ask the window system to activate it (it may only flash the taskbar
    entry: focus-stealing prevention decides)."""
    window.setWindowState((window.windowState() & ~Qt.WindowState.WindowMinimized) | Qt.WindowState.WindowActive)
    window.show()
    window.raise_()
    window.activateWindow()
