"""What the environment rules produce: findings (something to know or fix) and per-check results.

A ``Finding`` carries everything a person needs to act without asking: a stable ``id``, a
``severity`` (info / warning / error), a one-line ``title``, the ``detail`` (why it matters for
training speed), the ``evidence`` (the measured figures, with units) and the ``fix`` — an exact command
(``fix_kind == "command"``) or a training setting (``"setting"``, with ``setting`` holding the option
values the app can apply), or plain advice when neither exists.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

SEVERITIES = ("info", "warning", "error")
FIX_KINDS = ("command", "setting", "advice")


@dataclass
class Finding:
    id: str
    severity: str
    title: str
    detail: str
    evidence: dict[str, str]
    fix: str
    fix_kind: str = "command"
    setting: dict[str, Any] | None = None  # e.g. {"cache": "disk"} for the train options

    def __post_init__(self) -> None:
        assert self.severity in SEVERITIES, self.severity
        assert self.fix_kind in FIX_KINDS, self.fix_kind

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


#: A check that could not run (a fact it needs was not read, NVML failed, an earlier error stops it): never
#: shown as passed; ``note`` says why, in the table, the JSON report and the page alike.
NOT_CHECKED = "not-checked"


@dataclass
class CheckResult:
    """One rule's outcome: ``ok`` (ran, nothing found), ``found`` (its findings are listed), ``not-checked``
    (it could not run; ``note`` says why) or ``n/a`` (does not apply here, e.g. no GPU)."""

    key: str
    title: str
    status: str
    note: str = ""


@dataclass
class Evaluation:
    findings: list[Finding] = field(default_factory=list)
    checks: list[CheckResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # problems with the facts themselves

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    def ids(self) -> list[str]:
        return [f.id for f in self.findings]


def severity_rank(severity: str) -> int:
    return {"error": 0, "warning": 1, "info": 2}.get(severity, 3)
