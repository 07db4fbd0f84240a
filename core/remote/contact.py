"""The first contact with a machine, for both faces: does ``ssh DEST true`` work, and if the host key is unknown,
which keys the server offers (with fingerprints) for the user to accept — by typing one (CLI) or in a dialog
(the Machines page). ``accept_and_retry`` adds the one the user chose and tries again."""

from __future__ import annotations

from dataclasses import dataclass, field

from core.remote.hostkeys import HostKey, HostKeyError, Resolved, accept, scan
from core.remote.machines import Machine
from core.remote.ssh import failure_words, run_remote

CONTACT_TIMEOUT_S = 60.0


@dataclass
class Contact:
    ok: bool
    unknown_key: bool = False
    where: Resolved | None = None
    keys: list[HostKey] = field(default_factory=list)
    message: str = ""
    hint: str = ""


def first_contact(machine: Machine) -> Contact:
    result = run_remote(machine, ["true"], timeout_s=CONTACT_TIMEOUT_S)
    if result.returncode == 0:
        return Contact(True)
    if result.host_key_problem == "unknown":
        try:
            where, keys = scan(machine)
        except (HostKeyError, OSError) as exc:
            return Contact(False, message=str(exc))
        return Contact(False, unknown_key=True, where=where, keys=keys)
    message, hint = failure_words(machine, result)
    return Contact(False, message=message, hint=hint)


def accept_and_retry(machine: Machine, contact: Contact, fingerprint: str) -> Contact:
    """Add the key the user accepted (``HostKeyError`` when it is not the server's) and connect again."""
    assert contact.where is not None
    accept(contact.where, contact.keys, fingerprint)
    return first_contact(machine)
