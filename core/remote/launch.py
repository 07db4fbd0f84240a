"""The remote end of a training started from another machine: launched detached, its events streamed by offset.

``launch`` starts ``yolostudio train --config FILE`` in a new session (``start_new_session``: no controlling
terminal, so the SIGHUP of a closing SSH session never reaches it; stdin from /dev/null, stdout and stderr to
``.cache/remote/RUN.launch.log``) and returns at once: the SSH call that asked for it ends, the run goes on.
``stream_events`` copies the run's ``events.jsonl`` from a byte offset to stdout as it grows (``tail -f``) and
ends once the run has ended (the one fold and liveness probe, ``core.runs.follow.RunFollow``) and every byte
was sent. The other side counts the bytes of the complete lines it read, and after a dropped link asks again
from there: each event arrives once, none is lost.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import TextIO

from core.atomic import atomic_write_text
from core.run.files import EVENTS_FILE
from core.runs.follow import RunFollow
from core.workspace import app_cache_dir, runs_dir

POLL_S = 0.5
CHUNK = 1 << 20


def launch_folder(workspace: Path) -> Path:
    return app_cache_dir(workspace) / "remote"


def launch(workspace: Path, run: str, config: dict) -> dict:
    """Start the run detached; ``ValueError`` when a run of that name exists already."""
    if (runs_dir(workspace) / run).exists():
        raise ValueError(f"a run named {run} exists already")
    folder = launch_folder(workspace)
    folder.mkdir(parents=True, exist_ok=True)
    config_file = folder / f"{run}.config.json"
    atomic_write_text(config_file, json.dumps(dict(config, name=run)), backup=False)
    log = folder / f"{run}.launch.log"
    with open(log, "wb") as sink:
        process = subprocess.Popen([sys.executable, "-m", "cli", "--workspace", str(workspace), "train", "--config",
                                    str(config_file), "--json"], stdin=subprocess.DEVNULL, stdout=sink,
                                   stderr=subprocess.STDOUT, start_new_session=True, cwd=str(workspace))
    atomic_write_text(folder / f"{run}.launch.json", json.dumps({"pid": process.pid}), backup=False)
    return {"run": run, "pid": process.pid, "log": str(log), "folder": str(runs_dir(workspace) / run)}


def _launcher_alive(workspace: Path, run: str) -> bool:
    try:
        pid = int(json.loads((launch_folder(workspace) / f"{run}.launch.json").read_text())["pid"])
        os.kill(pid, 0)
    except (OSError, ValueError, KeyError, TypeError):
        return False
    try:  # a zombie (its parent has not reaped it yet) is not alive
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


def stream_events(workspace: Path, run: str, offset: int, out: TextIO, err: TextIO, *, skip: int = 0,
                  poll_s: float = POLL_S) -> int:
    """Copy ``runs/RUN/events.jsonl``'s complete lines from byte ``offset`` (the first ``skip`` of them left out) to
    ``out`` until the run ended; after each batch a position line ``#offset N`` (the byte after the last line sent),
    so the reader can ask again from there whatever the text stream did to the bytes. 0, or 2 when the run never
    began (the launch log's end on ``err``)."""
    run_dir = runs_dir(workspace) / run
    events = run_dir / EVENTS_FILE
    while not events.is_file():
        if not _launcher_alive(workspace, run) and not events.is_file():
            if run_dir.is_dir() and not (launch_folder(workspace) / f"{run}.launch.json").is_file():
                break  # a run not started by launch (an ordinary run being attached): nothing more to wait for
            log = launch_folder(workspace) / f"{run}.launch.log"
            tail = log.read_text(encoding="utf-8", errors="replace")[-4000:] if log.is_file() else ""
            err.write(f"run {run} did not start on this machine.\n{tail}\n")
            return 2
        time.sleep(poll_s)
    follow = RunFollow(run_dir)
    position = offset
    with open(events, "rb") as source:
        while True:
            follow.poll()
            source.seek(position)
            chunk = source.read(CHUNK)
            end = chunk.rfind(b"\n") + 1  # only complete lines; a partial last one is read again later
            if end:
                lines = [line + b"\n" for line in chunk[:end - 1].split(b"\n")]
                dropped, skip = min(skip, len(lines)), max(0, skip - len(lines))
                out.write("".join(line.decode("utf-8", errors="replace") for line in lines[dropped:]))
                position += end
                out.write(f"{POSITION}{position}\n")
                out.flush()
                continue
            if follow.status() != "running":
                source.seek(position)
                if b"\n" in source.read(CHUNK):
                    continue  # lines arrived between the read and the status
                return 0
            time.sleep(poll_s)


#: The position line between batches: ``#offset N``.
POSITION = "#offset "
