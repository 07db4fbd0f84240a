"""Validation of training options and the pure command builders."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.model_catalog import builtin_model_path
from core.training.config import (AUTO_BATCH, MachineFacts, TrainConfig, build_worker_spec, build_yolov5_command,
                               command_line, parse_device, validate_config, yolov5_options)

CPU = MachineFacts(gpu_count=0)
TWO_GPUS = MachineFacts(gpu_count=2, gpu_names=("A", "B"))


@pytest.fixture
def data_yaml(tmp_path: Path) -> Path:
    path = tmp_path / "data.yaml"
    path.write_text("path: .\ntrain: images/train\nval: images/val\nnames: [a, b]\n", encoding="utf-8")
    return path


def cfg(data: Path, **kw) -> TrainConfig:
    base = dict(data=str(data), model="yolov5n.yaml", epochs=2, imgsz=128, batch=8, workers=0, device="cpu")
    base.update(kw)
    return TrainConfig(**base)


def fields_of(result, severity="error"):
    return {p.field for p in result.problems if p.severity == severity}


def test_valid_config_resolves_paths(data_yaml):
    result = validate_config(cfg(data_yaml), CPU)
    assert result.ok, result.problems
    assert result.data_path == data_yaml.resolve()
    assert result.cfg_path == builtin_model_path("yolov5n.yaml").resolve()  # the check resolves links
    assert result.hyp_path.name == "hyp.scratch-low.yaml" and result.hyp_path.is_file()


def test_missing_data_names_the_file(tmp_path):
    result = validate_config(cfg(tmp_path / "nope.yaml"), CPU)
    assert "data" in fields_of(result)
    assert str(tmp_path / "nope.yaml") in result.errors[0].message


def test_broken_yaml_names_line_and_column(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("train: a\nval: [b\nnames: x\n", encoding="utf-8")
    result = validate_config(cfg(bad), CPU)
    message = result.errors[0].message
    assert message.startswith(f"{bad}:3:6:")  # where PyYAML noticed the unclosed list


def test_yaml_without_required_keys(tmp_path):
    partial = tmp_path / "p.yaml"
    partial.write_text("train: a\n", encoding="utf-8")
    result = validate_config(cfg(partial), CPU)
    messages = [p.message for p in result.errors if p.field == "data"]
    assert len(messages) == 2 and "'val'" in messages[0] and "'names'" in messages[1]
    assert all(m.startswith(f"{partial}:1: ") for m in messages)  # the file and line, then why


def test_unknown_model(data_yaml):
    result = validate_config(cfg(data_yaml, model="yolov9z.yaml"), CPU)
    assert "model" in fields_of(result) and "yolov9z.yaml" in result.errors[0].message


def test_missing_weights_says_offline(data_yaml, tmp_path):
    result = validate_config(cfg(data_yaml, model=str(tmp_path / "best.pt")), CPU)
    assert "weights" in fields_of(result)
    assert "offline" in result.errors[0].fix


def test_imgsz_rounded_up_with_warning(data_yaml):
    result = validate_config(cfg(data_yaml, imgsz=100), CPU)
    assert result.ok and result.config.imgsz == 128
    assert "imgsz" in fields_of(result, "warning")


@pytest.mark.parametrize("field,value", [("epochs", 0), ("batch", 0), ("batch", -2), ("workers", -1),
                                         ("imgsz", 16), ("cache", "gpu"), ("optimizer", "LBFGS"),
                                         ("name", "a/b"), ("name", ".."), ("name", "")])
def test_out_of_range_options(data_yaml, field, value):
    result = validate_config(cfg(data_yaml, **{field: value}), CPU)
    assert not result.ok
    assert field in fields_of(result)


def test_auto_batch_allowed_on_one_gpu(data_yaml):
    assert validate_config(cfg(data_yaml, batch=AUTO_BATCH, device="0"), TWO_GPUS).ok
    assert not validate_config(cfg(data_yaml, batch=AUTO_BATCH, device="0,1"), TWO_GPUS).ok


@pytest.mark.parametrize("device,facts,ok", [
    ("cpu", CPU, True), ("", CPU, True), ("0", CPU, False), ("1", TWO_GPUS, True), ("2", TWO_GPUS, False),
    ("0,1", TWO_GPUS, True), ("gpu", TWO_GPUS, False), ("cuda:1", TWO_GPUS, True),
])
def test_device_presence(data_yaml, device, facts, ok):
    result = validate_config(cfg(data_yaml, device=device), facts)
    assert result.ok is ok, result.problems
    if not ok:
        assert result.errors[0].field == "device"


def test_parse_device():
    assert parse_device("") is None and parse_device("CPU") is None
    assert parse_device("0, 2") == [0, 2]
    with pytest.raises(ValueError):
        parse_device("x")


def test_worker_spec_refuses_errors(data_yaml, tmp_path):
    with pytest.raises(ValueError):
        build_worker_spec(validate_config(cfg(data_yaml, epochs=0), CPU), tmp_path / "r", tmp_path)


def test_spec_and_yolov5_options(data_yaml, tmp_path):
    spec = build_worker_spec(validate_config(cfg(data_yaml, cache="ram"), CPU), tmp_path / "runs" / "exp", tmp_path)
    opts = yolov5_options(spec)
    assert opts["project"] == str(tmp_path / "runs") and opts["name"] == "exp" and opts["exist_ok"] is True
    assert opts["batch_size"] == 8 and opts["cache"] == "ram" and opts["weights"] == ""
    assert Path(opts["cfg"]).name == "yolov5n.yaml"


def test_yolov5_command_parses_back_through_fire(data_yaml, tmp_path):
    """The copyable command must mean the same to yolov5's python-fire CLI as to the worker."""
    fire = pytest.importorskip("fire")
    spec = build_worker_spec(validate_config(cfg(data_yaml, device="0,1", cos_lr=True), TWO_GPUS),
                             tmp_path / "runs" / "exp", tmp_path)
    argv = build_yolov5_command(spec)
    assert argv[:2] == ["yolov5", "train"]
    import shlex

    captured = {}

    def train(**kwargs):
        captured.update(kwargs)

    fire.Fire({"train": train}, command=shlex.split(command_line(argv))[1:])
    expected = yolov5_options(spec)
    assert captured["device"] == "0,1"
    assert captured["batch_size"] == expected["batch_size"] and captured["imgsz"] == expected["imgsz"]
    assert captured["cos_lr"] is True and "rect" not in captured
    assert captured["data"] == expected["data"] and captured["project"] == expected["project"]


def _yolov5_train_parse_opt():
    """yolov5's own ``train.parse_opt``, lifted from the installed ``yolov5/train.py`` source: importing the module
    would pull in torch, cv2 and the compat patches (seconds); the parser itself needs only argparse and ROOT."""
    import argparse
    import ast
    import importlib.util

    source = Path(importlib.util.find_spec("yolov5").submodule_search_locations[0]) / "train.py"  # no import
    tree = ast.parse(source.read_text(encoding="utf-8"))
    [func] = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "parse_opt"]
    namespace = {"argparse": argparse, "ROOT": source.parent}
    exec(compile(ast.Module(body=[func], type_ignores=[]), str(source), "exec"), namespace)
    return namespace["parse_opt"]


def test_yolov5_module_argv_parses_back_through_yolov5s_own_parser(data_yaml, tmp_path, monkeypatch):
    """The entry torchrun launches (``-m yolov5.train`` + argparse flags) must mean what the worker's spec means:
    parsed by yolov5's own ``train.parse_opt``."""
    import sys

    from core.training.config import yolov5_module_argv

    spec = build_worker_spec(validate_config(cfg(data_yaml, device="0,1", cos_lr=True, cache="ram", freeze=10,
                                                 label_smoothing=0.1), TWO_GPUS), tmp_path / "runs" / "exp", tmp_path)
    argv = yolov5_module_argv(spec, {"sync_bn": True})
    assert argv[:2] == ["-m", "yolov5.train"]
    monkeypatch.setattr(sys, "argv", ["train.py", *argv[2:]])
    parsed = {key: str(value) for key, value in vars(_yolov5_train_parse_opt()()).items()}
    for key, value in {**yolov5_options(spec), "sync_bn": True}.items():  # ``extra`` wins over the spec's own
        assert parsed[key] == str(value), key
    assert parsed["sync_bn"] == "True" and parsed["device"] == "0,1"
