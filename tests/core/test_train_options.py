"""Every training option is described once, and the CLI flags, labels, range checks and yolov5 mapping all
come from that description (the form's rows are tested in tests/gui/test_train_form.py)."""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import re
from pathlib import Path

import pytest

from core.environment.machine import MachineFacts
from core.training.config import build_worker_spec, validate_config, yolov5_options
from core.training.options import (TrainConfig, add_train_arguments, config_from_args, option_labels, train_options,
                                yolov5_fields)

OPTIONS = train_options()


def other_value(opt):
    """A valid value that differs from the option's default."""
    if opt.widget == "bool":
        return not opt.default
    if opt.widget == "choice":
        return next(value for value, _label in opt.choices if value != opt.default)
    if opt.widget == "int":
        return int(opt.default) + (1 if opt.maximum is None or opt.default < opt.maximum else -1)
    if opt.widget == "float":
        return round(float(opt.default) + 0.1, 2)
    return f"{opt.default or 'x'}-other"


def test_every_field_is_described():
    assert [o.name for o in OPTIONS] == [f.name for f in dataclasses.fields(TrainConfig)]
    for opt in OPTIONS:
        assert opt.label and len(opt.help) > 40, opt.name  # says what it does and what it costs


@pytest.mark.parametrize("opt", OPTIONS, ids=[o.name for o in OPTIONS])
def test_each_option_round_trips_through_its_cli_flag(opt):
    parser = argparse.ArgumentParser()
    add_train_arguments(parser)
    value = other_value(opt)
    argv = ["data.yaml"] if opt.name != "data" else []
    if opt.positional:
        argv = [str(value)]
    elif opt.widget == "bool":
        argv.append(opt.cli_flags[0])
    else:
        argv += [opt.cli_flags[0], str(value)]
    config = config_from_args(parser.parse_args(argv))
    assert getattr(config, opt.name) == value
    others = {o.name: getattr(config, o.name) for o in OPTIONS if o.name not in (opt.name, "data")}
    assert others == {o.name: o.default for o in OPTIONS if o.name not in (opt.name, "data")}


def test_defaults_from_the_cli_are_the_dataclass_defaults():
    parser = argparse.ArgumentParser()
    add_train_arguments(parser)
    assert config_from_args(parser.parse_args(["d.yaml"])) == TrainConfig(data="d.yaml")


@pytest.mark.parametrize("opt", [o for o in OPTIONS if o.minimum is not None or o.choices],
                         ids=lambda o: o.name)
def test_out_of_range_is_refused_and_labelled(opt, tmp_path):
    data = tmp_path / "d.yaml"
    data.write_text("path: .\ntrain: a\nval: a\nnames: [x]\n")
    bad = "no-such-choice" if opt.choices else (opt.minimum - 1 if opt.minimum is not None else None)
    checked = validate_config(TrainConfig(data=str(data), device="cpu", **{opt.name: bad}), MachineFacts(0))
    [problem] = [p for p in checked.errors if p.field == opt.name]
    assert option_labels()[opt.name] in problem.message and problem.fix == opt.help


def test_every_yolov5_name_is_an_option_of_yolov5_train():
    """The mapping names real `yolov5 train` options (read from its source: the GUI process never imports it)."""
    spec = importlib.util.find_spec("yolov5")
    if spec is None or spec.origin is None:
        pytest.skip("yolov5 not installed")
    source = (Path(spec.origin).parent / "train.py").read_text(encoding="utf-8")
    flags = {m.replace("-", "_") for m in re.findall(r"add_argument\('--([\w-]+)'", source)}
    names = set(yolov5_fields(TrainConfig(data="d")))
    assert names and names <= flags, names - flags


def test_yolov5_options_carry_every_option_with_its_conversion(tmp_path):
    data = tmp_path / "d.yaml"
    data.write_text("path: .\ntrain: a\nval: a\nnames: [x]\n")
    config = TrainConfig(data=str(data), device="cpu", cache="", freeze=3, batch=-1, multi_scale=True)
    spec = build_worker_spec(validate_config(config, MachineFacts(0)), tmp_path / "runs" / "exp", tmp_path)
    opts = yolov5_options(spec)
    assert opts["cache"] is None and opts["freeze"] == [3] and opts["batch_size"] == -1 and opts["multi_scale"]
    for opt in OPTIONS:
        assert opt.yolov5_name is None or opt.yolov5_name in opts, opt.name


def _off(flag: str) -> str:
    """The flag that switches an option off: --no-X, but --X for an option spelt --no-X (--no-amp → --amp)."""
    return "--" + flag[len("--no-"):] if flag.startswith("--no-") else "--no-" + flag[2:]


@pytest.mark.parametrize("opt", OPTIONS, ids=[o.name for o in OPTIONS])
def test_a_flag_on_the_line_wins_over_the_config_file_even_when_it_says_the_default(opt, tmp_path):
    """``train --config FILE --epochs 100``: the line is what the user typed last; "given" is detected, never
    guessed from "differs from the default". A true/false option set in the file is switched off by ``--no-…``."""
    if opt.positional or (opt.choices and opt.default == ""):
        return  # a choice whose default is "left off" (--cache) has no value to type for it
    saved = TrainConfig(data="d.yaml", **{opt.name: other_value(opt)})
    parser = argparse.ArgumentParser()
    add_train_arguments(parser)
    if opt.widget == "bool":
        argv = [_off(opt.cli_flags[0])] if other_value(opt) else [opt.cli_flags[0]]
    else:
        argv = [opt.cli_flags[0], str(opt.default)]
    assert getattr(config_from_args(parser.parse_args(argv), saved), opt.name) == opt.default
    assert getattr(config_from_args(parser.parse_args([]), saved), opt.name) == other_value(opt)  # left off: file's


def test_every_true_false_option_has_its_no_flag_and_the_spelt_command_uses_it():
    from core.training.options import changed_cli_flags

    parser = argparse.ArgumentParser()
    add_train_arguments(parser)
    for opt in (o for o in OPTIONS if o.widget == "bool"):
        off = _off(opt.cli_flags[0])
        assert getattr(parser.parse_args([off]), opt.name) is False
        assert getattr(parser.parse_args([opt.cli_flags[0]]), opt.name) is True
        flags = changed_cli_flags(lambda name, default, o=opt: (not o.default) if name == o.name else default)
        assert flags == [opt.cli_flags[0] if not opt.default else off]
