"""One record for everything the app finds wrong (or right), and one severity scale.

The environment checker's findings, the dataset validator's findings, the training options' problems,
the export options' problems and the bottleneck monitor's verdicts are all a ``Finding``: a stable
``code`` a program can switch on, a ``Severity``, a one-line ``message``, and — where they apply — the
``detail`` (why it matters), the ``evidence`` (the measured figures, with units), the ``fix`` (a command,
or advice; ``fix_kind`` says which), the training-option ``changes`` that fix it, and where it is: the
option (``field``) or the file and line. One shape means one way to sort, count, colour and show them,
and a change to the option values applies the same way from the Environment page and the live view.

Front ends that promised a JSON shape keep it (``yolostudio doctor --json``, ``dataset check --json``,
the ``diagnosis`` event of docs/protocol.md); they serialise this record into it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Iterable, Mapping


class Severity(str, Enum):
    """ok / info / warning / error: the same words, colours and icons everywhere. A ``str``, so it
    compares with and serialises as its word."""

    OK = "ok"
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)

    @property
    def rank(self) -> int:
        """0 for the worst (error): sort by it to show what matters first."""
        return _RANK[self]


_RANK = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2, Severity.OK: 3}
FIX_KINDS = ("command", "setting", "advice")


@dataclass(frozen=True)
class Change:
    """A training-option value that fixes a finding (a ``TrainConfig`` field), and why."""

    field: str
    value: Any
    reason: str = ""


def changes(values: Mapping[str, Any] | None, reason: str = "") -> tuple[Change, ...]:
    """``{"cache": "disk"}`` as changes."""
    return tuple(Change(name, value, reason) for name, value in (values or {}).items())


@dataclass(frozen=True)
class Finding:
    code: str
    severity: Severity
    message: str
    detail: str = ""
    evidence: Mapping[str, Any] = field(default_factory=dict)
    fix: str = ""
    fix_kind: str = "advice"
    changes: tuple[Change, ...] = ()
    field: str = ""  # the option it is about (training or export options)
    file: str = ""  # the file it is about; ``line``/``column`` are 1-based, 0 = the whole file
    line: int = 0
    column: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "severity", Severity(self.severity))
        assert self.fix_kind in FIX_KINDS, self.fix_kind

    @property
    def where(self) -> str:
        """``file:line:column`` (as far as known), or the option's name, or ""."""
        if self.file:
            return ":".join(str(part) for part in (self.file, self.line, self.column) if part)
        return self.field

    def settings(self) -> dict[str, Any]:
        """The changes as option values, ``{"cache": "disk"}``."""
        return {change.field: change.value for change in self.changes}


def problem(severity: str, option: str, message: str, fix: str = "") -> Finding:
    """A problem with an option's value (training or export options): its code is the option's name."""
    return Finding(option, Severity(severity), message, fix=fix, field=option)


def errors_of(findings: Iterable[Finding]) -> list[Finding]:
    return [f for f in findings if f.severity is Severity.ERROR]


def has_errors(findings: Iterable[Finding]) -> bool:
    return any(f.severity is Severity.ERROR for f in findings)


def by_severity(findings: Iterable[Finding]) -> list[Finding]:
    """Errors first, then warnings, notes and oks; stable within a severity."""
    return sorted(findings, key=lambda f: f.severity.rank)
