"""Installing YOLO Studio on a machine that lacks it, over the user's own ssh (``yolostudio machine install NAME``).

Three steps, each an argv list (no shell here; the remote words quoted with ``shlex.join`` by ``ssh_argv``):

1. **send** this app's folder (without ``.venv``, ``.git``, caches) as one tar stream into ``app/`` of the machine's
   workspace folder there (``~/yolostudio/app`` by default: everything of YOLO Studio there in one folder)
   (``tar -xf -`` on the remote: every Linux has it; no rsync needed on either side), progress in bytes;
2. with ``offline``, **a wheel set** from this machine: ``pip download`` of the app and its build backend into a
   folder here (pip's own index, cache and ``find-links`` as ``installer/setup_env.sh`` uses them), sent the same
   way into ``wheels/`` beside it, so the remote installs with no internet (``PIP_NO_INDEX=1``,
   ``PIP_FIND_LINKS``);
3. **run** ``bash app/installer/setup_env.sh`` there (the project's own installer: a ``.venv`` in that folder),
   its output handed on line by line. The machine's command becomes ``…/app/.venv/bin/yolostudio``.

A failure says which step, with the last lines it printed. Files here are only read.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import tempfile
import threading
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath
from typing import IO, Any, Callable, Iterator

from core.i18n import tr
from core.remote.machines import DEFAULT_REMOTE_COMMAND, Machine, save_machine
from core.remote.ssh import RemoteResult, failure_words, remote_dir, ssh_argv

APP_ROOT = Path(__file__).resolve().parents[2]


def app_folder(machine: Machine) -> str:
    """Where the app goes there: ``app/`` in the machine's workspace folder (as the remote shell sees it)."""
    return str(PurePosixPath(remote_dir(machine)) / "app")


def wheels_folder(machine: Machine) -> str:
    return str(PurePosixPath(remote_dir(machine)) / "wheels")


def installed_command(machine: Machine) -> str:
    """The command that runs YOLO Studio there once installed."""
    return f"{app_folder(machine)}/.venv/bin/yolostudio"

#: What is never sent: the local environment, history, caches and build output.
LEFT_OUT = {".venv", ".git", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", "build", "dist",
            ".cache", "node_modules"}
LAST_LINES = 12


class InstallError(RuntimeError):
    """A step failed; the message names it and carries the last lines it printed."""


@dataclass
class InstallPlan:
    machine: Machine
    app_root: Path = APP_ROOT
    offline: bool = False
    wheels: Path | None = None  # a wheel set already here (else ``pip download`` makes one when offline)
    run_installer: bool = True


def app_files(root: Path) -> Iterator[tuple[str, Path]]:
    """(archive name, path) of each file of the app to send, ``LEFT_OUT`` skipped (a worktree's ``.git`` is a file),
    links not followed."""
    for base, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in LEFT_OUT and not d.endswith(".egg-info"))
        for name in sorted(files):
            path = Path(base) / name
            if path.is_file() and not path.is_symlink() and name not in LEFT_OUT and not name.endswith((".pyc", ".qmlc")):
                yield path.relative_to(root).as_posix(), path


def unpack_words(folder: str) -> list[str]:
    """The remote words that make ``folder`` (relative to the home folder) and unpack a tar stream into it."""
    return ["sh", "-c", 'mkdir -p -- "$1" && exec tar -xf - -C "$1"', "sh", folder]


def send_folder(machine: Machine, files: list[tuple[str, Path]], folder: str, *,
                progress: Callable[[int, int], None] = lambda sent, total: None,
                cancel: threading.Event | None = None) -> int:
    """Stream ``files`` into ``folder`` there; the bytes sent. ``InstallError`` when the link or tar failed."""
    total = sum(path.stat().st_size for _, path in files)
    cancel = cancel or threading.Event()
    with tempfile.TemporaryFile() as err:
        process = subprocess.Popen(ssh_argv(machine, unpack_words(folder)), stdin=subprocess.PIPE,
                                   stdout=subprocess.DEVNULL, stderr=err)
        assert process.stdin is not None
        sink = _Counting(process.stdin, lambda n: progress(n, total), cancel)
        try:
            with tarfile.open(fileobj=sink, mode="w|", format=tarfile.PAX_FORMAT) as tar:
                for name, path in files:
                    tar.add(str(path), arcname=name, recursive=False)
            process.stdin.close()
        except (BrokenPipeError, OSError, InstallError) as exc:
            process.kill()
            process.wait()
            if isinstance(exc, InstallError):
                raise
            err.seek(0)
            raise InstallError(tr("Sending to {name} failed: {reason}", name=machine.name, reason=_last(
                err.read()) or exc)) from exc
        code = process.wait()
        err.seek(0)
        text = err.read()
    if code != 0:
        message, hint = failure_words(machine, RemoteResult(code, "", text.decode("utf-8", "replace")))
        raise InstallError(tr("Sending to {name} failed: {reason}", name=machine.name, reason=message) + (
            f" ({hint})" if hint else ""))
    return sink.sent


class _Counting:
    def __init__(self, sink: IO[bytes], progress: Callable[[int], None], cancel: threading.Event) -> None:
        self.sink, self.progress, self.cancel, self.sent = sink, progress, cancel, 0

    def write(self, data: Any) -> int:
        if self.cancel.is_set():
            raise InstallError(tr("Installation cancelled."))
        self.sink.write(data)
        self.sent += len(data)
        self.progress(self.sent)
        return len(data)


def _last(data: bytes, n: int = 1) -> str:
    return "\n".join(data.decode("utf-8", "replace").strip().splitlines()[-n:])


def download_wheels(app_root: Path, folder: Path, *, on_line: Callable[[str], None] = lambda line: None) -> None:
    """``pip download`` the app, its dependencies and its build backend into ``folder`` (this machine's pip
    configuration: its index, cache and find-links, as ``installer/setup_env.sh`` installs from)."""
    command = [sys.executable, "-m", "pip", "download", "--disable-pip-version-check", "--progress-bar", "off",
               "-d", str(folder), str(app_root), "pip", "setuptools>=77.0.3,<81", "wheel"]
    _stream(command, on_line, tr("Downloading the wheel set here failed"))


def installer_words(machine: Machine, offline: bool) -> list[str]:
    """The remote words that run the project's installer there (offline: from the wheel set only)."""
    env = ["env", "PIP_NO_INDEX=1", f"PIP_FIND_LINKS={wheels_folder(machine)}"] if offline else []
    return [*env, "bash", f"{app_folder(machine)}/installer/setup_env.sh"]


def _stream(command: list[str], on_line: Callable[[str], None], what: str) -> None:
    tail: list[str] = []
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert process.stdout is not None
    for raw in process.stdout:
        line = raw.decode("utf-8", "replace").rstrip("\n")
        tail = (tail + [line])[-LAST_LINES:]
        on_line(line)
    code = process.wait()
    if code != 0:
        raise InstallError(tr("{what} (exit code {code}). Its last lines:", what=what, code=code) + "\n"
                           + "\n".join(tail))


def install(plan: InstallPlan, *, progress: Callable[[int, int], None] = lambda sent, total: None,
            on_line: Callable[[str], None] = lambda line: None, cancel: threading.Event | None = None) -> str:
    """Run the steps; the remote command that runs YOLO Studio there now. ``InstallError`` names the failed step."""
    machine = plan.machine
    on_line(tr("Sending YOLO Studio ({root}) to {name}:{folder} …", root=plan.app_root, name=machine.name,
               folder=app_folder(machine)))
    send_folder(machine, list(app_files(plan.app_root)), app_folder(machine), progress=progress, cancel=cancel)
    if plan.offline:
        with tempfile.TemporaryDirectory(prefix="yolostudio-wheels-") as scratch:
            wheels = plan.wheels
            if wheels is None:
                on_line(tr("Collecting the wheel set here (pip download) …"))
                wheels = Path(scratch)
                download_wheels(plan.app_root, wheels, on_line=on_line)
            files = [(path.name, path) for path in sorted(Path(wheels).iterdir()) if path.is_file()]
            on_line(tr("Sending {n} wheels to {name}:{folder} …", n=len(files), name=machine.name,
                       folder=wheels_folder(machine)))
            send_folder(machine, files, wheels_folder(machine), progress=progress, cancel=cancel)
    if not plan.run_installer:
        return installed_command(machine)
    on_line(tr("Running the installer on {name} (first time: a few minutes) …", name=machine.name))
    try:
        _stream(ssh_argv(machine, installer_words(machine, plan.offline)), on_line,
                tr("The installer on {name} failed", name=machine.name))
    except InstallError as exc:
        raise InstallError(f"{exc}\n" + tr("Run it there to see more: ssh {dest} bash {folder}/installer/setup_env.sh",
                                           dest=machine.ssh, folder=app_folder(machine))) from None
    return installed_command(machine)


def point_at_installed(workspace: Path, machine: Machine, command: str) -> Machine:
    """The machine with its command set to the installed one, saved, when it was the default (a command the user
    gave is theirs to keep)."""
    if machine.remote_command != DEFAULT_REMOTE_COMMAND:
        return machine
    updated = replace(machine, remote_command=command)
    save_machine(workspace, updated)
    return updated
