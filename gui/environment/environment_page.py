"""The Environment page: why the GPU would sit idle, with the evidence and the exact fix.

Owns the page's flow only. The facts come from the ``probe`` worker job (torch is imported there, never in
the GUI), run by ``gui.job_runner.JobRunner`` with progress per step and a hard time limit — a wedged
driver gets the probe killed and reported, the window never waits. ``core.environment`` judges the
facts (``evaluate``) and words the summary; this page lists the checks, shows one in detail, copies a
fix, re-checks (F5), saves a report (home folder abbreviated) and loads a colleague's facts file.
"Repair…" appears when another PyTorch build fixes a finding on this machine (``core.install.repair``):
the dialog installs it in the background, then the page re-checks and offers a restart.
Tests inject facts (``facts=``) or a launcher that replays events.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (QFileDialog, QHBoxLayout, QLabel, QListWidget, QListWidgetItem,
                               QProgressBar, QPushButton, QSplitter, QVBoxLayout, QWidget)

from core.environment.facts import EnvironmentFacts
from core.environment.findings import NOT_CHECKED, CheckResult, Evaluation
from core.environment.probe_launch import PROBE_TIMEOUT_S, ProbeCollector, probe_spec
from core.usecases.jobs import ProbeDoor
from core.environment.report import summarize
from core.environment.rules import evaluate
from core.findings import Finding, by_severity
from core.install.repair import REPAIRABLE, RepairPlan
from core.job.jobs import JobOutcome
from gui.app_restart import restart_app
from gui.dialogs import ask_yes
from gui.operations import describe_failure
from gui.job_runner import JobRunner, Launcher, default_launcher
from gui.pages.page import Page
from gui.widgets.banner import Banner
from gui.environment.check_details import Applier, CheckDetails
from gui.environment.operations import keep_facts_op, load_facts_op, repair_plan_op, save_report_op
from gui.widgets.levels import level_icon, level_word
from gui.widgets.page_header import PageHeader
from gui.environment.repair_dialog import RepairDialog
from gui.widgets.summary_line import SummaryLine


def _tr(text: str) -> str:
    return QCoreApplication.translate("EnvironmentPage", text)


def ask_save_path(parent: QWidget, suggested: str) -> str:
    """Module attribute so tests answer it instead of a modal dialog."""
    return QFileDialog.getSaveFileName(parent, _tr("Save environment report"), suggested,
                                       _tr("JSON report (*.json)"))[0]


def ask_restart(parent: QWidget) -> bool:
    """Module attribute so tests answer it instead of a modal dialog."""
    return ask_yes(parent, _tr("Restart YOLO Studio?"),
                   _tr("PyTorch was replaced. Restart YOLO Studio now so every part of it uses the new build?"),
                   cancel=False)


def ask_open_path(parent: QWidget) -> str:
    return QFileDialog.getOpenFileName(
        parent, _tr("Open a facts file (yolostudio doctor --save-facts FILE on the other machine) or a saved report"),
        "", _tr("JSON (*.json)"))[0]


class EnvironmentPage(Page):
    checked = Signal(object)  # Evaluation, after every check

    def __init__(self, workspace: Path, parent: QWidget | None = None, *, launcher: Launcher = default_launcher,
                 facts: EnvironmentFacts | None = None, timeout_s: float = PROBE_TIMEOUT_S,
                 applier: Applier | None = None) -> None:
        super().__init__(workspace, parent)
        self.launcher = launcher
        self.timeout_s = timeout_s
        self.facts: EnvironmentFacts | None = None
        self.evaluation: Evaluation | None = None
        self.source = ""  # "" = this machine, else the facts file shown
        self._probe = JobRunner(self, launcher=launcher, timeout_s=timeout_s)
        self._probe.event.connect(self._on_event)
        self._probe.ended.connect(self._on_probe_ended)
        self._collector = ProbeCollector()
        self._cancelled = False
        self._auto_start = facts is None

        self.recheck_button = QPushButton(self.tr("Re-check"), self, clicked=self.recheck)
        self.recheck_button.setToolTip(self.tr("Check this machine again (F5)"))
        self.load_button = QPushButton(self.tr("Open facts…"), self, clicked=self.open_facts)
        self.load_button.setToolTip(self.tr(
            "Judge another machine: a facts file is the JSON of what the check read there (GPUs, driver, CUDA, "
            "PyTorch, disks). Make one on that machine with 'yolostudio doctor --save-facts facts.json', or use a "
            "report saved with Save report…"))
        self.save_button = QPushButton(self.tr("Save report…"), self, clicked=self.save_report)
        self.save_button.setToolTip(self.tr("Save facts and findings as JSON to attach to a bug report (Ctrl+S)"))
        self.repair_button = QPushButton(self.tr("Repair…"), self, clicked=self.open_repair)
        self.repair_button.setToolTip(self.tr("Install the PyTorch build that fits this driver and GPU into the "
                                              "app's own environment"))
        self.repair_button.setVisible(False)
        self.repair_dialog: RepairDialog | None = None
        self._restart_after_check = False
        self.header = PageHeader(
            self.tr("Environment"),
            self.tr("Checks the GPU driver, CUDA, PyTorch, memory and disks, and says what to fix so training "
                    "keeps the GPU busy."),
            [self.repair_button, self.recheck_button, self.load_button, self.save_button], self)
        self.banner = Banner(self)
        self.summary = SummaryLine(self)
        self.progress_label = QLabel(self)
        self.progress_bar = QProgressBar(self, maximum=self._collector.count, value=0, textVisible=False)
        self.cancel_button = QPushButton(self.tr("Cancel"), self, clicked=self.cancel)
        self.list = QListWidget(self)
        self.list.setAccessibleName(self.tr("Checks"))
        self.list.setWordWrap(True)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.details = CheckDetails(self, applier)
        self.details.copied.connect(lambda text: self.banner.show_message("info", self.tr("Copied: {fix}").format(
            fix=text if len(text) < 120 else text[:117] + "…")))
        self.list.currentItemChanged.connect(self._on_current)
        self._build_layout()
        QShortcut(QKeySequence(QKeySequence.StandardKey.Save), self, self.save_report,
                  context=Qt.ShortcutContext.WidgetWithChildrenShortcut)
        if facts is not None:
            self.show_facts(facts)
        else:
            self.summary.set_summary("info", self.tr("Not checked yet."))
            self._set_busy(False)

    def set_applier(self, applier: Applier | None) -> None:
        """Let "Apply setting" change the training options (the window binds it, see ``on_bound``)."""
        self.details.set_applier(applier)

    def on_bound(self) -> None:
        """A fix that is a training option goes to the Train form through the window; the app's dataset
        (``services.current``, the one the Train page trains on) is what "RAM for the dataset cache" judges."""
        if self.services.apply_to_next_run is not None:
            self.set_applier(self.services.apply_to_next_run)
        self.services.current.dataset_changed.connect(self._on_dataset_changed)

    def _on_dataset_changed(self, _path: str) -> None:
        """The dataset's disk and cache size were judged for the old one: check again now, or when shown."""
        if self.facts is None or self.source:
            return
        if self.isVisible():
            self.recheck()
        else:
            self._auto_start = True

    def _build_layout(self) -> None:
        progress = QHBoxLayout()
        progress.addWidget(self.progress_label, 1)
        progress.addWidget(self.progress_bar, 1)
        progress.addWidget(self.cancel_button)
        body = QSplitter(Qt.Orientation.Horizontal, self, childrenCollapsible=False)
        body.addWidget(self.list)
        body.addWidget(self.details)
        body.setStretchFactor(0, 2)
        body.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 8)
        layout.addWidget(self.header)
        layout.addWidget(self.banner)
        layout.addWidget(self.summary)
        layout.addLayout(progress)
        layout.addWidget(body, 1)

    # -- probing ------------------------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        return self._probe.active

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        if self._auto_start:
            self._auto_start = False
            self.recheck()

    def refresh(self) -> None:
        """F5 (from the main window): check this machine again."""
        self.recheck()

    def recheck(self) -> bool:
        if self.busy:
            return False
        self._auto_start = False
        self._collector = ProbeCollector()
        self._cancelled = False
        self.progress_bar.setValue(0)
        self.progress_label.setText(self.tr("Starting the check…"))
        self.summary.set_summary("info", self.tr("Checking this machine…") if self.facts is None else self.tr(
            "Checking this machine again… (the list below is from the previous check until it ends)"))
        self._set_busy(True)
        try:
            self._probe.start(ProbeDoor(probe_spec(self.workspace, data=self.services.current.dataset or None),
                                        self.workspace))
        except OSError as exc:
            self._set_busy(False)
            self.banner.show_message("error", self.tr("Cannot write the probe's spec in {path}: {reason}").format(
                path=self.workspace, reason=exc))
            return False
        return True

    def cancel(self) -> None:
        if self.busy:
            self._cancelled = True
            self._probe.kill()

    def _on_event(self, event: dict[str, Any]) -> None:
        self._collector.feed(event)
        if event.get("type") == "probe_step":
            self.progress_bar.setMaximum(self._collector.count)
            self.progress_bar.setValue(self._collector.index)
            self.progress_label.setText(self.tr("{step} (step {n} of {count})").format(
                step=self._step_words(self._collector.step), n=self._collector.index + 1, count=self._collector.count))

    def _step_words(self, step: str | None) -> str:
        return {"system": self.tr("Reading the system…"), "nvml": self.tr("Asking the GPU driver (NVML)…"),
                "disks": self.tr("Timing the disks…"),
                "torch": self.tr("Importing PyTorch (this takes a few seconds)…"),
                "cuda": self.tr("Testing CUDA on each GPU…")}.get(step or "", self.tr("Checking…"))

    def _on_probe_ended(self, outcome: JobOutcome) -> None:
        if outcome.kind == "launch":
            self._set_busy(False)
            self.banner.show_message("error", self.tr("The check could not run. {reason} {hint}").format(
                reason=outcome.message, hint=outcome.hint))
            return
        facts, notes = self._collector.result(outcome, detail=self.tr("the check was cancelled") if self._cancelled
                                              else "")
        self._set_busy(False)
        self.source = ""
        self.show_facts(facts, notes)
        self._keep_last_facts(facts)

    def _keep_last_facts(self, facts: EnvironmentFacts) -> None:
        """The About box shows the versions this check read (the GUI never imports torch to ask)."""
        keep_facts_op(self, facts, self.workspace).failure(
            lambda exc: logging.getLogger("yolostudio.gui.environment").warning(
                "could not keep the check's facts: %s", exc)).run()

    def _set_busy(self, busy: bool) -> None:
        for widget in (self.progress_label, self.progress_bar, self.cancel_button):
            widget.setVisible(busy)
        self.recheck_button.setEnabled(not busy)
        self.load_button.setEnabled(not busy)
        self.save_button.setEnabled(not busy and self.facts is not None)
        repairable = (not busy and not self.source and self.evaluation is not None
                      and any(i in REPAIRABLE for i in self.evaluation.ids()))
        self.repair_button.setVisible(repairable)

    # -- showing ------------------------------------------------------------------------------------
    def show_facts(self, facts: EnvironmentFacts, notes: list[str] | None = None) -> Evaluation:
        self.facts = facts
        self.evaluation = evaluation = evaluate(facts, notes=notes)
        level, text = summarize(facts, evaluation)
        if self.source:
            text = self.tr("{file}: {summary}").format(file=Path(self.source).name, summary=text)
        self.summary.set_summary(level, text)
        if notes:
            self.banner.show_message("warning", self.tr("The facts were incomplete: {notes}").format(
                notes="; ".join(notes[:5]) + (" …" if len(notes) > 5 else "")))
        self.list.clear()
        for finding in by_severity(evaluation.findings):
            self._add_row(finding.severity, finding.message, finding)
        for check in evaluation.checks:
            if check.status == "ok":
                self._add_row("ok", self.tr("{title} — {measured}").format(title=check.title, measured=check.measured)
                              if check.measured else check.title, check)
        for check in evaluation.checks:
            if check.status in (NOT_CHECKED, "n/a"):
                word = self.tr("not checked") if check.status == NOT_CHECKED else self.tr("does not apply")
                self._add_row("info", self.tr("{title} — {word}: {why}").format(title=check.title, word=word,
                                                                                why=check.note), check, muted=True)
        self.list.setCurrentRow(0)
        self._set_busy(self.busy)
        self.checked.emit(evaluation)
        if self._restart_after_check and not self.source:
            self._restart_after_check = False
            if ask_restart(self):
                restart_app()
        return evaluation

    def _add_row(self, level: str, title: str, payload: Finding | CheckResult, *, muted: bool = False) -> None:
        text = title if muted else self.tr("{level} · {title}").format(level=level_word(level), title=title)
        item = QListWidgetItem(level_icon(level), text)
        item.setData(Qt.ItemDataRole.UserRole, payload)
        item.setToolTip(text)
        if muted:
            item.setForeground(self.palette().placeholderText())
        self.list.addItem(item)

    def _on_current(self, item: QListWidgetItem | None, _previous: QListWidgetItem | None = None) -> None:
        payload = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        if isinstance(payload, Finding):
            self.details.show_finding(payload)
        elif isinstance(payload, CheckResult):
            self.details.show_check(payload)
        else:
            self.details.show_nothing()

    def row_texts(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]

    # -- repair -------------------------------------------------------------------------------------
    def open_repair(self) -> bool:
        """Plan the repair in the background (it looks at the app's environment), then open its dialog."""
        if self.facts is None or self.evaluation is None or self.busy:
            return False
        repair_plan_op(self, self.facts, self.evaluation.ids()).success(self._show_repair).run()
        return True

    def _show_repair(self, plan: RepairPlan) -> None:
        self.repair_dialog = RepairDialog(plan, self.workspace, self)
        self.repair_dialog.repaired.connect(self._after_repair)
        self.repair_dialog.open()

    def _after_repair(self) -> None:
        self._restart_after_check = True
        self.recheck()

    # -- files --------------------------------------------------------------------------------------
    def save_report(self) -> bool:
        """Ask where, then write the report in the background; the banner says where it went (or why not)."""
        if self.facts is None or self.evaluation is None:
            return False
        path = ask_save_path(self, str(Path.home() / "yolostudio-environment.json"))
        if not path:
            return False
        save_report_op(self, self.facts, self.evaluation, Path(path)).success(
            lambda saved: self.banner.show_message("info", self.tr(
                "Report saved to {path}. Paths under your home folder are shortened to ~.").format(path=saved))
        ).failure(lambda exc: self.banner.show_message("error", self.tr("Could not save the report: {reason}").format(
            reason=describe_failure(exc)))).run()
        return True

    def open_facts(self) -> bool:
        """Ask for a facts file, read it in the background, then judge it (``source`` names it)."""
        path = ask_open_path(self)
        if not path:
            return False
        load_facts_op(self, Path(path)).success(lambda loaded: self._show_file(path, *loaded)).failure(
            lambda exc: self.banner.show_message("error", self.tr("Cannot read {path}: {reason}").format(
                path=path, reason=exc))).run()
        return True

    def _show_file(self, path: str, facts: EnvironmentFacts, notes: list[str]) -> None:
        self.source = path
        self.show_facts(facts, notes)
