"""The remote doctor: ``yolostudio doctor --json`` run on a machine over SSH, its report read back here.

The remote's own probe gathers the facts there (its GPUs, its driver, its torch); this side re-judges them with
this app's rules (``core.environment.rules.evaluate``) so a finding reads the same as for the local machine and
the CLI's and the page's renderers show it unchanged. When the remote has no YOLO Studio the shell's "command
not found" (exit 127) becomes ``missing=True`` with the commands that install it there.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from core.environment.facts import EnvironmentFacts, facts_from_dict
from core.i18n import tr
from core.remote.install import app_folder
from core.remote.machines import Machine
from core.remote.ssh import RemoteResult, failure_words, remote_words, run_remote

#: The remote probe imports torch and times the disks: minutes on a cold, busy machine.
REMOTE_DOCTOR_TIMEOUT_S = 600.0
#: This app's folder: what ``install_commands`` copies to a remote that has no YOLO Studio.
APP_ROOT = Path(__file__).resolve().parents[2]


@dataclass
class RemoteDoctor:
    facts: EnvironmentFacts | None = None
    notes: list[str] = field(default_factory=list)
    problem: tuple[str, str] | None = None   # (message, hint) when no facts came back
    missing: bool = False                   # YOLO Studio is not installed there
    raw: dict | None = None


def install_commands(machine: Machine, app_root: Path = APP_ROOT) -> list[list[str]]:
    """How to install YOLO Studio on ``machine`` (argv lists): ``yolostudio machine install NAME`` does it all
    (``core.remote.install``); the two after it are the same by hand — this app's folder sent with rsync over the
    same ssh, then its installer run there."""
    ssh = ["ssh", *(["-F", machine.ssh_config] if machine.ssh_config else [])]
    folder = app_folder(machine)
    return [["yolostudio", "machine", "install", machine.name],
            ["rsync", "-a", "--exclude", ".venv", "--exclude", ".git", "-e", shlex.join(ssh),
             f"{app_root}/", f"{machine.ssh}:{folder}/"],
            [*ssh, machine.ssh, shlex.join(["bash", f"{folder}/installer/setup_env.sh"])]]


def check_remote(machine: Machine, *, timeout_s: float = REMOTE_DOCTOR_TIMEOUT_S) -> RemoteDoctor:
    """Run the doctor on ``machine`` and read its facts (a problem in words when it could not)."""
    result = run_remote(machine, remote_words(machine, "doctor", "--json"), timeout_s=timeout_s)
    return read_report(machine, result)


def read_report(machine: Machine, result: RemoteResult) -> RemoteDoctor:
    if result.ssh_failed or result.returncode == 124:
        return RemoteDoctor(problem=failure_words(machine, result))
    if result.returncode == 127:
        return RemoteDoctor(missing=True, problem=(
            tr("YOLO Studio is not installed on {name} ('{command}' was not found there).", name=machine.name,
               command=machine.remote_command),
            tr("install it there: 'yolostudio machine install {name}' (add --offline when it has no internet), or give "
               "its path with 'yolostudio machine add {name} --ssh {dest} --remote-command PATH'", name=machine.name,
               dest=machine.ssh)))
    try:
        raw = json.loads(result.stdout)
    except ValueError:
        last = (result.stderr.strip().splitlines() or [""])[-1]
        return RemoteDoctor(problem=(tr("The doctor on {name} gave no report (exit code {code}): {reason}",
                                        name=machine.name, code=result.returncode, reason=last),
                                     tr("run 'yolostudio doctor' there to see it")))
    facts, notes = facts_from_dict(raw)
    return RemoteDoctor(facts=facts, notes=notes, raw=raw if isinstance(raw, dict) else None)
