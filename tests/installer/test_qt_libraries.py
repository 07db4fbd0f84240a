"""The X11 libraries Qt's xcb plugin needs: ldd's "not found" lines (recorded on a minimal Debian 12 with
PySide6's libqxcb.so, and made-up ones), the one apt or dnf command, and where the check applies."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from core.install import qt_libraries
from core.install.qt_libraries import (PACKAGES, XcbCheck, check_xcb, install_command, missing_libraries,
                                       package_manager, read_os_release, start_check, uses_xcb)
from tests.conftest import FIXTURES

#: ``ldd PySide6/Qt/plugins/platforms/libqxcb.so`` on Debian 12 without libxcb-icccm4 and libxcb-keysyms1.
DEBIAN_MINIMAL = (FIXTURES / "ldd_libqxcb_debian12_minimal.txt").read_text(encoding="utf-8")
FRESH_UBUNTU = """\
\tlinux-vdso.so.1 (0x00007ffd5a1f2000)
\tlibQt6XcbQpa.so.6 => /x/PySide6/Qt/lib/libQt6XcbQpa.so.6 (0x00007f1c2a000000)
\tlibxcb-cursor.so.0 => not found
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxcb-cursor.so.0 => not found
\tlibxcb-image.so.0 => /lib/x86_64-linux-gnu/libxcb-image.so.0 (0x00007f1c29f00000)
"""
UBUNTU = {"ID": "ubuntu", "ID_LIKE": "debian"}
FEDORA = {"ID": "fedora"}


def test_the_not_found_lines_each_once_in_ldds_order():
    assert missing_libraries(DEBIAN_MINIMAL) == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"]
    assert missing_libraries(FRESH_UBUNTU) == ["libxcb-cursor.so.0", "libxcb-icccm.so.4", "libxcb-keysyms.so.1"]
    assert missing_libraries("\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x1)\n") == []


@pytest.mark.parametrize(("release", "expected"), [
    (UBUNTU, "sudo apt install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1"),
    ({"ID": "debian"}, "sudo apt install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1"),
    ({"ID": "linuxmint", "ID_LIKE": "ubuntu debian"}, "sudo apt install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1"),
    (FEDORA, "sudo dnf install xcb-util-cursor xcb-util-wm xcb-util-keysyms"),
    ({"ID": "rocky", "ID_LIKE": "rhel centos fedora"}, "sudo dnf install xcb-util-cursor xcb-util-wm xcb-util-keysyms"),
])
def test_one_command_for_the_distribution(release, expected):
    check = check_xcb(Path("/x/libqxcb.so"), runner=lambda argv: (0, FRESH_UBUNTU), os_release=release)
    assert check.command() == expected
    words = check.message()
    assert expected in words and "libxcb-cursor.so.0, libxcb-icccm.so.4, libxcb-keysyms.so.1" in words
    assert "Could not load the Qt platform plugin" not in words


def test_ldd_is_asked_about_the_plugin_itself():
    asked = []
    check_xcb(Path("/x/libqxcb.so"), runner=lambda argv: asked.append(argv) or (0, ""), os_release=UBUNTU)
    assert asked == [["ldd", "/x/libqxcb.so"]]  # an argv, never a shell line


def test_a_library_the_table_does_not_know_is_asked_for_by_its_soname():
    assert install_command(["libxcb-icccm.so.4", "libfoo.so.3"], "dnf") == \
        "sudo dnf install xcb-util-wm 'libfoo.so.3()(64bit)'"
    assert install_command(["libxcb-icccm.so.4", "libfoo.so.3"], "apt") == \
        "sudo apt install libxcb-icccm4  # apt-file search libfoo.so.3"
    other = install_command(["libxcb-icccm.so.4"], None)  # Arch, openSUSE…: both, said as such
    assert "sudo apt install libxcb-icccm4" in other and "sudo dnf install xcb-util-wm" in other


def test_the_table_covers_every_system_library_the_recorded_plugin_loads():
    found = [line.split("=>")[0].strip() for line in DEBIAN_MINIMAL.splitlines() if "=> /lib" in line
             or "=> /usr/lib" in line or "not found" in line]
    system = [lib for lib in found if not lib.startswith(("libc.so", "libm.so", "libstdc++", "libgcc_s", "libpthread",
                                                          "libdl.so", "libz.so", "libzstd", "libpcre2", "libexpat",
                                                          "libpng16", "libbrotli", "libbsd", "libsystemd", "libmd.so",
                                                          "libcap.so", "libgcrypt", "liblzma", "liblz4", "libXau",
                                                          "libXdmcp", "libGLdispatch", "libGLX", "libgpg-error"))]
    assert [lib for lib in system if lib not in PACKAGES] == []


def test_os_release_is_read_with_quotes_and_comments(tmp_path):
    path = tmp_path / "os-release"
    path.write_text('# a comment\nNAME="Ubuntu"\nID=ubuntu\nID_LIKE=debian\nVERSION_ID="24.04"\n', encoding="utf-8")
    assert read_os_release(path) == {"NAME": "Ubuntu", "ID": "ubuntu", "ID_LIKE": "debian", "VERSION_ID": "24.04"}
    assert read_os_release(tmp_path / "none") == {}
    assert package_manager({"ID": "arch"}) is None


@pytest.mark.parametrize(("env", "system", "applies"), [
    ({}, "Linux", True),
    ({"QT_QPA_PLATFORM": "xcb"}, "Linux", True),
    ({"QT_QPA_PLATFORM": "offscreen"}, "Linux", False),
    ({"QT_QPA_PLATFORM": "wayland"}, "Linux", False),
    ({}, "Windows", False),
    ({}, "Darwin", False),
])
def test_the_check_applies_only_on_linux_with_the_platform_unset_or_xcb(env, system, applies):
    assert uses_xcb(env, system) is applies
    asked = []
    start_check(env, check=lambda: asked.append(True) or XcbCheck(None), system=system)
    assert bool(asked) is applies  # ldd is not even run where Qt will not load the plugin


def test_at_the_start_missing_libraries_stop_the_window_except_in_a_wayland_session():
    missing = lambda: check_xcb(Path("/x/libqxcb.so"), runner=lambda argv: (0, DEBIAN_MINIMAL),  # noqa: E731
                                os_release=UBUNTU)
    stop = start_check({}, check=missing, system="Linux")
    assert stop.blocking and "sudo apt install libxcb-icccm4 libxcb-keysyms1" in stop.message
    assert stop.message.endswith("then start YOLO Studio again.")
    wayland = start_check({"XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": "wayland-0"}, check=missing,
                          system="Linux")
    assert wayland.message and not wayland.blocking  # Qt tries its Wayland plugin first: said, not stopped
    fine = start_check({}, check=lambda: check_xcb(Path("/x/libqxcb.so"), runner=lambda argv: (0, ""),
                                                   os_release=UBUNTU), system="Linux")
    assert (fine.message, fine.blocking) == ("", False)


def test_without_ldd_nothing_is_claimed_missing():
    check = check_xcb(Path("/x/libqxcb.so"), runner=lambda argv: (127, "[Errno 2] No such file or directory: 'ldd'"),
                      os_release=UBUNTU)
    assert check.ok and "No such file" in check.error and check.message() == ""


def test_the_module_run_as_the_installer_and_launch_sh_do(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(qt_libraries, "check_xcb", lambda: check_xcb(
        Path("/x/libqxcb.so"), runner=lambda argv: (0, DEBIAN_MINIMAL), os_release=FEDORA))
    monkeypatch.setattr(qt_libraries.platform, "system", lambda: "Linux")
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("XDG_SESSION_TYPE", raising=False)
    assert qt_libraries.main([]) == 1
    assert "sudo dnf install xcb-util-wm xcb-util-keysyms\nthen start YOLO Studio again." in capsys.readouterr().err
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")  # the installer checks whatever this session uses
    assert qt_libraries.main(["--installer"]) == 1
    assert capsys.readouterr().err.rstrip().endswith("then run the installer again.")
    assert qt_libraries.main([]) == 0


def test_the_real_plugin_is_found_without_importing_pyside6():
    code = ("import sys; from core.install.qt_libraries import xcb_plugin; p = xcb_plugin(); "
            "print(p.name if p else None, 'PySide6' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).parents[2])
    assert out.stdout.split() == ["libqxcb.so", "False"]


def test_the_apps_start_says_it_in_words_before_qt_loads_its_plugin(monkeypatch, capsys):
    """``yolostudio gui`` on a machine missing X11 libraries: our words and exit 1, before any QApplication."""
    import gui.app as app_module

    monkeypatch.setattr(qt_libraries, "check_xcb", lambda: check_xcb(
        Path("/x/libqxcb.so"), runner=lambda argv: (0, DEBIAN_MINIMAL), os_release=UBUNTU))
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("XDG_SESSION_TYPE", raising=False)
    monkeypatch.setattr(qt_libraries.platform, "system", lambda: "Linux")

    class NotStarted:  # no QApplication yet, as in a real start; building one would be a failure here
        @staticmethod
        def instance():
            return None

        def __init__(self, *args):
            raise AssertionError("Qt was started although its X11 plugin cannot load")

    monkeypatch.setattr(app_module, "QApplication", NotStarted)
    assert app_module.main([]) == 1
    err = capsys.readouterr().err
    assert "sudo apt install libxcb-icccm4 libxcb-keysyms1" in err and "Could not load" not in err


@pytest.mark.skipif(sys.platform != "linux", reason="launch.sh and ldd are Linux's")
def test_launch_sh_stops_with_the_words_and_starts_the_app_when_nothing_is_missing(tmp_path):
    """installer/launch.sh as a user runs it, in a copy of the clone whose setup step and app are stand-ins and
    whose ``ldd`` prints the recorded output (first on PATH)."""
    import os
    import shutil

    root = Path(__file__).parents[2]
    clone = tmp_path / "clone"
    (clone / "installer").mkdir(parents=True)
    shutil.copy(root / "installer" / "launch.sh", clone / "installer" / "launch.sh")
    (clone / "installer" / "setup_env.sh").write_text("exit 0\n", encoding="utf-8")
    (clone / ".venv" / "bin").mkdir(parents=True)
    python = clone / ".venv" / "bin" / "python"  # this venv's Python, where PySide6 is
    python.write_text(f"#!/bin/sh\nexec {sys.executable} \"$@\"\n", encoding="utf-8")
    python.chmod(0o755)
    app = clone / ".venv" / "bin" / "yolostudio"
    app.write_text("#!/bin/sh\necho \"the app started: $*\"\n", encoding="utf-8")
    app.chmod(0o755)
    tools = tmp_path / "bin"
    tools.mkdir()
    ldd = tools / "ldd"
    (tmp_path / "ldd.txt").write_text(DEBIAN_MINIMAL, encoding="utf-8")
    ldd.write_text(f"#!/bin/sh\ncat {tmp_path / 'ldd.txt'}\n", encoding="utf-8")
    ldd.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "XDG_SESSION_TYPE")}
    env.update(PATH=f"{tools}{os.pathsep}{env['PATH']}", PYTHONPATH=str(root), LANG="C")

    def launch(extra: dict[str, str]) -> subprocess.CompletedProcess:
        return subprocess.run(["bash", str(clone / "installer" / "launch.sh"), "--workspace", "/ws"],
                              capture_output=True, text=True, env=dict(env, **extra), timeout=120)

    stopped = launch({})
    assert stopped.returncode == 1 and "the app started" not in stopped.stdout
    assert "Install them with:" in stopped.stderr and "libxcb-icccm.so.4, libxcb-keysyms.so.1" in stopped.stderr
    (tmp_path / "ldd.txt").write_text(DEBIAN_MINIMAL.replace("=> not found", "=> /usr/lib/x.so"), encoding="utf-8")
    started = launch({})
    assert started.returncode == 0 and started.stdout.strip() == "the app started: gui --workspace /ws"
