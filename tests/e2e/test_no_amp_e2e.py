"""A real tiny CPU training with ``--no-amp``: yolov5's AMP decision is answered by the option's patch
(``core/worker/compat_amp.py``) — its log line is in the run's events — and the run completes."""

from __future__ import annotations

import pytest

from core.worker.compat_amp import NO_AMP_LOG
from tests.e2e.conftest import Cli, by_type, train_args

pytestmark = pytest.mark.e2e


def test_no_amp_option_turns_yolov5s_amp_off(tiny_data, e2e_env):
    cli = Cli(train_args(tiny_data, name="fp32", epochs=1, extra=("--no-amp",)), e2e_env)
    assert cli.finish() == 0, cli.stderr()
    logs = [e["message"] for e in by_type(cli.events, "log")]
    assert sum(NO_AMP_LOG in m for m in logs) == 1, logs[:40]
    assert cli.events[-1]["type"] == "done" and cli.events[-1]["status"] == "completed"
