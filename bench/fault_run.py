"""How the fault campaign runs one command: the CLI's argv, and a run to its end with its own peak memory.

Its own module so the campaign (``bench/faults.py``) and a section run alone (``bench/faults_import.py``) both
import it, and neither imports the other.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HANG_S = 90.0


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "cli", *args]


def measured(argv: list[str], env: dict[str, str], timeout: float = HANG_S) -> dict[str, Any]:
    """Run to its end (killed at ``timeout``): exit code, output, whether it hung, its own max RSS (MB) — through
    ``bench/child_rss.py``, so the figure is the command's alone, not this process's that forked it."""
    report = tempfile.NamedTemporaryFile(prefix="rss-", delete=False)  # noqa: SIM115 - the launcher writes it
    report.close()
    proc = subprocess.Popen([sys.executable, "-I", "-S", str(ROOT / "bench" / "child_rss.py"), report.name, *argv],
                            cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    hung = threading.Event()

    def watchdog() -> None:
        if proc.poll() is None:
            hung.set()
            os.killpg(proc.pid, signal.SIGKILL)

    timer = threading.Timer(timeout, watchdog)
    timer.start()
    out, err = [], []
    readers = [threading.Thread(target=lambda s=s, b=b: b.append(s.read())) for s, b in
               ((proc.stdout, out), (proc.stderr, err))]
    for reader in readers:
        reader.start()
    _, status, _usage = os.wait4(proc.pid, 0)
    timer.cancel()
    rss_kb = Path(report.name).read_text() or "0"
    os.unlink(report.name)
    for reader in readers:
        reader.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    text = b"".join(err).decode("utf-8", "replace")
    return {"rc": proc.returncode, "out": b"".join(out).decode("utf-8", "replace"), "err": text,
            "hung": hung.is_set(), "rss_mb": int(rss_kb) / 1024,
            "traceback": "Traceback (most recent call last)" in text or "looks like a bug" in text}
