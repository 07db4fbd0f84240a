"""``yolostudio``: the command-line face of the app — the same core as the GUI, for terminals and SSH.

The verbs are the modules of ``cli/verbs/`` (``yolostudio --help`` lists them); with no verb the desktop
app opens. Human output by default, ``--json`` for machines; exit codes in ``cli.common``. Training and
export run in the same worker subprocess the GUI uses (``cli.jobs.run_job``): Ctrl+C asks it to stop
gracefully, and a dropped SSH connection leaves it training — ``yolostudio attach RUN`` follows it again.
"""

from __future__ import annotations

import argparse
import sys

from cli.common import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from cli.registry import load_verb, load_verbs, verb_named
from cli.render import Output
from cli.terminal import guarded
from core.i18n import set_language, tr
from core.workspace import resolve_workspace, settings_notes

DEFAULT_VERB = "gui"


def named_verb(argv: list[str]) -> str | None:
    """The verb a command line names (its first word that is not an option or ``--workspace``'s value)."""
    words = iter(argv)
    for word in words:
        if word == "--workspace":
            next(words, None)
        elif not word.startswith("-"):
            return word
    return None


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser; given the command line, with only the verb it names (a verb's imports never slow another's
    start), else with every verb (``yolostudio --help``, no verb, or a word that is no verb's)."""
    parser = argparse.ArgumentParser(prog="yolostudio", description=tr("YOLO Studio: train and export YOLOv5 models."))
    parser.add_argument("--workspace", help=tr("workspace folder (runs, demo dataset); default: the app's data folder"))
    sub = parser.add_subparsers(dest="verb", metavar="VERB")
    name = named_verb(argv) if argv is not None else None
    for verb in load_verb(name) if name else load_verbs():
        verb.add_arguments(sub.add_parser(verb.name, help=verb.help))
    return parser


def main(argv: list[str] | None = None) -> int:
    with guarded():  # everything a verb prints goes through the one writer (cli/terminal.py)
        return _main(sys.argv[1:] if argv is None else argv)


def _main(argv: list[str]) -> int:
    args = build_parser(argv).parse_args(argv)
    if getattr(args, "json", False):
        set_language("en")  # --json is for programs: stable English words (ids are the contract)
    verb = verb_named(args.verb or DEFAULT_VERB)
    errors = Output()
    try:
        for note in settings_notes(args.workspace) if verb.needs_workspace else ():
            errors.warning(note)
        workspace = resolve_workspace(args.workspace) if verb.needs_workspace else None
        return verb.run(args, workspace)
    except FileNotFoundError as exc:
        errors.error(str(exc))
        return EXIT_USAGE
    except BrokenPipeError:  # `yolostudio runs | head`
        return EXIT_OK
    except OSError as exc:
        errors.error(str(exc))
        return EXIT_FAILED


if __name__ == "__main__":
    sys.exit(main())
