"""Shortcuts to the installed app: the Linux desktop entry and the Windows ``.lnk`` files.

Written last by the installer, after the installed app passed its smoke test, so a menu entry never
points at a broken app. Linux: a Desktop Entry Specification 1.4 file (``desktop-file-validate`` clean,
checked in the tests) that starts the venv's ``yolostudio-gui`` with the icon from the hicolor theme.
Windows: shell links made through the ``WScript.Shell`` COM object in a one-off PowerShell, every path
passed in environment variables (never spliced into the script), targeting ``yolostudio-gui.exe`` — the
gui-script launcher, so no console window opens.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path, PurePath

from installer.layout import APP_ID, APP_TITLE, Layout

#: Characters that force quoting of an Exec argument (Desktop Entry Specification, "The Exec key").
_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")


def exec_quote(arg: str) -> str:
    """One Exec argument: quoted when it holds a reserved character, with ``"`$\\`` escaped inside the
    quotes, then backslashes doubled again because the whole value is a desktop-file string; ``%`` is
    written ``%%`` (field codes)."""
    arg = arg.replace("%", "%%")
    if not any(ch in _RESERVED for ch in arg):
        return arg
    inner = "".join("\\" + ch if ch in '"`$\\' else ch for ch in arg)
    return '"' + inner.replace("\\", "\\\\") + '"'


def desktop_entry(layout: Layout) -> str:
    gui = str(layout.gui)
    return "\n".join([
        "[Desktop Entry]",
        "Type=Application",
        "Version=1.4",
        f"Name={APP_TITLE}",
        f"Name[zh_CN]={APP_TITLE} 训练工作室",
        "GenericName=Object detection training",
        "GenericName[zh_CN]=目标检测训练",
        "Comment=Train and export YOLOv5 models on this GPU workstation",
        "Comment[zh_CN]=在本机 GPU 上训练并导出 YOLOv5 模型",
        f"Exec={exec_quote(gui)}",
        f"TryExec={gui}",
        f"Icon={APP_ID}",
        "Terminal=false",
        "Categories=Science;ArtificialIntelligence;",
        "Keywords=YOLO;YOLOv5;training;object detection;GPU;",
        "StartupNotify=true",
        f"StartupWMClass={APP_TITLE}",
        "",
    ])


def windows_icon(layout: Layout) -> PurePath:
    """The .ico shipped with the app's resources, inside the venv's site-packages."""
    return layout.venv / "Lib" / "site-packages" / "resources" / "icons" / f"{APP_ID}.ico"


#: Reads every value from the environment: no path is ever parsed as PowerShell.
_LNK_SCRIPT = ("$s = (New-Object -ComObject WScript.Shell).CreateShortcut($env:YS_LNK); "
               "$s.TargetPath = $env:YS_TARGET; $s.Arguments = $env:YS_ARGS; $s.IconLocation = $env:YS_ICON; "
               "$s.WorkingDirectory = $env:YS_WORKDIR; $s.Description = $env:YS_DESC; $s.Save()")


def windows_shortcut_command(link: PurePath, target: PurePath, arguments: str, icon: PurePath,
                             workdir: PurePath, description: str) -> tuple[list[str], dict[str, str]]:
    """(argv, extra environment) that create one shell link."""
    argv = ["powershell.exe", "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-Command", _LNK_SCRIPT]
    env = {"YS_LNK": str(link), "YS_TARGET": str(target), "YS_ARGS": arguments, "YS_ICON": f"{icon},0",
           "YS_WORKDIR": str(workdir), "YS_DESC": description}
    return argv, env


def windows_shortcuts(layout: Layout, desktop: bool) -> list[tuple[PurePath, list[str], dict[str, str]]]:
    """(link path, argv, env) for the Start-menu entry, the uninstaller entry and the desktop icon."""
    icon = windows_icon(layout)
    out = []
    for link in [layout.menu_entry] + ([layout.desktop_entry] if desktop and layout.desktop_entry else []):
        argv, env = windows_shortcut_command(link, layout.gui, "", icon, layout.prefix,
                                             "Train and export YOLOv5 models on this GPU workstation")
        out.append((link, argv, env))
    if layout.uninstall_entry is not None:
        argv, env = windows_shortcut_command(layout.uninstall_entry, layout.prefix / "uninstall.bat", "", icon,
                                             layout.prefix, f"Remove {APP_TITLE} (your runs are kept)")
        out.append((layout.uninstall_entry, argv, env))
    return out


def write_linux_entry(layout: Layout, icon_source: Path, desktop: bool, run=subprocess.run) -> list[Path]:
    """Icon, menu entry (and desktop copy): returns the files written."""
    written = []
    icon = Path(layout.icon)  # type: ignore[arg-type]
    icon.parent.mkdir(parents=True, exist_ok=True)
    icon.write_bytes(icon_source.read_bytes())
    written.append(icon)
    text = desktop_entry(layout)
    targets = [Path(layout.menu_entry)] + ([Path(layout.desktop_entry)] if desktop and layout.desktop_entry else [])
    for path in targets:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.chmod(tmp, 0o755)  # desktops launch only executable entries from the desktop folder
        os.replace(tmp, path)
        written.append(path)
    if desktop and layout.desktop_entry:
        _quiet(run, ["gio", "set", str(layout.desktop_entry), "metadata::trusted", "true"])
    _quiet(run, ["update-desktop-database", str(Path(layout.menu_entry).parent)])
    return written


def _quiet(run, argv: list[str]) -> None:
    """Optional desktop helpers (GNOME's trust flag, the MIME cache): absent or failing is fine."""
    try:
        run(argv, capture_output=True, timeout=20, check=False)
    except (OSError, subprocess.SubprocessError):
        pass
