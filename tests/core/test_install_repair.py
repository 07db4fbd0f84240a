"""The in-app repair: which findings it fixes, the exact command (table-driven), and every refusal."""

from __future__ import annotations

import pytest

from core.install.pip_progress import PipProgress, pip_supports_raw
from core.install.repair import RuntimeFacts, plan_repair
from tests.core.environment_builders import healthy_gpu_machine

VENV = RuntimeFacts(python="/home/ann/.local/share/yolo-studio/venv/bin/python", os="Linux", in_venv=True,
                    site_packages="/home/ann/.local/share/yolo-studio/venv/lib/python3.11/site-packages",
                    writable=True, pip_version="26.3")
WIN = RuntimeFacts(python=r"C:\Users\ann\AppData\Local\Programs\YOLO Studio\venv\Scripts\python.exe", os="Windows",
                   in_venv=True, site_packages=r"C:\...\site-packages", writable=True, pip_version="23.0")


def facts(torch="2.14.1+cpu", driver="570.86.15", cuda=12080, cc=(8, 9), os_name="Linux"):
    f = healthy_gpu_machine(capability=cc)
    f.system.os = os_name
    f.torch.version = torch
    f.nvml.driver_version, f.nvml.cuda_driver_version = driver, cuda
    return f


# (case, facts, finding, runtime) -> exact command
COMMANDS = [
    ("CPU build, driver 570 (12.x), Ada: cu126", facts(), "torch-cpu-build", VENV,
     "/home/ann/.local/share/yolo-studio/venv/bin/python -m pip install --progress-bar=raw torch==2.14.1+cu126 "
     "torchvision==0.29.1+cu126 --index-url https://download.pytorch.org/whl/cu126"),
    ("CPU build, driver 580 (13.x), Ada: cu130", facts(driver="580.82.07", cuda=13000), "torch-cpu-build", VENV,
     "/home/ann/.local/share/yolo-studio/venv/bin/python -m pip install --progress-bar=raw torch==2.14.1+cu130 "
     "torchvision==0.29.1+cu130 --index-url https://download.pytorch.org/whl/cu130"),
    ("cu130 wheel on a CUDA 12.2 driver: the wheel that fits the driver", facts("2.14.1+cu130", "535.104.05", 12020),
     "driver-too-old", VENV,
     "/home/ann/.local/share/yolo-studio/venv/bin/python -m pip install --progress-bar=raw torch==2.14.1+cu126 "
     "torchvision==0.29.1+cu126 --index-url https://download.pytorch.org/whl/cu126"),
    ("Pascal on cu130", facts("2.14.1+cu130", "580.82.07", 13000, cc=(6, 1)), "gpu-arch-unsupported", VENV,
     "/home/ann/.local/share/yolo-studio/venv/bin/python -m pip install --progress-bar=raw torch==2.14.1+cu126 "
     "torchvision==0.29.1+cu126 --index-url https://download.pytorch.org/whl/cu126"),
    ("Blackwell on cu126, driver 580", facts("2.14.1+cu126", "580.82.07", 13000, cc=(12, 0)), "gpu-arch-unsupported",
     VENV, "/home/ann/.local/share/yolo-studio/venv/bin/python -m pip install --progress-bar=raw "
     "torch==2.14.1+cu130 torchvision==0.29.1+cu130 --index-url https://download.pytorch.org/whl/cu130"),
    ("Windows, old pip (no raw progress), path with spaces", facts(os_name="Windows", driver="572.16"),
     "torch-cpu-build", WIN,
     '"C:\\Users\\ann\\AppData\\Local\\Programs\\YOLO Studio\\venv\\Scripts\\python.exe" -m pip install '
     "torch==2.14.1+cu126 torchvision==0.29.1+cu126 --index-url https://download.pytorch.org/whl/cu126"),
]


@pytest.mark.parametrize("case,f,finding,runtime,command", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_repair_command(case, f, finding, runtime, command):
    plan = plan_repair(f, [finding, "amp-unsafe-gpu"], runtime)
    assert plan.ok, plan.refusal
    assert plan.command == command
    assert plan.findings == [finding]


@pytest.mark.parametrize("case,f,ids,runtime,busy,words", [
    ("nothing repairable", facts(), ["gpu-busy"], VENV, None, "Nothing to repair"),
    ("driver below every CUDA build", facts("2.14.1+cu126", "470.239.06", 11040), ["driver-too-old"], VENV, None,
     "525.60.13"),
    ("system Python", facts(), ["torch-cpu-build"],
     RuntimeFacts("/usr/bin/python3", "Linux", False, "/usr/lib/python3/dist-packages", False, "23.0"), None,
     "system's Python"),
    ("venv not writable", facts(), ["torch-cpu-build"],
     RuntimeFacts(VENV.python, "Linux", True, "/opt/ys/venv/lib/python3.11/site-packages", False, "26.3"), None,
     "not writable"),
    ("training running", facts(), ["torch-cpu-build"], VENV, ["exp3"], "exp3"),
    ("already the right build", facts("2.14.1+cu126"), ["gpu-arch-unsupported"], VENV, None, "already the build"),
    ("Blackwell on a 12.x driver: no 2.14 build, the driver", facts("2.14.1+cu126", cc=(12, 0)),
     ["gpu-arch-unsupported"], VENV, None, "The fix is the driver"),
])
def test_repair_refusals(case, f, ids, runtime, busy, words):
    plan = plan_repair(f, ids, runtime, busy_runs=busy)
    assert not plan.ok and words in plan.refusal


def test_refusal_for_a_system_python_still_shows_the_command_to_run_by_hand():
    runtime = RuntimeFacts("/usr/bin/python3", "Linux", False, "/usr/lib/python3/dist-packages", False, "23.0")
    plan = plan_repair(facts(), ["torch-cpu-build"], runtime)
    assert plan.command.startswith("/usr/bin/python3 -m pip install torch==2.14.1+cu126")


def test_pip_progress_folds_real_pip_lines():
    p = PipProgress()
    lines = ["Collecting torch==2.14.1+cu130",
             "  Downloading https://download.pytorch.org/whl/cu130/torch-2.14.1%2Bcu130-cp311-cp311-manylinux_2_28_"
             "x86_64.whl (899.7 MB)", "Progress 0 of 899700000", "Progress 449850000 of 899700000"]
    for line in lines:
        p.feed(line)
    assert p.phase == "downloading" and p.fraction == pytest.approx(0.5) and p.cancellable
    assert p.describe() == "Downloading torch-2.14.1+cu130-cp311-cp311-manylinux_2_28_x86_64.whl: 450 of 900 MB"
    p.feed("Installing collected packages: torchvision, torch")
    assert p.phase == "installing" and not p.cancellable and p.fraction is None
    p.feed("ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device")
    assert p.errors and "Errno 28" in p.errors[0]
    assert pip_supports_raw("pip 24.1 from x") and not pip_supports_raw("pip 23.0.1 from x")
