"""Words built from ids, and the wording a Chinese reader stumbled on (issue 25, "简体中文").

Each case drives the real widget or function in zh_CN and reads the text a person sees: ids (``starting``,
``completed``, ``measure``, ``balanced``) are shown as their words, a file name stays a file name, a figure
that is not known yet is a sentence rather than a dash in the middle of one, and a mnemonic sits at the end.
"""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QCoreApplication

from core import i18n
from core.runs.store import RunInfo
from tests.gui.languages import app_in_language
from tools.i18n import read_ts, ts_path

LATIN_WORD = re.compile(r"[A-Za-z]{3,}")


@pytest.fixture
def chinese(qtbot):
    with app_in_language("zh_CN"):
        yield


def test_the_log_names_stages_and_statuses_in_words(chinese):
    from gui.run_text import log_line

    starting = log_line({"type": "stage", "stage": "starting"})
    finished = log_line({"type": "stage", "stage": "finished", "detail": "best.pt"})
    ended = log_line({"type": "done", "status": "completed", "elapsed_s": 381.0})
    assert starting == "阶段：" + i18n.tr("Starting the training process…")
    assert "finished" not in finished and "best.pt" in finished
    assert ended.startswith("训练结束（已完成）") and "completed" not in ended


def test_the_weights_list_shows_the_files_own_names(chinese, qtbot, tmp_path):
    from gui.export.export_form import ExportForm

    (tmp_path / "weights").mkdir()
    for name in ("best.pt", "last.pt"):
        (tmp_path / "weights" / name).write_bytes(b"pt")
    form = ExportForm()
    qtbot.addWidget(form)
    form.set_runs([RunInfo("exp2", str(tmp_path), "completed", best_weights=str(tmp_path / "weights" / "best.pt"),
                           last_weights=str(tmp_path / "weights" / "last.pt"))])
    items = [form.weights_combo.itemText(i) for i in range(form.weights_combo.count())]
    assert items == ["exp2 · best.pt", "exp2 · last.pt"]
    assert form.weights_path().endswith("best.pt")  # a finished run's best.pt is the one chosen


def test_an_unknown_data_wait_is_a_sentence_not_a_dash(chinese, qtbot):
    from gui.widgets.system_plots import SystemPlots

    strip = SystemPlots()
    qtbot.addWidget(strip)
    strip.refresh()
    before = strip.headings["wait"].text()
    assert "—" not in before and "尚未测得" in before
    strip.add_event({"v": 1, "type": "batch", "t": 2.0, "epoch": 0, "index": 5, "count": 10, "warmup": False,
                     "window": {"batches": 1, "images": 4, "data_wait_s": 0.25, "step_s": 0.75,
                                "data_wait_share": 0.25, "images_per_s": 4.0}})
    strip.refresh()
    assert "25 %" in strip.headings["wait"].text() and "等待数据" in strip.headings["wait"].text()


def test_the_wizard_names_a_skipped_step_and_the_goal_in_words(chinese, qtbot):
    from core.wizard.time_fit import goal_words
    from gui.wizard.wizard_review import WizardReview

    review = WizardReview()
    qtbot.addWidget(review)
    skipped = QCoreApplication.translate("WizardPage", "skipped")  # as the Skip button records it
    review.show_document({"reasons": {}, "failures": {"measure": skipped}, "estimated": [],
                          "predicted": {"images_per_s": 12.0, "epoch_s": 60.0, "total_s": 600.0},
                          "config": {"epochs": 10}, "commands": {}})
    notes = review.notes.text()
    assert "measure" not in notes and notes == "未测量——测量：已跳过"
    assert [goal_words(kind) for kind in ("quick", "balanced", "accurate")] == ["快速测试", "均衡", "最高精度"]
    assert i18n.tr("goal: {goal}; {evidence}", goal=goal_words("balanced"), evidence="…").startswith("目标：均衡")


def test_the_overall_progress_label_says_overall(chinese, qtbot):
    from PySide6.QtWidgets import QLabel

    from gui.widgets.progress_panel import ProgressPanel

    panel = ProgressPanel()
    qtbot.addWidget(panel)
    labels = [label.text() for label in panel.findChildren(QLabel)]
    assert "总进度：" in labels and "训练：" not in labels


def test_chinese_mnemonics_sit_at_the_end():
    """Qt's Chinese convention: "跳过（估算）(&S)", never "跳过(&S)（估算）" (a trailing "…", ":" or " >" may follow)."""
    entries = read_ts(ts_path("yolostudio")).items()
    misplaced = [f"[{context}] {source!r} -> {text!r}" for (context, source), text in entries
                 if text and re.search(r"\(&\w\)", text) and not re.search(r"\(&\w\)(?:…|\.\.\.|：|:| >)?$", text)]
    assert misplaced == []


def test_an_nvml_error_kind_is_shown_in_words(chinese, qtbot, tmp_path):
    from core.environment.facts import EnvironmentFacts, NvmlFacts, SystemFacts
    from core.environment.nvml import error_words
    from gui.wizard.wizard_page import WizardPage

    facts = EnvironmentFacts(system=SystemFacts(os="Linux", logical_cores=2, usable_cores=2, ram_available_gb=6.0),
                             nvml=NvmlFacts(error="LibraryNotFound"))
    page = WizardPage(tmp_path / "ws", facts=facts)
    qtbot.addWidget(page)
    qtbot.waitUntil(lambda: page.gpu_list.count() > 0)
    shown = page.gpu_list.item(0).text()
    assert "LibraryNotFound" not in shown and error_words("LibraryNotFound") in shown and "本机没有" in shown
    assert error_words("SomeNewKind") == "SomeNewKind"  # a kind without words is shown as NVML names it


def test_a_plot_legend_entry_never_breaks_inside(chinese, qtbot):
    """Qt may break Chinese between any two characters ("lr1（权 / 重）"): each legend entry offers Qt's line
    breaker no break inside it, so a narrow panel wraps between entries only."""
    from PySide6.QtCore import QTextBoundaryFinder
    from PySide6.QtGui import QTextDocument
    from PySide6.QtWidgets import QLabel

    from gui.widgets.training_plots import TrainingPlots

    plots = TrainingPlots()
    qtbot.addWidget(plots)
    [legend] = [label for label in plots.findChildren(QLabel) if "lr1" in label.text().replace("\u2060", "")]
    doc = QTextDocument()
    doc.setHtml(legend.text())
    # "━● words   ━● words": the words of each entry, after its glyph
    entries = [e.strip() for e in re.split(r"[━╍●]+", doc.toPlainText()) if e.strip()]
    assert any("权" in e and "重" in e for e in entries)  # "lr1（权重）" is one entry
    for entry in entries:
        finder = QTextBoundaryFinder(QTextBoundaryFinder.BoundaryType.Line, entry)
        breaks = []
        while (position := finder.toNextBoundary()) != -1:
            breaks.append(position)
        assert [b for b in breaks if 0 < b < len(entry)] == [], entry
