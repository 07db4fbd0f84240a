"""The one way the GUI runs a worker job: a QProcess whose stdout speaks the JSON-lines protocol.

Owns the child process and its pipes. stdout is decoded with ``core.job.protocol.LineDecoder`` (a pipe
hands over arbitrary chunks, so the partial last line is kept between reads and flushed at the end);
protocol objects come out as ``event``, anything else — and every stderr line — as ``text``. Slots on
the receiving side must stay cheap: a whole read's worth of lines is delivered in one go.

Detaching lets a run outlive the window: Qt's QProcess kills a running child when it is destroyed, so a
detached process is parked in a module-level registry, and ``gui.app`` leaves with ``os._exit`` when
that registry is not empty (see there).
"""

from __future__ import annotations

import json

from PySide6.QtCore import QObject, QProcess, QProcessEnvironment, Signal

from core.job.protocol import Decoded, LineDecoder, encode_control

#: Processes handed over to the background; their QProcess objects must never be destroyed (see app.py).
_DETACHED: list[QProcess] = []


def detached_processes() -> list[QProcess]:
    """Workers detached from their window that may still be running."""
    return list(_DETACHED)


class WorkerProcess(QObject):
    """A worker subprocess speaking the protocol on stdout; control goes in on stdin."""

    event = Signal(object)  # one protocol event (dict); ``object`` keeps it a Python dict, untouched
    text = Signal(str)  # a line that is not a protocol object (stdout or stderr)
    started = Signal()
    finished = Signal(int, bool)  # exit code, crashed (killed by a signal / died abnormally)
    failed_to_start = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._proc = QProcess(self)
        self._proc.setProcessChannelMode(QProcess.ProcessChannelMode.SeparateChannels)
        self._stdout = LineDecoder()
        self._stderr = LineDecoder()
        self._stop_sent = False
        self._detached = False
        self._proc.readyReadStandardOutput.connect(self._read_stdout)
        self._proc.readyReadStandardError.connect(self._read_stderr)
        self._proc.started.connect(self.started)
        self._proc.finished.connect(self._on_finished)
        self._proc.errorOccurred.connect(self._on_error)

    # -- control ------------------------------------------------------------------------------------
    def start(self, argv: list[str], env: dict[str, str]) -> None:
        if self.running:
            raise RuntimeError("this worker is already running")
        environment = QProcessEnvironment()
        for key, value in env.items():
            environment.insert(key, value)
        self._stop_sent = False
        self._proc.setProcessEnvironment(environment)
        self._proc.setProgram(argv[0])
        self._proc.setArguments(list(argv[1:]))
        self._proc.start()

    def send_stop(self) -> bool:
        """Ask for a graceful stop; a second call (or one after the end) does nothing. True if sent."""
        if self._stop_sent or not self.running or self._detached:
            return False
        self._stop_sent = True
        self._proc.write(encode_control("stop").encode("utf-8"))
        return True

    def kill(self) -> None:
        if self.running:
            self._proc.kill()

    def detach(self) -> None:
        """Let the worker run on without us: no more signals; it keeps writing its events file."""
        if self._detached:
            return
        self._detached = True
        for signal, slot in ((self._proc.readyReadStandardOutput, self._read_stdout),
                             (self._proc.readyReadStandardError, self._read_stderr),
                             (self._proc.started, self.started), (self._proc.finished, self._on_finished),
                             (self._proc.errorOccurred, self._on_error)):
            signal.disconnect(slot)
        # Discard its output from now on (Qt keeps draining the pipes, so the child never blocks);
        # stdin EOF is not a stop in the protocol.
        self._proc.closeReadChannel(QProcess.ProcessChannel.StandardOutput)
        self._proc.closeReadChannel(QProcess.ProcessChannel.StandardError)
        self._proc.closeWriteChannel()
        self._proc.setParent(None)  # must outlive this wrapper: deleting a QProcess kills its child
        _DETACHED.append(self._proc)

    # -- state --------------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._proc.state() != QProcess.ProcessState.NotRunning

    @property
    def pid(self) -> int:
        return int(self._proc.processId())

    @property
    def stop_sent(self) -> bool:
        return self._stop_sent

    # -- reading ------------------------------------------------------------------------------------
    def _read_stdout(self) -> None:
        self._deliver(self._stdout.feed(bytes(self._proc.readAllStandardOutput().data())))

    def _read_stderr(self) -> None:
        self._deliver(self._stderr.feed(bytes(self._proc.readAllStandardError().data())), text_only=True)

    def _deliver(self, lines: list[Decoded], *, text_only: bool = False) -> None:
        for line in lines:
            if line.event is not None and not text_only:
                self.event.emit(line.event)
            elif line.event is not None:
                self.text.emit(json.dumps(line.event, ensure_ascii=False))  # stderr is never protocol
            elif line.text:
                self.text.emit(line.text)

    def _on_finished(self, exit_code: int, status: QProcess.ExitStatus) -> None:
        self._read_stdout()
        self._read_stderr()
        self._deliver(self._stdout.flush())
        self._deliver(self._stderr.flush(), text_only=True)
        self.finished.emit(int(exit_code), status == QProcess.ExitStatus.CrashExit)

    def _on_error(self, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart:
            self.failed_to_start.emit(self._proc.errorString())
