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


NNCF_SCRIPT = """
import os, sys
for name in ("CI", "NNCF_CI", "NNCF_DEV"):
    os.environ.pop(name, None)
os.environ["HOME"] = os.environ["XDG_CONFIG_HOME"] = {home!r}
if sys.argv[1] == "declined":
    from core.worker.export_openvino import decline_openvino_telemetry
    decline_openvino_telemetry()  # what quantize_openvino does before importing NNCF
from nncf.telemetry.wrapper import telemetry
print(type(telemetry).__name__, telemetry._impl.consent)
"""


@pytest.mark.parametrize("mode, consent", [("default", "True"), ("declined", "False")])
def test_nncf_s_telemetry_is_declined_by_the_same_guard(tmp_path, mode, consent):
    # NNCF builds its Google Analytics sender at import (nncf/telemetry/wrapper.py, NNCFTelemetry) through
    # openvino_telemetry's consent rule: without the guard it would send (no consent file), with it, not.
    pytest.importorskip("nncf")
    out = subprocess.run([sys.executable, "-c", NNCF_SCRIPT.format(home=str(tmp_path)), mode], capture_output=True,
                         text=True, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[-2:] == ["NNCFTelemetry", consent]
    assert not any(tmp_path.rglob("openvino_telemetry"))


IMPORT_SCRIPT = """
import os, sys
for name in ("CI", "NNCF_CI", "NNCF_DEV"):
    os.environ.pop(name, None)
os.environ["HOME"] = os.environ["XDG_CONFIG_HOME"] = {home!r}
log = {log!r}

def hook(event, args):  # what the e2e network guard does: record a lookup, refuse it
    if event == "socket.getaddrinfo":
        with open(log, "a") as handle:
            handle.write(repr(args[:2]) + chr(10))
        raise ConnectionRefusedError(args[0])

sys.addaudithook(hook)
if sys.argv[1] == "declined":
    from core.worker import compat
    compat.apply(__import__("pathlib").Path({home!r}) / "cache")  # what every worker runs first
import openvino  # its tools.ovc sends ("ov", "import", "general_import") from a forked child, joined at exit
"""


@pytest.mark.parametrize("mode, looked_up", [("default", True), ("declined", False)])
def test_importing_openvino_in_a_worker_sends_nothing(tmp_path, mode, looked_up):
    # Without the guard the import alone looks up www.google-analytics.com (refused here, recorded); a worker
    # declines before anything imports OpenVINO, so nothing is looked up.
    log = tmp_path / "lookups.log"
    out = subprocess.run([sys.executable, "-c", IMPORT_SCRIPT.format(home=str(tmp_path), log=str(log)), mode],
                         capture_output=True, text=True, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
                         timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    assert log.exists() is looked_up, log.read_text() if log.exists() else ""
    if looked_up:
        assert "google-analytics" in log.read_text()
