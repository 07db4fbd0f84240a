"""The ``no_amp`` training option, declared once (``core/training/options.py``): its CLI flag, that yolov5's
``opt`` never sees it (the worker turns AMP off through ``compat_amp``), and that it is the fix the
``amp-unsafe-gpu`` finding and the wizard apply on GTX 16xx / Quadro T-series."""

from __future__ import annotations

import argparse

from core.environment.rules import evaluate
from core.training.options import TrainConfig, add_train_arguments, changed_cli_flags, config_from_args, yolov5_fields
from core.wizard.inputs import Goal, Gpu, Hardware, Measurements
from core.wizard.recommend import recommend
from tests.core.environment_builders import healthy_gpu_machine
from tests.core.test_wizard_recommend import DS


def _parse(*argv: str) -> TrainConfig:
    parser = argparse.ArgumentParser()
    add_train_arguments(parser)
    return config_from_args(parser.parse_args(["data.yaml", *argv]))


def test_the_flag_sets_the_option_and_yolov5_never_sees_it():
    assert _parse().no_amp is False and _parse("--no-amp").no_amp is True
    assert "no_amp" not in yolov5_fields(_parse("--no-amp"))
    cfg = _parse("--no-amp")
    assert "--no-amp" in changed_cli_flags(lambda name, default: getattr(cfg, name))


def test_amp_unsafe_finding_applies_the_option():
    facts = healthy_gpu_machine(name="NVIDIA GeForce GTX 1660 SUPER", capability=(7, 5))
    finding = next(f for f in evaluate(facts).findings if f.code == "amp-unsafe-gpu")
    assert finding.fix_kind == "setting" and finding.fix == "--no-amp"
    applied = TrainConfig(**{**TrainConfig().to_dict(), **{c.field: c.value for c in finding.changes}})
    assert applied.no_amp is True


def test_the_wizard_trains_a_gtx_1660_without_amp_and_a_4090_with_it():
    def config(name: str) -> dict:
        hw = Hardware(usable_cores=6, ram_available_gb=14, shm_free_gb=7, gpus=(Gpu(name, 6, 0.0, (7, 5)),))
        return recommend(hw, DS, Goal("balanced"), Measurements()).config
    assert config("NVIDIA GeForce GTX 1660 SUPER")["no_amp"] is True
    assert config("NVIDIA GeForce RTX 2060")["no_amp"] is False


