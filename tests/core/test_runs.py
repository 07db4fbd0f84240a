"""Run folders, derived status (including a worker that died without a word), listing and resume."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.job.protocol import encode, make_event
from core.runs.status import derive_status, fold_events
from core.runs.store import create_run, list_runs, read_run, request_stop, resume_spec, unique_run_dir
from core.run.files import EVENTS_FILE
from core.run.folder import CONTROL_FILE
from core.run.owner import process_alive
from core.training.config import MachineFacts, TrainConfig, validate_config
from tests.fixtures.checkpoint_files import write_checkpoint_file


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    data = tmp_path / "data.yaml"
    data.write_text("train: a\nval: b\nnames: [x]\n", encoding="utf-8")
    return tmp_path / "ws"


def make_run(workspace: Path, name: str = "exp") -> Path:
    data = workspace.parent / "data.yaml"
    checked = validate_config(TrainConfig(data=str(data), name=name, device="cpu"), MachineFacts(0))
    return create_run(workspace, checked)


def write_events(run_dir: Path, *events: dict) -> None:
    with open(run_dir / EVENTS_FILE, "a", encoding="utf-8") as f:
        for ev in events:
            f.write(encode(ev))


def starting(pid: int, create_time: float | None, t: float = 1.0) -> dict:
    return make_event("stage", stage="starting", pid=pid, create_time=create_time, t=t)


def test_unique_names_never_overwrite(tmp_path):
    first = unique_run_dir(tmp_path, "exp")
    (first / "keep.txt").write_text("mine")
    second = unique_run_dir(tmp_path, "exp")
    third = unique_run_dir(tmp_path, "exp")
    assert [first.name, second.name, third.name] == ["exp", "exp2", "exp3"]
    assert (first / "keep.txt").read_text() == "mine"


def test_a_taken_numbered_name_goes_on_counting(tmp_path):
    """Issue 32: after exp2, Start (the form prefilled "exp2") makes exp3, not exp22."""
    unique_run_dir(tmp_path, "exp")
    assert unique_run_dir(tmp_path, "exp2").name == "exp2"
    assert unique_run_dir(tmp_path, "exp2").name == "exp3"
    assert unique_run_dir(tmp_path, "exp2").name == "exp4"


def test_create_run_writes_config_with_command(workspace):
    run = make_run(workspace)
    config = json.loads((run / "config.json").read_text())
    assert config["spec"]["run_dir"] == str(run)
    assert config["yolov5_command"].startswith("yolov5 train ")


def test_status_completed_from_done(workspace):
    run = make_run(workspace)
    best = write_checkpoint_file(run / "weights" / "best.pt")
    write_events(run, starting(123, 1.0),
                 make_event("epoch_end", epoch=0, epochs=1, metrics={"metrics/mAP_0.5": 0.4, "metrics/mAP_0.5:0.95": 0.2},
                            fitness=0.22, best_fitness=0.22, epoch_time_s=1.0),
                 make_event("done", status="completed", elapsed_s=3.0, best=str(best), last="/gone/l.pt"))
    info = read_run(run, alive=lambda pid, ct: False)
    assert info.status == "completed" and info.best_map50 == 0.4 and info.best_map50_95 == 0.2
    assert info.best_weights == str(best) and info.epochs_done == 1 and not info.can_resume
    assert info.last_weights == ""  # a recorded path to a file that is not there is not shown


def test_status_running_while_process_alive_then_failed(workspace):
    run = make_run(workspace)
    write_events(run, starting(4242, 10.0))
    assert read_run(run, alive=lambda pid, ct: pid == 4242).status == "running"
    died = read_run(run, alive=lambda pid, ct: False)
    assert died.status == "failed" and died.error["kind"] == "worker_died"


def test_real_pid_liveness_checks_start_time():
    me = os.getpid()
    import psutil

    created = psutil.Process(me).create_time()
    assert process_alive(me, created)
    assert not process_alive(me, created - 100)  # same pid, another process: recycled
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    assert not process_alive(proc.pid, None)


def test_folder_without_events_is_starting_then_failed(workspace):
    run = make_run(workspace)
    mtime = (run / "config.json").stat().st_mtime
    summary = fold_events([])
    assert derive_status(summary, folder_mtime=mtime, now=mtime + 5) == "running"
    assert derive_status(summary, folder_mtime=mtime, now=mtime + 3600) == "failed"


def test_resumed_run_uses_last_segment(workspace):
    run = make_run(workspace)
    write_events(run, starting(1, 1.0), make_event("done", status="stopped", elapsed_s=1.0),
                 starting(2, 2.0, t=2.0))
    assert read_run(run, alive=lambda pid, ct: pid == 2).status == "running"
    write_events(run, make_event("done", status="completed", elapsed_s=1.0))
    assert read_run(run, alive=lambda pid, ct: False).status == "completed"


def test_resume_needs_a_checkpoint(workspace):
    run = make_run(workspace)
    with pytest.raises(FileNotFoundError, match="last.pt"):
        resume_spec(run, workspace)
    (run / "weights").mkdir()
    (run / "weights" / "last.pt").write_bytes(b"")  # a save cut short: not a checkpoint to resume from
    with pytest.raises(FileNotFoundError, match="empty"):
        resume_spec(run, workspace)
    write_events(run, starting(1, 1.0), make_event("done", status="stopped", elapsed_s=1.0))
    assert not read_run(run).can_resume
    write_checkpoint_file(run / "weights" / "last.pt")
    spec = resume_spec(run, workspace)
    assert spec["resume"] is True and spec["run_dir"] == str(run)
    assert read_run(run).can_resume


def test_resume_trusts_this_workspace_not_what_the_runs_config_says(workspace, tmp_path):
    """A run folder from elsewhere can name any workspace and list any file as trusted in its config.json."""
    run = make_run(workspace)
    write_checkpoint_file(run / "weights" / "last.pt")
    config = json.loads((run / "config.json").read_text())
    config["spec"].update(workspace=str(tmp_path / "evil"), trusted_weights=["/", str(run)])
    (run / "config.json").write_text(json.dumps(config))
    here = tmp_path / "mine"
    spec = resume_spec(run, here, trusted_weights=("/confirmed/last.pt",))
    assert spec["workspace"] == str(here) and spec["trusted_weights"] == ["/confirmed/last.pt"]


def test_list_runs_newest_first_and_skips_foreign_folders(workspace):
    a = make_run(workspace, "a")
    write_events(a, starting(1, 1.0, t=100.0), make_event("done", status="completed", elapsed_s=1.0))
    b = make_run(workspace, "b")
    write_events(b, starting(1, 1.0, t=200.0), make_event("done", status="failed", elapsed_s=1.0))
    (workspace / "runs" / "not-a-run").mkdir()
    assert [r.name for r in list_runs(workspace)] == ["b", "a"]


def test_results_csv_fallback(workspace):
    run = make_run(workspace)
    (run / "results.csv").write_text(
        "               epoch,     metrics/mAP_0.5,metrics/mAP_0.5:0.95\n"
        "                   0,             0.1,          0.05\n"
        "                   1,             0.3,          0.12\n", encoding="utf-8")
    info = read_run(run, alive=lambda pid, ct: False)
    assert info.best_map50 == 0.3 and info.best_map50_95 == 0.12


def test_request_stop_appends_a_control_line(workspace):
    run = make_run(workspace)
    request_stop(run)
    request_stop(run)
    lines = (run / CONTROL_FILE).read_text().splitlines()
    assert [json.loads(x)["type"] for x in lines] == ["stop", "stop"]


def test_kill_run_only_kills_the_same_process():
    import psutil

    from core.runs.store import kill_run

    other = subprocess.Popen([sys.executable, "-c", "print('ready', flush=True); import time; time.sleep(60)"],
                             stdout=subprocess.PIPE, text=True)
    assert other.stdout.readline().strip() == "ready"
    try:  # the right pid and start time, but not a YOLO Studio worker: a pid the run's worker no longer holds
        assert kill_run(other.pid, psutil.Process(other.pid).create_time()) is False
        assert other.poll() is None
    finally:
        other.kill()
        other.wait()
        other.stdout.close()
    # It says "ready" once exec'd, so its command line is the worker's (not the forking parent's) when read.
    proc = subprocess.Popen([sys.executable, "-c", "print('ready', flush=True); import time; time.sleep(60)",
                             "-m", "core.worker"], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "ready"
    created = psutil.Process(proc.pid).create_time()
    assert kill_run(proc.pid, created - 50) is False  # a recycled pid is left alone
    assert proc.poll() is None
    assert kill_run(proc.pid, created) is True
    assert proc.wait(timeout=10) != 0
    proc.stdout.close()
    assert kill_run(proc.pid, created) is False  # already gone


def test_efficiency_and_duration_come_from_done_events(workspace):
    run = make_run(workspace)
    eff = {"images_per_s": 120.0, "gpu_util_mean_percent": 88.0, "data_wait_share": 0.04, "epoch_time_mean_s": 9.0}
    write_events(run, starting(1, 1.0), make_event("done", status="stopped", elapsed_s=10.0),
                 starting(2, 2.0), make_event("done", status="completed", elapsed_s=5.0, efficiency=eff))
    info = read_run(run, alive=lambda pid, ct: False)
    assert info.images_per_s == 120.0 and info.gpu_util_mean_percent == 88.0 and info.data_wait_share == 0.04
    assert info.duration_s == 15.0


def test_rename_moves_folder_and_recorded_paths(workspace):
    import yaml

    from core.runs.store import rename_run

    run = make_run(workspace)
    (run / "opt.yaml").write_text(yaml.safe_dump({"save_dir": str(run), "name": run.name, "epochs": 3}))
    write_events(run, starting(1, 1.0), make_event("done", status="stopped", elapsed_s=1.0))
    target = rename_run(run, "better-name")
    assert not run.exists() and target.name == "better-name"
    assert json.loads((target / "config.json").read_text())["spec"]["run_dir"] == str(target)
    assert yaml.safe_load((target / "opt.yaml").read_text())["save_dir"] == str(target)
    other = make_run(workspace, "other")
    write_events(other, starting(1, 1.0), make_event("done", status="failed", elapsed_s=1.0))
    with pytest.raises(FileExistsError):
        rename_run(other, "better-name")
    with pytest.raises(ValueError):
        rename_run(other, "a/b")


def test_resume_keeps_the_runs_gpu_augment_choice(workspace):
    """Issue 36: ``--gpu-augment`` is in the run's recorded config, so the resumed worker augments the same way."""
    data = workspace.parent / "data.yaml"
    checked = validate_config(TrainConfig(data=str(data), name="aug", device="cpu", gpu_augment="on"), MachineFacts(0))
    run = create_run(workspace, checked)
    write_checkpoint_file(run / "weights" / "last.pt")
    assert resume_spec(run, workspace)["config"]["gpu_augment"] == "on"
