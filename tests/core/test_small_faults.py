"""Issue 23's small items: run names Windows or a terminal can't take, scratch folders a killed wizard left,
``doctor`` in a read-only workspace (each counted by ``bench/faults_values.py``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import psutil
import pytest

from core.job.jobs import JobSpec
from core.scratch_dirs import OWNER_FILE, make_scratch, remove_stale
from core.training.config import MachineFacts, TrainConfig, run_name_problem, valid_run_name, validate_config
from tests.worker.tmpfs import small_tmpfs

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["COM1", "com1", "Lpt9", "NUL.txt", "con.tar.gz", "AUX .log", "COM¹", "PRN",
                                  "run\u009b2K", "a\u200bb", "tab\there", "del\x7f", "run.", " lead", "a/b", ".."])
def test_names_windows_or_a_terminal_cannot_take_are_refused(name):
    assert not valid_run_name(name)
    assert run_name_problem(name)


@pytest.mark.parametrize("name", ["COM10", "CONSOLE", "nul-run", "com", "o'brien", "实验1", "exp.v2", "LPT0"])
def test_ordinary_names_are_kept(name):
    assert valid_run_name(name), run_name_problem(name)


def test_the_train_check_says_why_a_name_is_refused(tmp_path):
    data = tmp_path / "data.yaml"
    data.write_text("path: .\ntrain: images\nval: images\nnames: [a]\n", encoding="utf-8")
    for name, words in (("COM1", "Windows reserves it"), ("x\u009by", "control or invisible")):
        checked = validate_config(TrainConfig(data=str(data), name=name, device="cpu"), MachineFacts(gpu_count=0))
        [found] = [p for p in checked.errors if p.field == "name"]
        assert words in found.message and "\u009b" not in found.message  # shown escaped: '\x9b'


def _dead_process() -> tuple[int, float]:
    child = psutil.Popen([sys.executable, "-c", "pass"])
    started = child.create_time()
    child.wait()
    return child.pid, started


def test_a_killed_owners_scratch_folder_is_removed_a_live_ones_kept(tmp_path):
    root = tmp_path / "wizard"
    pid, started = _dead_process()
    dead = root / f"wizard-{pid}-abc"
    dead.mkdir(parents=True)
    (dead / OWNER_FILE).write_text(json.dumps({"pid": pid, "create_time": started}))
    (dead / "sample.txt").write_text("left by a SIGKILL")
    unrecorded = root / f"wizard-{pid}-def"  # killed between mkdtemp and writing its record
    unrecorded.mkdir()
    recycled = root / "wizard-1-xyz"  # pid 1 is alive, but it started at another time: not the owner
    recycled.mkdir()
    (recycled / OWNER_FILE).write_text(json.dumps({"pid": 1, "create_time": 12345.0}))
    unrelated = root / "other-9"
    unrelated.mkdir()
    live = make_scratch(root, "wizard-")  # removes the stale ones first
    assert live.is_dir() and live.name.startswith(f"wizard-{psutil.Process().pid}-")
    assert not dead.exists() and not unrecorded.exists() and not recycled.exists() and unrelated.is_dir()
    assert remove_stale(root, "wizard-") == [] and live.is_dir()  # this process is alive: its folder stays


def test_a_job_spec_goes_to_the_temp_folder_when_the_workspace_cannot_take_it(tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / ".cache").write_text("a file where the cache folder would be")  # mkdir fails, even for root
    job = JobSpec.scratch("probe", {"job": "probe", "workspace": str(ws)}, ws)
    path = job.write()
    assert path.is_file() and ws not in path.parents and json.loads(path.read_text())["job"] == "probe"
    job.discard()
    assert not path.exists()


def test_doctor_runs_in_a_read_only_workspace(tmp_path):
    with small_tmpfs(tmp_path / "ro", 4) as disk:
        if disk is None:
            pytest.skip("cannot mount a tmpfs here (needs root on Linux)")
        (disk / "ws" / "runs").mkdir(parents=True)
        assert subprocess.run(["mount", "-o", "remount,ro", str(disk)]).returncode == 0
        env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "YOLOSTUDIO_WORKSPACE": str(disk / "ws"),
               "YOLOSTUDIO_CONFIG_DIR": str(tmp_path / "config"), "HOME": str(tmp_path / "home"),
               "CUDA_VISIBLE_DEVICES": "", "TMPDIR": str(tmp_path)}
        out = subprocess.run([sys.executable, "-m", "cli", "doctor", "--json"], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=300)
        report = json.loads(out.stdout)
        assert report["facts"]["probe"]["completed"], out.stderr[-2000:]
        assert not list(tmp_path.glob("yolostudio-jobs/*.json"))  # the spec file was removed after the job
