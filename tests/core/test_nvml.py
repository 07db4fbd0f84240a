"""The one NVML reader and what is built on it: machine facts, export facts, the status bar's glance."""

from __future__ import annotations

import pytest

from core.environment.machine import MachineFacts, quick_machine_facts
from core.environment.nvml import NvmlUnavailable, open_nvml
from core.training.config import TrainConfig, validate_config
from tests.fixtures.fake_nvml import FakeNvml, nvml_raising


def test_live_readings_with_units_and_unsupported_as_none():
    reader = open_nvml(FakeNvml())
    [row] = reader.read()
    assert row["util_percent"] == 3 and row["mem_total_gb"] == 24 and row["mem_used_gb"] == 2
    assert row["power_w"] == 35 and row["power_limit_w"] == 450 and row["temperature_c"] == 41
    assert reader.names() == ["NVIDIA GeForce RTX 4090"] and reader.capabilities() == [(8, 9)]


@pytest.mark.parametrize("kind", ["LibraryNotFound", "DriverNotLoaded", "NoPermission", "GpuIsLost"])
def test_open_says_why_not(kind):
    with pytest.raises(NvmlUnavailable) as caught:
        open_nvml(nvml_raising(kind))
    assert caught.value.kind == kind and str(caught.value) == "nvml says no"


def test_machine_facts_from_the_reader():
    facts = quick_machine_facts(FakeNvml())
    assert facts == MachineFacts(gpu_count=1, gpu_names=("NVIDIA GeForce RTX 4090",), gpu_capabilities=((8, 9),),
                                 gpu_memory=facts.gpu_memory, cpu_count=facts.cpu_count)
    used, total = facts.gpu_memory[0]  # others' memory: the several-GPUs "free enough" rule reads it
    assert 0 <= used <= total and total > 0 and facts.cpu_count >= 1


@pytest.mark.parametrize("kind,count", [("LibraryNotFound", 0), ("DriverNotLoaded", 0), ("NoPermission", None),
                                        ("GpuIsLost", None)])
def test_no_driver_is_no_gpu_other_errors_are_unknown(kind, count):
    facts = quick_machine_facts(nvml_raising(kind))
    assert facts.gpu_count == count and facts.nvml_error == f"{kind}: nvml says no"


def test_device_check_names_why_the_gpus_could_not_be_read(tmp_path):
    data = tmp_path / "d.yaml"
    data.write_text("path: .\ntrain: a\nval: a\nnames: [x]\n")
    checked = validate_config(TrainConfig(data=str(data), device="0"), quick_machine_facts(nvml_raising("NoPermission")))
    [problem] = [p for p in checked.errors if p.field == "device"]
    assert "could not be read" in problem.message and "NoPermission" in problem.message
    no_driver = validate_config(TrainConfig(data=str(data), device="0"),
                                quick_machine_facts(nvml_raising("LibraryNotFound")))
    [problem] = [p for p in no_driver.errors if p.field == "device"]
    assert "no NVIDIA GPU was found" in problem.message and "LibraryNotFound" in problem.message
