"""The run's progress at a glance: stage, epoch and run bars, the speed/ETA line, best mAP so far.

Shows ``core.run.progress.RunProgress`` as it is (through ``gui.run_text``); it computes nothing itself.
"""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QLabel, QProgressBar, QWidget

from core.job.jobs import JobOutcome
from core.run.progress import RunProgress
from gui.run_text import average_speed, best_text, detail_text, ended_text, stage_text

SCALE = 1000


class ProgressPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title_label = QLabel(self.tr("No run yet — choose a dataset and press Start."), self)
        font = self.title_label.font()
        font.setBold(True)
        self.title_label.setFont(font)
        self.stage_label = QLabel(self.tr("Idle: nothing is training."), self)
        self.epoch_bar = QProgressBar(self, maximum=SCALE, value=0)
        self.run_bar = QProgressBar(self, maximum=SCALE, value=0)
        self.detail_label = QLabel(self)
        self.best_label = QLabel(self)
        for label in (self.stage_label, self.detail_label, self.best_label):
            label.setWordWrap(True)
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.addWidget(self.title_label, 0, 0, 1, 2)
        grid.addWidget(self.stage_label, 1, 0, 1, 2)
        grid.addWidget(QLabel(self.tr("Epoch:"), self), 2, 0)
        grid.addWidget(self.epoch_bar, 2, 1)
        grid.addWidget(QLabel(self.tr("Run:"), self), 3, 0)
        grid.addWidget(self.run_bar, 3, 1)
        grid.addWidget(self.detail_label, 4, 0, 1, 2)
        grid.addWidget(self.best_label, 5, 0, 1, 2)
        grid.setColumnStretch(1, 1)

    def show_progress(self, title: str, progress: RunProgress, outcome: JobOutcome | None = None) -> None:
        """``outcome`` once the worker has ended: the stage line says how, and there is no ETA."""
        self.title_label.setText(title)
        self.stage_label.setText(stage_text(progress) if outcome is None else ended_text(outcome))
        self.epoch_bar.setValue(round(SCALE * progress.epoch_fraction))
        self.run_bar.setValue(round(SCALE * progress.run_fraction))
        self.detail_label.setText(detail_text(progress, live=outcome is None, average=average_speed(outcome)))
        self.best_label.setText(best_text(progress))
