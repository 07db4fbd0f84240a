"""The loopback namespace a local search runs in (core/worker/tune_netns.py), and the refusal where none can be
made. The namespace is entered for real, in a child process (a namespace is for good: never in pytest's own)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from core.worker import tune_netns

ROOT = Path(__file__).resolve().parents[2]

ENTER = ("import json, os, socket; from core.worker.tune_netns import enter_loopback_namespace, interfaces; "
         "before = interfaces(); uid = os.getuid(); reason = enter_loopback_namespace(); "
         "s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(); "
         "print(json.dumps({'reason': reason, 'before': before, 'after': interfaces(), 'uid': [uid, os.getuid()]}))")


def _can_unshare() -> bool:
    probe = subprocess.run([sys.executable, "-c", "import ctypes; print(ctypes.CDLL(None).unshare(0x50000000))"],
                           capture_output=True, text=True)
    return probe.stdout.strip() == "0"


@pytest.mark.skipif(sys.platform != "linux" or not _can_unshare(), reason="no user network namespaces here")
def test_the_namespace_has_only_loopback_up_and_keeps_the_users_id():
    out = subprocess.run([sys.executable, "-c", ENTER], cwd=ROOT, capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert out.returncode == 0, out.stderr
    facts = json.loads(out.stdout)
    assert facts["reason"] == "" and facts["after"] == ["lo"], facts  # and lo is up: the bind/listen worked
    assert facts["uid"][0] == facts["uid"][1]  # files the search writes stay the user's


def test_a_threaded_process_is_refused_with_the_reason():
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        reason = tune_netns.enter_loopback_namespace()
    finally:
        stop.set()
        thread.join()
    assert "thread" in reason


def test_a_cluster_search_is_left_alone(monkeypatch):
    monkeypatch.setattr(tune_netns, "enter_loopback_namespace", lambda: pytest.fail("entered for a cluster"))
    spec = {"ray_address": "head:6379"}
    tune_netns.confine_local_search(spec)
    assert tune_netns.REFUSED_KEY not in spec


def test_a_local_search_that_cannot_be_confined_refuses_with_the_way_out(monkeypatch):
    """The worker's first step records the reason; run_tune then ends with an environment error naming
    --ray-address, before any Ray starts."""
    pytest.importorskip("ray")
    from core.worker import tune_job
    from core.worker.job import JobError

    monkeypatch.setattr(tune_netns, "enter_loopback_namespace", lambda: "this system does not allow it")
    spec: dict = {"ray_address": ""}
    tune_netns.confine_local_search(spec)
    assert spec[tune_netns.REFUSED_KEY] == "this system does not allow it"
    with pytest.raises(JobError) as raised:
        tune_job.start_local_ray(spec, {})
    assert raised.value.kind == "environment"
    assert "this system does not allow it" in str(raised.value) and "--ray-address" in raised.value.hint


def test_rays_home_holds_an_empty_cluster_config(tmp_path, monkeypatch):
    """Ray's usage module asks the cloud metadata servers only when ~/ray_bootstrap_config.yaml is missing; the
    file is read with Ray's own reader to the empty report (no provider asked: a missing file would be)."""
    pytest.importorskip("ray")
    from ray._common.usage import usage_lib

    home = tune_netns.quiet_ray_home(tmp_path)
    asked: list[str] = []
    monkeypatch.setattr(usage_lib, "get_cloud_from_metadata_requests", lambda: asked.append("asked") or "unknown")
    usage_lib.get_cluster_config_to_report(str(home / "ray_bootstrap_config.yaml"))
    assert asked == []
    usage_lib.get_cluster_config_to_report(str(tmp_path / "missing.yaml"))
    assert asked == ["asked"]  # the probe this file avoids
