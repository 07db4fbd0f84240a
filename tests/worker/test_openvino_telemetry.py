"""The OpenVINO export sends no usage statistics (the brief: no usage statistics, OpenVINO's converter included)."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("openvino_telemetry")

SCRIPT = """
import os
os.environ.pop("CI", None)
os.environ["HOME"] = os.environ["XDG_CONFIG_HOME"] = {home!r}
from openvino_telemetry import Telemetry
from core.worker.export_openvino import decline_openvino_telemetry
before = Telemetry(tid="G-TEST", app_name="probe", app_version="0", backend="ga4", enable_opt_in_dialog=False).consent
decline_openvino_telemetry()
Telemetry().init(tid="G-TEST", app_name="probe2", app_version="0", backend="ga4", enable_opt_in_dialog=False)
print(before, Telemetry().consent)
"""


def test_the_converter_s_telemetry_is_declined_where_no_consent_file_exists(tmp_path):
    # Without the guard OpenVINO's own rule sends (no consent file: consent True); with it, declined.
    out = subprocess.run([sys.executable, "-c", SCRIPT.format(home=str(tmp_path))], capture_output=True, text=True,
                         env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[-2:] == ["True", "False"]
    assert not any(tmp_path.rglob("openvino_telemetry"))  # nothing written into the user's home
