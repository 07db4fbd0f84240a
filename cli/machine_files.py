"""The remote end of ``yolostudio machine sync``: ``machine files-hash KEY`` and ``machine files-receive KEY``.

A machine runs these when this app's sync talks to it over ssh (``core.remote.sync``); a person has no use for
them, so ``machine --help`` does not list them. Both print one JSON document on stdout; KEY is one folder name
under the workspace's ``datasets/``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cli.common import EXIT_OK, EXIT_USAGE
from core.remote.files import dataset_folder, folder_hashes, receive


def add_remote_side(verbs: argparse._SubParsersAction) -> None:
    hashes = verbs.add_parser("files-hash")
    hashes.add_argument("key")
    hashes.set_defaults(handler=files_hash)
    receiving = verbs.add_parser("files-receive")
    receiving.add_argument("key")
    receiving.set_defaults(handler=files_receive)


def files_hash(args: argparse.Namespace, workspace: Path) -> int:
    try:
        folder = dataset_folder(workspace, args.key)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return EXIT_USAGE
    print(json.dumps({"folder": str(folder.absolute()), "files": folder_hashes(folder)}))
    return EXIT_OK


def files_receive(args: argparse.Namespace, workspace: Path) -> int:
    try:
        account = receive(sys.stdin.buffer, dataset_folder(workspace, args.key))
    except (ValueError, OSError, EOFError) as exc:
        print(f"files-receive: {exc}", file=sys.stderr)
        return EXIT_USAGE
    print(json.dumps(account))
    return EXIT_OK
