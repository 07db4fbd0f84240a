"""Injected environment facts for the rule, CLI and page tests: a healthy GPU machine, a CPU machine."""

from __future__ import annotations

from core.environment.facts import (DatasetFacts, DiskFacts, EnvironmentFacts, GpuFacts, NvmlFacts, SystemFacts,
                                    TorchFacts, TorchGpuFacts)

#: torch 2.14's cu130/cu132 arch list (pytorch/pytorch#190355: Turing 7.5 - Blackwell 12.0); cu126's is CU126_ARCHS.
CU13_ARCHS = ["sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"]
CU126_ARCHS = ["sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"]


def healthy_gpu_machine(gpus: int = 1, name: str = "NVIDIA GeForce RTX 4090", capability: tuple[int, int] = (8, 9),
                        ) -> EnvironmentFacts:
    nvml_gpus = [GpuFacts(index=i, name=name, uuid=f"GPU-{i}", pci_bus_id=f"00000000:0{i + 1}:00.0",
                          memory_total_gb=24.0, memory_used_gb=0.4, capability=list(capability), util_percent=0,
                          temperature_c=40, slowdown_temp_c=90, power_w=30, power_limit_w=450, pcie_gen=4,
                          pcie_gen_max=4, pcie_width=16, pcie_width_max=16, throttle_reasons=0x1, processes=[])
                 for i in range(gpus)]
    devices = [TorchGpuFacts(index=i, name=name, uuid=f"GPU-{i}", nvml_index=i, capability=list(capability),
                             memory_total_gb=24.0, kernel_ok=True) for i in range(gpus)]
    return EnvironmentFacts(
        created=1.0, app_version="0.1.0",
        system=SystemFacts(os="Linux", os_release="6.8", python_version="3.11.9",
                           python_executable="/opt/ys/.venv/bin/python", cpu_model="AMD Ryzen 9", logical_cores=32,
                           usable_cores=32, ram_total_gb=64.0, ram_available_gb=58.0, swap_total_gb=8.0,
                           shm_total_gb=32.0, shm_free_gb=32.0, container="", wsl=False),
        nvml=NvmlFacts(available=True, driver_version="580.82.07", cuda_driver_version=13000, gpus=nvml_gpus),
        torch=TorchFacts(installed=True, import_s=2.0, version="2.14.1+cu130", torchvision="0.29.1+cu130",
                         cuda="13.0", cudnn_version=91000, cudnn_enabled=True, arch_list=list(CU13_ARCHS),
                         cuda_available=True, device_count=gpus, devices=devices),
        packages={"yolov5": "7.0.14", "ultralytics": "8.4.190", "opencv": "5.0.0"},
        disks=[DiskFacts(role="workspace", path="/home/ann/ws", free_gb=400.0, total_gb=1000.0, read_mb_s=900.0,
                         files_per_s=3000.0, files_read=200)],
        dataset=DatasetFacts(data_yaml="/home/ann/data/data.yaml", images=1000, sampled=30, imgsz=640,
                             cache_ram_gb=1.2),
    )


def cpu_machine() -> EnvironmentFacts:
    """Like this VM: no NVML library, a CUDA build of torch that sees no GPU."""
    facts = healthy_gpu_machine()
    facts.nvml = NvmlFacts(available=False, error="LibraryNotFound", error_message="NVML Shared Library Not Found")
    facts.torch.cuda_available = False
    facts.torch.device_count = 0
    facts.torch.devices = []
    return facts
