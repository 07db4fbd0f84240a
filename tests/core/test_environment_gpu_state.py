"""GPU state findings: the PCIe link's cost per batch from the PCI-SIG rates, one ``gpu-throttled`` per card
naming every cause, a process list that NVML could not give, and no 'None' in any finding's text when
facts are missing (every rule case of the environment tests, re-run on a machine with sparse readings)."""

from __future__ import annotations

import dataclasses

import pytest

from core.environment.facts import EnvironmentFacts
from core.environment.rules import RuleContext, evaluate
from core.environment.rules.pcie import PCIE_LANE_GB_S, batch_upload_mb
from tests.core import test_environment_devices as device_cases
from tests.core import test_environment_rules as rule_cases
from tests.core import test_environment_slices as slice_cases
from tests.core.environment_builders import healthy_gpu_machine

# Per-lane rates as PCI-SIG publishes them (x16, one direction): 3.0 ~15.75 GB/s, 4.0 ~31.5, 5.0 ~63.
LANES = [(1, 16, 4.0), (2, 16, 8.0), (3, 16, 15.75), (4, 16, 31.5), (5, 16, 63.0)]


@pytest.mark.parametrize("gen, width, gb_s", LANES)
def test_lane_rates_match_the_published_link_bandwidth(gen, width, gb_s):
    assert PCIE_LANE_GB_S[gen] * width == pytest.approx(gb_s, rel=0.01)


def _link(gen: int, gen_max: int, width: int, width_max: int, util: float) -> EnvironmentFacts:
    f = healthy_gpu_machine()
    g = f.nvml.gpus[0]
    g.pcie_gen, g.pcie_gen_max, g.pcie_width, g.pcie_width_max, g.util_percent = gen, gen_max, width, width_max, util
    return f


# (case, gen, max gen, width, max width, utilisation, severity or None for no finding)
LINKS = [
    ("x4 of x16 under load", 4, 4, 4, 16, 95, "warning"),
    ("x1 of x16 under load", 3, 3, 1, 16, 95, "warning"),
    ("x8 of x16 under load", 4, 4, 8, 16, 95, "info"),
    ("x4 of an x8 card under load", 4, 4, 4, 8, 95, "info"),
    ("x4 of x16 while idle", 4, 4, 4, 16, 0, "info"),
    ("gen 1 of 4 under load", 1, 4, 16, 16, 95, "warning"),
    ("gen 1 of 4 while idle: power saving", 1, 4, 16, 16, 0, None),
    ("full link", 4, 4, 16, 16, 95, None),
]


@pytest.mark.parametrize("case, gen, gen_max, width, width_max, util, severity", LINKS, ids=[c[0] for c in LINKS])
def test_pcie_link_cases(case, gen, gen_max, width, width_max, util, severity):
    found = [x for x in evaluate(_link(gen, gen_max, width, width_max, util)).findings if x.code == "pcie-degraded"]
    assert [x.severity for x in found] == ([severity] if severity else [])


def test_pcie_warning_states_the_measured_cost_of_a_batch_upload():
    ctx = RuleContext(batch=16, imgsz=640)
    finding = next(x for x in evaluate(_link(4, 4, 4, 16, 95), ctx).findings if x.code == "pcie-degraded")
    upload = batch_upload_mb(ctx)
    assert upload == pytest.approx(19.66, abs=0.01)  # 16 × 3 × 640² uint8, as yolov5 copies it
    now, full = upload / (PCIE_LANE_GB_S[4] * 4), upload / (PCIE_LANE_GB_S[4] * 16)
    assert f"takes {now:.1f} ms to reach the GPU instead of {full:.1f} ms" in finding.detail
    assert "25%" in finding.detail and "x16" in finding.fix


def test_heat_and_a_hardware_slowdown_are_one_finding_for_one_card():
    f = healthy_gpu_machine(gpus=2)
    f.nvml.gpus[0].throttle_reasons = 0x8 | 0x40
    f.nvml.gpus[0].temperature_c = 88
    throttled = [x for x in evaluate(f).findings if x.code == "gpu-throttled"]
    assert len(throttled) == 1
    assert "airflow" in throttled[0].fix and "power supply" in throttled[0].fix
    assert "HwSlowdown" in throttled[0].detail


def test_an_unavailable_process_list_is_not_an_empty_one():
    f = healthy_gpu_machine()
    g = f.nvml.gpus[0]
    g.util_percent, g.processes, g.unknown = 90, None, {"processes": "NoPermission"}
    unavailable = next(x for x in evaluate(f).findings if x.code == "gpu-busy")
    assert "unavailable" in unavailable.message and "NoPermission" in unavailable.detail
    g.processes, g.unknown = [], {}
    empty = next(x for x in evaluate(f).findings if x.code == "gpu-busy")
    assert "cannot see" in empty.message


def test_moving_to_an_idle_gpu_names_its_cuda_index():
    f = healthy_gpu_machine(gpus=2)
    f.nvml.gpus[0].processes = [{"pid": 42, "used_gb": 8.0, "name": "python"}]
    f.nvml.gpus[0].util_percent = 90
    a, b = f.torch.devices
    a.index, b.index = 1, 0  # CUDA's fastest-first order: NVML's GPU 1 is CUDA's 0
    busy = next(x for x in evaluate(f).findings if x.code == "gpu-busy")
    # the probe counted fastest first (no CUDA_DEVICE_ORDER), the worker counts in PCI order: NVML's GPU 1 is 1
    assert [(c.field, c.value) for c in busy.changes] == [("device", "1")]


SPARSE_GPU = ("name", "uuid", "pci_bus_id", "memory_total_gb", "memory_used_gb", "temperature_c", "slowdown_temp_c",
              "power_w", "power_limit_w", "power_default_limit_w", "pcie_gen", "pcie_gen_max", "util_percent")
SPARSE_SYSTEM = ("os_release", "cpu_model", "swap_total_gb", "cgroup_cpu_quota", "python_executable", "shm_free_gb")
SPARSE_TORCH = ("torchvision", "cudnn_version", "cuda_error", "import_s")


def _sparse(f: EnvironmentFacts, healthy: EnvironmentFacts) -> None:
    """Every secondary reading the case did not set becomes unread (None), as on a GPU that lacks them."""
    pairs = [(g, h) for g, h in zip(f.nvml.gpus, healthy.nvml.gpus)]
    for g, h in pairs:
        for name in SPARSE_GPU:
            if getattr(g, name) == getattr(h, name):
                setattr(g, name, None)
    for name in SPARSE_SYSTEM:
        if getattr(f.system, name) == getattr(healthy.system, name):
            setattr(f.system, name, None)
    for name in SPARSE_TORCH:
        if getattr(f.torch, name) == getattr(healthy.torch, name):
            setattr(f.torch, name, None)


ALL_CASES = [(c[0], healthy_gpu_machine, c[1], c[2]) for c in rule_cases.CASES] + \
    [(c[0], c[1], c[2], None) for c in device_cases.CASES] + [
        ("MIG slice", slice_cases._mig_machine, lambda f: None, None),
        ("Windows commit limit", lambda: slice_cases._windows(6.0), lambda f: None, RuleContext(workers=8)),
        ("Windows commit limit, nothing fits", lambda: slice_cases._windows(0.5), lambda f: None, None)]


def _texts(finding) -> list[str]:
    return [finding.message, finding.detail, finding.fix, *map(str, finding.evidence.keys()),
            *map(str, finding.evidence.values())]


@pytest.mark.parametrize("case, machine, mutate, ctx", ALL_CASES, ids=[c[0] for c in ALL_CASES])
def test_no_none_in_any_finding_text(case, machine, mutate, ctx):
    for sparse in (False, True):
        facts, healthy = machine(), machine()
        mutate(facts)
        if sparse:
            _sparse(facts, healthy)
        for finding in evaluate(facts, ctx).findings:
            for text in _texts(finding):
                assert "None" not in text, (case, sparse, finding.code, text)


def test_sparse_machine_still_triggers_the_rules():
    """The sparse pass is not vacuous: the GPU-state findings still come out without those readings."""
    f, healthy = healthy_gpu_machine(), healthy_gpu_machine()
    f.nvml.gpus[0].throttle_reasons, f.nvml.gpus[0].pcie_width = 0x40, 4
    _sparse(f, healthy)
    assert {"gpu-throttled", "pcie-degraded"} <= set(evaluate(f).ids())
    assert dataclasses.asdict(f.nvml.gpus[0])["temperature_c"] is None
