"""What the environment rules produce: findings (something to know or fix) and per-check results.

A finding is the app's one record (``core.findings.Finding``) and carries everything a person needs to
act without asking: a stable ``code``, a ``severity`` (info / warning / error), a one-line ``message``,
the ``detail`` (why it matters for training speed), the ``evidence`` (the measured figures, with units)
and the ``fix`` — an exact command (``fix_kind == "command"``) or a training setting (``"setting"``, with
``changes`` holding the option values the app can apply), or plain advice when neither exists.
``finding_json`` keeps the shape ``yolostudio doctor --json`` has always printed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.findings import Finding, errors_of


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
    measured: str = ""  # a passed check: what it looked at, in words (``core.environment.rules.measured``)


@dataclass
class Evaluation:
    findings: list[Finding] = field(default_factory=list)
    checks: list[CheckResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # problems with the facts themselves

    @property
    def errors(self) -> list[Finding]:
        return errors_of(self.findings)

    def ids(self) -> list[str]:
        return [f.code for f in self.findings]


def finding_json(f: Finding) -> dict[str, Any]:
    """The shape ``yolostudio doctor --json`` has always printed (``id``/``title``/``fix``/``setting``)."""
    return {"id": f.code, "severity": str(f.severity), "title": f.message, "detail": f.detail,
            "evidence": dict(f.evidence), "fix": f.fix, "fix_kind": f.fix_kind,
            "setting": f.settings() or None}
