"""A worker started by a launcher that ignores SIGTERM can still end its forked helpers.

multiprocessing's ``Pool.terminate`` (yolov5's label cache) ends its workers with SIGTERM and waits for them;
an ignored SIGTERM is inherited through fork and exec, and under pytest-xdist it hung training for good
(``core.worker.__main__.restore_default_sigterm``).
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import core.worker.__main__ as worker_entry

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and fork")

_PROGRAM = textwrap.dedent("""
    import multiprocessing, signal, sys, time
    from core.worker.__main__ import restore_default_sigterm
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_IGN  # as the launcher left it
    if sys.argv[1] == "restore":
        restore_default_sigterm()
    helper = multiprocessing.get_context("fork").Process(target=time.sleep, args=(60,))
    helper.start()
    helper.terminate()
    helper.join(60 if sys.argv[1] == "restore" else 3)  # dies at once, or (ignored) never: no race either way
    print(helper.exitcode)
    helper.kill()
""")


def _ignoring_sigterm() -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


@pytest.mark.parametrize("mode, exitcode", [("restore", str(-signal.SIGTERM)), ("inherit", "None")])
def test_a_forked_helper_dies_on_sigterm_once_the_default_is_restored(mode, exitcode):
    proc = subprocess.run([sys.executable, "-c", _PROGRAM, mode], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, preexec_fn=_ignoring_sigterm)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == exitcode  # "inherit": the helper outlived terminate(), as the hung pool worker did


class _Reached(Exception):
    pass


def test_the_worker_restores_it_before_anything_else(monkeypatch, tmp_path):
    def reached() -> None:
        raise _Reached

    monkeypatch.setattr(worker_entry, "restore_default_sigterm", reached)
    with pytest.raises(_Reached):
        worker_entry.main(["train", str(tmp_path / "spec.json")])
