"""Private scratch folders that say who owns them, so the ones a killed process left are cleaned up.

Why: the wizard's measuring job works in ``<workspace>/.cache/wizard/wizard-*`` and removes it when it ends —
but a SIGKILL (or a crash of the machine) skips every ``finally``, and each kill left a folder of sample
lists and resized images there forever. Each folder now carries its owner's pid in its name and an
``owner.json`` with the pid and the process's start time (pids are recycled); making a new one first removes
the siblings whose owner is gone (``core.run.owner.process_alive``). A folder of a live owner is never
touched, so two jobs at once (the GUI and a terminal) keep theirs.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from pathlib import Path

import psutil

from core.run.owner import process_alive
from core.stored_file import read_regular_bytes

OWNER_FILE = "owner.json"


def _owner(folder: Path, prefix: str) -> tuple[int | None, float | None]:
    """The (pid, start time) that owns ``folder``: its record, else the pid in its name (a record not yet
    written: its maker is between ``mkdtemp`` and the write, or is of an older version)."""
    try:
        record = json.loads(read_regular_bytes(folder / OWNER_FILE))  # a FIFO there (a shared /tmp) never hangs
        pid, started = record.get("pid"), record.get("create_time")
        if type(pid) is int and isinstance(started, (int, float)) and not isinstance(started, bool):
            return pid, float(started)
    except (OSError, ValueError, AttributeError):
        pass
    named = re.match(re.escape(prefix) + r"(\d+)-", folder.name)
    return (int(named.group(1)), None) if named else (None, None)


def remove_stale(root: Path, prefix: str) -> list[Path]:
    """Remove every ``<root>/<prefix>*`` folder whose owner process is gone; the folders removed."""
    removed = []
    try:
        candidates = [p for p in Path(root).iterdir() if p.name.startswith(prefix) and p.is_dir()
                      and not p.is_symlink()]
    except OSError:
        return removed
    for folder in candidates:
        pid, started = _owner(folder, prefix)
        if pid is not None and process_alive(pid, started):
            continue
        shutil.rmtree(folder, ignore_errors=True)
        if not folder.exists():
            removed.append(folder)
    return removed


def make_scratch(root: Path, prefix: str) -> Path:
    """A new private folder ``<root>/<prefix><pid>-…`` owned by this process (stale siblings removed first)."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    remove_stale(root, prefix)
    me = psutil.Process()
    folder = Path(tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-", dir=root))
    (folder / OWNER_FILE).write_text(json.dumps({"pid": me.pid, "create_time": me.create_time()}), encoding="utf-8")
    return folder
