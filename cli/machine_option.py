"""``--machine NAME`` and ``--detach`` of the verbs that can run on another machine (``cli.remote_job``), declared
once; this module is light so the verbs' start-up imports nothing of ssh."""

from __future__ import annotations

import argparse

from core.i18n import tr


def add_machine_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--machine", metavar="NAME", default=None,
                        help=tr("run it on a machine added with 'yolostudio machine add' (the result is fetched back)"))
    parser.add_argument("--detach", action="store_true",
                        help=tr("with --machine: start it there and return ('yolostudio fetch RUN --machine NAME' "
                                "brings the result back)"))
