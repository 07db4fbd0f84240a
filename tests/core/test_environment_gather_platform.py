"""The version-3 gatherers, for real: ``gather_platform`` on planted files (a temporary folder standing in for
``/`` through its ``root``) and on this machine (no GPU), and ``gather_nvml``'s compute mode, ECC and retired
pages through a fake NVML that answers the way NVML's API reference says each call does."""

from __future__ import annotations

import os
import platform
from pathlib import Path

import pytest

from core.environment.facts import NvmlFacts, SystemFacts
from core.environment.gather_nvml import gather_nvml
from core.environment.gather_platform import (gather_platform, is_laptop, kernel_module_version, library_version,
                                              tegra_release, tegra_soc)
from tests.fixtures.fake_nvml import FakeNvml

ORIN_COMPATIBLE = "nvidia,p3737-0000+p3701-0005\0nvidia,p3701-0005\0nvidia,tegra234\0"


def _plant(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.mark.parametrize("text, version", [
    ("NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22 01:44:30 UTC 2024\nGCC version: gcc 12\n",
     "550.54.14"),
    ("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.126.09  Release Build  (dvs-builder@U22)  Wed Jan "
     "7 22:51:36 UTC 2026\n", "580.126.09"),  # cpnr/computing#109
    ("NVRM version: NVIDIA UNIX aarch64 Kernel Module  535.104.05  Sat Aug 19 01:13:48 UTC 2023\n", "535.104.05"),
    ("", None),
])
def test_kernel_module_version(text, version):
    assert kernel_module_version(text) == version


def test_tegra_and_chassis_words():
    assert tegra_release("# R36 (release), REVISION: 4.3, GCID: 38968081, BOARD: generic, EABI: aarch64") == "R36.4.3"
    assert tegra_release("# R35 (release), REVISION: 4.1, GCID: 33958178, BOARD: t186ref") == "R35.4.1"
    assert tegra_release("") == "" and tegra_soc(ORIN_COMPATIBLE) == "tegra234"
    assert tegra_soc("raspberrypi,4-model-b\0brcm,bcm2711\0") == ""
    assert [is_laptop(v) for v in ("10\n", "9", "3", "", "x")] == [True, True, False, None, None]


def test_planted_jetson(tmp_path):
    root = _plant(tmp_path, {"etc/nv_tegra_release": "# R36 (release), REVISION: 4.3, GCID: 38968081\n",
                             "proc/device-tree/compatible": ORIN_COMPATIBLE,
                             "proc/device-tree/model": "NVIDIA Jetson AGX Orin Developer Kit\0",
                             "proc/modules": "nvgpu 2621440 23 - Live 0x0\n"})
    system, nvml = SystemFacts(os="Linux"), NvmlFacts()
    gather_platform(system, nvml, root, machine="aarch64")
    assert (system.cpu_arch, system.tegra_release, system.tegra_soc) == ("aarch64", "R36.4.3", "tegra234")
    assert system.board_model == "NVIDIA Jetson AGX Orin Developer Kit" and system.nvidia_modules == []
    assert nvml.kernel_module_version is None and "kernel_module_version" in nvml.unknown
    assert system.laptop is None and "laptop" in system.unknown


def test_planted_desktop_after_a_driver_update(tmp_path):
    """The module in memory is 570, the library on disk 580: the two versions the mismatch finding compares."""
    lib = tmp_path / "usr/lib/x86_64-linux-gnu"
    _plant(tmp_path, {"proc/driver/nvidia/version": "NVRM version: NVIDIA UNIX x86_64 Kernel Module  570.133.07  "
                                                   "Fri Feb 28 2025\n",
                      "sys/class/dmi/id/chassis_type": "10\n",
                      "proc/modules": "nvidia_uvm 1384448 0 - Live 0x0\nnvidia_drm 77824 4 - Live 0x0\n"
                                      "nvidia 11321344 60 nvidia_uvm, Live 0x0\nsnd 1 2 - Live 0x0\n",
                      "usr/lib/x86_64-linux-gnu/libnvidia-ml.so.580.82.07": "",
                      "usr/lib/x86_64-linux-gnu/libnvidia-ml.so.570.133.07": ""})
    os.symlink("libnvidia-ml.so.580.82.07", lib / "libnvidia-ml.so.1")
    system, nvml = SystemFacts(os="Linux"), NvmlFacts()
    gather_platform(system, nvml, tmp_path, machine="x86_64")
    assert (nvml.kernel_module_version, nvml.library_version) == ("570.133.07", "580.82.07")
    assert system.laptop is True and system.nvidia_modules == ["nvidia_uvm", "nvidia_drm", "nvidia"]
    assert (system.tegra_release, system.tegra_soc, system.board_model) == ("", "", "")
    (lib / "libnvidia-ml.so.1").unlink()  # two versions and no link: which one loads is unknown
    assert library_version(tmp_path) is None
    (lib / "libnvidia-ml.so.570.133.07").unlink()
    assert library_version(tmp_path) == "580.82.07"


def test_off_linux_the_linux_files_are_not_read(tmp_path):
    system, nvml = SystemFacts(os="Windows"), NvmlFacts()
    gather_platform(system, nvml, tmp_path, machine="AMD64")
    assert system.cpu_arch == "AMD64" and system.tegra_release is None and "tegra_release" in system.unknown
    assert nvml.kernel_module_version is None and "kernel_module_version" in nvml.unknown


def test_this_machine_without_a_gpu():
    if platform.system() != "Linux":
        pytest.skip("the files are Linux's")
    system, nvml = SystemFacts(os="Linux"), NvmlFacts()
    gather_platform(system, nvml)
    assert system.cpu_arch == platform.machine()
    assert system.tegra_release == "" and system.tegra_soc == ""  # a PC or a VM, not a Jetson
    # no nvidia module is loaded here; a sandbox may hide /proc/modules, and then it says so
    assert system.nvidia_modules == [] or (system.nvidia_modules is None and system.unknown["nvidia_modules"])
    assert nvml.kernel_module_version is None and nvml.unknown["kernel_module_version"]
    assert system.laptop is not None or "laptop" in system.unknown


class HealthNvml(FakeNvml):
    """The fake GPU answering the version-3 calls as a data-center card would (pynvml's return shapes)."""

    def nvmlDeviceGetComputeMode(self, h): return 3  # NVML_COMPUTEMODE_EXCLUSIVE_PROCESS
    def nvmlDeviceGetEccMode(self, h): return [1, 1]  # [current, pending]
    def nvmlDeviceGetTotalEccErrors(self, h, error_type, counter_type):
        assert (error_type, counter_type) == (1, 0)  # uncorrected, volatile
        return 2
    def nvmlDeviceGetRetiredPages(self, h, cause): return [0x1000] if cause == 1 else []
    def nvmlDeviceGetRetiredPagesPendingStatus(self, h): return 1
    def nvmlDeviceGetRemappedRows(self, h): return (0, 1, 1, 0)  # corrected, uncorrected, pending, failure


def test_nvml_health_facts():
    gpu = gather_nvml(HealthNvml()).gpus[0]
    assert (gpu.compute_mode, gpu.ecc_enabled, gpu.ecc_uncorrected) == ("ExclusiveProcess", True, 2)
    assert (gpu.retired_pages, gpu.retired_pages_pending) == (1, True)
    assert (gpu.remapped_rows_pending, gpu.remapping_failed) == (True, False)


def test_nvml_health_unsupported_is_recorded_not_raised():
    """A GeForce card: NVML has no ECC there, and an older pynvml may lack a call — both NotSupported, never None
    without a reason."""
    nvml = FakeNvml()
    nvml.nvmlDeviceGetEccMode = lambda h: (_ for _ in ()).throw(nvml.NotSupported())
    gpu = gather_nvml(nvml).gpus[0]
    for key in ("compute_mode", "ecc_enabled", "retired_pages", "retired_pages_pending", "remapped_rows_pending",
                "remapping_failed"):
        assert getattr(gpu, key) is None and gpu.unknown[key] == "NotSupported", key

