"""One short worker job for the Export page (export or predict): spec file in, protocol events out.

Wraps ``gui.worker_process.WorkerProcess`` with what both of the page's jobs need: the spec written to a
temp file in the workspace's cache (removed when the job ends), the launcher (injectable, so tests can
replay recorded events), and a single ``ended(status, error)`` signal that is emitted exactly once —
also when the process could not start or died without its ``done`` event.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QObject, Signal

from core.launch import worker_argv, worker_env
from core.workspace import app_cache_dir
from gui.worker_process import WorkerProcess

#: (job name, spec file) → (argv, environment)
JobLauncher = Callable[[str, Path], tuple[list[str], dict[str, str]]]


def default_job_launcher(job: str, spec_file: Path) -> tuple[list[str], dict[str, str]]:
    return worker_argv(job, spec_file), worker_env()


class ExportWorker(QObject):
    event = Signal(object)
    ended = Signal(str, object)  # status (completed/stopped/failed), error dict or None

    def __init__(self, workspace: Path, launcher: JobLauncher, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.launcher = launcher
        self.process = WorkerProcess(self)
        self.process.event.connect(self._on_event)
        self.process.finished.connect(self._on_finished)
        self.process.failed_to_start.connect(self._on_failed_to_start)
        self._spec_file: Path | None = None
        self._status: str | None = None
        self._error: dict[str, Any] | None = None
        self._ended = True

    @property
    def running(self) -> bool:
        return not self._ended

    def start(self, job: str, spec: dict[str, Any]) -> None:
        folder = app_cache_dir(self.workspace) / "jobs"
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", suffix=".json", prefix=f"{job}-", dir=folder, delete=False,
                                         encoding="utf-8") as handle:
            json.dump(spec, handle, indent=2)
        self._spec_file = Path(handle.name)
        self._status, self._error, self._ended = None, None, False
        argv, env = self.launcher(job, self._spec_file)
        self.process.start(argv, env)

    def stop(self) -> None:
        self.process.send_stop()

    def kill(self) -> None:
        self.process.kill()

    def _on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "done":
            self._status = str(event.get("status") or "failed")
        elif kind == "error" and not event.get("format") and self._error is None:
            self._error = {k: event.get(k) for k in ("kind", "message", "hint")}
        self.event.emit(event)

    def _finish(self, status: str, error: dict[str, Any] | None) -> None:
        if self._ended:
            return
        self._ended = True
        if self._spec_file is not None:
            self._spec_file.unlink(missing_ok=True)
        self.ended.emit(status, error)

    def _on_finished(self, code: int, crashed: bool) -> None:
        if self._status is None and self._error is None:
            self._error = {"kind": "worker_died", "message": self.tr(
                "The worker ended without a final report (exit code {code}).").format(code=code), "hint": ""}
        self._finish(self._status or "failed", self._error)

    def _on_failed_to_start(self, reason: str) -> None:
        self._finish("failed", {"kind": "launch", "message": self.tr(
            "The worker could not be started: {reason}").format(reason=reason), "hint": ""})
