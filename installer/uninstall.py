"""Removing an installed YOLO Studio: exactly what ``install.json`` lists, newest first.

The workspace (runs, the demo dataset, caches) and the settings stay unless ``--remove-data`` is given —
and then only after the user confirms (or ``--yes``), naming the folders first. Their location is asked
of the installed app itself (a workspace can be moved in the settings) before its venv is deleted.
Without a manifest (an install interrupted before it wrote one) only the known paths that point into
this install are removed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from core.i18n import tr
from installer.layout import Layout
from installer.manifest import load_manifest

DATA_QUERY = ("import json; from core.workspace import resolve_workspace; from core.settings import config_dir; "
              "print(json.dumps([str(resolve_workspace()), str(config_dir())]))")


def data_folders(layout: Layout) -> list[Path]:
    """The workspace and settings folders, as the installed app resolves them (empty if it can't run)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    try:
        done = subprocess.run([str(layout.python), "-c", DATA_QUERY], capture_output=True, text=True, timeout=60,
                              env=env, check=False)
        return [Path(p) for p in json.loads(done.stdout.strip().splitlines()[-1])]
    except (OSError, ValueError, IndexError, subprocess.SubprocessError):
        return []


def _remove(path: Path) -> bool:
    if path.is_symlink() or path.is_file():
        path.unlink()
        return True
    if path.is_dir():
        shutil.rmtree(path)
        return True
    return False


def _ours_without_manifest(layout: Layout) -> list[Path]:
    """Known paths that point into this install (a link to its venv, an entry naming its gui-script)."""
    found = []
    for path in (layout.launcher, layout.menu_entry, layout.desktop_entry):
        p = Path(path) if path is not None else None
        if p is None or not os.path.lexists(p):
            continue
        if p.is_symlink() and str(layout.venv) in os.readlink(p):
            found.append(p)
        elif p.suffix == ".desktop" and str(layout.gui) in p.read_text(encoding="utf-8", errors="replace"):
            found.append(p)
    return found + [Path(layout.venv), Path(layout.log), Path(layout.manifest)]


def cmd_uninstall(args: argparse.Namespace, layout: Layout, ask=input) -> int:
    manifest = load_manifest(Path(layout.manifest))
    prefix = Path(layout.prefix)
    if manifest is None and not prefix.exists():
        print(tr("YOLO Studio is not installed in {prefix}; nothing to remove.", prefix=prefix))
        return 0
    data = data_folders(layout) if args.remove_data else []
    if args.remove_data and not data:
        print(tr("The installed app could not tell where its workspace is; it is left in place."))
    if data and not args.yes:
        listed = "\n".join(f"  {p}" for p in data)
        answer = ask(tr("Delete your workspace and settings too? This removes every run and model in:\n{folders}\n"
                        "Type 'delete' to confirm: ", folders=listed))
        if answer.strip().lower() != "delete":
            print(tr("Keeping the workspace and settings."))
            data = []
    paths = [Path(p) for p in reversed(manifest.created)] if manifest else _ours_without_manifest(layout)
    removed = [p for p in paths if _remove(p)]
    for folder in data:
        if _remove(folder):
            removed.append(folder)
    if prefix.exists() and not any(prefix.iterdir()):
        prefix.rmdir()
    kept = "" if data else tr(" Your runs and settings were kept (--remove-data deletes them).")
    print(tr("YOLO Studio removed from {prefix}: {count} items.{kept}", prefix=prefix, count=len(removed), kept=kept))
    if prefix.exists():
        print(tr("{prefix} still holds files the installer did not make; they were left.", prefix=prefix),
              file=sys.stderr)
    return 0
