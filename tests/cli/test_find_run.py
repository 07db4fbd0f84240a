"""A run is named in the workspace; only text that looks like a path is taken as one."""

from __future__ import annotations

import pytest

from cli.common import find_run, looks_like_path


def test_a_bare_name_is_the_workspace_run_not_a_folder_in_the_current_directory(tmp_path, monkeypatch):
    ws = tmp_path / "ws"
    (ws / "runs" / "g0").mkdir(parents=True)
    cwd = tmp_path / "elsewhere"
    (cwd / "g0").mkdir(parents=True)
    monkeypatch.chdir(cwd)
    assert find_run(ws, "g0") == ws / "runs" / "g0"
    assert find_run(ws, "./g0") == (cwd / "g0").resolve()


def test_a_missing_name_is_not_found_even_if_the_current_directory_has_it(tmp_path, monkeypatch):
    ws = tmp_path / "ws"
    (ws / "runs").mkdir(parents=True)
    (tmp_path / "g1").mkdir()
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError):
        find_run(ws, "g1")


@pytest.mark.parametrize(("text", "path"), [("g0", False), ("exp-2", False), ("./g0", True), ("/abs/run", True),
                                            ("~/runs/x", True), ("..", True), ("a/b", True)])
def test_looks_like_path(text, path):
    assert looks_like_path(text) is path


def test_attach_resume_and_runs_of_an_unreadable_run_say_why(tmp_path, capsys):
    from cli.main import main

    run = tmp_path / "ws" / "runs" / "broken"
    run.mkdir(parents=True)
    (run / "config.json").write_text("[1, 2]")
    for verb in ("attach", "resume"):
        assert main(["--workspace", str(tmp_path / "ws"), verb, "broken"]) == 2
        assert "cannot be read" in capsys.readouterr().err
    assert main(["--workspace", str(tmp_path / "ws"), "runs"]) == 0
    assert "broken is unreadable" in capsys.readouterr().out


def test_evaluate_and_predict_read_run_or_model_alike(tmp_path, monkeypatch):
    """One reading of ``RUN|MODEL`` for evaluate and predict: a file is the model, a run gives its best weights,
    a run folder path with a dot is still a run, a missing file is said, an OpenVINO folder only where asked."""
    from cli.common import model_and_run

    ws = tmp_path / "ws"
    run = ws / "runs" / "exp.2"
    (run / "weights").mkdir(parents=True)
    (run / "weights" / "best.pt").write_bytes(b"x")
    monkeypatch.chdir(tmp_path)
    assert model_and_run("exp.2", ws) == (run / "weights" / "best.pt", run)
    assert model_and_run("./ws/runs/exp.2", ws)[1] == run.resolve()
    assert model_and_run(str(run / "weights" / "best.pt"), ws)[0] == (run / "weights" / "best.pt").resolve()
    with pytest.raises(FileNotFoundError, match="does not exist"):
        model_and_run("./nothing/best.pt", ws)
    (run / "weights" / "best.pt").unlink()
    with pytest.raises(FileNotFoundError, match="no weights yet"):
        model_and_run("exp.2", ws)
    ov = tmp_path / "best_openvino_model"
    ov.mkdir()
    (ov / "best.xml").write_text("<net/>")
    assert model_and_run(str(ov), ws, folders=True) == (ov.resolve(), None)
    with pytest.raises(FileNotFoundError):
        model_and_run(str(ov), ws)
