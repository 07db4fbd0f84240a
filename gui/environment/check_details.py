"""The details pane of one environment check: what was measured, why it matters, and the fix.

Shows a ``core.environment.findings.Finding`` (evidence as a table, the fix as a command with a Copy
button, or a setting with an Apply button when the page can apply it) or a passed / not-run check.
"""

from __future__ import annotations

from html import escape
from typing import Callable

from PySide6.QtCore import Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QTextBrowser, QVBoxLayout, QWidget

from core.environment.findings import NOT_CHECKED, CheckResult
from core.findings import Finding
from gui.widgets.levels import level_colour, level_word

Applier = Callable[[dict], bool]


class CheckDetails(QWidget):
    copied = Signal(str)
    applied = Signal(object)  # the setting dict

    def __init__(self, parent: QWidget | None = None, applier: Applier | None = None) -> None:
        super().__init__(parent)
        self._applier = applier
        self.finding: Finding | None = None
        self.browser = QTextBrowser(self, openExternalLinks=False)
        self.copy_button = QPushButton(self.tr("Copy fix"), self, clicked=self.copy_fix)
        self.copy_button.setToolTip(self.tr("Copy the fix (a command or setting) to the clipboard"))
        self.apply_button = QPushButton(self.tr("Apply setting"), self, clicked=self.apply_setting)
        buttons = QHBoxLayout()
        buttons.addWidget(self.copy_button)
        buttons.addWidget(self.apply_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.browser, 1)
        layout.addLayout(buttons)
        self.show_nothing()

    def show_nothing(self) -> None:
        self.finding = None
        self.browser.setHtml(self.tr("<p>Select a check to see what was measured and how to fix it.</p>"))
        self._buttons()

    def show_check(self, check: CheckResult) -> None:
        self.finding = None
        words = {"ok": self.tr("Passed: nothing to fix."), NOT_CHECKED: self.tr("Not checked: {why}."),
                 "n/a": self.tr("Does not apply here: {why}.")}
        text = words.get(check.status, "").format(why=escape(check.note))
        if check.status == "ok" and check.measured:
            text = self.tr("Passed. Measured: {measured}.").format(measured=escape(check.measured))
        self.browser.setHtml(f"<h3>{escape(check.title)}</h3><p>{text}</p>")
        self._buttons()

    def show_finding(self, finding: Finding) -> None:
        self.finding = finding
        colour = level_colour(finding.severity).name()
        rows = "".join(f"<tr><td style='padding-right:12px'><i>{escape(k)}</i></td><td>{escape(v)}</td></tr>"
                       for k, v in finding.evidence.items())
        fix_label = {"command": self.tr("Fix (command)"), "setting": self.tr("Fix (setting)"),
                     "advice": self.tr("Fix")}[finding.fix_kind]
        fix = (f"<pre style='white-space:pre-wrap'>{escape(finding.fix)}</pre>" if finding.fix_kind != "advice"
               else f"<p>{escape(finding.fix)}</p>")
        self.browser.setHtml(
            f"<h3>{escape(finding.message)}</h3>"
            f"<p><span style='color:{colour}'><b>{escape(level_word(finding.severity))}</b></span>"
            f" · <code>{escape(finding.code)}</code></p>"
            f"<p>{escape(finding.detail)}</p>"
            f"<p><b>{escape(self.tr('Measured'))}</b></p><table>{rows}</table>"
            f"<p><b>{escape(fix_label)}</b></p>{fix}")
        self._buttons()

    def _buttons(self) -> None:
        f = self.finding
        self.copy_button.setEnabled(f is not None and bool(f.fix))
        self.apply_button.setVisible(f is not None and bool(f.changes) and self._applier is not None)

    def copy_fix(self) -> None:
        if self.finding is None:
            return
        QGuiApplication.clipboard().setText(self.finding.fix)
        self.copied.emit(self.finding.fix)

    def set_applier(self, applier: Applier | None) -> None:
        """Who applies a setting fix (the main window hands in the Train form's); None hides Apply."""
        self._applier = applier
        f = self.finding
        self.apply_button.setVisible(f is not None and bool(f.changes) and applier is not None)

    def apply_setting(self) -> None:
        if self.finding is not None and self.finding.changes and self._applier is not None:
            if self._applier(self.finding.settings()):
                self.applied.emit(self.finding.settings())
