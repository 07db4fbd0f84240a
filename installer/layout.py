"""Where an installed YOLO Studio lives, per OS and per user — never inside a source clone.

Linux (XDG): the app in ``$XDG_DATA_HOME/yolo-studio`` (``~/.local/share/yolo-studio``: ``venv/``,
``install.json``, ``install.log``), the menu entry in ``$XDG_DATA_HOME/applications``, the icon in the
hicolor theme, a ``yolostudio`` command in ``~/.local/bin``. Windows: the app in
``%LOCALAPPDATA%\\Programs\\YOLO Studio`` (where per-user programs go), shortcuts in the Start menu's
Programs folder and on the desktop (both as the installer script reads them from the shell, since they
can be redirected, e.g. to OneDrive). The user's workspace (runs, datasets) and settings are elsewhere
(``core.workspace``, ``core.settings``) and an uninstall leaves them unless asked.

Pure functions of (OS, environment variables, home): tests lay out a Windows install on Linux.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath, PurePosixPath, PureWindowsPath

APP_ID = "yolo-studio"  # desktop entry, icon and Linux folder name (lower case, no spaces: XDG habit)
APP_TITLE = "YOLO Studio"
MANIFEST = "install.json"
LOG = "install.log"


@dataclass(frozen=True)
class Layout:
    os: str
    prefix: PurePath  # everything the installer owns except shortcuts, the icon and the launcher
    venv: PurePath
    python: PurePath  # the venv's interpreter
    cli: PurePath  # the venv's ``yolostudio`` console script
    gui: PurePath  # the venv's ``yolostudio-gui`` gui-script (no console window on Windows)
    menu_entry: PurePath  # Linux .desktop in the applications menu; Windows Start-menu shortcut
    desktop_entry: PurePath | None  # the same on the desktop, when asked
    icon: PurePath | None  # Linux: the theme icon file (Windows shortcuts point at the .ico in the venv)
    launcher: PurePath | None  # Linux: ~/.local/bin/yolostudio -> the venv's console script
    uninstall_entry: PurePath | None  # Windows: Start-menu shortcut to the uninstaller

    @property
    def manifest(self) -> PurePath:
        return self.prefix / MANIFEST

    @property
    def log(self) -> PurePath:
        return self.prefix / LOG

    def to_dict(self) -> dict[str, str | None]:
        return {k: (str(v) if v is not None else None) for k, v in self.__dict__.items()}


def linux_layout(env: dict[str, str], home: str, prefix: str | None = None, desktop_dir: str | None = None) -> Layout:
    h = PurePosixPath(home)
    data = PurePosixPath(env.get("XDG_DATA_HOME") or h / ".local" / "share")
    root = PurePosixPath(prefix) if prefix else data / APP_ID
    venv = root / "venv"
    desktop = PurePosixPath(desktop_dir) if desktop_dir else h / "Desktop"
    return Layout("Linux", root, venv, venv / "bin" / "python", venv / "bin" / "yolostudio",
                  venv / "bin" / "yolostudio-gui", data / "applications" / f"{APP_ID}.desktop",
                  desktop / f"{APP_ID}.desktop", data / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg",
                  h / ".local" / "bin" / "yolostudio", None)


def windows_layout(env: dict[str, str], home: str, prefix: str | None = None, desktop_dir: str | None = None,
                   programs_dir: str | None = None) -> Layout:
    h = PureWindowsPath(home)
    local = PureWindowsPath(env.get("LOCALAPPDATA") or h / "AppData" / "Local")
    roaming = PureWindowsPath(env.get("APPDATA") or h / "AppData" / "Roaming")
    root = PureWindowsPath(prefix) if prefix else local / "Programs" / APP_TITLE
    venv = root / "venv"
    scripts = venv / "Scripts"
    programs = PureWindowsPath(programs_dir) if programs_dir else (
        roaming / "Microsoft" / "Windows" / "Start Menu" / "Programs")
    desktop = PureWindowsPath(desktop_dir) if desktop_dir else h / "Desktop"
    return Layout("Windows", root, venv, scripts / "python.exe", scripts / "yolostudio.exe",
                  scripts / "yolostudio-gui.exe", programs / APP_TITLE / f"{APP_TITLE}.lnk",
                  desktop / f"{APP_TITLE}.lnk", None, None, programs / APP_TITLE / f"Uninstall {APP_TITLE}.lnk")


def layout_for(os_name: str, env: dict[str, str], home: str, prefix: str | None = None,
               desktop_dir: str | None = None, programs_dir: str | None = None) -> Layout:
    if os_name == "Windows":
        return windows_layout(env, home, prefix, desktop_dir, programs_dir)
    return linux_layout(env, home, prefix, desktop_dir)


def inside(path: PurePath, folder: PurePath) -> bool:
    """Is ``path`` the folder itself or somewhere under it (a venv inside the source clone is refused)."""
    try:
        path.relative_to(type(path)(folder))
        return True
    except ValueError:
        return False
