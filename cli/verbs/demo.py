"""``yolostudio demo``: write the embedded demo dataset (deterministic, offline) and print its data.yaml."""

from __future__ import annotations

import argparse
from pathlib import Path

from cli.common import EXIT_OK
from cli.registry import Verb, register
from cli.render import Output
from core.i18n import tr


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help=tr('print {"data": PATH}'))


def run(args: argparse.Namespace, workspace: Path | None) -> int:
    from core.demo.dataset import ensure_demo_dataset

    assert workspace is not None
    path = ensure_demo_dataset(workspace)
    Output(args.json).result({"data": str(path)}, str(path), indent=None)
    return EXIT_OK


register(Verb("demo", tr("write the demo dataset and print its data.yaml path"), add_arguments, run, order=60))
