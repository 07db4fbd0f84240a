"""The workspace's saved machines: ``<workspace>/machines.json``, one record per machine, written atomically.

A machine is a name the user picked, the SSH destination as they type it to ``ssh`` (an alias of their
``~/.ssh/config``, ``user@host``), an optional other ssh config (``ssh -F FILE``), the workspace folder on the
remote, and the command that runs YOLO Studio there. No password, key or passphrase is ever stored: the user's
OpenSSH client (keys, agent, ``ProxyJump``) does the authenticating.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from core.atomic import atomic_write_text
from core.i18n import tr

MACHINES_FILE = "machines.json"
DEFAULT_REMOTE_DIR = "yolostudio"  # relative: under the remote user's home (ssh starts there)
DEFAULT_REMOTE_COMMAND = "yolostudio"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class MachineError(ValueError):
    """A machine name, destination or store that cannot be used; the message names the value."""


@dataclass(frozen=True)
class Machine:
    name: str
    ssh: str
    remote_dir: str = DEFAULT_REMOTE_DIR
    ssh_config: str = ""
    remote_command: str = DEFAULT_REMOTE_COMMAND

    def check(self) -> None:
        """Raise ``MachineError`` for a value no ssh call should be built from."""
        if not _NAME.match(self.name):
            raise MachineError(tr("Machine name {name!r}: use letters, digits, '.', '_' or '-' (at most 64).",
                                  name=self.name))
        if not self.ssh or self.ssh.startswith("-") or any(c.isspace() or ord(c) < 32 for c in self.ssh):
            raise MachineError(tr("SSH destination {ssh!r}: give a host, user@host or an alias of your ssh config.",
                                  ssh=self.ssh))
        if not self.remote_dir.strip() or "\n" in self.remote_dir or not self.remote_command.strip():
            raise MachineError(tr("Machine {name}: the remote folder and command must not be empty.", name=self.name))


def machines_path(workspace: Path) -> Path:
    return Path(workspace) / MACHINES_FILE


def load_machines(workspace: Path) -> dict[str, Machine]:
    """The saved machines by name; a missing file is none. A damaged file raises ``MachineError`` naming it."""
    path = machines_path(workspace)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise MachineError(tr("{path} cannot be read: {reason}", path=path, reason=exc)) from exc
    known = {f.name for f in fields(Machine)}
    machines: dict[str, Machine] = {}
    for entry in raw.get("machines", []) if isinstance(raw, dict) else []:
        if isinstance(entry, dict) and all(isinstance(v, str) for v in entry.values()):
            try:
                machine = Machine(**{k: v for k, v in entry.items() if k in known})
                machine.check()
            except (TypeError, MachineError):
                continue
            machines[machine.name] = machine
    return machines


def save_machine(workspace: Path, machine: Machine) -> None:
    """Add or replace ``machine`` (whole file replaced atomically, the previous one kept as .bak)."""
    machine.check()
    machines = load_machines(workspace)
    machines[machine.name] = machine
    _write(workspace, machines)


def remove_machine(workspace: Path, name: str) -> bool:
    machines = load_machines(workspace)
    if machines.pop(name, None) is None:
        return False
    _write(workspace, machines)
    return True


def get_machine(workspace: Path, name: str) -> Machine:
    machines = load_machines(workspace)
    if name not in machines:
        raise MachineError(tr("No machine named {name}; 'yolostudio machine list' shows them, 'yolostudio machine "
                              "add' adds one.", name=name))
    return machines[name]


def _write(workspace: Path, machines: dict[str, Machine]) -> None:
    doc = {"version": 1, "machines": [asdict(m) for m in sorted(machines.values(), key=lambda m: m.name)]}
    atomic_write_text(machines_path(workspace), json.dumps(doc, indent=2) + "\n")
