"""Machines that are not a healthy NVIDIA desktop (issue 31), table-driven over facts *files*: each machine is
written as a facts file (version 3, or version 1 as an old app wrote it), loaded back the way ``yolostudio doctor
--facts`` loads it, and judged. Each case names the findings it must get and the remedies that must NOT appear —
the wrong fix for that machine (install NVIDIA's driver utilities on an AMD GPU, "run nvidia-smi" after a driver
update, a reinstall after a suspend, a pip line on a Python with no torch wheel).

The facts are the upstream ones each rule cites: PyTorch's "HIP (ROCm) semantics" (a ROCm build answers
torch.cuda.is_available() and has torch.version.hip, torch.version.cuda None), Jetson Linux's release file,
NVML's NVML_ERROR_LIB_RM_VERSION_MISMATCH and /proc/driver/nvidia/version, PyTorch's "CUDA unknown error"
warning (pytorch/pytorch#88639), Python's "DLL load failed while importing _C", torch 2.14's Python range.
"""

from __future__ import annotations

import json
from typing import Callable

import pytest

from core.environment.facts import (ADDED_LATER, EnvironmentFacts, GpuFacts, NvmlFacts, TorchFacts, TorchGpuFacts,
                                    load_facts, save_facts)
from core.environment.report import summarize
from core.environment.rules import evaluate
from tests.core.environment_builders import CU13_ARCHS, healthy_gpu_machine

#: torch's own warning when CUDA's init fails with CUDA_ERROR_UNKNOWN (pytorch/pytorch#88639).
TORCH_UNKNOWN = ("CUDA initialization: CUDA unknown error - this may be due to an incorrectly set up environment, "
                 "e.g. changing env variable CUDA_VISIBLE_DEVICES after program start. Setting the available devices "
                 "to be zero.")
NO_NVML = NvmlFacts(available=False, error="LibraryNotFound", error_message="NVML Shared Library Not Found")
#: What must never be said to a machine whose GPU is not an NVIDIA desktop card.
NVIDIA_DESKTOP_FIXES = ("libnvidia-ml", "utilities package", "ubuntu-drivers", "nvidia.com/Download",
                        "download.pytorch.org/whl/cu", "nvidia-smi lists", "modprobe nvidia")


def rocm_desktop(f: EnvironmentFacts) -> None:
    f.nvml = NvmlFacts(**vars(NO_NVML))
    f.torch = TorchFacts(installed=True, import_s=3.0, version="2.14.1+rocm6.4", dist_version="2.14.1+rocm6.4",
                         torchvision="0.29.1+rocm6.4", cuda=None, hip="6.4.43482-0f2d60242", cudnn_version=3004000,
                         cudnn_enabled=True, arch_list=[], cuda_available=True, device_count=1,
                         devices=[TorchGpuFacts(index=0, name="AMD Radeon RX 7900 XTX", memory_total_gb=24.0,
                                                capability=[11, 0], kernel_ok=True, arch_name="gfx1100")])


def rocm_without_gpu(f: EnvironmentFacts) -> None:
    rocm_desktop(f)
    f.torch.cuda_available, f.torch.device_count, f.torch.devices = False, 0, []


def rocm_damaged(f: EnvironmentFacts) -> None:
    rocm_desktop(f)
    f.torch = TorchFacts(installed=False, dist_version="2.14.1+rocm6.4",
                         import_error="ImportError: cannot import name '_C' from partially initialized module 'torch'")


def jetson(f: EnvironmentFacts, torch_cuda: str | None = "12.6") -> None:
    f.system.cpu_arch, f.system.tegra_release, f.system.tegra_soc = "aarch64", "R36.4.3", "tegra234"
    f.system.board_model = "NVIDIA Jetson AGX Orin Developer Kit"
    f.system.python_version = "3.10.12"
    f.nvml = NvmlFacts(**vars(NO_NVML))
    device = TorchGpuFacts(index=0, name="Orin", capability=[8, 7], memory_total_gb=61.4, kernel_ok=True)
    f.torch = TorchFacts(installed=True, version="2.5.0a0+872d972e41.nv24.08", cuda=torch_cuda, cudnn_version=90300,
                         cudnn_enabled=True, arch_list=["sm_72", "sm_87"] if torch_cuda else [],
                         cuda_available=torch_cuda is not None, device_count=1 if torch_cuda else 0,
                         devices=[device] if torch_cuda else [])


def jetson_pypi_cpu(f: EnvironmentFacts) -> None:
    jetson(f, torch_cuda=None)
    f.torch.version = "2.14.1"


def driver_mismatch(f: EnvironmentFacts) -> None:
    """A 570 → 580 upgrade without a reboot (cpnr/computing#109's shape)."""
    f.nvml = NvmlFacts(available=False, error="LibRmVersionMismatch",
                       error_message="RM has detected an NVML/RM version mismatch.",
                       kernel_module_version="570.133.07", library_version="580.82.07")
    f.torch.cuda_available, f.torch.device_count, f.torch.devices = False, 0, []
    f.torch.cuda_error = "CUDA initialization: CUDA driver initialization failed, you might not have a CUDA gpu."


def gt1030_beside_4090(f: EnvironmentFacts) -> None:
    """GT 1030 (sm_61) on bus 01, RTX 4090 on bus 02, cu130 (sm_75+); the probe counted fastest first."""
    gt, rtx = (GpuFacts(index=0, name="NVIDIA GeForce GT 1030", uuid="GPU-aaa", pci_bus_id="00000000:01:00.0",
                        memory_total_gb=2.0, capability=[6, 1], util_percent=0, processes=[]),
               GpuFacts(index=1, name="NVIDIA GeForce RTX 4090", uuid="GPU-bbb", pci_bus_id="00000000:02:00.0",
                        memory_total_gb=24.0, capability=[8, 9], util_percent=0, processes=[]))
    f.nvml.gpus = [gt, rtx]
    f.torch.arch_list = list(CU13_ARCHS)
    f.torch.cuda_error = "NVIDIA GeForce GT 1030 with CUDA capability sm_61 is not compatible with the current PyTorch"
    f.torch.device_count = 2
    f.torch.devices = [TorchGpuFacts(index=0, name=rtx.name, uuid="GPU-bbb", nvml_index=1, capability=[8, 9],
                                     memory_total_gb=24.0, kernel_ok=True),
                       TorchGpuFacts(index=1, name=gt.name, uuid="GPU-aaa", nvml_index=0, capability=[6, 1],
                                     memory_total_gb=2.0, kernel_ok=False, kernel_error="CUDA error: no kernel image "
                                     "is available for execution on the device")]


def laptop_after_suspend(f: EnvironmentFacts) -> None:
    f.system.laptop = True
    f.system.nvidia_modules = ["nvidia_uvm", "nvidia_drm", "nvidia_modeset", "nvidia"]
    f.nvml.gpus[0].name = "NVIDIA GeForce RTX 4070 Laptop GPU"
    f.torch.cuda_available, f.torch.device_count, f.torch.devices = False, 0, []
    f.torch.cuda_error = TORCH_UNKNOWN


def windows_dll(f: EnvironmentFacts) -> None:
    f.system.os, f.system.python_executable = "Windows", r"C:\ys\.venv\Scripts\python.exe"
    f.torch = TorchFacts(installed=False, import_error="ImportError: DLL load failed while importing _C: The "
                                                       "specified module could not be found.")


def linux_shared_library(f: EnvironmentFacts) -> None:
    f.torch = TorchFacts(installed=False, import_error="OSError: libcudnn.so.9: cannot open shared object file: No "
                                                       "such file or directory")


def python_without_wheels(f: EnvironmentFacts) -> None:
    f.system.python_version = "3.16.0"
    f.torch = TorchFacts(installed=False, import_error="ModuleNotFoundError: No module named 'torch'")
    f.packages["yolov5"] = None
    f.nvml.gpus[0].processes = None


def old_python_with_its_own_torch(f: EnvironmentFacts) -> None:
    """Python 3.9 with an old torch whose cuDNN is gone and a driver too old for it: every fix that would reinstall
    torch must be the venv on a supported Python instead."""
    f.system.python_version = "3.9.18"
    f.torch.version, f.torch.cudnn_version = "2.4.1+cu130", None
    f.nvml.driver_version, f.nvml.cuda_driver_version = "535.104.05", 12020
    f.torch.cuda_available, f.torch.device_count, f.torch.devices = False, 0, []
    f.packages["yolov5"] = None


# (case, machine, facts version written, findings required, findings forbidden, words no fix may hold)
CASES: list[tuple[str, Callable[[EnvironmentFacts], None], int, set[str], set[str], tuple[str, ...]]] = [
    ("ROCm desktop: what it is, and that it works", rocm_desktop, 3, {"gpu-rocm"},
     {"nvml-unavailable", "no-gpu", "torch-cpu-build", "cuda-unusable"}, NVIDIA_DESKTOP_FIXES + ("pip install",)),
    ("ROCm build that sees no GPU: permissions, keep the build", rocm_without_gpu, 3, {"gpu-rocm"},
     {"nvml-unavailable", "no-gpu", "torch-cpu-build"}, NVIDIA_DESKTOP_FIXES + ("pip install",)),
    ("ROCm build damaged: the same ROCm build again", rocm_damaged, 3, {"torch-cannot-load"},
     {"torch-missing", "nvml-unavailable", "no-gpu"}, NVIDIA_DESKTOP_FIXES),
    ("Jetson with JetPack's PyTorch", jetson, 3, {"jetson-torch"},
     {"nvml-unavailable", "no-gpu", "driver-too-old", "torch-cpu-build", "cuda-unusable"},
     NVIDIA_DESKTOP_FIXES + ("pip install",)),
    ("Jetson with PyPI's CPU-only PyTorch", jetson_pypi_cpu, 3, {"jetson-torch"},
     {"nvml-unavailable", "no-gpu", "torch-cpu-build"}, NVIDIA_DESKTOP_FIXES + ("pip install",)),
    ("driver updated without a reboot", driver_mismatch, 3, {"driver-mismatch"},
     {"no-gpu", "nvml-unavailable", "cuda-unusable", "torch-cpu-build"},
     ("Run nvidia-smi", "install the driver", "install its driver", "pip install", "ubuntu-drivers")),
    ("GT 1030 beside an RTX 4090 on cu130", gt1030_beside_4090, 3, {"gpu-arch-unsupported"},
     {"cuda-unusable", "no-gpu"}, ("Reboot", "reboot", "pip install")),
    ("laptop after suspend: reload nvidia_uvm", laptop_after_suspend, 3, {"cuda-unusable"},
     {"no-gpu", "torch-cpu-build"}, ("pip install", "reinstall the", "--force-reinstall")),
    ("Windows DLL failure in a version-1 file", windows_dll, 1, {"torch-cannot-load"}, {"torch-missing"},
     ("Requirement already satisfied",)),
    ("Linux shared library missing in a version-1 file", linux_shared_library, 1, {"torch-cannot-load"},
     {"torch-missing"}, ()),
    ("Python with no torch wheel", python_without_wheels, 3, {"python-unsupported", "torch-missing", "yolov5-missing"},
     set(), ("pip install",)),
    ("Python 3.9 with a torch of its own", old_python_with_its_own_torch, 3,
     {"python-unsupported", "driver-too-old", "yolov5-missing"}, set(), ("pip install",)),
]


def _write(facts: EnvironmentFacts, version: int, path) -> None:
    if version == 3:
        save_facts(facts, path)
        return
    raw = facts.to_dict()
    raw["version"] = 1

    def strip(value):  # a version-1 file has none of the fields added later
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in ADDED_LATER}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value
    path.write_text(json.dumps(strip(raw)), encoding="utf-8")


@pytest.mark.parametrize("case, machine, version, required, forbidden, words", CASES, ids=[c[0] for c in CASES])
def test_machine(tmp_path, case, machine, version, required, forbidden, words):
    facts = healthy_gpu_machine()
    machine(facts)
    _write(facts, version, tmp_path / "facts.json")
    loaded, problems = load_facts(tmp_path / "facts.json")
    assert problems == []  # an older file loads without complaints
    result = evaluate(loaded)
    ids = set(result.ids())
    assert required <= ids, result.ids()
    assert not forbidden & ids, result.ids()
    for finding in result.findings:
        for word in words:
            assert word not in finding.fix, (finding.code, word, finding.fix)
    assert not any(c.note.startswith("facts malformed") for c in result.checks)


def _finding(machine, code: str):
    facts = healthy_gpu_machine()
    machine(facts)
    result = evaluate(facts)
    return facts, result, next(f for f in result.findings if f.code == code)


def test_rocm_says_what_it_is_and_keeps_the_build():
    facts, result, rocm = _finding(rocm_desktop, "gpu-rocm")
    assert rocm.severity == "info" and "6.4" in str(rocm.evidence) and "gfx1100" in str(rocm.evidence)
    assert summarize(facts, result) == ("ok", "Ready to train on AMD Radeon RX 7900 XTX (24 GB) with ROCm (HIP "
                                              "6.4.43482-0f2d60242)")
    checks = {c.key: c for c in result.checks}
    assert checks["nvml"].status == "n/a" and "ROCm" in checks["nvml"].note
    _, _, blocked = _finding(rocm_without_gpu, "gpu-rocm")
    assert blocked.severity == "warning" and "render,video" in blocked.fix and "Keep this ROCm build" in blocked.detail
    _, _, damaged = _finding(rocm_damaged, "torch-cannot-load")
    assert "torch==2.14.1+rocm6.4" in damaged.fix and "whl/rocm6.4" in damaged.fix


def test_jetson_names_the_board_and_jetpacks_pytorch():
    _, result, info = _finding(jetson, "jetson-torch")
    assert info.severity == "info" and "Orin" in str(info.evidence) and "R36.4.3" in str(info.evidence)
    assert {c.key: c.status for c in result.checks}["driver"] == "n/a"
    _, _, cpu = _finding(jetson_pypi_cpu, "jetson-torch")
    assert cpu.severity == "error" and "install-pytorch-jetson-platform" in cpu.fix and "R36.4.3" in cpu.fix


def test_driver_mismatch_compares_the_module_with_the_library_and_says_reboot():
    _, result, mismatch = _finding(driver_mismatch, "driver-mismatch")
    assert mismatch.severity == "error" and mismatch.fix.startswith("sudo reboot")
    assert "rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia" in mismatch.fix
    assert set(mismatch.evidence.values()) >= {"570.133.07", "580.82.07"}
    facts = healthy_gpu_machine()
    driver_mismatch(facts)
    facts.nvml.error, facts.nvml.error_message = "Unknown", "Unknown Error"  # the versions alone tell it
    assert "driver-mismatch" in evaluate(facts).ids()
    facts.system.container = "docker"
    assert "On the host" in next(f for f in evaluate(facts).findings if f.code == "driver-mismatch").fix


def test_one_cause_one_finding_and_the_index_the_worker_uses():
    _, result, arch = _finding(gt1030_beside_4090, "gpu-arch-unsupported")
    assert [f.code for f in result.findings].count("gpu-arch-unsupported") == 1
    assert arch.severity == "warning"
    # NVML (and the worker, CUDA_DEVICE_ORDER=PCI_BUS_ID) count the RTX 4090 second: --device 1, named beside it
    assert arch.fix == "--device 1   # NVIDIA GeForce RTX 4090"
    assert [(c.field, c.value) for c in arch.changes] == [("device", "1")]
    assert arch.evidence["usable GPU (--device)"] == "1: NVIDIA GeForce RTX 4090"
    cuda = {c.key: c for c in result.checks}["cuda"]
    assert cuda.status == "ok"  # the GT 1030's failed kernel is the architecture's, said once above


def test_probe_in_the_workers_order_keeps_the_probes_index():
    facts = healthy_gpu_machine()
    gt1030_beside_4090(facts)
    facts.system.env = {"CUDA_DEVICE_ORDER": "PCI_BUS_ID"}  # the app's probe, through worker_env
    for d in facts.torch.devices:
        d.index = d.nvml_index  # PCI order: torch counts as NVML does
    facts.torch.devices.sort(key=lambda d: d.index)
    arch = next(f for f in evaluate(facts).findings if f.code == "gpu-arch-unsupported")
    assert arch.fix == "--device 1   # NVIDIA GeForce RTX 4090"


def test_suspend_reload_commands():
    _, _, laptop = _finding(laptop_after_suspend, "cuda-unusable")
    assert laptop.fix.startswith("sudo rmmod nvidia_uvm && sudo modprobe nvidia_uvm") and laptop.fix_kind == "command"
    assert "laptop" in laptop.detail and "suspend" in laptop.detail
    facts = healthy_gpu_machine()
    laptop_after_suspend(facts)
    facts.system.nvidia_modules = ["nvidia_drm", "nvidia_modeset", "nvidia"]  # the module did not come back
    assert next(f for f in evaluate(facts).findings if f.code == "cuda-unusable").fix.startswith(
        "sudo modprobe nvidia_uvm")


def test_cannot_load_without_a_version_says_so_and_matches_the_loader():
    _, _, dll = _finding(windows_dll, "torch-cannot-load")
    assert dll.message == "PyTorch is installed but cannot load" and "vc_redist" in dll.fix
    _, _, so = _finding(linux_shared_library, "torch-cannot-load")
    assert "--force-reinstall" in so.fix and "libcudnn.so.9" in so.detail
    facts = healthy_gpu_machine()
    facts.torch = TorchFacts(installed=False, import_error="ModuleNotFoundError: No module named 'torch'")
    assert "torch-missing" in evaluate(facts).ids()  # only "No module named 'torch'" is a missing torch


def test_memory_and_compute_mode_explain_a_failed_kernel_once():
    facts = healthy_gpu_machine()
    facts.nvml.gpus[0].compute_mode = "Prohibited"
    facts.torch.devices[0].kernel_ok = False
    facts.torch.devices[0].kernel_error = "CUDA error: all CUDA-capable devices are busy or unavailable"
    result = evaluate(facts)
    mode = next(f for f in result.findings if f.code == "gpu-compute-mode")
    assert mode.severity == "error" and mode.fix.startswith("sudo nvidia-smi -i 0 -c DEFAULT")
    assert "cuda-unusable" not in result.ids()
    facts = healthy_gpu_machine()
    facts.nvml.gpus[0].retired_pages_pending = True
    assert "Reboot" in next(f for f in evaluate(facts).findings if f.code == "gpu-memory-pending").fix
    facts.nvml.gpus[0].remapping_failed = True
    assert next(f for f in evaluate(facts).findings if f.code == "gpu-memory-faulty").severity == "error"


def test_every_machine_reads_in_chinese():
    """The same findings in 简体中文 (as ``test_environment_words_zh`` holds the NVIDIA desktop cases): every word
    read is Chinese, a name the facts hold, or a term Chinese documentation writes in Latin letters."""
    from core import i18n
    from tests.core.test_environment_words_zh import _names
    from tests.latin_words import stray_words

    stray = []
    i18n.set_language("zh_CN")
    try:
        for case, machine, *_ in CASES:
            facts = healthy_gpu_machine()
            machine(facts)
            result = evaluate(facts)
            names = _names(facts) | {w for text in (facts.system.board_model or "", facts.torch.version or "")
                                     for w in text.split()}
            texts = [summarize(facts, result)[1], *(c.note for c in result.checks)]
            for f in result.findings:
                texts += [f.message, f.detail, *f.evidence, *([f.fix] if f.fix_kind != "command" else [])]
            stray += [f"{case}: {text!r} — {words}" for text in texts if (words := stray_words(text, names))]
    finally:
        i18n.set_language("en")
    assert stray == [], "\n".join(sorted(set(stray)))


def test_an_exclusive_gpu_held_by_another_process_is_one_finding():
    facts = healthy_gpu_machine(gpus=2)
    g = facts.nvml.gpus[0]
    g.compute_mode, g.processes, g.util_percent = "ExclusiveProcess", [{"pid": 4242, "used_gb": 9.0}], 90
    result = evaluate(facts)
    mode = next(f for f in result.findings if f.code == "gpu-compute-mode")
    assert mode.severity == "warning" and "4242" in mode.fix and "--device 1" in mode.fix
    assert "gpu-busy" not in result.ids()
