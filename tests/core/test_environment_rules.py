"""Table-driven rule tests over injected facts: one or more cases per finding id (id, severity, fix)."""

from __future__ import annotations

import dataclasses
from typing import Callable

import pytest

from core.environment.facts import (DiskFacts, EnvironmentFacts, NvmlFacts, ProbeInfo, TorchGpuFacts,
                                    facts_from_dict)
from core.environment.report import report_dict, summarize
from core.environment.rules import RULES, RuleContext, evaluate, shm_needed_gb
from core.findings import Severity
from tests.core.environment_builders import CU13_ARCHS, CU126_ARCHS, cpu_machine, healthy_gpu_machine

Mutate = Callable[[EnvironmentFacts], None]


def _set(path: str, value: object) -> Mutate:
    def mutate(f: EnvironmentFacts) -> None:
        *parents, last = path.split(".")
        target: object = f
        for part in parents:
            target = target[int(part)] if isinstance(target, list) else getattr(target, part)
        setattr(target, last, value)
    return mutate


def _all(*mutations: Mutate) -> Mutate:
    def mutate(f: EnvironmentFacts) -> None:
        for m in mutations:
            m(f)
    return mutate


def _no_cuda(f: EnvironmentFacts) -> None:
    f.torch.cuda_available = False
    f.torch.device_count = 0
    f.torch.devices = []


CPU_BUILD = _all(_set("torch.version", "2.14.1+cpu"), _set("torch.cuda", None), _set("torch.arch_list", []), _no_cuda)
PASCAL = _all(_set("nvml.gpus.0.name", "NVIDIA GeForce GTX 1080 Ti"), _set("nvml.gpus.0.capability", [6, 1]),
              _set("torch.devices.0.capability", [6, 1]))

# (case, mutation, context, finding id, severity, text the fix must contain)
CASES = [
    ("no-gpu: CPU machine", lambda f: _copy_into(f, cpu_machine()), None, "no-gpu", "info", "nvidia-smi"),
    ("no-gpu: WSL", _all(lambda f: _copy_into(f, cpu_machine()), _set("system.wsl", True)), None, "no-gpu", "info",
     "/usr/lib/wsl/lib"),
    ("nvml-unavailable: WSL library path", _all(lambda f: _copy_into(f, cpu_machine()), _set("system.wsl", True)),
     None, "nvml-unavailable", "warning", "LD_LIBRARY_PATH=/usr/lib/wsl/lib"),
    ("nvml-unavailable: no permission", _set("nvml", NvmlFacts(available=False, error="NoPermission")), None,
     "nvml-unavailable", "warning", "usermod -aG video"),
    ("nvml-unavailable: driver not loaded", _set("nvml", NvmlFacts(available=False, error="DriverNotLoaded")), None,
     "nvml-unavailable", "error", "modprobe nvidia"),
    ("nvml-unavailable: driver not loaded in WSL: the Windows driver",
     _all(_set("nvml", NvmlFacts(available=False, error="DriverNotLoaded")), _set("system.wsl", True)), None,
     "nvml-unavailable", "error", "wsl --shutdown"),
    ("nvml-unavailable: driver not loaded in a container: on the host",
     _all(_set("nvml", NvmlFacts(available=False, error="DriverNotLoaded")), _set("system.container", "docker")),
     None, "nvml-unavailable", "error", "On the host"),
    ("nvml-unavailable: GPU lost", _set("nvml", NvmlFacts(available=False, error="GpuIsLost")), None,
     "nvml-unavailable", "error", "Reboot"),
    ("nvml-unavailable: torch sees GPU, no NVML library",
     _set("nvml", NvmlFacts(available=False, error="LibraryNotFound")), None, "nvml-unavailable", "warning",
     "libnvidia-ml"),
    ("nvml-unavailable: container started without the utility capability",
     _all(_set("nvml", NvmlFacts(available=False, error="LibraryNotFound")), _set("system.container", "docker"),
          _set("system.env", {"NVIDIA_DRIVER_CAPABILITIES": "compute"})), None, "nvml-unavailable", "warning",
     "NVIDIA_DRIVER_CAPABILITIES=compute,utility"),
    ("torch-missing: GPU machine", _set("torch", dataclasses.replace(
        healthy_gpu_machine().torch, installed=False, import_error="No module named 'torch'", version=None,
        torchvision=None, cuda=None)), None, "torch-missing", "error", "download.pytorch.org/whl/cu130"),
    ("torch-missing: CPU machine", _all(lambda f: _copy_into(f, cpu_machine()), _set("torch.installed", False),
                                        _set("torch.version", None), _set("torch.torchvision", None)),
     None, "torch-missing", "error", "download.pytorch.org/whl/cpu"),
    ("torch-cpu-build: driver 570 / Ada -> cu126 (a 12.x driver)", _all(CPU_BUILD, _set("nvml.driver_version",
                                                                              "570.86.15"),
                                                                         _set("nvml.cuda_driver_version", 12080)),
     None, "torch-cpu-build", "error",
     "torch==2.14.1+cu126 torchvision==0.29.1+cu126 --index-url https://download.pytorch.org/whl/cu126"),
    ("torch-cpu-build: driver 595 (CUDA 13.2) -> cu132", _all(CPU_BUILD, _set("nvml.driver_version", "595.45.04"),
                                                              _set("nvml.cuda_driver_version", 13020)),
     None, "torch-cpu-build", "error", "whl/cu132"),
    ("torch-cpu-build: driver 580 -> cu130", _all(CPU_BUILD, _set("nvml.driver_version", "580.82.07"),
                                                  _set("nvml.cuda_driver_version", 13000)),
     None, "torch-cpu-build", "error", "whl/cu130"),
    ("torch-cpu-build: Pascal -> cu126", _all(PASCAL, CPU_BUILD), None, "torch-cpu-build", "error", "whl/cu126"),
    ("torch-cpu-build: Windows command", _all(CPU_BUILD, _set("system.os", "Windows"),
                                              _set("system.python_executable", r"C:\Program Files\ys\python.exe")),
     None, "torch-cpu-build", "error", r'"C:\Program Files\ys\python.exe" -m pip install'),
    ("driver-too-old: CUDA 12.2 driver, cu130 wheel", _all(
        _set("torch.cuda", "13.0"), _set("torch.version", "2.14.1+cu130"), _set("nvml.driver_version", "535.104.05"),
        _set("nvml.cuda_driver_version", 12020), _no_cuda), None, "driver-too-old", "error", "whl/cu126"),
    ("driver-too-old: cu130 wheel, driver below every floor", _all(
        _set("torch.cuda", "13.0"), _set("torch.version", "2.14.1+cu130"), _set("nvml.driver_version", "520.61.05"),
        _set("nvml.cuda_driver_version", 11080), _set("torch.arch_list", ["sm_75", "sm_80", "sm_86", "sm_89", "sm_90"]),
        _no_cuda), None, "driver-too-old", "error", "580.65.06"),  # the cu130 wheel's floor, not cu126's 525
    ("driver-too-old: below the 12.x floor", _all(
        _set("nvml.driver_version", "520.61.05"), _set("nvml.cuda_driver_version", None), _no_cuda), None,
     "driver-too-old", "error", "580.65.06"),  # no wheel fits: the driver the installed cu130 wheel shipped with
    ("driver-too-old: WSL names the Windows driver, never a Linux one inside WSL", _all(
        _set("system.wsl", True), _set("nvml.driver_version", "527.41"), _set("nvml.cuda_driver_version", 12000),
        _set("torch.cuda", "12.6"), _set("torch.version", "2.14.1+cu126"), _set("torch.arch_list", CU126_ARCHS),
        _no_cuda), None, "driver-too-old", "error", "On Windows (not inside WSL)"),
    ("driver-too-old: in a container the driver is the host's", _all(
        _set("system.container", "docker"), _set("nvml.driver_version", "520.61.05"),
        _set("nvml.cuda_driver_version", None), _no_cuda), None, "driver-too-old", "error", "on the host"),
    ("driver-too-old: Windows floor", _all(_set("system.os", "Windows"), _set("nvml.driver_version", "527.10"),
                                           _set("nvml.cuda_driver_version", None), _no_cuda),
     None, "driver-too-old", "error", "nvidia.com"),
    ("driver-cuda-minor: 12.4 driver, cu126 wheel", _all(
        _set("nvml.driver_version", "550.54.14"), _set("nvml.cuda_driver_version", 12040), _set("torch.cuda", "12.6"),
        _set("torch.version", "2.14.1+cu126"), _set("torch.arch_list", CU126_ARCHS)), None,
     "driver-cuda-minor", "info", "560.28.03"),
    ("gpu-arch-unsupported: Pascal on cu130", _all(PASCAL, _no_cuda, _set("torch.cuda_error", "sm_61 is not "
                                                                          "compatible")),
     None, "gpu-arch-unsupported", "error", "whl/cu126"),
    ("gpu-arch-unsupported: Blackwell on cu126", _all(
        _set("torch.arch_list", ["sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"]),
        _set("torch.cuda", "12.6"), _set("nvml.gpus.0.name", "NVIDIA GeForce RTX 5090"),
        _set("nvml.gpus.0.capability", [12, 0]), _set("torch.devices.0.kernel_ok", False)),
     None, "gpu-arch-unsupported", "error", "whl/cu130"),
    ("gpu-arch-unsupported: Blackwell on cu126, 12.x driver: the driver first", _all(
        _set("torch.arch_list", CU126_ARCHS), _set("torch.cuda", "12.6"), _set("nvml.driver_version", "570.86.15"),
        _set("nvml.cuda_driver_version", 12080), _set("nvml.gpus.0.name", "NVIDIA GeForce RTX 5090"),
        _set("nvml.gpus.0.capability", [12, 0]), _set("torch.devices.0.kernel_ok", False)),
     None, "gpu-arch-unsupported", "error", "The fix is the driver"),
    ("cuda-unusable: test kernel fails", _all(_set("torch.devices.0.kernel_ok", False),
                                              _set("torch.devices.0.kernel_error", "CUDA error: unspecified launch")),
     None, "cuda-unusable", "error", "whl/cu130"),
    ("gpu-hidden: CUDA_VISIBLE_DEVICES empty", _all(_no_cuda, _set("system.env", {"CUDA_VISIBLE_DEVICES": ""})),
     None, "gpu-hidden", "error", "unset CUDA_VISIBLE_DEVICES"),
    ("cuda-unusable: init error", _all(_no_cuda, _set("torch.cuda_error", "CUDA error: initialization error")),
     None, "cuda-unusable", "error", "Reboot"),
    ("cuda-unusable: unknown error (after a suspend): reload nvidia_uvm",
     _all(_no_cuda, _set("torch.cuda_error", "CUDA unknown error")), None, "cuda-unusable", "error",
     "sudo rmmod nvidia_uvm && sudo modprobe nvidia_uvm"),
    ("cudnn-unavailable: missing", _set("torch.cudnn_version", None), None, "cudnn-unavailable", "warning",
     "--force-reinstall"),
    ("cudnn-unavailable: disabled", _set("torch.cudnn_enabled", False), None, "cudnn-unavailable", "warning", "whl/"),
    ("shm-too-small: docker 64 MB", _all(_set("system.shm_total_gb", 64 / 1024), _set("system.container", "docker")),
     None, "shm-too-small", "error", "--ipc=host"),
    ("shm-too-small: host, small tmpfs", _set("system.shm_total_gb", 0.25), None, "shm-too-small", "warning",
     "remount,size=16G"),
    ("ram-low: cache bigger than RAM", _set("dataset.cache_ram_gb", 80.0), None, "ram-low", "warning",
     "--cache disk"),
    ("ram-low-workers: 4 GB free, no swap, 8 workers", _all(_set("system.ram_available_gb", 4.0),
                                                             _set("system.swap_total_gb", 0.0)),
     None, "ram-low-workers", "warning", "--workers"),
    ("ram-low-workers: Windows spawns heavy workers", _all(_set("system.os", "Windows"),
                                                          _set("system.ram_available_gb", 9.0)),
     None, "ram-low-workers", "warning", "--workers"),
    ("cpu-limited: docker quota of 4 on a 64-CPU host", _all(
        _set("system.logical_cores", 64), _set("system.usable_cores", 4), _set("system.cgroup_cpu_quota", 4.0),
        _set("system.container", "docker")), None, "cpu-limited", "warning", "--workers 3"),
    ("cpu-limited: affinity mask (taskset)", _all(_set("system.usable_cores", 2)), None, "cpu-limited",
     "warning", "--workers 1"),
    ("disk-slow: network share", _set("disks", [DiskFacts(role="dataset", path="/mnt/nas", read_mb_s=35.0,
                                                          files_per_s=90.0, files_read=80)]), None, "disk-slow",
     "warning", "--cache ram"),
    ("disk-space-low: 5 GB", _set("disks.0.free_gb", 5.0), None, "disk-space-low", "warning", "--workspace"),
    ("disk-space-low: 1 GB", _set("disks.0.free_gb", 1.0), None, "disk-space-low", "error", "--workspace"),
    ("gpu-busy: other process holds memory", _all(_set("nvml.gpus.0.processes", [{"pid": 4242, "used_gb": 9.5}]),
                                                  _set("nvml.gpus.0.memory_used_gb", 10.0)),
     None, "gpu-busy", "warning", "kill 4242"),
    ("gpu-busy: other process computes", _all(_set("nvml.gpus.0.processes", [{"pid": 7, "used_gb": 0.3,
                                                                              "name": "python"}]),
                                              _set("nvml.gpus.0.util_percent", 97)),
     None, "gpu-busy", "warning", "kill 7"),
    ("gpu-busy: Windows", _all(_set("system.os", "Windows"), _set("nvml.gpus.0.util_percent", 80),
                               _set("nvml.gpus.0.processes", [{"pid": 7, "used_gb": None}, {"pid": 9}])),
     None, "gpu-busy", "warning", "taskkill /PID 7 /PID 9"),
    ("gpu-busy: busy with no process visible (another container)", _set("nvml.gpus.0.util_percent", 99), None,
     "gpu-busy", "warning", "host"),
    ("gpu-busy: pick the idle GPU", _all(lambda f: _copy_into(f, healthy_gpu_machine(gpus=2)),
                                         _set("nvml.gpus.0.processes", [{"pid": 1, "used_gb": 20.0}])),
     None, "gpu-busy", "warning", "--device 1"),
    ("gpu-throttled: thermal", _set("nvml.gpus.0.throttle_reasons", 0x40 | 0x20), None, "gpu-throttled", "warning",
     "airflow"),
    ("gpu-throttled: hardware slowdown", _set("nvml.gpus.0.throttle_reasons", 0x8), None, "gpu-throttled",
     "warning", "power connector"),
    ("gpu-throttled: power brake", _set("nvml.gpus.0.throttle_reasons", 0x80), None, "gpu-throttled", "warning",
     "power supply"),
    ("gpu-power-capped: limit lowered", _all(_set("nvml.gpus.0.power_limit_w", 300.0),
                                             _set("nvml.gpus.0.power_default_limit_w", 450.0)),
     None, "gpu-power-capped", "warning", "nvidia-smi -i 0 -pl 450"),
    ("gpu-power-capped: capped while idle", _all(_set("nvml.gpus.0.throttle_reasons", 0x4),
                                                 _set("nvml.gpus.0.util_percent", 3)),
     None, "gpu-power-capped", "warning", "nvidia-smi -q -d POWER"),
    ("gpu-throttled: near slowdown temperature", _set("nvml.gpus.0.temperature_c", 88), None, "gpu-throttled",
     "warning", "PERFORMANCE"),
    ("pcie-degraded: x4 under load", _all(_set("nvml.gpus.0.pcie_width", 4), _set("nvml.gpus.0.util_percent", 95)),
     None, "pcie-degraded", "warning", "x16"),
    ("pcie-degraded: x8 idle", _set("nvml.gpus.0.pcie_width", 8), None, "pcie-degraded", "info", "under load"),
    ("amp-unsafe-gpu: GTX 1660", _all(_set("nvml.gpus.0.name", "NVIDIA GeForce GTX 1660 SUPER"),
                                      _set("nvml.gpus.0.capability", [7, 5])), None, "amp-unsafe-gpu", "warning",
     "--no-amp"),
    ("amp-unsafe-gpu: Quadro T1000", _set("nvml.gpus.0.name", "Quadro T1000"), None, "amp-unsafe-gpu", "warning",
     "--no-amp"),
    ("multi-gpu-dataparallel-risk: 4 GPUs", lambda f: _copy_into(f, healthy_gpu_machine(gpus=4)), None,
     "multi-gpu-dataparallel-risk", "info", "--device 0,1,2,3"),
    ("windows-workers", _set("system.os", "Windows"), RuleContext(workers=8), "windows-workers", "info",
     "--workers 4"),
    ("yolov5-missing", _set("packages", {"yolov5": None}), None, "yolov5-missing", "error", "yolov5==7.0.14"),
    ("python-unsupported: 3.9", _set("system.python_version", "3.9.18"), None, "python-unsupported", "error",
     "venv"),
    ("python-unsupported: a pre-release 3.16 has no torch wheel", _set("system.python_version", "3.16.0a1"), None,
     "python-unsupported", "error", "python3.15 -m venv"),
    ("probe-timeout", _set("probe", ProbeInfo(completed=False, timed_out=True, timeout_s=60, hung_at="cuda")), None,
     "probe-timeout", "error", "nvidia-smi"),
    ("probe-failed", _set("probe", ProbeInfo(completed=False, error="exit code -11")), None, "probe-failed", "error",
     "yolostudio doctor"),
]


def _copy_into(target: EnvironmentFacts, source: EnvironmentFacts) -> None:
    for field in dataclasses.fields(source):
        setattr(target, field.name, getattr(source, field.name))


@pytest.mark.parametrize("case, mutate, ctx, finding_id, severity, fix_text", CASES, ids=[c[0] for c in CASES])
def test_rule_case(case, mutate, ctx, finding_id, severity, fix_text):
    facts = healthy_gpu_machine()
    mutate(facts)
    result = evaluate(facts, ctx)
    matching = [f for f in result.findings if f.code == finding_id]
    assert matching, f"{finding_id} not found in {result.ids()}"
    finding = matching[0]
    assert finding.severity == severity
    assert fix_text in finding.fix, finding.fix
    assert finding.message and finding.detail and finding.evidence
    assert all(isinstance(v, str) for v in finding.evidence.values())


def test_every_documented_id_has_a_case():
    issue_ids = {"no-gpu", "nvml-unavailable", "torch-missing", "torch-cpu-build", "driver-too-old",
                 "gpu-arch-unsupported", "cuda-unusable", "cudnn-unavailable", "shm-too-small", "ram-low", "disk-slow",
                 "disk-space-low", "gpu-busy", "gpu-throttled", "pcie-degraded", "amp-unsafe-gpu",
                 "multi-gpu-dataparallel-risk", "windows-workers", "yolov5-missing", "python-unsupported",
                 "cpu-limited", "ram-low-workers", "gpu-power-capped", "gpu-hidden"}
    assert issue_ids <= {c[3] for c in CASES}


def test_healthy_machine_has_no_findings_and_says_ready():
    facts = healthy_gpu_machine()
    result = evaluate(facts)
    assert result.findings == []
    assert {c.key: c.status for c in result.checks if c.status != "ok"} == {"windows": "n/a", "windows-commit": "n/a"}
    assert len(result.checks) == len(RULES)
    level, text = summarize(facts, result)
    assert (level, text) == ("ok", "Ready to train on NVIDIA GeForce RTX 4090 (24 GB) with CUDA 13.0")


def test_cpu_machine_summary_says_cpu_and_why():
    facts = cpu_machine()
    result = evaluate(facts)
    assert result.ids() == ["no-gpu"]
    level, text = summarize(facts, result)
    assert level == "info" and text.startswith("Training would run on the CPU — here is why")
    assert text == "Training would run on the CPU — here is why: no NVIDIA GPU was found"  # said once (issue 32)


def test_error_on_a_working_gpu_says_not_ready():
    facts = healthy_gpu_machine()
    facts.disks[0].free_gb = 1.0
    level, text = summarize(facts, evaluate(facts))
    assert level == "error" and text.startswith("Not ready to train — here is why: Only 1.0 GB free")


def test_warnings_on_a_working_gpu_still_ready():
    facts = healthy_gpu_machine()
    facts.nvml.gpus[0].throttle_reasons = 0x20
    level, text = summarize(facts, evaluate(facts))
    assert level == "warning" and text.startswith("Ready to train on")


def test_many_small_images_read_fast_are_not_a_slow_disk():
    facts = healthy_gpu_machine()
    facts.disks[0].read_mb_s, facts.disks[0].files_per_s = 60.0, 14000.0  # 5 KB images: low MB/s, plenty of images
    assert "disk-slow" not in evaluate(facts).ids()
    facts.disks[0].files_per_s = None  # no count: MB/s decides
    assert "disk-slow" in evaluate(facts).ids()


def test_consequences_are_not_reported_twice():
    facts = healthy_gpu_machine()
    _all(PASCAL, _no_cuda)(facts)
    ids = evaluate(facts).ids()
    assert "gpu-arch-unsupported" in ids and "cuda-unusable" not in ids


def test_gpu_error_summary_names_the_first_error():
    facts = healthy_gpu_machine()
    CPU_BUILD(facts)
    level, text = summarize(facts, evaluate(facts))
    assert level == "error" and "CPU-only" in text


def test_missing_facts_make_unknown_checks_and_other_rules_still_run():
    facts, problems = facts_from_dict({"version": 1, "system": {"os": "Linux", "shm_total_gb": 0.0625,
                                                                "container": "docker"}})
    assert any("torch" in p for p in problems)
    result = evaluate(facts, notes=problems)
    assert "shm-too-small" in result.ids()
    unknown = {c.key for c in result.checks if c.status == "not-checked"}
    assert {"python", "torch", "yolov5"} <= unknown
    assert all(c.note for c in result.checks if c.status == "not-checked")


def test_malformed_fact_values_do_not_crash_the_rules():
    facts = healthy_gpu_machine()
    facts.nvml.gpus[0].capability = ["x"]  # type: ignore[list-item]
    facts.disks[0].files_per_s = "fast"  # type: ignore[assignment]
    result = evaluate(facts)
    assert any(c.status == "not-checked" and "malformed" in c.note for c in result.checks)


def test_shm_estimate_scales_with_workers_batch_and_imgsz():
    small = shm_needed_gb(RuleContext(workers=2, batch=8, imgsz=320))
    assert shm_needed_gb(RuleContext(workers=4, batch=8, imgsz=320)) == pytest.approx(2 * small)
    assert shm_needed_gb(RuleContext(workers=2, batch=8, imgsz=640)) == pytest.approx(4 * small)


def test_shm_finding_offers_the_workers_that_fit():
    facts = healthy_gpu_machine()
    facts.system.shm_total_gb = shm_needed_gb(RuleContext(workers=3)) + 0.01
    finding = next(f for f in evaluate(facts, RuleContext(workers=8)).findings if f.code == "shm-too-small")
    assert finding.settings() == {"workers": 3}


def test_report():
    facts = healthy_gpu_machine()
    CPU_BUILD(facts)
    result = evaluate(facts)
    report = report_dict(facts, result, private=True)
    assert set(report) >= {"facts", "findings"}
    assert set(report["findings"][0]) >= {"id", "severity", "title", "detail", "evidence", "fix"}
    assert all(f["severity"] in {s.value for s in Severity} - {"ok"} for f in report["findings"])


def test_report_abbreviates_home(monkeypatch):
    monkeypatch.setenv("HOME", "/home/ann")
    report = report_dict(healthy_gpu_machine(), evaluate(healthy_gpu_machine()), private=True)
    assert report["facts"]["disks"][0]["path"] == "~/ws"
    assert report["facts"]["dataset"]["data_yaml"] == "~/data/data.yaml"


def test_cuda_join_by_uuid_not_index_is_reflected_in_kernel_failure():
    facts = healthy_gpu_machine(gpus=2)
    facts.torch.devices = [TorchGpuFacts(index=0, name="B", uuid="GPU-1", nvml_index=1, capability=[8, 9],
                                         kernel_ok=True),
                           TorchGpuFacts(index=1, name="A", uuid="GPU-0", nvml_index=0, capability=[8, 9],
                                         kernel_ok=False, kernel_error="boom")]
    finding = next(f for f in evaluate(facts).findings if f.code == "cuda-unusable")
    assert "GPU 1 (A)" in finding.message and finding.evidence["message"] == "boom"


def test_arch_constants_match_the_table():
    from core.environment.tables import WHEELS
    archs = {w.tag: [f"sm_{a}{b}" for a, b in w.archs] for w in WHEELS}
    assert archs == {"cu132": CU13_ARCHS, "cu130": CU13_ARCHS, "cu126": CU126_ARCHS}


# Healthy machines the checker used to flag, or might: each must raise nothing of the kind.
NO_ALARM = [
    ("desktop memory only: no compute process, 4% busy", _all(_set("nvml.gpus.0.memory_used_gb", 3.5),
                                                             _set("nvml.gpus.0.memory_total_gb", 8.0),
                                                             _set("nvml.gpus.0.util_percent", 4)), "gpu-busy"),
    ("an idle notebook's small CUDA context", _set("nvml.gpus.0.processes", [{"pid": 5, "used_gb": 0.4}]), "gpu-busy"),
    ("power cap under full load is by design", _all(_set("nvml.gpus.0.throttle_reasons", 0x4),
                                                    _set("nvml.gpus.0.util_percent", 99),
                                                    _set("nvml.gpus.0.processes", [{"pid": 8, "used_gb": 0.2}])),
     "gpu-power-capped"),
    ("power cap under full load is not throttling", _all(_set("nvml.gpus.0.throttle_reasons", 0x4),
                                                         _set("nvml.gpus.0.util_percent", 99)), "gpu-throttled"),
    ("limit set at the default", _all(_set("nvml.gpus.0.power_limit_w", 450.0),
                                      _set("nvml.gpus.0.power_default_limit_w", 450.0)), "gpu-power-capped"),
    ("a quota larger than the workers need", _all(_set("system.logical_cores", 64), _set("system.usable_cores", 16),
                                                  _set("system.cgroup_cpu_quota", 16.0)), "cpu-limited"),
    ("all CPUs usable", _all(_set("system.logical_cores", 4), _set("system.usable_cores", 4)), "cpu-limited"),
    ("8 GB free is enough for 8 forked workers", _set("system.ram_available_gb", 8.0), "ram-low-workers"),
]


@pytest.mark.parametrize("case, mutate, finding_id", NO_ALARM, ids=[c[0] for c in NO_ALARM])
def test_no_false_alarm(case, mutate, finding_id):
    facts = healthy_gpu_machine()
    mutate(facts)
    assert finding_id not in evaluate(facts).ids()


def test_cpu_limited_states_what_yolov5_will_start():
    facts = healthy_gpu_machine()
    _all(_set("system.logical_cores", 64), _set("system.usable_cores", 4), _set("system.cgroup_cpu_quota", 4.0),
         _set("system.container", "docker"))(facts)
    finding = next(f for f in evaluate(facts, RuleContext(workers=8, batch=16)).findings if f.code == "cpu-limited")
    assert "os.cpu_count() = 64" in finding.detail and "8 training and 16 validation workers" in finding.detail
    assert finding.settings() == {"workers": 3} and "docker run --cpus 9" in finding.fix


# 8 workers, batch 16, imgsz 640 on Linux: 8 train + 16 val forked workers and the training process ~ 6.4 GB.
@pytest.mark.parametrize("available, workers_that_fit", [(2.0, None), (2.9, 0), (3.6, 2), (6.0, 7), (6.5, 8)])
def test_ram_for_workers_says_how_many_fit(available, workers_that_fit):
    facts = healthy_gpu_machine()
    facts.system.ram_available_gb, facts.system.swap_total_gb = available, 0.0
    found = [f for f in evaluate(facts, RuleContext(workers=8, batch=16, imgsz=640)).findings
             if f.code == "ram-low-workers"]
    if workers_that_fit == 8:
        assert found == []
        return
    [finding] = found
    assert "out-of-memory killer" in finding.detail
    if workers_that_fit is None:
        assert finding.fix_kind == "advice" and "--workers 0" in finding.fix
    else:
        assert finding.settings() == {"workers": workers_that_fit}


def test_ram_for_workers_is_judged_without_a_dataset():
    facts = healthy_gpu_machine()
    facts.dataset = None
    facts.system.ram_available_gb, facts.system.swap_total_gb = 3.0, 0.0
    result = evaluate(facts)
    checks = {c.key: c for c in result.checks}
    assert "ram-low-workers" in result.ids() and checks["ram-workers"].status == "found"
    assert checks["ram"].status == "not-checked" and checks["ram"].note == "no dataset given"


# (wheel CUDA, driver, driver's CUDA, OS, wheel archs): every driver-too-old fix must reach a working state in one
# step — a pip install of a wheel this driver runs, or a driver at or above the *installed* wheel's floor.
DRIVERS = [
    ("13.0", "520.61.05", 11080, "Linux", ["sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"]),
    ("13.0", "535.104.05", 12020, "Linux", ["sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"]),
    ("13.0", "470.82.01", 11040, "Linux", ["sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"]),
    ("13.2", "470.82.01", 11040, "Linux", CU13_ARCHS),
    ("13.2", "515.65.01", 11070, "Linux", CU13_ARCHS),
    ("13.2", "472.12", 11040, "Windows", CU13_ARCHS),
    ("12.6", "515.65.01", 11070, "Windows", CU126_ARCHS),
    ("12.6", "450.80.02", 11000, "Linux", ["sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"]),
]


@pytest.mark.parametrize("wheel, driver, driver_cuda, os_name, archs", DRIVERS)
def test_driver_too_old_fix_works_in_one_step(wheel, driver, driver_cuda, os_name, archs):
    from core.environment.tables import choose_wheel, driver_floor, driver_meets, version_tuple

    facts = healthy_gpu_machine()
    _all(_set("torch.cuda", wheel), _set("torch.version", f"2.14.1+cu{wheel.replace('.', '')}"),
         _set("torch.arch_list", archs), _set("nvml.driver_version", driver),
         _set("nvml.cuda_driver_version", driver_cuda), _set("system.os", os_name), _no_cuda)(facts)
    [finding] = [f for f in evaluate(facts).findings if f.code == "driver-too-old"]
    floor = driver_floor(int(wheel.split(".")[0]), os_name)
    fitting = choose_wheel(driver, (driver_cuda // 1000, driver_cuda % 1000 // 10), [(8, 9)], os_name)
    if fitting is not None:
        assert f"whl/{fitting.tag}" in finding.fix and "\n" not in finding.fix
    else:
        named = [w for w in finding.fix.split() if w[:1].isdigit() and version_tuple(w)]
        assert named and driver_meets(named[0], floor), (finding.fix, floor)
        assert named[0] in finding.detail  # the detail names the same driver


def test_without_nvml_the_checks_that_need_it_say_not_checked_and_why():
    facts = healthy_gpu_machine()
    facts.nvml = NvmlFacts(available=False, error="LibraryNotFound", error_message="NVML Shared Library Not Found")
    result = evaluate(facts)
    checks = {c.key: c for c in result.checks}
    for key in ("driver", "gpu-state"):
        assert checks[key].status == "not-checked" and "NVML Shared Library Not Found" in checks[key].note
    assert "CUDA does start" in checks["driver"].note
    report = report_dict(facts, result)
    assert {c["key"]: c["status"] for c in report["checks"]}["gpu-state"] == "not-checked"
    assert not [c for c in result.checks if c.status == "ok" and c.key in ("driver", "gpu-state", "nvml")]


def test_a_check_skipped_because_of_an_earlier_error_is_not_ok():
    facts = healthy_gpu_machine()
    _all(_set("nvml.driver_version", "520.61.05"), _set("nvml.cuda_driver_version", None), _no_cuda)(facts)
    checks = {c.key: c for c in evaluate(facts).checks}
    assert checks["cuda"].status == "not-checked" and "driver is too old" in checks["cuda"].note
    assert checks["cudnn"].status == "not-checked"


def test_nvml_failing_for_another_reason_leaves_gpu_checks_unknown_not_inapplicable():
    facts = cpu_machine()
    facts.nvml = NvmlFacts(available=False, error="DriverNotLoaded", error_message="Driver Not Loaded")
    checks = {c.key: c for c in evaluate(facts).checks}
    assert checks["gpu-state"].status == "not-checked" and "Driver Not Loaded" in checks["gpu-state"].note


# Python support from torch's release table (torch 2.14: 3.10-3.15, pytorch/pytorch PR #194367)
@pytest.mark.parametrize("version, supported", [("3.10.14", True), ("3.14.0", True), ("3.15.2", True),
                                                ("3.16.0a1", False), ("3.9.18", False)])
def test_python_support_comes_from_the_release_table(version, supported):
    facts = healthy_gpu_machine()
    _all(CPU_BUILD, _set("system.python_version", version))(facts)
    findings = evaluate(facts).findings
    assert ("python-unsupported" not in [f.code for f in findings]) is supported
    pip_lines = [f.code for f in findings if "pip install" in f.fix]
    if supported:
        assert pip_lines == ["torch-cpu-build"]
    else:  # one first fix, the venv on a supported Python; no pip line that cannot succeed
        assert pip_lines == []
        python = next(f for f in findings if f.code == "python-unsupported")
        assert python.severity == "error" and "-m venv" in python.fix and "3.10–3.15" in python.detail


@pytest.mark.parametrize("wsl, container", [(True, ""), (False, "docker"), (True, "docker")])
def test_no_fix_installs_a_linux_driver_where_the_driver_is_not_this_systems(wsl, container):
    """WSL2: the Windows driver (NVIDIA's CUDA on WSL guide forbids a Linux driver inside WSL); a container: the
    host's. No fix of any finding says 'ubuntu-drivers' or 'modprobe' without 'host' there."""
    for driver, cuda in (("520.61.05", None), ("527.41", 12000), ("570.86.15", 12080)):
        facts = healthy_gpu_machine(capability=(12, 0))
        _all(_set("system.wsl", wsl), _set("system.container", container), _set("nvml.driver_version", driver),
             _set("nvml.cuda_driver_version", cuda), _no_cuda)(facts)
        fixes = [f.fix for f in evaluate(facts).findings]
        assert any("driver" in fix for fix in fixes), fixes
        for fix in fixes:
            assert "ubuntu-drivers" not in fix, fix
            if wsl:
                assert "not inside WSL" in fix or "pip install" in fix or "driver" not in fix, fix


def test_an_installed_release_outside_the_table_is_replaced_by_the_pinned_one():
    """torch 2.9.1+cu128 (a release the build table does not know, and a build 2.14 does not ship) on a 12.x
    driver: the fix installs the pinned 2.14.1 as cu126, never 2.9.1 or cu128."""
    facts = healthy_gpu_machine()
    _all(_set("torch.version", "2.9.1+cu128"), _set("torch.torchvision", "0.24.1+cu128"), _set("torch.cuda", "12.8"),
         _set("nvml.driver_version", "570.86.15"), _set("nvml.cuda_driver_version", 12080),
         _set("nvml.gpus.0.capability", [6, 1]), _set("torch.arch_list", CU13_ARCHS), _no_cuda)(facts)
    finding = next(f for f in evaluate(facts).findings if f.code == "gpu-arch-unsupported")
    assert "torch==2.14.1+cu126 torchvision==0.29.1+cu126" in finding.fix and "cu128" not in finding.fix
