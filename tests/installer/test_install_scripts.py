"""The installer scripts as a user runs them: ``install.sh --dry-run`` on this machine (no GPU -> CPU plan),
``--facts`` for other machines' saved facts, overrides, a Python too old, refusals that change nothing;
and the Windows scripts checked statically (PowerShell can't be installed here): every option they pass
is one the tested Python planner accepts."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from core import APP_ROOT
from core.environment.facts import save_facts
from installer.__main__ import _parser
from installer.__main__ import main as install_main
from tests.core.environment_builders import healthy_gpu_machine

INSTALL = APP_ROOT / "installer" / "linux" / "install.sh"
UNINSTALL = APP_ROOT / "installer" / "linux" / "uninstall.sh"
WINDOWS = APP_ROOT / "installer" / "windows"
FIXTURE_FACTS = APP_ROOT / "tests" / "fixtures" / "facts" / "cpu-vm.json"


def run(script: Path, *args: str, home: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "YOLOSTUDIO_"))}
    base.update(HOME=str(home), **(env or {}))
    return subprocess.run(["bash", str(script), *args], capture_output=True, text=True, env=base, timeout=120)


def tree(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_dry_run_on_this_machine_plans_cpu_and_changes_nothing(tmp_path: Path):
    home = tmp_path / "home"
    home.mkdir()
    done = run(INSTALL, "--dry-run", home=home)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "dry run: nothing was changed" in out
    for label in ("Python", "GPUs", "Driver", "PyTorch", "Why", "App", "Shortcuts", "Disk", "Commands"):
        assert re.search(rf"^  {label}\b", out, re.M), label
    if shutil.which("nvidia-smi") is None:  # this machine and CI: no NVIDIA driver
        assert "cpu: torch==2.14.1+cpu torchvision==0.29.1+cpu" in out and "No NVIDIA GPU" in out
    assert f"{home}/.local/share/yolo-studio" in out
    assert tree(home) == []


def test_dry_run_json(tmp_path: Path):
    done = run(INSTALL, "--dry-run", "--json", home=tmp_path)
    plan = json.loads(done.stdout)
    assert plan["index"] in ("cu132", "cu130", "cu126", "cpu") and plan["reason"]
    assert plan["dry_run"] is True and plan["ok"] is True
    if shutil.which("nvidia-smi") is None:
        assert plan["index"] == "cpu" and plan["code"] == "no-gpu"
    assert plan["paths"]["venv"] == f"{tmp_path}/.local/share/yolo-studio/venv"
    assert plan["disk"]["free_gb"] > 0


def _facts_file(tmp_path: Path, name: str, driver: str, cuda: int | None, caps: list[list[int]]) -> Path:
    facts = healthy_gpu_machine(gpus=len(caps))
    facts.nvml.driver_version, facts.nvml.cuda_driver_version = driver, cuda
    for gpu, cc in zip(facts.nvml.gpus, caps):
        gpu.capability = cc
    path = tmp_path / f"{name}.json"
    save_facts(facts, path)
    return path


@pytest.mark.parametrize("name,driver,cuda,caps,index", [
    ("ada-570", "570.86.15", 12080, [[8, 9]], "cu126"),  # every 12.x driver takes cu126 under torch 2.14
    ("ada-595", "595.45.04", 13020, [[8, 9]], "cu132"),
    ("blackwell-580", "580.82.07", 13000, [[12, 0]], "cu130"),
    ("blackwell-575", "575.51.03", 12090, [[12, 0]], "cpu"),  # no 2.14 build: the driver must be updated
    ("pascal-570", "570.86.15", 12080, [[6, 1]], "cu126"),
    ("turing-470", "470.239.06", 11040, [[7, 5]], "cpu"),
    ("mixed-volta-blackwell", "575.51.03", 12090, [[7, 0], [12, 0]], "cu126"),
    ("mixed-volta-blackwell-580", "580.82.07", 13000, [[7, 0], [12, 0]], "cu130"),
])
def test_facts_files_plan_other_machines(tmp_path: Path, capsys, name, driver, cuda, caps, index):
    """In-process (what install.sh runs, minus finding Python: the script itself is exercised above/below)."""
    facts = _facts_file(tmp_path, name, driver, cuda, caps)
    assert install_main(["plan", "--json", "--facts", str(facts)]) == 0
    plan = json.loads(capsys.readouterr().out)
    assert plan["index"] == index, plan["reason"]
    assert plan["facts_source"] == f"facts file {facts}"
    assert plan["disk"]["free_gb"] is None  # another machine's disk is not this one's


def test_a_real_saved_facts_file(tmp_path: Path):
    """Saved with `yolostudio doctor --save-facts` on the development VM (no NVIDIA driver)."""
    done = run(INSTALL, "--dry-run", "--facts", str(FIXTURE_FACTS), home=tmp_path)
    assert done.returncode == 0 and "cpu:" in done.stdout and "NVML Shared Library Not Found" in done.stdout


def test_facts_without_dry_run_only_plans(tmp_path: Path):
    done = run(INSTALL, "--facts", str(FIXTURE_FACTS), home=tmp_path)
    assert done.returncode == 0 and "nothing is installed" in done.stderr
    assert tree(tmp_path) == []


@pytest.mark.parametrize("option,index", [(["--cpu"], "cpu"), (["--cuda", "cu126"], "cu126")])
def test_overrides(tmp_path: Path, option, index):
    facts = _facts_file(tmp_path, "ada", "570.86.15", 12080, [[8, 9]])
    done = run(INSTALL, "--dry-run", "--json", "--facts", str(facts), *option, home=tmp_path)
    plan = json.loads(done.stdout)
    assert plan["index"] == index and plan["code"].startswith("override")


def test_unknown_cuda_build_is_a_usage_error(tmp_path: Path):
    done = run(INSTALL, "--dry-run", "--cuda", "cu118", home=tmp_path)
    assert done.returncode == 2 and "cu130" in done.stderr


def test_python_too_old_names_what_to_install(tmp_path: Path):
    fake = tmp_path / "python3.8"
    fake.write_text("#!/bin/sh\n[ \"$1\" = --version ] && echo 'Python 3.8.10' && exit 0\nexit 1\n")
    fake.chmod(0o755)
    done = run(INSTALL, "--dry-run", home=tmp_path, env={"PYTHON": str(fake)})
    assert done.returncode == 1
    assert "needs Python 3.10 or newer" in done.stderr and "Python 3.8.10" in done.stderr
    assert "sudo apt install python3 python3-venv" in done.stderr


def test_install_into_the_clone_is_refused_before_anything_changes(tmp_path: Path):
    prefix = APP_ROOT / "build-test-prefix"
    done = run(INSTALL, "--prefix", str(prefix), home=tmp_path)
    assert done.returncode == 1 and "inside the source folder" in done.stdout and "Nothing was changed" in done.stdout
    assert not prefix.exists()


def test_uninstall_when_nothing_is_installed(tmp_path: Path):
    done = run(UNINSTALL, home=tmp_path)
    assert done.returncode == 0 and "nothing to remove" in done.stdout


# -- Windows (static: no PowerShell on PyPI, Debian or npm) --------------------------------------------------

def _options_passed(script: Path) -> set[str]:
    text = re.sub(r"<#.*?#>", "", script.read_text(encoding="utf-8"), flags=re.S)
    call = text[text.index("-m installer"):]
    call = call[:call.index("exit $LASTEXITCODE")]
    return set(re.findall(r"(?<![\w-])(--[a-z][a-z-]+)", call))


@pytest.mark.parametrize("script", ["install.ps1", "uninstall.ps1"])
def test_windows_scripts_pass_only_options_the_planner_knows(script):
    known = {opt for action in _parser()._actions for opt in action.option_strings}
    passed = _options_passed(WINDOWS / script)
    assert passed and passed <= known, passed - known


@pytest.mark.parametrize("script", ["install.ps1", "uninstall.ps1", "find_python.ps1"])
def test_windows_scripts_are_balanced_and_hold_no_wheel_rules(script):
    text = (WINDOWS / script).read_text(encoding="utf-8")
    code = re.sub(r"<#.*?#>", "", text, flags=re.S)
    code = re.sub(r"'[^'\n]*'|\"[^\"\n]*\"|#[^\n]*", "", code)  # strings and comments
    for left, right in ("{}", "()", "[]"):
        assert code.count(left) == code.count(right), (script, left)
    assert not re.search(r"\b(525|528|570|580)\.\d", text), "driver floors belong to core/environment/tables.py"
    assert "download.pytorch.org" not in text


def test_windows_batch_files_bypass_the_policy_for_one_process_only():
    for name in ("install", "uninstall"):
        bat = (WINDOWS / f"{name}.bat").read_text(encoding="utf-8")
        assert f'-ExecutionPolicy Bypass -File "%~dp0{name}.ps1" %*' in bat
        assert "Set-ExecutionPolicy" not in bat


def test_both_scripts_look_for_every_python_torch_has_wheels_for():
    """find_python.sh and find_python.ps1 try the newest supported Python first, from the same table the plan
    and the doctor judge by (``torch_builds``: torch 2.14 has wheels for 3.10-3.15) — not a list of their own."""
    from core.environment.tables import PYTHON_SUPPORTED

    (major, low), (_, high) = PYTHON_SUPPORTED
    wanted = [f"{major}.{minor}" for minor in range(high, low - 1, -1)]
    shell = (APP_ROOT / "installer" / "linux" / "find_python.sh").read_text(encoding="utf-8")
    assert re.search(r'candidates="([^"$]+)"', shell).group(1).split() == [f"python{v}" for v in wanted] + ["python3"]
    ps1 = (WINDOWS / "find_python.ps1").read_text(encoding="utf-8")
    assert re.findall(r"'(\d\.\d+)'", re.search(r"foreach \(\$v in ([^)]+)\)", ps1).group(1)) == wanted


def test_the_scripts_offer_only_builds_in_the_table():
    """The help lines name the --cuda choices the planner accepts (cu128 is gone from torch 2.14)."""
    from core.install.wheel_choice import CUDA_TAGS

    for script in (INSTALL, WINDOWS / "install.ps1"):
        listed = re.search(r"--cuda (cu\d+(?:\|cu\d+)*)", script.read_text(encoding="utf-8")).group(1)
        assert tuple(listed.split("|")) == CUDA_TAGS, script
    assert "cu128" not in (WINDOWS / "install.bat").read_text(encoding="utf-8")
