"""A real tiny CPU training with ``--no-amp``: yolov5's AMP decision is answered by the option's patch
(``core/worker/compat_amp.py``) — its log line is in the run's events — and the run completes. The training is
the session's shared completed run (``tests/e2e/shared_run.py``), which is trained with ``--no-amp``."""

from __future__ import annotations

import pytest

from core.worker.compat_amp import NO_AMP_LOG
from tests.e2e.conftest import by_type
from tests.e2e.shared_run import OPTIONS

pytestmark = pytest.mark.e2e


def test_no_amp_option_turns_yolov5s_amp_off(completed_run):
    assert "--no-amp" in OPTIONS and completed_run.code == 0, completed_run.stderr
    logs = [e["message"] for e in by_type(completed_run.events, "log")]
    assert sum(NO_AMP_LOG in m for m in logs) == 1, logs[:40]
    assert completed_run.events[-1]["type"] == "done" and completed_run.events[-1]["status"] == "completed"
