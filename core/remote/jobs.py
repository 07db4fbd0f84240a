"""Evaluate and export on another machine: the verb started detached there, its output followed by byte offset.

The remote end: ``launch_job`` starts ``yolostudio VERB ARGS`` in a new session (as ``core.remote.launch`` starts a
training: no controlling terminal, so a closing SSH session's SIGHUP never reaches it) under ``core.remote.detached``,
which writes the verb's exit code beside its output when it ends; ``stream_job_output`` copies that output from a
byte offset as it grows and ends once the job ended and every byte was sent. The local end: ``follow_job`` reads
it over ssh, counting bytes, and after a dropped link asks again from there (no byte lost or repeated), then
asks the job's exit code (``machine job-status``). Only the verbs in ``REMOTE_VERBS`` can be started this way.
"""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, TextIO

from core.atomic import atomic_write_text
from core.i18n import tr
from core.remote.machines import Machine
from core.remote.ssh import failure_words, remote_words, run_remote, ssh_argv
from core.workspace import app_cache_dir

REMOTE_VERBS = ("evaluate", "export")
OUTPUT, EXIT, PID = "output.log", "exit.json", "pid.json"
POLL_S = 0.3
CHUNK = 1 << 16
RECONNECT_DELAY_S = 2.0
MAX_FAILED_ATTEMPTS = 150
_JOB = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,80}$")


class RemoteJobError(RuntimeError):
    """The job cannot be started or followed; the message says why."""


def job_folder(workspace: Path, job: str) -> Path:
    if not _JOB.match(job):
        raise ValueError(f"not a job name: {job!r}")
    return app_cache_dir(Path(workspace)) / "remote" / "jobs" / job


# -- the remote end ------------------------------------------------------------------------------------
def launch_job(workspace: Path, job: str, argv: list[str]) -> dict:
    """Start ``yolostudio VERB ARGS`` detached; ``ValueError`` for another verb or a job name taken."""
    if not argv or argv[0] not in REMOTE_VERBS or not all(isinstance(a, str) for a in argv):
        raise ValueError(f"only {', '.join(REMOTE_VERBS)} may be started this way")
    folder = job_folder(workspace, job)
    if folder.exists():
        raise ValueError(f"a job named {job} exists already")
    folder.mkdir(parents=True)
    command = [sys.executable, "-m", "cli", "--workspace", str(workspace), *argv]
    process = subprocess.Popen([sys.executable, "-m", "core.remote.detached", str(folder), "--", *command],
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True, cwd=str(workspace))
    atomic_write_text(folder / PID, json.dumps({"pid": process.pid}), backup=False)
    return {"job": job, "pid": process.pid, "output": str(folder / OUTPUT)}


def job_exit(workspace: Path, job: str) -> int | None:
    """The job's exit code, or None while it runs."""
    try:
        return int(json.loads((job_folder(workspace, job) / EXIT).read_text())["exit"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _alive(folder: Path) -> bool:
    try:
        pid = int(json.loads((folder / PID).read_text())["pid"])
        os.kill(pid, 0)
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return False


def stream_job_output(workspace: Path, job: str, offset: int, out: TextIO, *, poll_s: float = POLL_S) -> int:
    """Copy the job's output from byte ``offset`` to ``out`` until it ended; 0, or 2 for no such job.

    Each chunk is one JSON line ``{"at": BYTE, "data": BASE64}``: text a terminal can show as it is (the CLI's
    writer passes it through unchanged, so nothing reaches a terminal around it) that carries the bytes exactly,
    so the reader's byte offset stays the file's whatever the output holds (a chunk may end inside a UTF-8
    character, or hold a control the job's own writer let through)."""
    folder = job_folder(workspace, job)
    if not folder.is_dir():
        return 2
    position = offset
    while True:
        ended = job_exit(workspace, job) is not None or not _alive(folder)
        try:
            with open(folder / OUTPUT, "rb") as source:
                source.seek(position)
                chunk = source.read(CHUNK)
        except FileNotFoundError:
            chunk = b""
        if chunk:
            out.write(json.dumps({"at": position, "data": base64.b64encode(chunk).decode("ascii")}) + "\n")
            out.flush()
            position += len(chunk)
            continue
        if ended:
            return 0
        time.sleep(poll_s)


# -- the local end -------------------------------------------------------------------------------------
def start_job(machine: Machine, job: str, argv: list[str]) -> None:
    """Ask the machine to start ``argv`` (a verb of ``REMOTE_VERBS`` and its options) detached."""
    started = run_remote(machine, remote_words(machine, "machine", "launch-job", job), timeout_s=120,
                         stdin=json.dumps(argv).encode("utf-8"))
    if started.returncode != 0:
        message, hint = failure_words(machine, started) if started.ssh_failed else (
            (started.stderr.strip().splitlines() or [""])[-1], "")
        raise RemoteJobError(" ".join(p for p in (message, hint) if p))


def _chunk_at(line: bytes, offset: int) -> bytes | None:
    """The bytes a ``job-output`` line carries when it is whole and starts at ``offset``; else None."""
    if not line.endswith(b"\n"):
        return None
    try:
        record = json.loads(line)
        data = base64.b64decode(record["data"], validate=True)
    except (ValueError, KeyError, TypeError):
        return None
    return data if record.get("at") == offset else None


def follow_job(machine: Machine, job: str, write: Callable[[bytes], None], *,
               on_note: Callable[[str], None] = lambda text: None,
               reconnect_delay_s: float = RECONNECT_DELAY_S) -> int:
    """Hand the job's output to ``write`` until it ended, reconnecting from the byte read up to; its exit code.
    (A line cut by a dropped link is not counted: the next connection sends its bytes again.)"""
    offset, failed = 0, 0
    while True:
        before = offset
        words = remote_words(machine, "machine", "job-output", job, "--from", str(offset))
        with tempfile.TemporaryFile() as err:
            process = subprocess.Popen(ssh_argv(machine, words), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                       stderr=err)
            assert process.stdout is not None
            try:
                for line in process.stdout:
                    chunk = _chunk_at(line, offset)
                    if chunk is None:
                        break  # cut by the link, or not the protocol's: read again from ``offset``
                    offset += len(chunk)
                    write(chunk)
            finally:
                process.stdout.close()
                code = process.wait()
            err.seek(0)
            text = err.read().decode("utf-8", "replace")
        if code == 0:
            break
        if code != 255 and code >= 0:
            raise RemoteJobError(text.strip() or tr("exit code {code}", code=code))
        failed = 0 if offset != before else failed + 1
        if failed >= MAX_FAILED_ATTEMPTS:
            raise RemoteJobError(tr("The link to {name} did not come back; the job goes on there.", name=machine.name))
        on_note(tr("The link to {name} dropped; the job goes on there. Reconnecting (from byte {offset}) …",
                   name=machine.name, offset=offset))
        time.sleep(reconnect_delay_s)
    status = run_remote(machine, remote_words(machine, "machine", "job-status", job), timeout_s=60)
    try:
        exit_code = json.loads(status.stdout)["exit"]
    except (ValueError, KeyError, TypeError):
        raise RemoteJobError(": ".join(failure_words(machine, status))) from None
    return int(exit_code) if exit_code is not None else 1
