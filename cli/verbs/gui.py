"""``yolostudio gui`` (also ``yolostudio`` with no verb): open the desktop app.

The GUI package is imported only here and only by name, when asked for: the CLI stays Qt-free, and
``core`` never reaches the GUI.
"""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path

from cli.registry import Verb, register
from core.i18n import tr


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The desktop app takes no options of its own here; ``--workspace`` is passed on."""


def run(args: argparse.Namespace, workspace: Path | None) -> int:
    argv = ["--workspace", args.workspace] if args.workspace else []
    return int(importlib.import_module("gui.app").main(argv))


register(Verb("gui", tr("open the desktop app (the default)"), add_arguments, run, order=100, needs_workspace=False))
