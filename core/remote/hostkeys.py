"""Host keys: the key a server offers, its fingerprint for the user to compare, and adding it once accepted.

The app never accepts a key by itself (no ``StrictHostKeyChecking=no``/``accept-new``): ``scan`` asks the server
for its keys (``ssh-keyscan``, at the host and port ``ssh -G`` resolves for the destination, through the user's
config) and ``fingerprint`` computes each key's ``SHA256:…`` (``ssh-keygen -lf``); the user compares it with the
server's (``ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub`` there) and accepts it by typing it
(``--accept-host-key``) or in a dialog. ``accept`` then appends that key, and only that key, to the
``known_hosts`` file ssh reads for this destination (the first ``UserKnownHostsFile``), written whole
(``core.atomic``). Nothing else is written; ssh itself checks the key on every later call.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from core.atomic import atomic_write_text
from core.i18n import tr
from core.remote.machines import Machine


class HostKeyError(RuntimeError):
    """The server's keys could not be read or the accepted fingerprint is not among them."""


@dataclass(frozen=True)
class Resolved:
    """What ``ssh -G`` says about a destination: where it really connects and which known_hosts it reads."""
    hostname: str
    port: int
    known_hosts: Path
    host_key_alias: str = ""

    @property
    def known_hosts_name(self) -> str:
        """The host as known_hosts spells it: ``[host]:port`` for another port than 22."""
        host = self.host_key_alias or self.hostname
        return host if self.port == 22 else f"[{host}]:{self.port}"


@dataclass(frozen=True)
class HostKey:
    line: str          # "type base64" as ssh-keyscan printed it, without the host
    key_type: str
    fingerprint: str   # SHA256:...


def resolve(machine: Machine, *, timeout_s: float = 15) -> Resolved:
    config = ["-F", machine.ssh_config] if machine.ssh_config else []
    done = subprocess.run(["ssh", *config, "-G", "--", machine.ssh], capture_output=True, text=True, timeout=timeout_s,
                          stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        raise HostKeyError(tr("ssh cannot read the configuration for {dest}: {reason}", dest=machine.ssh,
                              reason=done.stderr.strip()))
    values: dict[str, str] = {}
    for line in done.stdout.splitlines():
        key, _, value = line.partition(" ")
        values.setdefault(key.lower(), value)
    known = (values.get("userknownhostsfile") or "~/.ssh/known_hosts").split()[0]
    alias = values.get("hostkeyalias", "")
    return Resolved(values.get("hostname", machine.ssh), int(values.get("port", "22")),
                    Path(os.path.expanduser(known)), "" if alias in ("", "none") else alias)


def scan(machine: Machine, *, timeout_s: float = 15) -> tuple[Resolved, list[HostKey]]:
    """The keys the server offers now, with their fingerprints."""
    where = resolve(machine)
    done = subprocess.run(["ssh-keyscan", "-T", str(int(timeout_s)), "-p", str(where.port), "--", where.hostname],
                          capture_output=True, text=True, timeout=timeout_s + 10, stdin=subprocess.DEVNULL)
    keys = []
    for line in done.stdout.splitlines():
        words = line.split()
        if len(words) >= 3 and not line.startswith("#"):
            keys.append(HostKey(f"{words[1]} {words[2]}", words[1], fingerprint(f"{words[1]} {words[2]}")))
    if not keys:
        raise HostKeyError(tr("{host} port {port} offered no host key: {reason}", host=where.hostname, port=where.port,
                              reason=done.stderr.strip() or tr("no answer")))
    return where, keys


def fingerprint(key_line: str) -> str:
    """``SHA256:…`` of a public key line, as ``ssh-keygen -lf`` prints it."""
    done = subprocess.run(["ssh-keygen", "-lf", "-"], input=f"{key_line}\n", capture_output=True, text=True,
                          timeout=15, check=True)
    return done.stdout.split()[1]


def accept(where: Resolved, keys: list[HostKey], accepted: str) -> HostKey:
    """Append the key whose fingerprint the user gave to ``where.known_hosts``; ``HostKeyError`` when none matches."""
    chosen = next((k for k in keys if k.fingerprint == accepted.strip()), None)
    if chosen is None:
        raise HostKeyError(tr("The fingerprint {given} is not the server's ({offered}): nothing was accepted.",
                              given=accepted, offered=", ".join(k.fingerprint for k in keys)))
    try:
        before = where.known_hosts.read_text(encoding="utf-8")
    except FileNotFoundError:
        before = ""
    if before and not before.endswith("\n"):
        before += "\n"
    where.known_hosts.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    atomic_write_text(where.known_hosts, before + f"{where.known_hosts_name} {chosen.line}\n")
    return chosen
