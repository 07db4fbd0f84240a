"""``yolostudio machine add|list|check``: the machines runs can go to, reached with the user's own ssh.

``add NAME --ssh DEST`` checks that ``ssh DEST`` works without a prompt (BatchMode: keys or the agent); an
unknown host key is shown with its fingerprint and must be accepted by the user — typed with
``--accept-host-key SHA256:…`` or answered at a prompt — never taken silently (``core.remote.hostkeys``).
``check NAME`` runs ``yolostudio doctor --json`` there and shows its findings as ``doctor`` does here; where
YOLO Studio is missing it offers to install it (asked at a terminal), and prints the commands. ``install NAME
[--offline]`` sends this app there and runs its installer (``core.remote.install``). Nothing stores a password.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from cli.machine_files import add_remote_side
from cli.common import EXIT_FAILED, EXIT_OK, EXIT_STOPPED, EXIT_USAGE, ask_yes, existing_file
from cli.progress_line import ProgressLine
from cli.registry import Verb, register
from cli.render import Output
from cli.verbs.doctor import render_table
from core.environment.report import report_dict
from core.environment.rules import RuleContext, evaluate
from core.i18n import tr
from core.remote.doctor import check_remote, install_commands
from core.remote.contact import Contact, accept_and_retry, first_contact
from core.remote.facts import remember_facts
from core.remote.hostkeys import HostKeyError
from core.remote.install import InstallError, InstallPlan, install, installer_words, point_at_installed
from core.remote.machines import (DEFAULT_REMOTE_COMMAND, DEFAULT_REMOTE_DIR, Machine, MachineError, get_machine,
                                  load_machines, save_machine)
from core.remote.sync import SyncCancelled, SyncError, sync_dataset
from core.export.render import size_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    verbs = parser.add_subparsers(dest="machine_verb", metavar="ACTION", required=True)
    add = verbs.add_parser("add", help=tr("add a machine reached by SSH (its host key is shown for you to accept)"))
    add.add_argument("name", help=tr("a short name for the machine"))
    add.add_argument("--ssh", required=True, metavar="DEST", help=tr("what you type after 'ssh': host, user@host or "
                                                                     "an alias of your ssh config"))
    add.add_argument("--remote-dir", default=DEFAULT_REMOTE_DIR, metavar="DIR",
                     help=tr("the workspace folder there (default: ~/{folder})", folder=DEFAULT_REMOTE_DIR))
    add.add_argument("--ssh-config", default="", metavar="FILE", help=tr("another ssh config file (as ssh -F)"))
    add.add_argument("--remote-command", default=DEFAULT_REMOTE_COMMAND, metavar="CMD",
                     help=tr("the command that runs YOLO Studio there (default: yolostudio)"))
    add.add_argument("--accept-host-key", default="", metavar="SHA256:…",
                     help=tr("accept the server's host key with this fingerprint (compare it with the server's)"))
    add.set_defaults(handler=cmd_add)
    listing = verbs.add_parser("list", help=tr("the saved machines"))
    listing.set_defaults(handler=cmd_list)
    check = verbs.add_parser("check", help=tr("run the doctor on a machine and show its findings"))
    check.add_argument("name", help=tr("machine name"))
    check.set_defaults(handler=cmd_check)
    setup = verbs.add_parser("install", help=tr("install YOLO Studio on a machine over ssh (this app's folder sent, "
                                                "its installer run there)"))
    setup.add_argument("name", help=tr("machine name"))
    setup.add_argument("--offline", action="store_true",
                       help=tr("the machine has no internet: a wheel set made here (pip download) is sent too"))
    setup.add_argument("--wheels", metavar="DIR", default="",
                       help=tr("with --offline: send this folder of wheels instead of downloading them here"))
    setup.add_argument("--no-run", action="store_true",
                       help=tr("only send the files; print the command that installs there (to run it yourself, "
                               "e.g. in tmux)"))
    setup.set_defaults(handler=cmd_install)
    sync = verbs.add_parser("sync", help=tr("send a dataset to a machine (only the files that changed)"))
    sync.add_argument("name", help=tr("machine name"))
    sync.add_argument("data", metavar="DATA.yaml", help=tr("the dataset's data.yaml"))
    sync.set_defaults(handler=cmd_sync)
    add_remote_side(verbs)
    for sub in (add, listing, check, sync):
        sub.add_argument("--json", action="store_true", help=tr("print the result as one JSON document"))


def run(args: argparse.Namespace, workspace: Path | None) -> int:
    assert workspace is not None
    try:
        return int(args.handler(args, workspace))
    except MachineError as exc:
        Output(getattr(args, "json", False)).error(str(exc))
        return EXIT_USAGE


def cmd_add(args: argparse.Namespace, workspace: Path) -> int:
    out = Output(args.json)
    config = str(Path(args.ssh_config).expanduser().resolve()) if args.ssh_config else ""
    machine = Machine(args.name, args.ssh, args.remote_dir, config, args.remote_command)
    machine.check()
    if config and not Path(config).is_file():
        out.error(tr("{path} does not exist.", path=config))
        return EXIT_USAGE
    contact = first_contact(machine)
    if contact.unknown_key:
        contact = _accept_host_key(out, machine, contact, args.accept_host_key)
        if contact is None:
            return EXIT_USAGE
    if not contact.ok:
        out.error(contact.message, contact.hint)
        return EXIT_FAILED
    save_machine(workspace, machine)
    out.result({"machine": vars(machine)}, tr("Added machine {name} ({dest}); its workspace there: {folder}. "
                                                 "'yolostudio machine check {name}' runs the doctor there.",
                                                 name=machine.name, dest=machine.ssh, folder=machine.remote_dir))
    return EXIT_OK


def _accept_host_key(out: Output, machine: Machine, contact: Contact, given: str) -> Contact | None:
    """Show the unknown key; when the user accepts it, add it and connect again (None: not accepted)."""
    assert contact.where is not None
    where, keys = contact.where, contact.keys
    shown = "\n".join(f"  {k.key_type}  {k.fingerprint}" for k in keys)
    print(tr("The host key of {dest} ({host} port {port}) is not known yet. The server offers:\n{keys}\nCompare it "
             "with the server's own (on the server: ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub).",
             dest=machine.ssh, host=where.hostname, port=where.port, keys=shown), file=out.err)
    if not given:
        preferred = keys[0].fingerprint
        if not ask_yes(tr("Accept {fingerprint}? [y/N] ", fingerprint=preferred), yes=False):
            out.error(tr("The host key was not accepted; nothing was saved."),
                      tr("to accept it, add --accept-host-key {fingerprint}", fingerprint=preferred))
            return None
        given = preferred
    try:
        again = accept_and_retry(machine, contact, given)
    except HostKeyError as exc:
        out.error(str(exc))
        return None
    print(tr("Accepted {fingerprint}; added to {file}.", fingerprint=given.strip(), file=where.known_hosts),
          file=out.err)
    return again


def cmd_list(args: argparse.Namespace, workspace: Path) -> int:
    out = Output(args.json)
    machines = list(load_machines(workspace).values())
    lines = [f"{m.name:<16} {m.ssh:<28} {m.remote_dir}" for m in machines]
    text = "\n".join([f"{tr('NAME'):<16} {tr('SSH'):<28} {tr('REMOTE FOLDER')}", *lines]) if machines else tr(
        "No machines yet: 'yolostudio machine add NAME --ssh HOST' adds one.")
    out.result({"machines": [vars(m) for m in machines]}, text)
    return EXIT_OK


def cmd_check(args: argparse.Namespace, workspace: Path) -> int:
    out = Output(args.json)
    machine = get_machine(workspace, args.name)
    if not args.json:
        print(tr("Running the doctor on {name} ({dest}) …", name=machine.name, dest=machine.ssh), file=out.err)
    found = check_remote(machine)
    if found.facts is None:
        message, hint = found.problem or ("", "")
        out.error(message, hint)
        if found.missing:
            print("\n".join(shlex.join(c) for c in install_commands(machine)), file=out.err)
            if not args.json and sys.stdin.isatty() and ask_yes(tr("Install YOLO Studio on {name} now? [y/N] ",
                                                                    name=machine.name), yes=False):
                return install_on(out, workspace, machine, offline=False)
        return EXIT_FAILED
    remember_facts(workspace, machine, found.raw)  # the Train page checks a run bound there on these GPUs
    evaluation = evaluate(found.facts, RuleContext(), found.notes)
    out.result({"machine": machine.name, **report_dict(found.facts, evaluation)},
               lambda: tr("Machine {name} ({dest}):", name=machine.name, dest=machine.ssh) + "\n"
               + render_table(found.facts, evaluation))
    return EXIT_FAILED if evaluation.errors else EXIT_OK


def cmd_install(args: argparse.Namespace, workspace: Path) -> int:
    out = Output()
    machine = get_machine(workspace, args.name)
    wheels = Path(args.wheels).expanduser() if args.wheels else None
    if wheels is not None and (not args.offline or not wheels.is_dir()):
        out.error(tr("--wheels {path}: give a folder of wheels, with --offline.", path=args.wheels))
        return EXIT_USAGE
    return install_on(out, workspace, machine, offline=args.offline, wheels=wheels, run_installer=not args.no_run)


def install_on(out: Output, workspace: Path, machine: Machine, *, offline: bool, wheels: Path | None = None,
               run_installer: bool = True) -> int:
    """Install there with progress; on success the machine's command becomes the installed one (when it was the
    default), so 'machine check' and 'train --machine' find it."""
    line = ProgressLine(out.err)

    def progress(sent: int, total: int) -> None:
        line.show(tr("Sending {sent} of {total} …", sent=size_text(min(sent, total)), total=size_text(total)))

    def said(text: str) -> None:
        line.clear()
        print(text, file=out.err, flush=True)

    try:
        command = install(InstallPlan(machine, offline=offline, wheels=wheels, run_installer=run_installer),
                          progress=progress, on_line=said)
    except InstallError as exc:
        line.clear()
        out.error(str(exc))
        return EXIT_FAILED
    except KeyboardInterrupt:
        line.clear()
        out.error(tr("Installation interrupted; run 'yolostudio machine install {name}' again to finish it.",
                     name=machine.name))
        return EXIT_STOPPED
    finally:
        line.clear()
    point_at_installed(workspace, machine, command)
    if not run_installer:
        out.note(tr("Sent. To install, run there: {command}", command=shlex.join(installer_words(machine, offline))))
        return EXIT_OK
    out.note(tr("YOLO Studio is installed on {name} ({command}). 'yolostudio machine check {name}' runs the doctor "
                "there.", name=machine.name, command=command))
    return EXIT_OK


def cmd_sync(args: argparse.Namespace, workspace: Path) -> int:
    out = Output(args.json)
    machine = get_machine(workspace, args.name)
    if existing_file(out, args.data) is None:
        return EXIT_USAGE
    line = ProgressLine(out.err) if not args.json else None

    def progress(sent: int, total: int) -> None:
        if line is not None:
            line.show(tr("Sending {sent} of {total} …", sent=size_text(min(sent, total)), total=size_text(total)))

    try:
        plan, account = sync_dataset(machine, Path(args.data), progress=progress)
    except SyncCancelled:
        out.error(tr("Sync cancelled; the files sent whole are there, verified. Sync again to send the rest."))
        return EXIT_STOPPED
    except SyncError as exc:
        out.error(str(exc))
        return EXIT_FAILED
    finally:
        if line is not None:
            line.clear()
    out.result({"machine": machine.name, "folder": account["folder"], "data_yaml": account["data_yaml"],
                "sent": len(account["received"]), "deleted": len(account["deleted"]), "files": len(plan.local)},
               tr("{name}: {folder} — {sent} of {files} files sent (the others were already there, same hash), "
                  "{deleted} deleted. Train from {data_yaml} there.", name=machine.name, folder=account["folder"],
                  sent=len(account["received"]), files=len(plan.local), deleted=len(account["deleted"]),
                  data_yaml=account["data_yaml"]))
    return EXIT_OK


register(Verb("machine", tr("machines reached by SSH: add, list, check (runs can train there)"), add_arguments, run,
              order=82))
