"""``yolostudio tune`` before any Ray starts: without the extra it says how to install it (in ``--help`` too);
a bad ``--space`` file or option exits 2 naming it, with no tuning folder made."""

from __future__ import annotations

import sys

import pytest

from cli.main import build_parser, main
from cli.verbs import tune as tune_verb
from tests.core.test_dataset_prepare import dataset


@pytest.fixture
def no_ray(monkeypatch):
    """This interpreter as one without the tune extra: find_spec answers None for a module set to None."""
    monkeypatch.setitem(sys.modules, "ray", None)
    monkeypatch.setitem(sys.modules, "optuna", None)


def test_without_the_extra_tune_says_how_to_install_it(no_ray, tmp_path, capsys):
    assert tune_verb.missing_tune_packages() == ["ray", "optuna"]
    data = dataset(tmp_path / "ds", {f"i{n}": (64, 64) for n in range(4)})
    assert main(["--workspace", str(tmp_path / "ws"), "tune", str(data), "--time-budget", "10m"]) == 2
    err = capsys.readouterr().err
    assert "ray, optuna" in err and "pip install 'yolo-studio[tune]'" in err and "MB" in err
    assert not (tmp_path / "ws" / "tune").exists()


def test_help_names_the_install_command_when_ray_is_missing(no_ray, capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["tune", "--help"])
    assert "pipinstall'yolo-studio[tune]'" in "".join(capsys.readouterr().out.split())  # argparse wraps lines


def test_help_lists_the_search_flags_and_the_train_flags(capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["tune", "--help"])
    out = capsys.readouterr().out
    for flag in ("--time-budget", "--trials", "--space", "--gpus-per-trial", "--ray-address", "--resume",
                 "--epochs", "--imgsz", "--model", "--device", "--json"):
        assert flag in out, flag


def test_a_bad_space_file_exits_2_naming_the_file_and_key(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(tune_verb, "missing_tune_packages", lambda: [])
    data = dataset(tmp_path / "ds", {f"i{n}": (64, 64) for n in range(4)})
    space = tmp_path / "space.yaml"
    space.write_text("lr0: [0.1, 0.01]\n")
    assert main(["--workspace", str(tmp_path / "ws"), "tune", str(data), "--time-budget", "10m",
                 "--space", str(space)]) == 2
    err = capsys.readouterr().err
    assert str(space) in err and "lr0" in err
    assert not (tmp_path / "ws" / "tune").exists()


def test_a_bad_train_option_exits_2_before_ray(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(tune_verb, "missing_tune_packages", lambda: [])
    data = dataset(tmp_path / "ds", {f"i{n}": (64, 64) for n in range(4)})
    assert main(["--workspace", str(tmp_path / "ws"), "tune", str(data), "--time-budget", "10m",
                 "--epochs", "0", "--device", "cpu"]) == 2
    assert "0" in capsys.readouterr().err
    assert not (tmp_path / "ws" / "tune").exists()


def test_resume_of_a_folder_without_a_search_is_refused(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(tune_verb, "missing_tune_packages", lambda: [])
    data = dataset(tmp_path / "ds", {f"i{n}": (64, 64) for n in range(4)})
    assert main(["--workspace", str(tmp_path / "ws"), "tune", str(data), "--time-budget", "10m", "--device", "cpu",
                 "--model", "yolov5n.yaml", "--resume", "nothing"]) == 2
    assert "nothing" in capsys.readouterr().err
