"""Issue 37, tune: an unreachable ``--ray-address`` is an error in seconds, the search never outlives its CLI, a
SIGTERM ends the tune worker, and a dead worker's Ray session folder goes (under ``TMPDIR``).

Real local ports and real processes: a port bound with nothing listening (refused), a server that accepts and
never speaks Ray's protocol (Ray's ``ray.init`` would wait for it in C++), the real CLI, the real tune worker,
and ``cli.jobs.run_job`` driving a stand-in worker that records what reaches it. No Ray cluster is needed.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from core.job.jobs import LAUNCHER_BOUND_KEY, ends_with_launcher
from core.job.protocol import encode, make_event, parse_line
from core.tune.address import address_target, unreachable_words
from core.training.options import TrainConfig
from core.usecases.tune import TuneDoor
from core.tune.ray_temp import PREFIX, ray_temp_root, remove_dead_ray_temps
from core.worker.control import ControlChannel

ROOT = Path(__file__).resolve().parents[2]
posix_only = pytest.mark.skipif(os.name != "posix", reason="signals and session semantics of POSIX")


@pytest.fixture
def refused_port():
    """A port bound on loopback with nothing listening: a connect is refused at once."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    yield sock.getsockname()[1]
    sock.close()


@pytest.fixture
def silent_server():
    """A loopback server that accepts connections and never answers (not a Ray GCS)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join(5)
    for conn in held:
        conn.close()
    server.close()


def test_ray_addresses_are_parsed_as_ray_takes_them():
    assert address_target("10.0.0.5:6379") == ("10.0.0.5", 6379)
    assert address_target("ray://head:10001") == ("head", 10001)
    assert address_target("[::1]:6379") == ("::1", 6379)
    assert address_target("auto") is None and address_target("local") is None and address_target("") is None
    for bad in ("head", "head:", "head:0", "head:70000", ":6379", "head:port"):
        with pytest.raises(ValueError):
            address_target(bad)


def test_an_unreachable_address_is_said_at_once(refused_port, tmp_path):
    message, hint = unreachable_words(f"127.0.0.1:{refused_port}")
    assert f"127.0.0.1:{refused_port}" in message and "ray start --head" in hint
    assert "not HOST:PORT" in unreachable_words("head")[0]
    door = TuneDoor(TrainConfig.from_dict({"data": str(tmp_path / "none.yaml")}), tmp_path, 60.0,
                    ray_address=f"127.0.0.1:{refused_port}")
    problems = door.preflight()
    assert not door.ok and f"127.0.0.1:{refused_port}" in problems[0].message


def test_the_tune_verb_exits_2_naming_the_address(refused_port, tmp_path):
    env = dict(os.environ, YOLOSTUDIO_WORKSPACE=str(tmp_path / "ws"))
    result = subprocess.run([sys.executable, "-m", "cli", "tune", str(tmp_path / "data.yaml"), "--time-budget",
                             "10m", "--ray-address", f"127.0.0.1:{refused_port}"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert result.returncode == 2, result.stderr
    assert f"No Ray cluster answers at 127.0.0.1:{refused_port}" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "ws" / "tune").exists()


def _tune_worker(tmp_path: Path, address: str) -> subprocess.Popen[bytes]:
    run_dir = tmp_path / "ws" / "tune" / "t"
    spec = {"run_dir": str(run_dir), "runs_root": str(tmp_path / "ws" / "runs"), "ray_address": address,
            "base": {"config": {"epochs": 1}, "workspace": str(tmp_path / "ws")}, "time_budget_s": 60, "trials": 1, "cpus": 1, "cpus_per_trial": 1}
    spec_file = tmp_path / "spec.json"
    spec_file.write_text(json.dumps(spec))
    return subprocess.Popen([sys.executable, "-m", "core.worker", "tune", str(spec_file)], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)


def _events(out: bytes) -> list[dict]:
    return [e for e in (parse_line(line).event for line in out.decode("utf-8", "replace").splitlines()) if e]


def test_the_tune_worker_refuses_an_unreachable_address_itself(refused_port, tmp_path):
    worker = _tune_worker(tmp_path, f"127.0.0.1:{refused_port}")
    out, _ = worker.communicate(timeout=180)
    events = _events(out)
    errors = [e for e in events if e["type"] == "error"]
    assert errors and f"127.0.0.1:{refused_port}" in errors[0]["message"] and errors[0]["kind"] == "environment"
    assert events[-1]["type"] == "done" and events[-1]["status"] == "failed"


def _wait_for_stage(worker: subprocess.Popen[bytes], stage: str) -> list[bytes]:
    """Read the worker's events until ``stage``; the lines read."""
    lines = []
    assert worker.stdout is not None
    for line in worker.stdout:
        lines.append(line)
        event = parse_line(line.decode("utf-8", "replace")).event
        if event and event.get("type") == "stage" and event.get("stage") == stage:
            return lines
    raise AssertionError(b"".join(lines).decode())


@posix_only
@pytest.mark.parametrize("how", ["sigterm", "launcher gone"])
def test_a_tune_worker_waiting_for_a_cluster_ends_on_sigterm_or_when_its_launcher_goes(silent_server, tmp_path, how):
    worker = _tune_worker(tmp_path, f"127.0.0.1:{silent_server}")
    seen = _wait_for_stage(worker, "preparing")  # "starting Ray": the address answered, ray.init now waits
    if how == "sigterm":
        worker.send_signal(signal.SIGTERM)
    else:
        assert worker.stdin is not None
        worker.stdin.close()  # what a killed CLI leaves: the worker's stdin at its end
        worker.stdin = None
    out, _ = worker.communicate(timeout=60)
    events = _events(b"".join(seen) + out)
    assert events[-1]["type"] == "done" and events[-1]["status"] == "stopped"
    assert worker.returncode == 0


STAND_IN = """
import sys, time, os
marker = sys.argv[1]

def note(word):  # whole or not at all: the test reads the marker as soon as it exists
    with open(marker + '.part', 'w') as part:
        part.write(word + '\\n')
    os.replace(marker + '.part', marker)

sys.stdout.write({ready!r}); sys.stdout.flush()
for line in sys.stdin:
    if '"stop"' in line:
        note('stop')
        sys.stdout.write({done!r}); sys.stdout.flush()
        sys.exit(0)
note('eof')
time.sleep(600)  # a worker that keeps going after its launcher (a training)
"""

HARNESS = """
import sys
from pathlib import Path
from cli.jobs import run_job
from core.job.jobs import JobSpec
from tests.fixtures.doors import SpecDoor
job = JobSpec.scratch(sys.argv[1], {{}}, Path(sys.argv[2]))
outcome = run_job(SpecDoor(job), lambda event: print(event["type"], flush=True), argv=[sys.executable, sys.argv[3], sys.argv[4]])
sys.exit(3 if outcome.status == "stopped" else 1)
"""


def _launch(tmp_path: Path, job: str) -> tuple[subprocess.Popen[str], Path]:
    stand_in = tmp_path / "stand_in.py"
    stand_in.write_text(STAND_IN.format(ready=encode(make_event("stage", stage="starting", pid=0)),
                                        done=encode(make_event("done", status="stopped", elapsed_s=0.1))))
    marker = tmp_path / "marker"
    cli = subprocess.Popen([sys.executable, "-c", HARNESS.format(), job, str(tmp_path), str(stand_in), str(marker)],
                           cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
    assert cli.stdout is not None and cli.stdout.readline().strip() == "stage"  # the worker runs
    return cli, marker


@posix_only
@pytest.mark.parametrize("job, signum", [("tune", signal.SIGTERM), ("tune", signal.SIGHUP),
                                         ("train", signal.SIGTERM)])
def test_the_cli_passes_sigterm_and_for_a_search_sighup_on_as_a_stop(tmp_path, job, signum):
    cli, marker = _launch(tmp_path, job)
    cli.send_signal(signum)
    assert cli.wait(timeout=60) == 3  # stopped, by the worker's own done
    assert marker.read_text() == "stop\n"


@posix_only
def test_a_dropped_ssh_link_leaves_a_training_running(tmp_path):
    cli, marker = _launch(tmp_path, "train")
    cli.send_signal(signal.SIGHUP)
    assert cli.wait(timeout=60) == -signal.SIGHUP
    deadline = time.monotonic() + 30
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert marker.read_text() == "eof\n"  # the worker saw its launcher go, and was not told to stop
    import psutil

    stand_ins = [p for p in psutil.process_iter(["cmdline"]) if str(marker) in (p.info["cmdline"] or [])]
    assert stand_ins
    for process in stand_ins:
        process.kill()


def test_a_worker_bound_to_its_launcher_takes_stdins_end_as_a_stop():
    assert ends_with_launcher("tune", {}) and ends_with_launcher("train", {LAUNCHER_BOUND_KEY: True})
    assert not ends_with_launcher("train", {})  # a training outlives its launcher on purpose (attach)
    read_end, write_end = os.pipe()
    channel = ControlChannel(None, eof_is_stop=True)
    channel.start(read_end)
    os.close(write_end)
    assert channel.stop_requested.wait(30)


def test_rays_session_folder_honours_tmpdir_and_a_dead_workers_goes(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", None)  # gettempdir() reads TMPDIR again
    monkeypatch.setenv("TMPDIR", str(tmp_path / ("x" * 60)))
    (tmp_path / ("x" * 60)).mkdir()
    assert ray_temp_root() == Path("/tmp")  # Ray's socket paths would not fit AF_UNIX's 107 bytes there
    short = Path(tempfile.mkdtemp(prefix="ys", dir="/tmp"))  # /tmp/ysXXXXXXXX: short enough
    try:
        monkeypatch.setenv("TMPDIR", str(short))
        monkeypatch.setattr(tempfile, "tempdir", None)
        assert ray_temp_root() == short
        made = subprocess.run([sys.executable, "-c", "from core.tune.ray_temp import make_ray_temp; "
                               "print(make_ray_temp())"], cwd=ROOT, env=dict(os.environ, TMPDIR=str(short)),
                              capture_output=True, text=True, timeout=60, check=True).stdout.strip()
        folder = Path(made)
        assert folder.parent == short and folder.name.startswith(PREFIX)
        assert folder.is_dir()  # its maker has exited without removing it, as a killed worker would
        monkeypatch.setattr(tempfile, "tempdir", None)
        assert folder in remove_dead_ray_temps() and not folder.exists()
    finally:
        shutil.rmtree(short, ignore_errors=True)
