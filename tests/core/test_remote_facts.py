"""A machine's GPUs as its last ``machine check`` found them, kept here so the Train page checks a run bound there on
them (``core.remote.facts``): the mapping to the option rules' ``MachineFacts``, and the options it lets through."""

from __future__ import annotations

import json
from pathlib import Path

from core.environment.machine import MachineFacts
from core.remote.facts import remember_facts, remembered_facts
from core.remote.machines import Machine
from core.training.config import validate_config
from core.training.options import TrainConfig

FACTS = Path(__file__).parents[1] / "fixtures" / "facts" / "cpu-vm.json"


def gpu_server_report() -> dict:
    """The CPU VM's report with two NVIDIA GPUs, as a GPU server's doctor would print it."""
    raw = json.loads(FACTS.read_text())
    gpu = {"name": "NVIDIA A100-SXM4-80GB", "memory_total_gb": 80.0, "memory_used_gb": 1.0, "capability": [8, 0]}
    raw["nvml"] = dict(raw.get("nvml") or {}, available=True, error=None,
                       gpus=[dict(gpu, index=0), dict(gpu, index=1)])
    return raw


def test_a_checked_machines_gpus_come_back_as_the_option_rules_facts(tmp_path):
    machine = Machine("gpu", "box")
    assert remembered_facts(tmp_path, "gpu") is None  # never checked
    remember_facts(tmp_path, machine, gpu_server_report())
    facts = remembered_facts(tmp_path, "gpu")
    assert facts is not None and facts.gpu_count == 2
    assert facts.gpu_names == ("NVIDIA A100-SXM4-80GB",) * 2 and facts.gpu_capabilities == ((8, 0), (8, 0))
    assert facts.gpu_memory == ((1.0, 80.0), (1.0, 80.0))


def test_two_gpus_there_let_device_0_1_through_where_this_computer_has_none(tmp_path):
    from tests.core.test_dataset_validate import build  # noqa: PLC0415

    data = build(tmp_path / "data")
    config = TrainConfig(data=str(data), model="yolov5n.yaml", device="0,1")
    here = validate_config(config, MachineFacts(gpu_count=0), tmp_path / "ws")
    assert not here.ok and any(p.field == "device" for p in here.errors)
    remember_facts(tmp_path / "ws", Machine("gpu", "box"), gpu_server_report())
    there = validate_config(config, remembered_facts(tmp_path / "ws", "gpu"), tmp_path / "ws")
    assert not [p for p in there.errors if p.field == "device"], there.errors
