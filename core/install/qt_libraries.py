"""The system libraries Qt's X11 plugin needs, what is missing on this machine, and the one command to get them.

Why: PySide6's wheels bring Qt but not the X11 libraries Qt's ``xcb`` platform plugin links against. On a
fresh Debian/Ubuntu (Qt 6.5+ needs ``libxcb-cursor0``; a minimal system also lacks ``libxcb-icccm4``,
``libxcb-keysyms1``, …) the window never opens and the user gets Qt's "Could not load the Qt platform
plugin xcb". Asking ``ldd`` about the plugin itself (``PySide6/Qt/plugins/platforms/libqxcb.so``) lists
exactly the libraries the loader cannot find ("=> not found"), for whatever Qt version is installed; this
module turns that list into one ``apt`` or ``dnf`` command. The Linux installer runs it before it writes the
menu entry, ``installer/launch.sh`` and the app's start before a window is made (``python -m
core.install.qt_libraries``: exit 1 with the words, 0 when nothing is missing or the check does not apply —
on Linux, with ``QT_QPA_PLATFORM`` unset or ``xcb``; in a Wayland session the words are a warning).

Standard library only, no Qt import: the PySide6 folder is found with ``importlib.util.find_spec``, so the
check runs where Qt itself cannot start.
"""

from __future__ import annotations

import importlib.util
import os
import platform
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping

from core.i18n import tr

#: soname -> (Debian/Ubuntu package, Fedora/RHEL package) for every library PySide6 6.x's libqxcb.so and the
#: Qt libraries it loads take from the system.
#: Sources: Debian 12 "bookworm" (the names Ubuntu 22.04/24.04 share): ``dpkg -S`` on an installed system and the
#: file lists at https://packages.debian.org/bookworm/amd64/<package>/filelist (libxcb-icccm4, libxcb-keysyms1 and
#: libxcb-cursor0 ship exactly the soname beside them; Ubuntu 24.04's libglib2.0-0t64 provides libglib2.0-0, so apt
#: takes the old name). Fedora 40 / RHEL 9: the file lists at https://packages.fedoraproject.org/pkgs/<package>/
#: (xcb-util-wm holds libxcb-icccm and libxcb-ewmh; xcb-util-renderutil libxcb-render-util; libxcb every core
#: extension such as libxcb-randr/-shm/-sync/-xfixes/-xkb; libglvnd-glx libGL, libglvnd-egl libEGL).
PACKAGES: dict[str, tuple[str, str]] = {
    "libxcb-cursor.so.0": ("libxcb-cursor0", "xcb-util-cursor"),
    "libxcb-icccm.so.4": ("libxcb-icccm4", "xcb-util-wm"),
    "libxcb-keysyms.so.1": ("libxcb-keysyms1", "xcb-util-keysyms"),
    "libxcb-image.so.0": ("libxcb-image0", "xcb-util-image"),
    "libxcb-render-util.so.0": ("libxcb-render-util0", "xcb-util-renderutil"),
    "libxcb-util.so.1": ("libxcb-util1", "xcb-util"),
    "libxcb-randr.so.0": ("libxcb-randr0", "libxcb"),
    "libxcb-shm.so.0": ("libxcb-shm0", "libxcb"),
    "libxcb-sync.so.1": ("libxcb-sync1", "libxcb"),
    "libxcb-xfixes.so.0": ("libxcb-xfixes0", "libxcb"),
    "libxcb-render.so.0": ("libxcb-render0", "libxcb"),
    "libxcb-shape.so.0": ("libxcb-shape0", "libxcb"),
    "libxcb-xkb.so.1": ("libxcb-xkb1", "libxcb"),
    "libxcb-xinput.so.0": ("libxcb-xinput0", "libxcb"),
    "libxcb.so.1": ("libxcb1", "libxcb"),
    "libX11-xcb.so.1": ("libx11-xcb1", "libX11-xcb"),
    "libX11.so.6": ("libx11-6", "libX11"),
    "libxkbcommon.so.0": ("libxkbcommon0", "libxkbcommon"),
    "libxkbcommon-x11.so.0": ("libxkbcommon-x11-0", "libxkbcommon-x11"),
    "libGL.so.1": ("libgl1", "libglvnd-glx"),
    "libEGL.so.1": ("libegl1", "libglvnd-egl"),
    "libOpenGL.so.0": ("libopengl0", "libglvnd-opengl"),
    "libfontconfig.so.1": ("libfontconfig1", "fontconfig"),
    "libfreetype.so.6": ("libfreetype6", "freetype"),
    "libglib-2.0.so.0": ("libglib2.0-0", "glib2"),
    "libgthread-2.0.so.0": ("libglib2.0-0", "glib2"),
    "libdbus-1.so.3": ("libdbus-1-3", "dbus-libs"),
}
APT, DNF = "apt", "dnf"
_NOT_FOUND = re.compile(r"^\s*(\S+)\s*=>\s*not found\s*$", re.MULTILINE)
LDD_TIMEOUT_S = 20.0

#: (argv) -> (exit code, output); the default runs it (tests inject ldd's output).
Runner = Callable[[list[str]], "tuple[int, str]"]


@dataclass
class XcbCheck:
    """What the X11 plugin lacks on this machine: the sonames, and the command that installs them."""

    plugin: Path | None
    missing: list[str] = field(default_factory=list)
    manager: str | None = None  # "apt", "dnf", or None: another distribution
    error: str = ""  # the check itself could not run (no ldd): nothing is claimed missing

    @property
    def ok(self) -> bool:
        return not self.missing

    def command(self) -> str:
        return install_command(self.missing, self.manager)

    def message(self, *, installing: bool = False) -> str:
        """The plain words for a person: what is missing, the one command, and what to do after it."""
        if self.ok:
            return ""
        then = tr("then run the installer again.") if installing else tr("then start YOLO Studio again.")
        return tr("The YOLO Studio window cannot open yet: Qt's X11 plugin needs system libraries that are not "
                  "installed ({libraries}). Install them with:\n    {command}\n{then}",
                  libraries=", ".join(self.missing), command=self.command(), then=then)


def missing_libraries(ldd_output: str) -> list[str]:
    """The sonames ``ldd`` could not find ("libxcb-icccm.so.4 => not found"), each once, in ldd's order."""
    return list(dict.fromkeys(_NOT_FOUND.findall(ldd_output)))


def read_os_release(path: Path = Path("/etc/os-release")) -> dict[str, str]:
    """``/etc/os-release`` as a dict (freedesktop os-release(5): KEY=value, values maybe quoted); {} if absent."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    out = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep and key.strip() and not key.startswith("#"):
            out[key.strip()] = value.strip().strip("\"'")
    return out


def package_manager(os_release: Mapping[str, str]) -> str | None:
    """apt for Debian and its family (Ubuntu, Mint, Pop!_OS…), dnf for Fedora and RHEL's (Rocky, Alma, CentOS)."""
    ids = {os_release.get("ID", "").lower(), *os_release.get("ID_LIKE", "").lower().split()}
    if ids & {"debian", "ubuntu"}:
        return APT
    if ids & {"fedora", "rhel", "centos"}:
        return DNF
    return None


def install_command(libraries: list[str], manager: str | None) -> str:
    """One command for every missing library: by package name from ``PACKAGES``; a soname the table does not
    know is asked for by soname (dnf resolves ``libfoo.so.1()(64bit)``; on Debian ``apt-file search`` finds it)."""
    if manager == APT:
        known = [PACKAGES[lib][0] for lib in libraries if lib in PACKAGES]
        unknown = [lib for lib in libraries if lib not in PACKAGES]
        command = "sudo apt install " + " ".join(dict.fromkeys(known)) if known else ""
        search = "; ".join(f"apt-file search {lib}" for lib in unknown)
        return "  # ".join(p for p in (command, search) if p) if command else search
    if manager == DNF:
        names = [PACKAGES[lib][1] if lib in PACKAGES else f"'{lib}()(64bit)'" for lib in libraries]
        return "sudo dnf install " + " ".join(dict.fromkeys(names))
    debian = install_command(libraries, APT)
    fedora = install_command(libraries, DNF)
    return tr("{debian}   (Debian/Ubuntu), or: {fedora}   (Fedora/RHEL); elsewhere the packages that provide "
              "these files", debian=debian, fedora=fedora)


def xcb_plugin() -> Path | None:
    """PySide6's X11 platform plugin, found without importing PySide6 (None when PySide6 or the file is absent)."""
    try:
        spec = importlib.util.find_spec("PySide6")
    except (ImportError, ValueError):
        return None
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        plugin = Path(folder) / "Qt" / "plugins" / "platforms" / "libqxcb.so"
        if plugin.is_file():
            return plugin
    return None


def run_ldd(argv: list[str]) -> tuple[int, str]:
    """``ldd PLUGIN``: its exit code and output (no shell; ``LANG=C`` so "not found" is in English)."""
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=LDD_TIMEOUT_S, check=False,
                              env=dict(os.environ, LC_ALL="C", LANG="C"))
    except (OSError, subprocess.TimeoutExpired) as exc:
        return 127, str(exc)
    return done.returncode, done.stdout + done.stderr


def check_xcb(plugin: Path | None = None, *, runner: Runner = run_ldd,
              os_release: Mapping[str, str] | None = None) -> XcbCheck:
    """What the plugin lacks, with the package manager of this distribution."""
    plugin = plugin if plugin is not None else xcb_plugin()
    manager = package_manager(read_os_release() if os_release is None else os_release)
    if plugin is None:
        return XcbCheck(None, manager=manager, error=tr("PySide6's X11 plugin (libqxcb.so) was not found"))
    code, output = runner(["ldd", str(plugin)])
    missing = missing_libraries(output)
    if code != 0 and not missing:
        reason = (output.strip().splitlines() or [str(code)])[-1]
        return XcbCheck(plugin, manager=manager, error=tr("ldd could not read {plugin}: {reason}", plugin=plugin,
                                                          reason=reason))
    return XcbCheck(plugin, missing, manager)


def uses_xcb(env: Mapping[str, str], system: str | None = None) -> bool:
    """Whether Qt may load its X11 plugin: on Linux, with ``QT_QPA_PLATFORM`` unset or naming ``xcb``."""
    if (system or platform.system()) != "Linux":
        return False
    chosen = env.get("QT_QPA_PLATFORM", "").strip()
    return not chosen or "xcb" in [p.split(":", 1)[0].strip() for p in chosen.split(";")]


def wayland_session(env: Mapping[str, str]) -> bool:
    """A Wayland session with ``QT_QPA_PLATFORM`` unset: Qt tries its Wayland plugin before xcb (qtbase's
    qguiapplication.cpp, ``XDG_SESSION_TYPE=wayland``; some versions ignore it on GNOME), so missing X11
    libraries may not stop the window — the start says so and goes on."""
    return not env.get("QT_QPA_PLATFORM") and env.get("XDG_SESSION_TYPE", "").lower() == "wayland" \
        and bool(env.get("WAYLAND_DISPLAY"))


@dataclass
class StartCheck:
    """What the app's start (or ``launch.sh``) says before Qt is loaded."""

    message: str = ""  # "" when nothing is missing or the check does not apply here
    blocking: bool = False  # the window cannot open: stop with the words instead of Qt's


def start_check(env: Mapping[str, str] | None = None, *, check: Callable[[], XcbCheck] | None = None,
                system: str | None = None) -> StartCheck:
    """The words that replace Qt's "Could not load the Qt platform plugin xcb", and whether they stop the start."""
    env = os.environ if env is None else env
    if not uses_xcb(env, system):
        return StartCheck()
    message = (check or check_xcb)().message()
    return StartCheck(message, blocking=bool(message) and not wayland_session(env))


def main(argv: list[str] | None = None) -> int:
    """``python -m core.install.qt_libraries``: the words on stderr; exit 1 when they stop the window, else 0.
    ``--installer``: the installer's check before the menu entry — on Linux whatever this session's platform
    (the entry starts the window on the desktop), and the words end with "run the installer again"."""
    args = sys.argv[1:] if argv is None else argv
    if "--installer" in args:
        if platform.system() != "Linux":
            return 0
        check = check_xcb()
        if check.missing:
            print(check.message(installing=True), file=sys.stderr)
        return 1 if check.missing else 0
    result = start_check()
    if result.message:
        print(result.message, file=sys.stderr)
    return 1 if result.blocking else 0


if __name__ == "__main__":
    sys.exit(main())
