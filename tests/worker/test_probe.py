"""The probe worker: the real probe on this machine (no GPU needed), NVML errors, joins, a hung probe."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import pytest

from core.demo.dataset import DemoSpec, generate_demo_dataset
from core.environment.facts import EnvironmentFacts, GpuFacts, TorchGpuFacts
from core.environment.gather_nvml import gather_nvml
from core.environment.gather_system import detect_container, detect_wsl, parse_cgroup_quota
from cli.verbs.doctor import gather_facts
from core.environment.probe_launch import probe_job, probe_spec
from core.environment.rules import evaluate
from core.environment.nvml import error_kind
from core.job.protocol import encode, make_event
from core.worker.probe_job import gpu_to_test
from core.worker.probe_torch import join_nvml
from tests.fixtures.fake_nvml import FakeNvml, nvml_raising

#: Fields whose None is a meaning (absent by nature), not an unread fact.
NONE_MEANS_ABSENT = {
    "torch": {"import_error", "cuda", "cuda_error", "torchvision", "hip"},  # hip: only a ROCm build has one
    "nvml": {"error", "error_message"},
    "system": {"cgroup_cpu_quota", "commit_limit_gb", "commit_available_gb"},  # the commit limit: Windows only
}


def _unexplained_nones(facts: EnvironmentFacts) -> list[str]:
    """Every None fact must be explained: in its section's ``unknown``, or by the section's own error."""
    out = []
    for section in ("system", "torch", "nvml"):
        obj = getattr(facts, section)
        if section == "nvml" and not obj.available:
            assert obj.error and obj.error_message
            continue
        if section == "torch" and obj.installed is False:
            continue
        for f in dataclasses.fields(obj):
            if getattr(obj, f.name) is None and f.name not in obj.unknown \
                    and f.name not in NONE_MEANS_ABSENT.get(section, set()):
                out.append(f"{section}.{f.name}")
    for disk in facts.disks:
        out += [f"disk.{k}" for k in ("free_gb", "read_mb_s") if getattr(disk, k) is None and k not in disk.unknown]
    return out


@pytest.fixture(scope="module")
def probed(tmp_path_factory):
    """One real probe of this machine, with a small generated dataset (its disk is timed, its cache estimated)."""
    root = tmp_path_factory.mktemp("probe")
    data = generate_demo_dataset(root / "data", DemoSpec(n_train=24, n_val=4, image_size=64, seed=1))
    events: list[dict] = []
    facts, notes = gather_facts(root / "ws", str(data), imgsz=320, read_budget_s=0.5, on_event=events.append)
    return facts, notes, events


def test_real_probe_facts_are_complete(probed):
    facts, notes, events = probed
    assert notes == []
    assert facts.probe.completed and not facts.probe.timed_out
    assert facts.system.os and facts.system.python_version and facts.system.usable_cores >= 1
    assert facts.system.ram_total_gb > 0 and facts.system.container is not None and facts.system.wsl is not None
    assert facts.torch.installed is True and facts.torch.version and facts.torch.import_s > 0
    assert facts.packages["yolov5"]
    assert _unexplained_nones(facts) == []
    assert facts.dataset.images == 24 and facts.dataset.cache_ram_gb > 0 and facts.dataset.imgsz == 320
    dataset_disk = next(d for d in facts.disks if d.role == "dataset")
    assert dataset_disk.files_read > 0 and dataset_disk.read_mb_s > 0
    steps = [(e["step"], e["index"], e["count"]) for e in events if e["type"] == "probe_step"]
    cuda = [("cuda", 3, 4)] if facts.torch.cuda and gpu_to_test(facts.nvml) else []  # a GPU here to test
    assert steps == [("system", 0, 4), ("nvml", 1, 4), ("disks", 2, 4), ("torch", 3, 4), *cuda]
    assert events[-1]["type"] == "done" and events[-1]["status"] == "completed"
    assert sum(1 for e in events if e["type"] == "facts" and e["final"]) == 1


def test_real_probe_findings_are_sensible(probed):
    facts, _, _ = probed
    result = evaluate(facts)
    assert result.errors == [], [f.code for f in result.errors]
    if not facts.nvml.gpus and not facts.torch.cuda_available:  # this CI machine: no GPU
        assert "no-gpu" in result.ids()
        assert facts.torch.devices == []
    for finding in result.findings:
        assert finding.fix and finding.evidence


@pytest.mark.parametrize("kind", ["LibraryNotFound", "DriverNotLoaded", "NoPermission", "GpuIsLost", "Unknown"])
def test_nvml_errors_are_recorded_not_raised(kind):
    facts = gather_nvml(nvml_raising(kind))
    assert facts.available is False and facts.error == kind and facts.error_message == "nvml says no"


def test_error_kind_of_import_error():
    assert error_kind(ImportError("no pynvml")) == "NotInstalled"


def test_nvml_facts_with_unsupported_readings():
    facts = gather_nvml(FakeNvml())
    assert facts.available and facts.driver_version == "570.86.15" and facts.cuda_driver_version == 12080
    gpu = facts.gpus[0]
    assert (gpu.name, gpu.uuid, gpu.pci_bus_id, gpu.capability) == ("NVIDIA GeForce RTX 4090", "GPU-abc",
                                                                      "00000000:01:00.0", [8, 9])
    assert gpu.memory_total_gb == 24 and gpu.power_w == 35 and gpu.power_default_limit_w == 450
    assert gpu.processes == [{"pid": 77, "used_gb": None, "name": "python3.11"}]
    assert gpu.slowdown_temp_c is None and gpu.unknown["slowdown_temp_c"] == "NotSupported"
    assert gpu.pcie_width_max is None and gpu.unknown["pcie_width_max"] == "NotSupported"


def test_torch_devices_join_nvml_by_uuid_then_pci_bus_not_index():
    gpus = [GpuFacts(index=0, uuid="GPU-aaa", pci_bus_id="00000000:01:00.0"),
            GpuFacts(index=1, uuid="GPU-bbb", pci_bus_id="00000000:41:00.0")]
    devices = [TorchGpuFacts(index=0, uuid="bbb"), TorchGpuFacts(index=1, uuid=None, pci_bus_id="0000:01:00.0")]
    join_nvml(devices, gpus)
    assert [d.nvml_index for d in devices] == [1, 0]


@pytest.mark.parametrize("cpu_max, quota, period, cores", [
    ("200000 100000", None, None, 2.0), ("max 100000", None, None, None), (None, "150000", "100000", 1.5),
    (None, "-1", "100000", None), (None, None, None, None)])
def test_cgroup_quota(cpu_max, quota, period, cores):
    assert parse_cgroup_quota(cpu_max, quota, period) == cores


@pytest.mark.parametrize("files, cgroup, env, found", [
    ({"/.dockerenv": True}, "0::/", {}, "docker"), ({"/run/.containerenv": True}, "", {}, "podman"),
    ({}, "1:cpu:/kubepods/pod1", {}, "kubernetes"), ({}, "0::/", {"KUBERNETES_SERVICE_HOST": "10.0.0.1"}, "kubernetes"),
    ({}, "1:name=systemd:/lxc/box", {}, "lxc"), ({}, "0::/init.scope", {}, "")])
def test_container_detection(files, cgroup, env, found):
    assert detect_container(files, cgroup, env) == found


def test_wsl_detection():
    assert detect_wsl("5.15.90.1-microsoft-standard-WSL2", None)
    assert not detect_wsl("6.8.0-45-generic", "Linux version 6.8.0 (gcc)")


HANG_LIMIT_S = 8.0


def _script(tmp_path: Path, lines: list[dict], then: str) -> list[str]:
    """A stand-in probe that writes ``lines`` and then runs ``then`` (python code)."""
    body = "".join(encode(e) for e in lines)
    path = tmp_path / "fake_probe.py"
    path.write_text(f"import sys, time\nsys.stdout.write({body!r})\nsys.stdout.flush()\n{then}\n", encoding="utf-8")
    return [sys.executable, "-S", str(path)]  # -S: no site import, the quickest start


def test_hung_probe_is_killed_and_reported(tmp_path):
    partial = EnvironmentFacts().to_dict()
    partial["system"]["os"] = "Linux"
    lines = [make_event("probe_step", step="torch", index=3, count=5),
             make_event("facts", facts=partial, final=False), make_event("probe_step", step="cuda", index=4, count=5)]
    # The limit must leave the stand-in time to start and write its lines on a busy machine (1 s did not).
    facts, _ = gather_facts(tmp_path, timeout_s=HANG_LIMIT_S, argv=_script(tmp_path, lines, "time.sleep(600)"))
    assert facts.probe.timed_out and facts.probe.hung_at == "cuda" and facts.probe.timeout_s == HANG_LIMIT_S
    assert facts.system.os == "Linux"  # what was read before the hang is kept
    finding = next(f for f in evaluate(facts).findings if f.code == "probe-timeout")
    assert finding.severity == "error" and "cuda" in finding.detail


def test_crashed_probe_is_reported_with_what_it_read(tmp_path):
    lines = [make_event("probe_step", step="system", index=0, count=5)]
    facts, notes = gather_facts(tmp_path, timeout_s=30,
                                argv=_script(tmp_path, lines, "sys.stderr.write('Segmentation fault\\n'); sys.exit(139)"))
    assert not facts.probe.completed and not facts.probe.timed_out
    assert "Segmentation fault" in facts.probe.error
    assert "probe-failed" in evaluate(facts, notes=notes).ids()


@pytest.mark.parametrize(("nvml", "tested"), [
    ({"available": True, "gpus": [GpuFacts(name="RTX 4090")]}, True),
    ({"available": True, "gpus": []}, False),  # NVML read the machine: no GPU
    ({"available": False, "error": "LibraryNotFound"}, False),  # no NVIDIA driver: no GPU can be used
    ({"available": False, "error": "DriverNotLoaded"}, False),
    ({"available": False, "error": "NoPermission"}, True),  # a GPU may be there: CUDA's test says
    ({"available": False, "error": "GpuIsLost"}, True),
])
def test_cuda_is_a_step_only_where_there_may_be_a_gpu(nvml, tested):
    from core.environment.facts import NvmlFacts

    assert gpu_to_test(NvmlFacts(**nvml)) is tested


def test_probe_spec_round_trip(tmp_path):
    spec = probe_spec(tmp_path, "data.yaml", imgsz=512)
    job = probe_job(tmp_path, "data.yaml", imgsz=512)
    path = job.write()
    assert json.loads(path.read_text(encoding="utf-8")) == spec and Path(spec["data"]).is_absolute()
    assert job.argv()[-2:] == ["probe", str(path)]
    job.discard()
    assert not path.exists()


def test_torch_that_fails_to_import_is_installed_but_cannot_load(monkeypatch):
    """An import that raises (a DLL or shared library torch's loader cannot load) while torch's distribution is
    there: the facts keep both, so the rules say "installed but cannot load", not "not installed"."""
    import builtins
    import importlib.metadata as md

    from core.worker.probe_torch import gather_torch

    try:
        installed = md.version("torch")
    except md.PackageNotFoundError:
        pytest.skip("torch is not installed here")
    real_import = builtins.__import__

    def failing(name, *args, **kwargs):
        if name == "torch":
            raise ImportError("libcudnn.so.9: cannot open shared object file: No such file or directory")
        return real_import(name, *args, **kwargs)

    monkeypatch.delitem(sys.modules, "torch", raising=False)
    monkeypatch.setattr(builtins, "__import__", failing)
    facts = gather_torch([], run_kernels=False)
    assert facts.installed is False and facts.dist_version == installed and "libcudnn.so.9" in facts.import_error


def test_torch_reports_its_hip_build_here():
    """This machine's torch is not a ROCm build: the probe's HIP fact is None (a meaning: no ROCm), read for real
    from ``torch.version.hip`` as PyTorch's "HIP (ROCm) semantics" tells a ROCm build apart."""
    import torch

    from core.worker.probe_torch import gather_torch

    facts = gather_torch([], run_kernels=False)
    assert facts.installed and facts.hip == getattr(torch.version, "hip", None) and facts.hip is None


def test_real_probe_reads_the_platform(probed):
    """The version-3 platform facts come from the probe itself (``gather_platform`` in its nvml step)."""
    import platform

    facts, _notes, _events = probed
    assert facts.system.cpu_arch == platform.machine() and facts.system.tegra_release is not None
    assert facts.nvml.kernel_module_version is None and "kernel_module_version" in facts.nvml.unknown
