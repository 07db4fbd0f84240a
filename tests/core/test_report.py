"""The deployment report (core/report/): every section in both languages, no stray English in the Chinese page
(the Chinese walk's rule, tests/latin_words.py), self-contained (no script, no link out), written atomically;
a run without an evaluation, or with one of other weights, is refused with the command that makes one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core.i18n import language
from core.report.gather import Choice, ReportError, gather, write_report
from tests.fixtures.report_run import NAMES, report_run
from tests.latin_words import stray_words

SECTIONS = ("model", "dataset", "evaluation", "operating", "per-class", "false-alarms", "latency", "int8", "sign")


@pytest.fixture
def run(tmp_path: Path) -> Path:
    return report_run(tmp_path)


def test_every_section_in_both_languages_and_no_english_left_in_the_chinese_one(run):
    before = language()
    en_path, facts = write_report(run, language="en", draws=200)
    zh_path, _ = write_report(run, language="zh_CN", draws=200)
    assert language() == before  # the page's language is its own, not the process's
    assert en_path == run / "deployment-report.html" and zh_path == run / "deployment-report.zh_CN.html"
    en, zh = en_path.read_text(encoding="utf-8"), zh_path.read_text(encoding="utf-8")
    for page in (en, zh):
        for section in SECTIONS:
            assert f'id="{section}"' in page, section
        assert "<script" not in page and "<link" not in page and "src=" not in page and "http" not in page.lower()
        assert "@media print" in page and "size: A4" in page
        assert facts["model"]["sha256"] in page and "yolov5s.yaml" in page
        assert all(name in page for name in NAMES)
    assert "Operating confidence" in en and "False alarms per 100 images" in en and "INT8 cost" in en
    assert '<html lang="zh-CN">' in zh
    names = {*NAMES, run.name, "ws", "exp", "data", "best", "k1"}
    assert stray_words(re.sub(r"<style>.*?</style>", "", zh, flags=re.S), names) == []


def test_the_figures_are_the_stored_matches_at_the_chosen_confidence(run):
    best = gather(run, draws=50)
    assert best["operating_point"] == {"confidence": 0.42, "rule": "best_f1", "target": None, "reached": True}
    at_recall = gather(run, Choice(target_recall=0.6), draws=50)
    assert at_recall["operating_point"]["rule"] == "recall"
    assert at_recall["at_confidence"]["overall"]["recall"]["value"] >= 0.6
    limited = gather(run, Choice(max_false_alarms=10), draws=50)
    assert limited["at_confidence"]["overall"]["false_alarms_per_100"]["value"] <= 10
    assert [r["name"] for r in best["at_confidence"]["per_class"]] == NAMES
    assert best["latency"][0]["format"] == "onnx" and best["latency"][0]["exported_ms"] == 6.1
    assert best["int8"][0]["int8"]["map50"] == 0.739 and best["int8"][0]["verified"] is True
    assert best["dataset"]["training_fingerprint"] is None  # not recorded by the run: said, not invented


def test_a_run_without_an_evaluation_is_told_the_command(tmp_path):
    run = report_run(tmp_path, evaluate=False)
    with pytest.raises(ReportError) as refused:
        gather(run)
    assert "no evaluation" in refused.value.message and "yolostudio evaluate exp" in refused.value.hint
    assert not (run / "deployment-report.html").exists()


def test_an_evaluation_of_other_weights_is_not_signed(run):
    (run / "weights" / "best.pt").write_bytes(b"trained again since")
    with pytest.raises(ReportError) as refused:
        gather(run)
    assert "other weights" in refused.value.message and "yolostudio evaluate exp" in refused.value.hint


def test_no_export_says_how_to_make_one(tmp_path):
    run = report_run(tmp_path, export=False)
    path, facts = write_report(run, tmp_path / "out.html", language="en", draws=20)
    assert facts["latency"] == [] and "yolostudio export exp" in path.read_text()


def test_the_choices_are_checked_in_words():
    assert "not both" in Choice(0.5, 3).problem()
    assert "between 0 and 1" in Choice(target_recall=1.5).problem()
    assert "0 or more" in Choice(max_false_alarms=-1).problem()
    assert Choice(0.9).problem() is None and Choice().problem() is None


def test_an_unreached_recall_is_said_on_the_page_in_both_languages(run, tmp_path):
    for lang, words in (("en", "is not reached"), ("zh_CN", "达不到召回率")):
        path, facts = write_report(run, tmp_path / f"{lang}.html", language=lang, choice=Choice(target_recall=0.999),
                                   draws=20)
        assert facts["operating_point"]["reached"] is False and words in path.read_text(encoding="utf-8")

