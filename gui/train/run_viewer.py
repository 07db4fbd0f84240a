"""A finished run, shown in a window of its own while another run trains on the Train page.

Viewing and training are different things: the Train page keeps following the run it trains (one click
away: the viewer says which and offers to go back), and a run opened from the Runs page meanwhile is
replayed here from its events — the same ``RunSession.follow`` path, progress panel, training plots and
log lines as the Train page, so it reads the same. Nothing here can start, stop or resume a run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QLabel, QPushButton, QSplitter, QVBoxLayout, QWidget

from core.run.folder import RunFolder
from gui.run_session import RunSession
from gui.run_text import log_line
from gui.widgets.log_view import LogView
from gui.widgets.progress_panel import ProgressPanel
from gui.widgets.training_plots import TrainingPlots
from gui.screen_fit import fit_to_screen

REFRESH_MS = 200


class RunViewer(QWidget):
    def __init__(self, run_dir: Path, training: str, back: Callable[[], None], parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.run_dir = Path(run_dir)
        self.setWindowTitle(self.tr("Run {name} — YOLO Studio").format(name=self.run_dir.name))
        self.note = QLabel(self.tr("Viewing run {name}. Run {training} keeps training on the Train page.").format(
            name=self.run_dir.name, training=training), self, wordWrap=True)
        self.back_button = QPushButton(self.tr("Back to run {training}").format(training=training), self)
        self.back_button.clicked.connect(lambda: (back(), self.close()))
        self.progress_panel = ProgressPanel(self)
        self.plots = TrainingPlots(self)
        self.log_view = LogView(self)
        self.log_view.set_log_file(RunFolder(self.run_dir).worker_log)
        split = QSplitter(Qt.Orientation.Vertical, self, childrenCollapsible=False)
        split.addWidget(self.plots)
        split.addWidget(self.log_view)
        split.setStretchFactor(0, 3)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addWidget(self.back_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.progress_panel)
        layout.addWidget(split, 1)
        self.session = RunSession(self.run_dir, self)
        self.session.event.connect(self._on_event)
        self.session.ended.connect(lambda _outcome: self._refresh())
        self._timer = QTimer(self, interval=REFRESH_MS, timeout=self._refresh)
        self._timer.start()
        fit_to_screen(self, 1100, 760)
        self.session.follow()

    def _on_event(self, event: dict[str, Any]) -> None:
        self.plots.add_event(event)
        line = log_line(event)
        if line is not None:
            self.log_view.add(line)

    def _refresh(self) -> None:
        self.progress_panel.show_progress(self.tr("Run {name}").format(name=self.run_dir.name),
                                          self.session.progress, self.session.outcome)
        if not self.session.active:
            self._timer.stop()
            self.plots.refresh()
            self.log_view.flush()
