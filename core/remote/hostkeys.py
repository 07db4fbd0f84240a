"""Host keys: the key a server offers, its fingerprint for the user to compare, and adding it once accepted.

The app never accepts a key by itself (no ``StrictHostKeyChecking=no``/``accept-new`` on the user's known_hosts):
``scan`` reads the server's key as ssh reaches it (the user's config, ``ProxyJump`` included: ``ssh-keyscan`` could
not go through a jump host) with no authentication, into a throwaway known_hosts, and ``fingerprint`` computes its
``SHA256:…`` (``ssh-keygen -lf``); the user compares it with the
server's (``ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub`` there) and accepts it by typing it
(``--accept-host-key``) or in a dialog. ``accept`` then appends that key, and only that key, to the
``known_hosts`` file ssh reads for this destination (the first ``UserKnownHostsFile``), written whole
(``core.atomic``). Nothing else is written; ssh itself checks the key on every later call.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
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
    line: str          # "type base64", without the host
    key_type: str
    fingerprint: str   # SHA256:...
    entry: str = ""    # the known_hosts line as ssh wrote it (its host field: alias, [host]:port)


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


#: The first contact that reads the server's keys: no authentication at all (nothing is sent to a server not yet
#: trusted, no agent or forwarding), the key taken into a throwaway known_hosts only, plainly written.
_SCAN_OPTIONS = ("-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=accept-new", "-o", "GlobalKnownHostsFile=/dev/null",
                 "-o", "HashKnownHosts=no", "-o", "PreferredAuthentications=none", "-o", "PubkeyAuthentication=no",
                 "-o", "PasswordAuthentication=no", "-o", "KbdInteractiveAuthentication=no",
                 "-o", "GSSAPIAuthentication=no", "-o", "ForwardAgent=no", "-o", "ClearAllForwardings=yes",
                 "-o", "UpdateHostKeys=no", "-o", "ConnectTimeout=15")


def scan(machine: Machine, *, timeout_s: float = 30) -> tuple[Resolved, list[HostKey]]:
    """The key the server offers now, with its fingerprint, read the way ssh itself reaches it (the user's config:
    ``ProxyJump``, ``HostKeyAlias``, ports) into a throwaway known_hosts — never into the user's."""
    where = resolve(machine)
    config = ["-F", machine.ssh_config] if machine.ssh_config else []
    with tempfile.TemporaryDirectory(prefix="yolostudio-hostkey-") as folder:
        scratch = Path(folder) / "known_hosts"
        done = subprocess.run(["ssh", *config, *_SCAN_OPTIONS, "-o", f"UserKnownHostsFile={scratch}", "--",
                               machine.ssh, "true"], capture_output=True, text=True, timeout=timeout_s,
                              stdin=subprocess.DEVNULL)
        lines = scratch.read_text(encoding="utf-8").splitlines() if scratch.is_file() else []
    keys = []
    for line in lines:
        words = line.split()
        if len(words) >= 3 and not line.startswith(("#", "@")):
            keys.append(HostKey(f"{words[1]} {words[2]}", words[1], fingerprint(f"{words[1]} {words[2]}"), line))
    if not keys:
        raise HostKeyError(tr("{host} port {port} offered no host key: {reason}", host=where.hostname, port=where.port,
                              reason=(done.stderr.strip().splitlines() or [tr("no answer")])[-1]))
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
    atomic_write_text(where.known_hosts, before + (chosen.entry or f"{where.known_hosts_name} {chosen.line}") + "\n")
    return chosen
