"""A local Ray as the tune worker starts it (``core/worker/tune_netns.confine_local_search``, then
``core/worker/tune_job.start_local_ray``), measured from outside: every socket Ray listens on is in a namespace
whose one interface is lo, and none in this computer's (the test's); no process asks for a cloud metadata
server. Cheap enough for every run (a Ray start, no training); the full search is tests/e2e/test_tune_search.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import shutil
import tempfile
from pathlib import Path

import psutil
import pytest

pytest.importorskip("ray")

from tests.e2e.test_tune_search import LOOKUP_AUDIT, ROOT, host_listening_inodes, listening  # noqa: E402

pytestmark = pytest.mark.e2e

#: Confine, start Ray as the worker does, say "up" with the pid, and stay up until stdin closes.
RAY_UP = """
import json, os, sys
from core.worker.tune_netns import confine_local_search, interfaces
spec = {"cpus": 1, "gpus": 0, "ray_temp": sys.argv[1], "ray_address": ""}
confine_local_search(spec)
os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
from core.worker.tune_job import start_local_ray
start_local_ray(spec, {})
import ray
@ray.remote
def hello():
    return os.getpid()
worker = ray.get(hello.remote())  # a Ray worker process up as well, with its own servers
print(json.dumps({"pid": os.getpid(), "worker": worker, "interfaces": interfaces()}), flush=True)
sys.stdin.read()
ray.shutdown()
"""


def _wait_for_log(temp: Path, text: str, timeout_s: float = 90.0) -> bool:
    import time

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for log in temp.glob("session_*/logs/dashboard*.log"):
            if text in log.read_text(encoding="utf-8", errors="replace"):
                return True
        time.sleep(0.5)
    return False


def _can_unshare() -> bool:
    probe = subprocess.run([sys.executable, "-c", "import ctypes; print(ctypes.CDLL(None).unshare(0x50000000))"],
                           capture_output=True, text=True)
    return probe.stdout.strip() == "0"


@pytest.mark.skipif(sys.platform != "linux" or not _can_unshare(), reason="no user network namespaces here")
def test_a_local_ray_listens_on_loopback_only_and_asks_no_cloud_metadata(tmp_path):
    audit = tmp_path / "lookups.log"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(LOOKUP_AUDIT), str(ROOT)]), HOME=str(tmp_path / "home"),
               YOLOSTUDIO_LOOKUP_AUDIT=str(audit), CUDA_VISIBLE_DEVICES="")
    temp = tempfile.mkdtemp(prefix="ysray-", dir="/tmp")  # Ray's socket paths must fit AF_UNIX's 107 bytes
    proc = subprocess.Popen([sys.executable, "-c", RAY_UP, temp], cwd=ROOT, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdin is not None
        line = proc.stdout.readline()
        assert line, proc.stderr.read() if proc.stderr else ""
        up = json.loads(line)
        host = host_listening_inodes()
        listeners = []
        for child in [psutil.Process(up["pid"]), *psutil.Process(up["pid"]).children(recursive=True)]:
            try:
                inodes = {os.readlink(f"/proc/{child.pid}/fd/{fd}")[8:-1] for fd in os.listdir(f"/proc/{child.pid}/fd")
                          if os.readlink(f"/proc/{child.pid}/fd/{fd}").startswith("socket:[")}
                own = listening(f"/proc/{child.pid}/net")
                dev = Path(f"/proc/{child.pid}/net/dev").read_text().splitlines()[2:]
                name = child.name()
            except (OSError, psutil.Error):
                continue
            names = sorted(row.split(":")[0].strip() for row in dev)
            listeners += [(name, ip, port, inode, names) for inode, (ip, port) in own.items() if inode in inodes]
        # Not vacuous: the dashboard's usage module has run (it logs this line after its cloud-provider question).
        assert _wait_for_log(Path(temp), "Usage reporting is disabled"), "the dashboard's usage module never ran"
        proc.stdin.close()
        proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
        shutil.rmtree(temp, ignore_errors=True)
    assert up["interfaces"] == ["lo"]
    assert {name for name, *_ in listeners} >= {"gcs_server", "raylet"}, listeners
    for name, ip, port, inode, names in listeners:
        assert names == ["lo"], (name, names)  # its namespace: loopback is all there is
        assert inode not in host, (name, ip, port)  # the computer's network shows none of Ray's listeners
        assert ip in ("127.0.0.1", "::1", "0.0.0.0", "::"), (name, ip, port)
        assert port != 8265, name  # no dashboard
    lookups = audit.read_text(encoding="utf-8") if audit.exists() else ""
    assert "169.254.169.254" not in lookups and "metadata.google.internal" not in lookups, lookups
