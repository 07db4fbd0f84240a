"""Every environment finding in 简体中文 (issue 25): each rule's failing case of ``test_environment_rules``
evaluated with the Chinese catalogue, every word a user reads (message, detail, advice, evidence, the
checks' notes and the summary) held to ``tests/latin_words.stray_words``. A command a fix gives is typed,
not read, and the evidence's values are the facts as the system reported them (NVML's throttle reasons, a
process name, CUDA's error text): both are left as they are; the evidence's names are read."""

from __future__ import annotations

import pytest

from core import i18n
from core.environment.report import summarize
from core.environment.rules import evaluate
from core.environment.tables import THROTTLE_BITS
from tests.core.environment_builders import healthy_gpu_machine
from tests.core.test_environment_rules import CASES
from tests.latin_words import stray_words


@pytest.fixture
def chinese():
    i18n.set_language("zh_CN")
    yield
    i18n.set_language("en")


def _names(facts) -> set[str]:
    """What the facts name (GPU models, CPU, OS): names, shown as they are."""
    words = [g.name for g in facts.nvml.gpus] + [d.name for d in facts.torch.devices] + [facts.system.cpu_model or "",
                                                                                         facts.system.os or ""]
    words += THROTTLE_BITS.values()  # NVML's names of its throttle reasons, quoted as nvidia-smi -q shows them
    return {w for text in words for w in text.replace("-", " ").split()}


def test_every_environment_finding_reads_in_chinese(chinese):
    stray = []
    for case, mutate, ctx, _finding_id, _severity, _fix_text in CASES:
        facts = healthy_gpu_machine()
        mutate(facts)
        result = evaluate(facts, ctx)
        names = _names(facts)
        texts = [summarize(facts, result)[1], *(c.note for c in result.checks)]
        for f in result.findings:
            texts += [f.message, f.detail, *f.evidence]  # the evidence's names; its values are the facts as read
            if f.fix_kind != "command":
                texts.append(f.fix)
        stray += [f"{case}: {text!r} — {words}" for text in texts if (words := stray_words(text, names))]
    assert len(CASES) > 30  # the table of cases was read
    assert stray == [], "English in the environment findings:\n" + "\n".join(sorted(set(stray)))
