"""The install plan: layout per OS, pip commands, blocking problems (Python, venv, disk, Windows pitfalls),
the JSON contract, nvidia-smi parsing, and that the installer's modules need nothing but the stdlib."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path, PurePosixPath

import pytest

from core import APP_ROOT
from core.environment.tables import PINNED
from installer.detect import nvidia_smi_facts, parse_smi_cuda, parse_smi_gpus
from installer.layout import layout_for
from installer.plan import disk_needed_gb, make_plan, render_plan, windows_problems
from tests.core.environment_builders import cpu_machine, healthy_gpu_machine

HOME = "/home/ann"


def linux(prefix: str | None = None):
    return layout_for("Linux", {}, HOME, prefix)


def windows(prefix: str | None = None):
    return layout_for("Windows", {"LOCALAPPDATA": r"C:\Users\ann\AppData\Local"}, r"C:\Users\ann", prefix)


def test_linux_layout_is_per_user_and_follows_xdg():
    lay = layout_for("Linux", {"XDG_DATA_HOME": "/data/ann"}, HOME)
    assert lay.venv == PurePosixPath("/data/ann/yolo-studio/venv")
    assert lay.menu_entry == PurePosixPath("/data/ann/applications/yolo-studio.desktop")
    assert lay.icon == PurePosixPath("/data/ann/icons/hicolor/scalable/apps/yolo-studio.svg")
    assert lay.launcher == PurePosixPath("/home/ann/.local/bin/yolostudio")
    assert str(lay.gui).endswith("bin/yolostudio-gui")


def test_windows_layout_uses_local_appdata_programs_and_the_gui_script():
    lay = windows()
    assert str(lay.venv) == r"C:\Users\ann\AppData\Local\Programs\YOLO Studio\venv"
    assert str(lay.gui).endswith(r"venv\Scripts\yolostudio-gui.exe")  # no console window
    assert str(lay.menu_entry).endswith(r"Start Menu\Programs\YOLO Studio\YOLO Studio.lnk")
    assert lay.uninstall_entry is not None and lay.launcher is None


def test_plan_for_a_gpu_machine_pins_the_build_and_lists_every_command():
    plan = make_plan(healthy_gpu_machine(), "NVML", linux(), "/src/yolo-studio", free_gb=100.0)
    assert plan.index == "cu130" and not plan.errors
    assert plan.torch == [f"torch=={PINNED['torch']}+cu130", f"torchvision=={PINNED['torchvision']}+cu130"]
    rendered = plan.to_dict()["commands"]
    assert rendered[0].endswith("-m venv /home/ann/.local/share/yolo-studio/venv")
    assert rendered[2] == ("/home/ann/.local/share/yolo-studio/venv/bin/python -m pip install torch==2.14.1+cu130 "
                           "torchvision==0.29.1+cu130 --index-url https://download.pytorch.org/whl/cu130")
    assert rendered[3].endswith("pip install --upgrade /src/yolo-studio")


def test_json_has_index_and_reason_and_is_serialisable():
    data = make_plan(cpu_machine(), "nvidia-smi", linux(), "/src", free_gb=50.0).to_dict()
    json.dumps(data)
    assert data["index"] == "cpu" and "No NVIDIA GPU" in data["reason"]
    assert {"python", "gpus", "driver", "paths", "disk", "commands", "warnings", "errors"} <= set(data)


def test_mirror_index_replaces_pytorchs_host():
    plan = make_plan(healthy_gpu_machine(), "NVML", linux(), "/src", index_base="https://mirror.example/pytorch-wheels/")
    assert plan.index_url == "https://mirror.example/pytorch-wheels/cu130"


@pytest.mark.parametrize("free,blocked", [(2.0, True), (disk_needed_gb("cu130") + 0.1, False), (None, False)])
def test_disk_space(free, blocked):
    plan = make_plan(healthy_gpu_machine(), "NVML", linux(), "/src", free_gb=free)
    assert bool(plan.errors) == blocked
    if blocked:
        assert "--prefix" in plan.errors[0]


def test_cpu_build_needs_far_less_disk_than_cuda():
    assert disk_needed_gb("cpu") < disk_needed_gb("cu130") / 2


# torch 2.14 has wheels for Python 3.10-3.15 (pytorch/pytorch PR #194367): 3.14 and 3.15 are fine, 3.16 is not
@pytest.mark.parametrize("version,error,warning", [("3.8.10", "too old", None), ("3.11.9", None, None),
                                                   ("3.14.0", None, None), ("3.15.1", None, None),
                                                   ("3.16.0a2", "no PyTorch wheel exists", None)])
def test_python_version(version, error, warning):
    facts = cpu_machine()
    facts.system.python_version = version
    plan = make_plan(facts, "NVML", linux(), "/src")
    assert (error in plan.errors[0]) if error else not plan.errors
    assert (warning in plan.warnings[0]) if warning else not plan.warnings


def test_missing_venv_module_names_the_debian_package():
    facts = cpu_machine()
    facts.system.python_version = "3.12.3"
    plan = make_plan(facts, "NVML", linux(), "/src", venv_module=False)
    assert "sudo apt install python3.12-venv" in plan.errors[0]


def test_refuses_a_venv_inside_the_source_clone():
    plan = make_plan(cpu_machine(), "NVML", linux("/src/clone/app"), "/src/clone", clone_root=PurePosixPath("/src/clone"))
    assert any("inside the source folder" in e for e in plan.errors)


@pytest.mark.parametrize("prefix,long_paths,blocked", [
    (None, False, False),  # the default path fits under 260 characters
    ("C:\\" + "x" * 100, False, True),  # too deep: pip would fail half-way
    ("C:\\" + "x" * 100, True, False),  # long paths enabled: fine
])
def test_windows_long_paths(prefix, long_paths, blocked):
    errors, _ = windows_problems(windows(prefix), long_paths, "RemoteSigned", r"C:\Python312\python.exe")
    assert bool(errors) == blocked
    if blocked:
        assert "LongPathsEnabled" in errors[0] and "--prefix" in errors[0]


@pytest.mark.parametrize("policy,warned", [("Restricted", True), ("AllSigned", True), ("RemoteSigned", False),
                                           ("Bypass", False)])
def test_windows_execution_policy(policy, warned):
    _, warnings = windows_problems(windows(), True, policy, r"C:\Python312\python.exe")
    assert any("Set-ExecutionPolicy -Scope CurrentUser RemoteSigned" in w for w in warnings) == warned


def test_windows_store_python_is_flagged():
    store = r"C:\Users\ann\AppData\Local\Microsoft\WindowsApps\python.exe"
    _, warnings = windows_problems(windows(), True, "Bypass", store)
    assert any("python.org" in w for w in warnings)


def test_windows_plan_uses_windows_quoting_and_labels():
    facts = healthy_gpu_machine()
    facts.system.os = "Windows"
    facts.system.python_executable = r"C:\Program Files\Python312\python.exe"
    facts.nvml.driver_version = "572.16"
    facts.nvml.cuda_driver_version = 12080
    plan = make_plan(facts, "NVML", windows(), r"C:\src\yolo-studio", long_paths=True)
    commands = plan.to_dict()["commands"]
    assert commands[0].startswith('"C:\\Program Files\\Python312\\python.exe" -m venv')
    assert "torch==2.14.1+cu126" in commands[2]  # a 12.x driver takes cu126
    text = render_plan(plan, dry_run=True)
    assert "nothing was changed" in text and "cu126" in text


def test_pins_match_pyproject():
    """The installer and the repair install the versions the app is built with: one source of truth."""
    pyproject = (APP_ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for name, version in PINNED.items():
        assert re.search(rf'"{name}=={re.escape(version)}"', pyproject), name


def test_installer_modules_need_only_the_standard_library():
    """install.sh runs python -m installer with the system's Python, before any dependency is installed."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import installer.__main__, installer.steps, "
            "installer.uninstall, installer.detect; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('yaml', 'psutil', 'platformdirs', 'PySide6', "
            "'numpy', 'torch', 'ruamel')]; print(bad); sys.exit(bool(bad))")
    done = subprocess.run([sys.executable, "-I", "-S", "-c", code, str(APP_ROOT)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


# -- nvidia-smi ---------------------------------------------------------------------------------------------

SMI_TWO_GPUS = """0, NVIDIA GeForce GTX 1080 Ti, GPU-aaa, 00000000:01:00.0, 570.86.15, 11264, 6.1
1, NVIDIA GeForce RTX 5090, GPU-bbb, 00000000:02:00.0, 570.86.15, 32607, 12.0
"""
SMI_HEADER = """+-----------------------------------------------------------------------------------------+
| NVIDIA-SMI 570.86.15              Driver Version: 570.86.15      CUDA Version: 12.8     |
"""


def test_parse_nvidia_smi_query():
    driver, gpus = parse_smi_gpus(SMI_TWO_GPUS, ("index", "name", "uuid", "pci.bus_id", "driver_version",
                                                 "memory.total", "compute_cap"))
    assert driver == "570.86.15"
    assert [g.capability for g in gpus] == [[6, 1], [12, 0]]
    assert gpus[1].name == "NVIDIA GeForce RTX 5090" and gpus[1].memory_total_gb == pytest.approx(31.84, abs=0.01)
    assert parse_smi_cuda(SMI_HEADER) == 12080


def test_nvidia_smi_facts_drive_the_mixed_choice():
    from core.environment.facts import EnvironmentFacts, SystemFacts
    from core.install.wheel_choice import choose_index

    def run(argv):
        return (0, SMI_TWO_GPUS) if any(a.startswith("--query-gpu") for a in argv) else (0, SMI_HEADER)

    nvml = nvidia_smi_facts(run, smi="nvidia-smi")
    choice = choose_index(EnvironmentFacts(system=SystemFacts(os="Linux"), nvml=nvml))
    # driver 570 (12.x): cu126 serves the GTX 1080 Ti; the RTX 5090 needs a 580 driver, and the reason says so
    assert (choice.tag, choice.code) == ("cu126", "mixed-gpus") and "580.65.06" in choice.reason


def test_old_driver_without_compute_cap_field_is_retried_without_it():
    calls = []

    def run(argv):
        calls.append(argv)
        if len(argv) > 1 and "compute_cap" in argv[1]:
            return 2, 'Field "compute_cap" is not a valid field to query.'
        return (0, "0, Tesla K80, GPU-k, 0:3:0.0, 470.82.01, 11441\n") if len(argv) > 1 else (0, "CUDA Version: 11.4")

    nvml = nvidia_smi_facts(run, smi="nvidia-smi")
    assert nvml.available and nvml.gpus[0].capability is None and nvml.driver_version == "470.82.01"
    assert len([c for c in calls if len(c) > 1]) == 2


@pytest.mark.parametrize("output,error", [
    ("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.", "DriverNotLoaded"),
    ("Failed to initialize NVML: Insufficient Permissions", "NoPermission"),
])
def test_nvidia_smi_failures_are_named(output, error):
    nvml = nvidia_smi_facts(lambda argv: (9, output), smi="nvidia-smi")
    assert not nvml.available and nvml.error == error


def test_no_nvidia_smi_means_no_driver(monkeypatch: pytest.MonkeyPatch):
    from installer import detect

    monkeypatch.setattr(detect.shutil, "which", lambda name: None)
    assert nvidia_smi_facts(lambda argv: (0, "")).error == "LibraryNotFound"


def test_saved_facts_round_trip_into_the_same_plan(tmp_path: Path):
    from core.environment.facts import load_facts, save_facts

    facts = healthy_gpu_machine()
    save_facts(facts, tmp_path / "facts.json")
    loaded, notes = load_facts(tmp_path / "facts.json")
    assert make_plan(loaded, "file", linux(), "/src").to_dict()["reason"] == \
        make_plan(facts, "file", linux(), "/src").to_dict()["reason"]


def test_nvml_is_read_with_the_probes_reader_when_importable():
    """In the app's venv (nvidia-ml-py and psutil present) the installer reads NVML with the checker's own
    reader, not nvidia-smi; if that reader moves, this fails instead of silently falling back."""
    from installer.detect import nvml_facts

    pytest.importorskip("pynvml")
    facts, source = nvml_facts(run=lambda argv: (127, "not here"))
    assert source == "NVML"
    assert facts.available or facts.error not in (None, "NotInstalled")


def test_a_python_without_torch_wheels_on_windows_names_the_windows_way():
    facts = cpu_machine()
    facts.system.os, facts.system.python_version = "Windows", "3.16.0"
    facts.system.python_executable = r"C:\Python316\python.exe"
    plan = make_plan(facts, "nvidia-smi", windows(), r"C:\src", long_paths=True)
    assert plan.errors and "set PYTHON=" in plan.errors[0] and "3.15" in plan.errors[0]
    assert "PYTHON=python3.15" not in plan.errors[0]
