"""How the last run ended, shown prominently: where the weights are, or what went wrong and what to do.

Two faces of one panel. Finished (completed or stopped): best/last weights with "Open folder", best
mAPs, total time, and "Train N more epochs" from the best weights (the page fills the form and starts
it). Failed (error event, killed, or a worker that died without a word): the message and
its hint, the last lines of the log, "Resume from last checkpoint" when a checkpoint exists, and the
traceback behind a "Details" toggle — never a traceback dialog.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QFontDatabase
from PySide6.QtWidgets import (QFrame, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QSpinBox,
                               QVBoxLayout, QWidget)

from core.display_text import escape_controls
from core.job.jobs import JobOutcome
from core.run.progress import RunProgress, format_duration
from core.run.folder import RunFolder
from gui.run_text import average_speed, trained_images
from gui.widgets.disclosure import disclosure_button
from gui.widgets.levels import level_colour, level_icon


class RunStatusPanel(QFrame):
    resume_requested = Signal()
    more_epochs_requested = Signal(int)  # train this many more epochs from the run's best.pt
    evaluate_requested = Signal(object)  # Path: evaluate this run's best weights

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("RunStatusPanel")
        self.mode: str | None = None  # "finished" | "failed" | None
        self._folder: Path | None = None
        self.map50: float | None = None
        self.map50_95: float | None = None
        self._rows: list[tuple[str, Any]] = []  # the finished card's facts
        self._note = ""
        self.icon_label = QLabel(self)
        self.title_label = QLabel(self)
        font = self.title_label.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.2)
        self.title_label.setFont(font)
        self.message_label = QLabel(self, wordWrap=True)
        self.message_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.facts_label = QLabel(self, wordWrap=True)
        self.facts_label.setTextFormat(Qt.TextFormat.RichText)
        self.facts_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        fixed = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.log_tail = QPlainTextEdit(self, readOnly=True, maximumHeight=110)
        self.log_tail.setFont(fixed)
        self.details_text = QPlainTextEdit(self, readOnly=True, maximumHeight=160)
        self.details_text.setFont(fixed)
        self.details_button = disclosure_button(self, self.tr("Details"), self.details_text, auto_raise=True)
        self.resume_button = QPushButton(self.tr("Resume from last checkpoint"), self)
        self.resume_button.clicked.connect(self.resume_requested)
        self.open_button = QPushButton(self.tr("Open folder"), self, clicked=self._open_folder)
        self.evaluate_button = QPushButton(self.tr("Evaluate"), self)
        self.evaluate_button.setToolTip(self.tr("Per-class metrics, the confusion matrix and what to change, from "
                                                "yolov5's validation of the run's best weights"))
        self.evaluate_button.clicked.connect(lambda: self._folder and self.evaluate_requested.emit(self._folder))
        self.more_epochs = QSpinBox(self, minimum=1, maximum=10_000, value=10, suffix=self.tr(" epochs"))
        self.more_epochs.setAccessibleName(self.tr("More epochs"))
        self.more_button = QPushButton(self.tr("Train more from best.pt"), self)
        self.more_button.setToolTip(self.tr("Start a new run from this run's best weights, on the same dataset, "
                                            "for the number of epochs beside it"))
        self.more_button.clicked.connect(lambda: self.more_epochs_requested.emit(self.more_epochs.value()))

        title_row = QHBoxLayout()
        title_row.addWidget(self.icon_label)
        title_row.addWidget(self.title_label, 1)
        buttons, more = QHBoxLayout(), QHBoxLayout()  # two rows: one would be wider than the pane at 1280x720
        buttons.addWidget(self.resume_button)
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.evaluate_button)
        buttons.addStretch(1)
        buttons.addWidget(self.details_button)
        more.addWidget(self.more_epochs)
        more.addWidget(self.more_button)
        more.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 8)
        layout.addLayout(title_row)
        layout.addWidget(self.message_label)
        layout.addWidget(self.facts_label)
        layout.addWidget(self.log_tail)
        layout.addLayout(buttons)
        layout.addLayout(more)
        layout.addWidget(self.details_text)
        self.hide()

    def clear(self) -> None:
        self.mode = None
        self.details_button.setChecked(False)
        self.hide()

    def show_outcome(self, outcome: JobOutcome, *, run_dir: Path, progress: RunProgress, log_tail: list[str],
                     can_resume: bool) -> None:
        self._folder = run_dir
        if outcome.failed:
            self._show_failed(outcome, log_tail)
        else:
            self._show_finished(outcome, progress, run_dir)
        self.resume_button.setVisible(can_resume)
        self.show()

    def _frame(self, level: str, title: str) -> None:
        colour = level_colour(level)
        self.setStyleSheet(f"#RunStatusPanel {{ border: 1px solid {colour.name()}; border-left: 5px solid "
                           f"{colour.name()}; border-radius: 4px; }}")
        self.icon_label.setPixmap(level_icon(level).pixmap(22, 22))
        self.title_label.setText(title)

    def _show_failed(self, outcome: JobOutcome, log_tail: list[str]) -> None:
        self.mode = "failed"
        self._frame("error", self.tr("Training failed"))
        self.message_label.setText(escape_controls(outcome.message))
        self.facts_label.setText(self.tr("<b>What to do:</b> {hint}").format(hint=escape(outcome.hint))
                                 if outcome.hint else "")
        self.facts_label.setVisible(bool(outcome.hint))
        self.log_tail.setPlainText("\n".join(log_tail) or self.tr("(the log is empty)"))
        self.log_tail.verticalScrollBar().setValue(self.log_tail.verticalScrollBar().maximum())  # newest last
        self.log_tail.show()
        self.details_text.setPlainText(outcome.traceback)
        self.details_button.setVisible(bool(outcome.traceback))
        self.open_button.setText(self.tr("Open run folder"))
        self._show_more(False)

    def _show_finished(self, outcome: JobOutcome, progress: RunProgress, run_dir: Path) -> None:
        self.mode = "finished"
        done = outcome.done
        if outcome.status == "completed":
            self._frame("ok", self.tr("Training completed"))
            self.message_label.setText(self.tr("Run {name} finished all its epochs.").format(name=run_dir.name))
        else:
            self._frame("info", self.tr("Training stopped"))
            self.message_label.setText(self._stopped_words(run_dir.name, done.get("stopped_at"), progress))
        final = done.get("final_metrics") or {}
        if final:  # the worker validated best.pt at the end: its figures are the ones that matter
            map50, map50_95 = final.get("map50"), final.get("map50_95")
            labels = (self.tr("mAP@0.5 of best.pt"), self.tr("mAP@0.5:0.95 of best.pt"))
        else:
            map50, map50_95 = progress.best_map50, progress.best_map50_95
            labels = (self.tr("Best mAP@0.5"), self.tr("Best mAP@0.5:0.95"))
        self._rows = rows = [
            (self.tr("Best weights"), done.get("best") or self.tr("none yet")),
            (self.tr("Last weights"), done.get("last") or self.tr("none yet")),
            (labels[0], "—" if map50 is None else f"{map50:.3f}"),
            (labels[1], "—" if map50_95 is None else f"{map50_95:.3f}"),
            (self.tr("Epochs completed"), str(done.get("epochs_completed", "—"))),
            (self.tr("Total time"), format_duration(done.get("elapsed_s"))),
            (self.tr("Average speed"), self._average_words(outcome)),
        ]
        self._note = self._two_figures_note(final, progress)
        self._show_rows()
        self.facts_label.show()
        self.log_tail.hide()
        self.details_button.hide()
        self.details_text.hide()
        self.open_button.setText(self.tr("Open weights folder"))
        self._show_more(RunFolder(run_dir).best_weights(done.get("best") or "") is not None)
        self.map50, self.map50_95 = map50, map50_95

    def _average_words(self, outcome: JobOutcome) -> str:
        """``82.3 images/s (2304 images in 0:28)``: the rate with the two figures it divides."""
        average, counted = average_speed(outcome), trained_images(outcome)
        if average is None:
            return "—"
        if counted is None:
            return self.tr("{speed} images/s over the whole run").format(speed=f"{average:.1f}")
        return self.tr("{speed} images/s ({images} images in {time})").format(
            speed=f"{average:.1f}", images=counted[0], time=format_duration(counted[1]))

    def _show_rows(self) -> None:
        table = "<table>" + "".join(
            f"<tr><td style='padding-right:12px'><b>{escape(k)}</b></td><td>{escape(str(v))}</td></tr>"
            for k, v in self._rows) + "</table>"
        self.facts_label.setText(table + (f"<p>{escape(self._note)}</p>" if self._note else ""))

    def show_duration(self, run_dir: Path, seconds: float | None) -> None:
        """The run's duration by the one definition the Runs page uses (``core.runs.store``: the wall time of
        every worker start, summed), once it is read; the card first shows this start's own."""
        if self.mode != "finished" or self._folder != Path(run_dir) or seconds is None:
            return
        label = self.tr("Total time")
        self._rows = [(k, format_duration(seconds) if k == label else v) for k, v in self._rows]
        self._show_rows()

    def _two_figures_note(self, final: dict[str, Any], progress: RunProgress) -> str:
        """Why best.pt's mAP is not the best epoch's: yolov5 (train.py) saves the EMA weights in 16 bits
        (``deepcopy(ema.ema).half()``) and validates that file once more at the end, fused
        (``attempt_load(best).half()``), where the epoch's figure came from the FP32 model in memory."""
        during, at_end = progress.best_map50, final.get("map50") if final else None
        if during is None or at_end is None or f"{during:.3f}" == f"{at_end:.3f}":
            return ""
        return self.tr("During training, epoch {epoch} measured mAP@0.5 {during}; best.pt holds that epoch's "
                       "weights, saved by yolov5 in 16-bit precision and validated once more at the end, which "
                       "gives {at_end}.").format(epoch=(progress.best_epoch or 0) + 1, during=f"{during:.3f}",
                                                at_end=f"{at_end:.3f}")

    def _stopped_words(self, name: str, stopped_at: Any, progress: RunProgress) -> str:
        """What Resume will do: yolov5 resumes at an epoch boundary, so the interrupted epoch is redone from its
        first batch, starting from the weights reached (the curves of the redone batches replace the old)."""
        if not isinstance(stopped_at, dict) or not stopped_at.get("batches_done"):
            return self.tr("Run {name} stopped; its last checkpoint is saved, so it can be resumed.").format(
                name=name)
        return self.tr("Run {name} stopped at batch {done}/{batches} of epoch {epoch}; the checkpoint holds the "
                       "weights reached there. Resume redoes epoch {epoch} from its first batch, starting from "
                       "those weights.").format(name=name, done=stopped_at["batches_done"],
                                                batches=progress.batches or "—",
                                                epoch=int(stopped_at.get("epoch", 0)) + 1)

    def hide_local_actions(self) -> None:
        """The run trained on another machine: its folder, best.pt and evaluation are there until fetched."""
        self._show_more(False)
        self.open_button.setVisible(False)
        self.resume_button.setVisible(False)

    def _show_more(self, shown: bool) -> None:
        self.evaluate_button.setVisible(shown)  # both need best.pt
        self.more_epochs.setVisible(shown)
        self.more_button.setVisible(shown)

    def _open_folder(self) -> None:
        if self._folder is None:
            return
        weights = RunFolder(self._folder).weights
        target = weights if self.mode == "finished" and weights.is_dir() else self._folder
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(target)))
