"""The installer's wheel choice, table-driven: driver x compute capabilities x OS -> index, code and reason.

Figures from docs/facts/gpu-environment.md section 1 (the same tables the checker judges by):
CUDA 12.x wheels need driver >= 525.60.13 (Linux) / 528.33 (Windows), 13.x >= 580.65.06 / 580;
torch 2.14 (core.environment.torch_builds): cu132 and cu130 carry sm_75-sm_120, cu126 sm_50-sm_90 — no cu128.
"""

from __future__ import annotations

import pytest

from core.environment.facts import EnvironmentFacts, GpuFacts, NvmlFacts, SystemFacts, TorchGpuFacts
from core.environment.tables import WHEELS, arch_covers, choose_wheel
from core.install.wheel_choice import CUDA_TAGS, choose_index, driver_cuda_of

NAMES = {(5, 2): "GeForce GTX 980", (6, 1): "GeForce GTX 1080 Ti", (7, 0): "Tesla V100", (7, 5): "Tesla T4",
         (8, 6): "GeForce RTX 3090", (8, 9): "GeForce RTX 4090", (9, 0): "H100", (10, 0): "B200",
         (12, 0): "GeForce RTX 5090"}


def machine(driver: str | None, cuda: int | None, caps: list[tuple[int, int] | None], os_name: str = "Linux",
            error: str | None = None) -> EnvironmentFacts:
    gpus = [GpuFacts(index=i, name=NAMES.get(cc, "GPU") if cc else "Mystery GPU", capability=list(cc) if cc else None)
            for i, cc in enumerate(caps)]
    nvml = NvmlFacts(available=error is None, error=error, driver_version=driver, cuda_driver_version=cuda, gpus=gpus)
    return EnvironmentFacts(system=SystemFacts(os=os_name, python_version="3.11.9"), nvml=nvml)


# (case, driver, NVML CUDA, capabilities, OS) -> (index, code, words the reason must contain)
CASES = [
    ("Ada, driver 570 (CUDA 12.8): a 12.x driver takes cu126", "570.86.15", 12080, [(8, 9)], "Linux", "cu126",
     "fits-all", ["570.86.15", "sm_89"]),
    ("Ada, driver 580 (CUDA 13.0)", "580.82.07", 13000, [(8, 9)], "Linux", "cu130", "fits-all", ["CUDA 13.0"]),
    ("Ada, driver 595 (CUDA 13.2): cu132", "595.45.04", 13020, [(8, 9)], "Linux", "cu132", "fits-all", ["CUDA 13.2"]),
    ("Hopper, driver 550 (CUDA 12.4): cu126 by minor-version compatibility", "550.54.14", 12040, [(9, 0)], "Linux",
     "cu126", "fits-all", ["minor-version"]),
    ("Ampere, driver 535 (CUDA 12.2)", "535.104.05", 12020, [(8, 6)], "Linux", "cu126", "fits-all", ["12.x"]),
    ("Ampere, driver 525.60.13 exactly (12.x floor)", "525.60.13", 12000, [(8, 6)], "Linux", "cu126", "fits-all", []),
    ("Blackwell sm_120, driver 570: no 2.14 wheel, the fix is the driver", "570.124.04", 12080, [(12, 0)], "Linux",
     "cpu", "driver-too-old", ["cu126 has no kernels for sm_120", "580.65.06", "The fix is the driver"]),
    ("Blackwell sm_120, driver 580: cu130", "580.65.06", 13000, [(12, 0)], "Linux", "cu130", "fits-all", []),
    ("Blackwell sm_120, driver 560 (CUDA 12.6): never cu126", "560.35.03", 12060, [(12, 0)], "Linux",
     "cpu", "driver-too-old", ["The fix is the driver"]),
    ("Blackwell B200 sm_100, driver 575", "575.51.03", 12090, [(10, 0)], "Linux", "cpu", "driver-too-old",
     ["sm_100"]),
    ("Maxwell sm_52, driver 580: cu126 (newer wheels dropped it)", "580.82.07", 13000, [(5, 2)], "Linux", "cu126",
     "fits-all", ["cu130"]),
    ("Pascal sm_61, driver 570: cu126", "570.86.15", 12080, [(6, 1)], "Linux", "cu126", "fits-all", ["sm_61"]),
    ("Volta sm_70, driver 570: cu126", "570.86.15", 12080, [(7, 0)], "Linux", "cu126", "fits-all", ["sm_70"]),
    ("Pascal, driver 470 (CUDA 11.4): CPU, driver named", "470.239.06", 11040, [(6, 1)], "Linux", "cpu",
     "driver-too-old", ["470.239.06", "525.60.13"]),
    ("Ada, driver 520 (below every floor): CPU", "520.61.05", 11080, [(8, 9)], "Linux", "cpu", "driver-too-old",
     ["525.60.13", "run the installer again"]),
    ("Windows, Ada, driver 527 (below 528.33): CPU", "527.56", None, [(8, 9)], "Windows", "cpu", "driver-too-old",
     ["528.33"]),
    ("Windows, Ada, driver 566 (CUDA 12.7)", "566.36", 12070, [(8, 9)], "Windows", "cu126", "fits-all", []),
    ("Windows, Blackwell, driver 576 (CUDA 12.9): the driver", "576.02", 12090, [(12, 0)], "Windows", "cpu",
     "driver-too-old", ["needs driver 580 or newer"]),
    ("Windows, Blackwell, driver 581 (CUDA 13.0)", "581.57", 13000, [(12, 0)], "Windows", "cu130", "fits-all", []),
    ("no NVIDIA GPU: CPU", None, None, [], "Linux", "cpu", "no-gpu", ["No NVIDIA GPU"]),
    ("mixed Pascal + Ada: cu126 serves both", "570.86.15", 12080, [(6, 1), (8, 9)], "Linux", "cu126", "fits-all",
     ["GPU 0", "GPU 1"]),
    ("mixed Pascal + Blackwell, driver 580: cu130 for the Blackwell, Pascal named unusable", "580.82.07", 13000,
     [(6, 1), (12, 0)], "Linux", "cu130", "mixed-gpus", ["--device 1", "GeForce GTX 1080 Ti"]),
    ("mixed Pascal + Blackwell, driver 570: only cu126 runs; the driver would free the Blackwell", "570.86.15",
     12080, [(6, 1), (12, 0)], "Linux", "cu126", "mixed-gpus", ["--device 0", "580.65.06"]),
    ("mixed 2x Maxwell + Blackwell: the newest architecture wins", "580.82.07", 13000, [(5, 2), (5, 2), (12, 0)],
     "Linux", "cu130", "mixed-gpus", ["--device 2"]),
    ("mixed Volta + Blackwell, driver 470: nothing runs -> CPU", "470.239.06", 11040, [(7, 0), (12, 0)], "Linux",
     "cpu", "driver-too-old", []),
    ("architecture unreadable (old nvidia-smi): by the driver alone", "570.86.15", 12080, [None], "Linux", "cu126",
     "fits-all", []),
    ("no NVML CUDA version: read from the driver (565 -> CUDA 12.6)", "565.57.01", None, [(8, 9)], "Linux", "cu126",
     "fits-all", []),
    ("macOS: CPU", None, None, [], "Darwin", "cpu", "not-cuda-os", ["Darwin"]),
]

@pytest.mark.parametrize("case,driver,cuda,caps,os_name,index,code,words", CASES, ids=[c[0] for c in CASES])
def test_wheel_choice(case, driver, cuda, caps, os_name, index, code, words):
    choice = choose_index(machine(driver, cuda, caps, os_name))
    assert (choice.tag, choice.code) == (index, code), choice.reason
    for word in words:
        assert word in choice.reason
    assert choice.reason.strip()


def test_every_cuda_choice_has_kernels_for_the_gpus_it_calls_usable():
    """Property over the whole table: a chosen CUDA wheel covers every GPU it leaves usable, and its driver
    floor is met (the same functions the checker uses, so the two cannot disagree)."""
    from core.environment.tables import driver_floor, driver_meets

    for _, driver, cuda, caps, os_name, *_ in CASES:
        choice = choose_index(machine(driver, cuda, caps, os_name))
        if choice.tag == "cpu":
            continue
        wheel = next(w for w in WHEELS if w.tag == choice.tag)
        assert all(arch_covers(wheel.archs, g.capability) for g in choice.gpus if g.usable and g.capability)
        assert driver_meets(driver, driver_floor(wheel.cuda[0], os_name)) is not False


def test_agrees_with_the_checker_whenever_one_wheel_serves_every_gpu():
    for _, driver, cuda, caps, os_name, *_ in CASES:
        known = [c for c in caps if c]
        facts = machine(driver, cuda, caps, os_name)
        expected = choose_wheel(driver, driver_cuda_of(facts), known, os_name) if known else None
        choice = choose_index(facts)
        if expected is not None and choice.code == "fits-all":
            assert choice.tag == expected.tag


def test_driver_error_is_not_reported_as_no_gpu():
    choice = choose_index(machine(None, None, [], error="DriverNotLoaded"))
    assert (choice.tag, choice.code) == ("cpu", "driver-error")
    assert "DriverNotLoaded" in choice.reason and "run the installer again" in choice.reason


def test_gpus_from_torch_when_nvml_failed():
    facts = machine("570.86.15", 12080, [], error="NoPermission")
    facts.nvml.driver_version = "570.86.15"
    facts.torch.devices = [TorchGpuFacts(index=0, name="GeForce RTX 3090", capability=[8, 6])]
    assert choose_index(facts).tag == "cu126"


@pytest.mark.parametrize("override,index,warning", [
    ("cpu", "cpu", None),
    ("cu132", "cu132", "no kernels for GPU 0"),  # Pascal asked to use cu132
    ("cu130", "cu130", "older than 580.65.06"),  # driver 570 asked to run CUDA 13
])
def test_overrides_are_obeyed_and_explained(override, index, warning):
    facts = machine("570.86.15", 12080, [(6, 1)])
    choice = choose_index(facts, override)
    assert choice.tag == index and choice.code.startswith("override")
    if warning:
        assert any(warning in w for w in choice.warnings), choice.warnings
    if override == "cpu":
        assert "GTX 1080 Ti" in choice.reason


def test_unknown_override_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="cu132, cu130, cu126"):
        choose_index(machine(None, None, []), "cu128")  # torch 2.14 ships no cu128
    assert CUDA_TAGS == ("cu132", "cu130", "cu126")


# WSL2: nvidia-smi reports the Windows driver, so the Windows floors count (NVIDIA's CUDA on WSL User Guide)
@pytest.mark.parametrize("driver, cuda, index, words", [
    ("527.41", None, "cpu", ["528.33"]),  # above the Linux 12.x floor, below the Windows one
    ("566.36", 12070, "cu126", []),
    ("581.57", 13000, "cu130", []),
])
def test_wsl_is_judged_by_the_windows_driver(driver, cuda, index, words):
    facts = machine(driver, cuda, [(8, 9)], "Linux")
    facts.system.wsl = True
    choice = choose_index(facts)
    assert choice.tag == index, choice.reason
    for word in words:
        assert word in choice.reason


@pytest.mark.parametrize("wsl, container, words, never", [
    (True, "", ["On Windows (not inside WSL)", "528.33"], "ubuntu-drivers"),
    (False, "docker", ["on the host"], "ubuntu-drivers"),
    (False, "", ["ubuntu-drivers"], "on the host"),
])
def test_the_driver_to_update_is_the_one_that_counts(wsl, container, words, never):
    facts = machine("520.61.05", None, [(8, 9)], "Linux")
    facts.system.wsl, facts.system.container = wsl, container
    choice = choose_index(facts)
    assert choice.code == "driver-too-old"
    for word in words:
        assert word in choice.reason, choice.reason
    assert never not in choice.reason
