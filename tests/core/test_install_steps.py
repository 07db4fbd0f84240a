"""The installer's steps against a fake venv whose pip prints progress and fails on demand: shortcuts come
last and only after a passing smoke test, a failed step names its reason and the retry command, re-runs
continue and upgrade in place, and the uninstaller removes exactly what was installed."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
from argparse import Namespace
from pathlib import Path

import pytest

from installer.layout import layout_for
from installer.manifest import load_manifest
from installer.plan import make_plan
from installer.shortcuts import desktop_entry, exec_quote
from core.install.qt_libraries import check_xcb
from installer.smoke import GUI_CHECK, TORCH_CHECK, XCB_CHECK
from installer.steps import Installer
from installer.uninstall import cmd_uninstall
from tests.core.environment_builders import healthy_gpu_machine


class FakeVenv:
    """Plays the system Python (venv creation) and the venv's Python (pip, NVML detection, smoke checks)."""

    def __init__(self, layout, fail: str | None = None, gui_error: str | None = None,
                 serves: set[str] | None = None, unreachable: bool = False, ldd: str = "",
                 os_release: dict | None = None) -> None:
        self.layout = layout
        self.ldd = ldd  # what ``ldd libqxcb.so`` prints in the installed venv ("" here: nothing missing)
        self.os_release = os_release or {"ID": "ubuntu", "ID_LIKE": "debian"}
        self.serves = serves  # the builds the index serves (None: every one), as pip's dry run reports them
        self.unreachable = unreachable
        self.fail = fail  # a substring of the argv whose pip call fails
        self.gui_error = gui_error
        self.calls: list[list[str]] = []
        self.menu_existed_during_smoke: bool | None = None

    def __call__(self, argv, env, on_line) -> int:
        self.calls.append(argv)
        joined = " ".join(argv)
        if argv[1:3] == ["-m", "venv"]:
            venv = Path(argv[3])
            (venv / "bin").mkdir(parents=True, exist_ok=True)
            (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
            (venv / "bin" / "python").write_text("")
            return 0
        if argv[1:] == ["-m", "pip", "--version"]:
            on_line("pip 26.3 from /venv/lib/python3.11/site-packages/pip (python 3.11)")
            return 0
        if argv[1:5] == ["-m", "pip", "install", "--dry-run"]:
            asked = next(a.split("==", 1)[1] for a in argv if a.startswith("torch=="))
            on_line(f"Looking in indexes: {argv[-1]}")
            if self.unreachable:
                on_line("WARNING: Retrying (Retry(total=1, connect=None, read=None, redirect=None, status=None)) after "
                        "connection broken by 'NewConnectionError(\"HTTPSConnection(host='download.pytorch.org', "
                        "port=443): Failed to establish a new connection: [Errno 111] Connection refused\")'")
                on_line(f"ERROR: Could not find a version that satisfies the requirement torch=={asked} (from "
                        "versions: none)")
                on_line(f"ERROR: No matching distribution found for torch=={asked}")  # pip 26.3 says this too
                return 1
            if self.serves is not None and asked.split("+")[1] not in self.serves:
                on_line(f"ERROR: Could not find a version that satisfies the requirement torch=={asked} (from "
                        "versions: none)")
                on_line(f"ERROR: No matching distribution found for torch=={asked}")
                return 1
            on_line(f"Would install torch-{asked} torchvision-0.29.1+{asked.split('+')[1]}")
            return 0
        if argv[1:4] == ["-m", "pip", "install"]:
            asked = next((a.split("==", 1)[1] for a in argv if a.startswith("torch==")), None)
            self.installed = asked or getattr(self, "installed", None)
            for line in ["Looking in indexes: https://download.pytorch.org/whl/cu130",
                         "Collecting torch==2.14.1+cu130",
                         "  Downloading https://download.pytorch.org/whl/cu130/torch-2.14.1%2Bcu130-cp311-cp311-"
                         "manylinux_2_28_x86_64.whl (899.7 MB)",
                         "Progress 0 of 899700000", "Progress 449850000 of 899700000",
                         "Progress 899700000 of 899700000"]:
                on_line(line)
            if self.fail and self.fail in joined:
                on_line("ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device")
                return 1
            on_line("Installing collected packages: torch, torchvision")
            on_line("Successfully installed torch-2.14.1+cu130 torchvision-0.29.1+cu130")
            return 0
        if argv[1:] == ["-m", "installer", "detect"]:
            assert env["PYTHONPATH"]  # the installer's modules come from the source clone
            on_line(json.dumps({"source": "NVML", "facts": healthy_gpu_machine().to_dict()}))
            return 0
        if argv[1:] == ["--help"]:
            return 0
        if argv[1:] == ["-c", TORCH_CHECK]:
            on_line(getattr(self, "installed", None) or "2.14.1+cu130")
            on_line("True")
            return 0
        if argv[1:] == ["-c", GUI_CHECK]:
            assert env["QT_QPA_PLATFORM"] == "offscreen" and "PYTHONPATH" not in env
            self.menu_existed_during_smoke = Path(self.layout.menu_entry).exists()
            if self.gui_error:
                on_line(self.gui_error)
                return 1
            on_line("gui ok")
            return 0
        if argv[1:] == list(XCB_CHECK):  # the real check, on the recorded ldd output
            assert argv[0] == str(self.layout.python)  # the installed app's own PySide6 is asked
            self.menu_existed_during_xcb = Path(self.layout.menu_entry).exists()
            check = check_xcb(Path("/venv/PySide6/Qt/plugins/platforms/libqxcb.so"),
                              runner=lambda ldd_argv: (0, self.ldd), os_release=self.os_release)
            for line in check.message(installing=True).splitlines():
                on_line(line)
            return 1 if check.missing else 0
        raise AssertionError(f"unexpected command: {joined}")


@pytest.fixture
def layout(tmp_path: Path):
    return layout_for("Linux", {"XDG_DATA_HOME": str(tmp_path / "data")}, str(tmp_path / "home"))


def install(layout, runner, source: Path = Path("/src/yolo-studio")) -> tuple[int, str]:
    first_look = healthy_gpu_machine()  # what nvidia-smi saw before the venv existed
    plan = make_plan(first_look, "nvidia-smi", layout, str(source), free_gb=500.0)
    out = io.StringIO()

    def replan(facts, source_name):
        return make_plan(facts, source_name, layout, str(source), free_gb=500.0)

    code = Installer(plan, replan, out=out, runner=runner).execute()
    return code, out.getvalue()


def test_install_writes_the_shortcuts_last_and_ends_with_a_summary(layout):
    runner = FakeVenv(layout)
    code, out = install(layout, runner)
    assert code == 0, out
    assert runner.menu_existed_during_smoke is False  # the shortcut came after the smoke test
    entry = Path(layout.menu_entry)
    assert f"Exec={layout.gui}" in entry.read_text()
    assert os.readlink(layout.launcher) == str(layout.cli)
    assert Path(layout.icon).read_bytes().startswith(b"<svg")
    manifest = load_manifest(Path(layout.manifest))
    assert manifest.status == "installed" and manifest.index == "cu130" and "580.82.07" in manifest.reason
    summary = out.strip().splitlines()[-1]
    assert summary.startswith("YOLO Studio 0.1.0 installed in") and "2.14.1+cu130" in summary
    assert "RTX 4090" in summary and "applications menu" in summary
    assert "Downloading torch-2.14.1+cu130" in out  # pip's progress, folded
    detect = runner.calls.index([str(layout.python), "-m", "installer", "detect"])
    torch_call = next(c for c in runner.calls if "torch==2.14.1+cu130" in c and "--dry-run" not in c)
    assert detect < runner.calls.index(torch_call)  # the wheel is chosen from NVML's reading in the venv
    assert torch_call[-2:] == ["--progress-bar", "raw"]


def test_failed_step_names_reason_and_retry_and_leaves_no_shortcut(layout, monkeypatch):
    monkeypatch.setenv("YOLOSTUDIO_INSTALL_RETRY", "bash /src/installer/linux/install.sh --desktop")
    code, out = install(layout, FakeVenv(layout, fail="torch=="))
    assert code == 1
    assert "Step failed: PyTorch (cu130)" in out and "No space left on device" in out
    assert "run: bash /src/installer/linux/install.sh --desktop" in out
    assert not os.path.lexists(layout.menu_entry) and not os.path.lexists(layout.launcher)
    assert load_manifest(Path(layout.manifest)).status == "installing"
    assert "No space left on device" in Path(layout.log).read_text()

    runner = FakeVenv(layout)  # the re-run continues: the venv is reused, not rebuilt
    code, out = install(layout, runner)
    assert code == 0 and "reusing the existing environment" in out
    assert not any(c[1:3] == ["-m", "venv"] for c in runner.calls)


def test_failed_upgrade_keeps_a_shortcut_only_to_an_app_that_still_works(layout):
    assert install(layout, FakeVenv(layout))[0] == 0
    assert Path(layout.menu_entry).exists()
    code, out = install(layout, FakeVenv(layout, fail="--upgrade /src"))  # pip rolled back: old app intact
    assert code == 1 and "Upgrading the YOLO Studio installed" in out
    assert "its shortcut was put back" in out and Path(layout.menu_entry).exists()
    broken = FakeVenv(layout, fail="--upgrade /src", gui_error="ImportError: cannot import name 'MainWindow'")
    code, out = install(layout, broken)  # the old app no longer starts: no shortcut may point at it
    assert code == 1 and "No shortcut was created" in out
    assert not os.path.lexists(layout.menu_entry) and not os.path.lexists(layout.launcher)


def test_interrupted_venv_is_rebuilt(layout):
    venv = Path(layout.venv)
    venv.mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")  # python never got written
    runner = FakeVenv(layout)
    code, out = install(layout, runner)
    assert code == 0 and "building it again" in out
    assert any(c[1:3] == ["-m", "venv"] for c in runner.calls)


def test_a_foreign_folder_is_never_deleted(layout):
    venv = Path(layout.venv)
    venv.mkdir(parents=True)
    (venv / "thesis.tex").write_text("precious")
    code, out = install(layout, FakeVenv(layout))
    assert code == 1 and "is not a Python environment" in out
    assert (venv / "thesis.tex").read_text() == "precious"


def test_gui_smoke_failure_names_the_missing_system_package(layout):
    error = "ImportError: libGL.so.1: cannot open shared object file: No such file or directory"
    code, out = install(layout, FakeVenv(layout, gui_error=error))
    assert code == 1 and "sudo apt install libgl1" in out
    assert not os.path.lexists(layout.menu_entry)


def test_uninstall_removes_exactly_what_was_installed(layout, tmp_path):
    assert install(layout, FakeVenv(layout))[0] == 0
    foreign = Path(layout.prefix) / "my-notes.txt"
    foreign.write_text("keep me")
    workspace = tmp_path / "data" / "YOLO Studio" / "runs" / "exp"
    workspace.mkdir(parents=True)
    args = Namespace(remove_data=False, yes=False)
    assert cmd_uninstall(args, layout) == 0
    for path in (layout.menu_entry, layout.launcher, layout.icon, layout.venv, layout.manifest, layout.log):
        assert not os.path.lexists(path), path
    assert foreign.read_text() == "keep me" and workspace.exists()


def test_uninstall_removes_data_only_after_confirmation(layout, tmp_path, monkeypatch):
    from installer import uninstall

    assert install(layout, FakeVenv(layout))[0] == 0
    workspace = tmp_path / "ws"
    (workspace / "runs").mkdir(parents=True)
    monkeypatch.setattr(uninstall, "data_folders", lambda lay: [workspace])
    cmd_uninstall(Namespace(remove_data=True, yes=False), layout, ask=lambda prompt: "no")
    assert workspace.exists()
    assert install(layout, FakeVenv(layout))[0] == 0
    cmd_uninstall(Namespace(remove_data=True, yes=False), layout, ask=lambda prompt: "delete")
    assert not workspace.exists()


@pytest.mark.parametrize("arg,quoted", [
    ("/home/ann/.local/share/yolo-studio/venv/bin/yolostudio-gui", "/home/ann/.local/share/yolo-studio/venv/bin/"
                                                                    "yolostudio-gui"),
    ("/home/ann/My Apps/yolostudio-gui", '"/home/ann/My Apps/yolostudio-gui"'),
    ("/opt/a$b/100%", '"/opt/a\\\\$b/100%%"'),
])
def test_exec_quoting(arg, quoted):
    assert exec_quote(arg) == quoted


@pytest.mark.parametrize("home", ["/home/ann", "/home/Ann Lee", "/home/李雷"])
def test_desktop_entry_is_valid(tmp_path, home):
    validator = shutil.which("desktop-file-validate")
    if validator is None:
        pytest.skip("desktop-file-validate is not installed (Debian: apt install desktop-file-utils)")
    path = tmp_path / "yolo-studio.desktop"
    path.write_text(desktop_entry(layout_for("Linux", {}, home)), encoding="utf-8")
    done = subprocess.run([validator, str(path)], capture_output=True, text=True)
    assert done.returncode == 0 and not done.stdout.strip(), done.stdout + done.stderr


# The index is asked (pip's dry run) before PyTorch is touched: a build it does not serve is replaced by another
# that fits, with the reason; nothing served, or the index unreachable, stops the install before step 4.
@pytest.mark.parametrize("serves, unreachable, code, installed, words", [
    (None, False, 0, "cu130", ["serves torch 2.14.1+cu130"]),
    ({"cu132", "cpu"}, False, 0, "cu132", ["cu130 is not served by", "No matching distribution", "cu132"]),
    ({"cpu"}, False, 0, "cpu", ["serves no CUDA build that fits", "training will not use the GPU",
                                "run the installer again"]),
    (set(), False, 1, None, ["serves none of the PyTorch builds", "--torch-index"]),
    (None, True, 1, None, ["could not ask", "Connection refused"]),
])
def test_the_index_is_asked_before_pytorch_is_installed(layout, serves, unreachable, code, installed, words):
    runner = FakeVenv(layout, serves=serves, unreachable=unreachable)
    got, out = install(layout, runner)
    assert got == code, out
    for word in words:
        assert word in out, out
    installs = [c for c in runner.calls if c[1:4] == ["-m", "pip", "install"] and "--dry-run" not in c
                and any(a.startswith("torch==") for a in c)]
    if installed is None:
        assert installs == []  # nothing of PyTorch was touched
    else:
        [torch_call] = installs
        assert f"torch==2.14.1+{installed}" in torch_call
        assert load_manifest(Path(layout.manifest)).index == installed
        checks = [c for c in runner.calls if "--dry-run" in c]
        assert runner.calls.index(checks[-1]) < runner.calls.index(torch_call)
        assert checks[-1][checks[-1].index("--index-url") + 1].endswith(f"/{installed}")


def test_the_mirror_is_the_index_asked(layout):
    """--torch-index: the dry run asks the mirror the install will use, not PyTorch's own index."""
    runner = FakeVenv(layout, serves={"cu126"})
    mirror = "https://mirror.example/pytorch/"
    plan = make_plan(healthy_gpu_machine(), "nvidia-smi", layout, "/src/yolo-studio", free_gb=500.0, index_base=mirror)
    out = io.StringIO()
    code = Installer(plan, lambda facts, source: make_plan(facts, source, layout, "/src/yolo-studio", free_gb=500.0,
                                                           index_base=mirror), out=out, runner=runner).execute()
    assert code == 0, out.getvalue()
    asked = [c[c.index("--index-url") + 1] for c in runner.calls if "--dry-run" in c]
    assert asked == [f"{mirror}cu130", f"{mirror}cu132", f"{mirror}cu126"]
    torch_call = next(c for c in runner.calls if "torch==2.14.1+cu126" in c and "--dry-run" not in c)
    assert torch_call[torch_call.index("--index-url") + 1] == f"{mirror}cu126"
    assert "cu130 is not served by https://mirror.example/pytorch/cu130" in out.getvalue()


LDD_MISSING = "\tlibxcb-cursor.so.0 => not found\n\tlibxcb-icccm.so.4 => not found\n\tlibxcb.so.1 => /lib/libxcb.so.1 (0x1)\n"


@pytest.mark.parametrize(("release", "command"), [
    ({"ID": "ubuntu", "ID_LIKE": "debian"}, "sudo apt install libxcb-cursor0 libxcb-icccm4"),
    ({"ID": "fedora"}, "sudo dnf install xcb-util-cursor xcb-util-wm"),
])
def test_missing_window_libraries_stop_the_install_before_the_menu_entry_with_the_command(layout, release, command):
    runner = FakeVenv(layout, ldd=LDD_MISSING, os_release=release)
    code, out = install(layout, runner)
    assert code == 1
    assert runner.menu_existed_during_xcb is False and not Path(layout.menu_entry).exists()
    assert f"Install them with:\n    {command}\nthen run the installer again." in out
    assert "libxcb-cursor.so.0, libxcb-icccm.so.4" in out and "No shortcut was created." in out
    again = FakeVenv(layout, os_release=release)  # the user ran the command: the re-run adds the entry
    code, out = install(layout, again)
    assert code == 0, out
    assert Path(layout.menu_entry).exists()
