"""The one way to reach a machine: the user's own OpenSSH client, an argv list, the remote command quoted.

``ssh_argv`` builds ``ssh [-F FILE] -o BatchMode=yes -o StrictHostKeyChecking=yes -- DEST 'quoted command'``:
BatchMode so ssh never stops to ask a password or a passphrase (the user's keys and agent do it, or the call
fails with ssh's own words); StrictHostKeyChecking=yes on the command line, where it wins over any
``accept-new``/``no`` of a config file, so an unknown or changed host key always fails here and is shown to the
user (``core.remote.hostkeys``) instead of being taken silently. The remote shell reads the command line as one
string: every word of it goes through ``shlex.join``; no local shell is involved (no ``shell=True``).
"""

from __future__ import annotations

import shlex
import subprocess
from dataclasses import dataclass

from core.i18n import tr
from core.remote.machines import Machine

SSH = "ssh"
#: Seconds ssh waits for the TCP connection and the handshake before it gives up.
CONNECT_TIMEOUT_S = 15
#: What ssh prints when the host key is not in known_hosts or differs from it (OpenSSH's sshconnect.c).
HOST_KEY_FAILED = "Host key verification failed"
HOST_KEY_CHANGED = "REMOTE HOST IDENTIFICATION HAS CHANGED"


def ssh_options(machine: Machine) -> list[str]:
    """The options every call to ``machine`` gets (config file, batch mode, strict host keys, keep-alives)."""
    options = ["-F", machine.ssh_config] if machine.ssh_config else []
    return options + ["-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=yes",
                      "-o", f"ConnectTimeout={CONNECT_TIMEOUT_S}", "-o", "ServerAliveInterval=15",
                      "-o", "ServerAliveCountMax=4"]


def remote_words(machine: Machine, *args: str) -> list[str]:
    """``yolostudio --workspace DIR ARGS`` on the remote, as words (the machine's command may hold several)."""
    return [*shlex.split(machine.remote_command), "--workspace", remote_dir(machine), *args]


def remote_dir(machine: Machine) -> str:
    """The remote workspace as the remote shell will see it: ``~/x`` becomes ``x`` (ssh starts in the home folder;
    a quoted ``~`` would not be expanded)."""
    folder = machine.remote_dir
    return folder[2:] or "." if folder.startswith("~/") else ("." if folder == "~" else folder)


def ssh_argv(machine: Machine, words: list[str]) -> list[str]:
    """The local argv that runs ``words`` on ``machine``, each word quoted for the remote shell."""
    return [SSH, *ssh_options(machine), "--", machine.ssh, shlex.join(words)]


@dataclass(frozen=True)
class RemoteResult:
    returncode: int
    stdout: str
    stderr: str

    @property
    def host_key_problem(self) -> str:
        """'unknown', 'changed' or '' — ssh refused the host key (exit 255 with its words)."""
        if self.returncode != 255:
            return ""
        if HOST_KEY_CHANGED in self.stderr:
            return "changed"
        return "unknown" if HOST_KEY_FAILED in self.stderr else ""

    @property
    def ssh_failed(self) -> bool:
        """ssh itself failed (no connection, authentication, host key): 255 is ssh's, not the remote command's."""
        return self.returncode == 255


def run_remote(machine: Machine, words: list[str], *, timeout_s: float = 120.0, stdin: bytes | None = None
               ) -> RemoteResult:
    """Run ``words`` on ``machine`` and wait; text out. A timeout is a result (exit 124) naming it, not a raise."""
    try:
        done = subprocess.run(ssh_argv(machine, words), input=stdin, capture_output=True, timeout=timeout_s,
                              stdin=None if stdin is not None else subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return RemoteResult(124, "", tr("ssh {dest}: no answer within {s:.0f} s.", dest=machine.ssh, s=timeout_s))
    except FileNotFoundError:
        return RemoteResult(127, "", tr("The OpenSSH client (ssh) is not installed on this machine."))
    return RemoteResult(done.returncode, done.stdout.decode("utf-8", "replace"),
                        done.stderr.decode("utf-8", "replace"))


def failure_words(machine: Machine, result: RemoteResult) -> tuple[str, str]:
    """A failed call in words a user can act on: (message, hint)."""
    problem = result.host_key_problem
    if problem == "changed":
        return (tr("The host key of {dest} has CHANGED since it was accepted: refusing to connect.", dest=machine.ssh),
                tr("If the server was reinstalled, remove the old key (ssh-keygen -R HOST) and add the machine "
                   "again; otherwise someone may be in between."))
    if problem == "unknown":
        return (tr("The host key of {dest} is not known yet.", dest=machine.ssh),
                tr("add the machine with 'yolostudio machine add {name} --ssh {dest}' to see its fingerprint and "
                   "accept it", name=machine.name, dest=machine.ssh))
    last = (result.stderr.strip().splitlines() or [tr("exit code {code}", code=result.returncode)])[-1]
    return (tr("ssh {dest} failed: {reason}", dest=machine.ssh, reason=last),
            tr("check that 'ssh {dest}' works in a terminal without a password prompt (a key, or ssh-agent)",
               dest=machine.ssh))
