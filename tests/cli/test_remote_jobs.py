"""``yolostudio evaluate|export … --machine NAME`` against a real sshd on 127.0.0.1 (tests/fixtures/sshd.py), the
remote being another workspace on this machine running this checkout's ``yolostudio``: the verb runs there, started
detached (``core.remote.jobs``), its output and exit code come back; options naming a file of this machine are
refused before anything starts."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import pytest

from cli.main import main
from cli.remote_job import remote_argv, run_of_target
from core.remote.jobs import job_exit, launch_job


@pytest.fixture
def workspace(sshd, remote_command, tmp_path, capsys) -> Path:
    workspace = tmp_path / "ws"
    assert main(["--workspace", str(workspace), "machine", "add", "gpu", "--ssh", sshd.alias, "--ssh-config",
                 str(sshd.ssh_config), "--remote-dir", str(tmp_path / "remote-ws"), "--remote-command", remote_command,
                 "--accept-host-key", sshd.host_fingerprint()]) == 0
    capsys.readouterr()
    return workspace


def _remote_run(tmp_path: Path, name: str = "r1") -> Path:
    run = tmp_path / "remote-ws" / "runs" / name
    (run / "weights").mkdir(parents=True)
    (run / "config.json").write_text(json.dumps({"created": 1.0, "spec": {"config": {
        "data": "data.yaml", "model": "yolov5n.yaml", "epochs": 1}}}))
    (run / "events.jsonl").write_text("")
    (run / "weights" / "best.pt").write_bytes(b"not a checkpoint of this run's worker")
    return run


def _jobs(tmp_path: Path) -> list[Path]:
    folder = tmp_path / "remote-ws" / ".cache" / "remote" / "jobs"
    return sorted(folder.iterdir()) if folder.is_dir() else []


def test_evaluate_runs_there_detached_and_its_output_and_exit_come_back(workspace, tmp_path, capsys):
    _remote_run(tmp_path)
    code = main(["--workspace", str(workspace), "evaluate", "r1", "--machine", "gpu", "--list"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "r1" in out  # the remote's own listing of the run's evaluations, shown here
    (job,) = _jobs(tmp_path)
    assert job.name.startswith("evaluate-") and json.loads((job / "exit.json").read_text()) == {"exit": 0}


def test_a_refusal_there_is_shown_here_with_its_exit_code(workspace, tmp_path, capsys):
    _remote_run(tmp_path)  # its dataset (data.yaml, relative there) does not exist on the machine: refused there
    code = main(["--workspace", str(workspace), "evaluate", "r1", "--machine", "gpu"])
    out, err = capsys.readouterr()
    assert code == 2, out + err
    assert "error: data.yaml does not exist." in out  # the remote's own words, shown here
    assert not (workspace / "runs" / "r1@gpu").exists()  # nothing fetched for a job that failed


def test_options_naming_files_of_this_machine_are_refused_before_anything_starts(workspace, tmp_path, capsys):
    code = main(["--workspace", str(workspace), "export", "runs/r1/weights/best.pt", "--machine", "gpu", "--data",
                 str(tmp_path / "data.yaml"), "--trust-weights"])
    err = capsys.readouterr().err
    assert code == 2 and "--data, --trust-weights" in err
    assert _jobs(tmp_path) == []
    assert main(["--workspace", str(workspace), "export", "x.pt", "--detach"]) == 2
    assert "--detach needs --machine" in capsys.readouterr().err


def test_detach_returns_at_once_and_the_job_ends_there(workspace, tmp_path, capsys):
    _remote_run(tmp_path)
    assert main(["--workspace", str(workspace), "evaluate", "r1", "--machine", "gpu", "--list", "--detach"]) == 0
    assert "yolostudio fetch r1 --machine gpu" in capsys.readouterr().out
    (job,) = _jobs(tmp_path)
    deadline = time.monotonic() + 120
    while job_exit(tmp_path / "remote-ws", job.name) is None and time.monotonic() < deadline:
        time.sleep(0.2)
    assert job_exit(tmp_path / "remote-ws", job.name) == 0


def test_the_remote_words_are_an_argv_and_only_listed_verbs_start():
    args = argparse.Namespace(format=["onnx", "openvino"], imgsz=64, batch=1, opset=17, int8_max_drop=0.02, device="",
                              half=False, dynamic=True, simplify=False, int8=False, json=True, data="",
                              trust_weights=False)
    words, refused = remote_argv("export", "runs/r 1/weights/best.pt", args)
    assert words[:2] == ["export", "runs/r 1/weights/best.pt"] and refused == []
    assert words.count("--format") == 2 and "--dynamic" in words and "--json" in words and "--half" not in words
    assert run_of_target("export", "runs/r 1/weights/best.pt") == "r 1"
    assert run_of_target("evaluate", "exp3") == "exp3" and run_of_target("export", "yolov5s.pt") == ""
    with pytest.raises(ValueError):
        launch_job(Path("/nonexistent"), "j1", ["train", "data.yaml"])
    with pytest.raises(ValueError):
        launch_job(Path("/nonexistent"), "../j", ["evaluate", "r1"])


def test_job_output_is_text_that_carries_the_bytes_exactly(tmp_path, monkeypatch):
    """The remote end writes JSON lines (text the CLI's writer passes as they are, nothing around it); the local
    end gets the file's bytes back exactly — a chunk ending inside a UTF-8 character, a control the job let
    through — and a line cut by a dropped link counts for nothing (the next connection sends its bytes again)."""
    import io
    import json

    from core.remote import jobs

    folder = jobs.job_folder(tmp_path, "evaluate-0a1b2c3d")
    folder.mkdir(parents=True)
    payload = "类别 square：0.52\r\x1b[2K完成\n".encode("utf-8") * 3
    (folder / jobs.OUTPUT).write_bytes(payload)
    (folder / jobs.EXIT).write_text(json.dumps({"exit": 0}))
    monkeypatch.setattr(jobs, "CHUNK", 5)  # chunks end inside characters
    out = io.StringIO()
    assert jobs.stream_job_output(tmp_path, "evaluate-0a1b2c3d", 7, out) == 0
    lines = out.getvalue().splitlines()
    assert all(line.isascii() and line.isprintable() for line in lines)
    offset, got = 7, b""
    for line in lines:
        chunk = jobs._chunk_at((line + "\n").encode(), offset)
        assert chunk is not None
        offset, got = offset + len(chunk), got + chunk
    assert got == payload[7:] and offset == len(payload)
    assert jobs._chunk_at(lines[0].encode(), 7) is None  # no newline: cut by the link
    assert jobs._chunk_at((lines[1] + "\n").encode(), 7) is None  # not where this reader is
