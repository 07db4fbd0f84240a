"""``python -m installer {plan,install,uninstall}``: what the per-OS installer scripts hand over to.

Run with the system's Python and the source clone on ``PYTHONPATH`` (standard library only). The shell
scripts only find a Python >= 3.10; every decision is made here, where it is tested.
Exit codes: 0 done (or the plan can be carried out), 1 blocked or a step failed (the message says why and
how to retry), 2 usage error.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path, PurePath

from core import APP_ROOT
from core.environment.facts import EnvironmentFacts, load_facts
from core.i18n import tr
from installer.layout import Layout, layout_for
from core.install.wheel_choice import CUDA_TAGS

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="install", description=tr("Install YOLO Studio for this user."))
    p.add_argument("action", choices=("plan", "install", "uninstall", "detect"))
    p.add_argument("--json", action="store_true", help=tr("print the plan as one JSON object"))
    p.add_argument("--facts", metavar="FILE", help=tr("plan for the machine in a facts file "
                                                      "(yolostudio doctor --save-facts); implies --dry-run"))
    which = p.add_mutually_exclusive_group()
    which.add_argument("--cpu", action="store_true", help=tr("install the CPU build of PyTorch"))
    which.add_argument("--cuda", choices=CUDA_TAGS, help=tr("install this CUDA build of PyTorch"))
    p.add_argument("--prefix", metavar="DIR", help=tr("install the app here instead of the per-user default"))
    p.add_argument("--desktop", action="store_true", help=tr("also put a shortcut on the desktop"))
    p.add_argument("--torch-index", metavar="URL",
                   help=tr("a mirror of PyTorch's wheel index holding cu132/, cu130/, cu126/ and cpu/ folders"))
    p.add_argument("--source", metavar="DIR", default=str(APP_ROOT), help=tr("the source folder to install from"))
    p.add_argument("--yes", action="store_true", help=tr("uninstall: do not ask"))
    p.add_argument("--remove-data", action="store_true",
                   help=tr("uninstall: also delete the workspace (runs, datasets made by the app) and settings"))
    # Facts only the Windows script can read, passed on so the decisions stay here:
    p.add_argument("--long-paths", choices=("0", "1"), help=argparse.SUPPRESS)
    p.add_argument("--execution-policy", help=argparse.SUPPRESS)
    p.add_argument("--desktop-dir", help=argparse.SUPPRESS)
    p.add_argument("--programs-dir", help=argparse.SUPPRESS)
    p.add_argument("--os", dest="os_name", help=argparse.SUPPRESS)  # tests: plan another OS's layout
    return p


def free_gb_at(path: PurePath) -> float | None:
    """Free space on the file system that will hold ``path`` (its nearest existing folder)."""
    probe = Path(path)
    while not probe.exists() and probe.parent != probe:
        probe = probe.parent
    try:
        return round(shutil.disk_usage(probe).free / 1024**3, 1)
    except OSError:
        return None


def layout_from(args: argparse.Namespace, os_name: str) -> Layout:
    desktop = args.desktop_dir
    if desktop is None and os_name == "Linux" and args.desktop:
        desktop = linux_desktop_dir()
    return layout_for(os_name, dict(os.environ), str(Path.home()), args.prefix, desktop, args.programs_dir)


def linux_desktop_dir() -> str | None:
    """The desktop folder as the session names it (localised: ~/桌面, ~/Schreibtisch), else ~/Desktop."""
    from installer.detect import run_command  # noqa: PLC0415

    code, out = run_command(["xdg-user-dir", "DESKTOP"])
    path = out.strip()
    return path if code == 0 and path and path != str(Path.home()) else None


def build_plan(args: argparse.Namespace, facts: EnvironmentFacts | None = None, source: str | None = None):
    """The plan from the options: for ``facts`` when given (read in the venv), else the facts file or this
    machine. Returns an ``InstallPlan``."""
    from installer.detect import detect, venv_available  # noqa: PLC0415
    from installer.plan import make_plan  # noqa: PLC0415

    this_machine = not args.facts
    if facts is not None:
        pass
    elif args.facts:
        facts, notes = load_facts(Path(args.facts).expanduser())
        for note in notes:
            print(tr("note: {text}", text=note), file=sys.stderr)
        source = tr("facts file {path}", path=args.facts)
    else:
        facts, source = detect()
    os_name = args.os_name or facts.system.os or "Linux"
    layout = layout_from(args, os_name)
    free = free_gb_at(layout.prefix) if this_machine else None
    long_paths = None if args.long_paths is None else args.long_paths == "1"
    return make_plan(facts, source or "?", layout, args.source, override="cpu" if args.cpu else args.cuda,
                     free_gb=free, index_base=args.torch_index, long_paths=long_paths, policy=args.execution_policy,
                     desktop_shortcut=args.desktop, clone_root=Path(args.source).resolve(),
                     venv_module=venv_available() if this_machine else None)


def cmd_detect() -> int:
    """This machine's facts as JSON (run by the installer with the new venv's Python, where NVML is)."""
    from installer.detect import detect  # noqa: PLC0415

    facts, source = detect()
    print(json.dumps({"source": source, "facts": facts.to_dict()}, ensure_ascii=False))
    return EXIT_OK


def cmd_plan(args: argparse.Namespace) -> int:
    from installer.plan import render_plan  # noqa: PLC0415

    plan = build_plan(args)
    if args.json:
        print(json.dumps(dict(plan.to_dict(), dry_run=True), indent=2, ensure_ascii=False))
    else:
        print(render_plan(plan, dry_run=True))
    return EXIT_FAILED if plan.errors else EXIT_OK


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.facts and args.action == "install":
        print(tr("--facts describes another machine: showing its plan only (nothing is installed)."), file=sys.stderr)
        args.action = "plan"
    try:
        if args.action == "plan":
            return cmd_plan(args)
        if args.action == "detect":
            return cmd_detect()
        if args.action == "install":
            from installer.steps import cmd_install  # noqa: PLC0415
            return cmd_install(build_plan(args), lambda facts, source: build_plan(args, facts, source))
        from installer.uninstall import cmd_uninstall  # noqa: PLC0415
        return cmd_uninstall(args, layout_from(args, args.os_name or _this_os()))
    except BrokenPipeError:  # `... | head`: the reader had enough
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except (OSError, ValueError) as exc:
        print(tr("error: {reason}", reason=exc), file=sys.stderr)
        return EXIT_USAGE


def _this_os() -> str:
    import platform  # noqa: PLC0415
    return platform.system()


if __name__ == "__main__":
    sys.exit(main())
