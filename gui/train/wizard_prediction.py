"""On the Train page, for a run started from the wizard: predicted against measured images/s and epoch time, and
for a bottleneck verdict about a setting the wizard chose, which step chose it and why (with a way back).

The wizard's document is kept with the run by its folder's owner (``core.run.folder.RunFolder.keep_wizard``,
called by ``core.runs.store.create_run`` for a run started from either face), so a replayed, re-attached or
``yolostudio train --config wizard.json`` run shows the same comparison; this widget only reads it. Measured figures come from the run's own events: the batch
windows' images/s (warm-up left out, as the run's efficiency summary does) and ``epoch_end.epoch_time_s``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from core.run.folder import RunFolder
from core.run.progress import format_duration
from core.training.options import choice_label, option_labels, train_options


class WizardPrediction(QFrame):
    review_requested = Signal()  # open the wizard (its Review step) to see why a setting was chosen

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.doc: dict[str, Any] | None = None
        self._images = 0
        self._seconds = 0.0
        self._epochs: list[float] = []
        self.figures = QLabel(self)
        self.figures.setWordWrap(True)
        self.verdict = QLabel(self)
        self.verdict.setWordWrap(True)
        self.verdict.setVisible(False)
        self.review_button = QPushButton(self.tr("Why? Open the &wizard"), self, clicked=self.review_requested.emit)
        row = QHBoxLayout()
        row.addWidget(self.figures, 1)
        row.addWidget(self.review_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.addLayout(row)
        layout.addWidget(self.verdict)
        self.setVisible(False)

    def load(self, run_dir: Path) -> None:
        """Show the comparison for ``run_dir`` (hidden when the run was not started from the wizard)."""
        self._images, self._seconds, self._epochs = 0, 0.0, []
        self.verdict.setVisible(False)
        self.doc = RunFolder(Path(run_dir)).read_wizard()
        self.setVisible(self.doc is not None)
        self._update()

    def feed(self, event: dict[str, Any]) -> None:
        if self.doc is None:
            return
        kind = event.get("type")
        if kind == "batch" and not event.get("warmup"):
            window = event.get("window") or {}
            self._images += int(window.get("images") or 0)
            self._seconds += float(window.get("data_wait_s") or 0.0) + float(window.get("step_s") or 0.0)
            self._update()
        elif kind == "epoch_end" and isinstance(event.get("epoch_time_s"), (int, float)):
            self._epochs.append(float(event["epoch_time_s"]))
            self._update()
        elif kind == "diagnosis":
            self._show_verdict(event)

    def _update(self) -> None:
        if self.doc is None:
            return
        p = self.doc.get("predicted", {})
        rate = self._images / self._seconds if self._seconds else None
        epoch = sum(self._epochs) / len(self._epochs) if self._epochs else None
        self.figures.setText(self.tr(
            "Wizard predicted {rate:.0f} images/s and {epoch} per epoch — measured {mrate} and {mepoch}.").format(
            rate=p.get("images_per_s", 0), epoch=format_duration(p.get("epoch_s")),
            mrate=self.tr("{rate:.0f} images/s").format(rate=rate) if rate else self.tr("… images/s"),
            mepoch=format_duration(epoch)))

    def _show_verdict(self, event: dict[str, Any]) -> None:
        reasons = (self.doc or {}).get("reasons", {})
        fields = [p.get("field") for p in event.get("prescriptions") or [] if p.get("field") in reasons]
        if not fields:
            return
        steps = {"hardware": self.tr("Hardware"), "dataset": self.tr("Dataset"), "goal": self.tr("Goal"),
                 "measure": self.tr("Measure")}
        # One line per (step, reason): two settings the wizard chose for the same reason say it once (issue 32:
        # no sentence repeated); framed as the wizard's expectation that this run's measurement (the banner above)
        # overrules — the two never read as contradicting each other.
        # The option as the Train form names it, the value as its choices say it (issue 32: "选择了 cache = 无"
        # was English and a bare word on a Chinese screen).
        labels, options = option_labels(), {o.name: o for o in train_options()}
        groups: dict[tuple[str, str], list[str]] = {}
        for name in dict.fromkeys(fields):
            reason = reasons[name]
            value = reason.get("value")
            option = options.get(name)
            shown = choice_label(option, value) if option is not None and option.choices else \
                self.tr("none") if value in (None, "") else str(value)
            groups.setdefault((str(reason.get("step", "")), str(reason.get("why", ""))), []).append(
                self.tr("{field} = {value}").format(field=labels.get(name, name), value=shown))
        lines = [self.tr("Before the run, the wizard chose {choices} in its {step} step: {why} This run measured "
                         "otherwise — the verdict above is the one to go by.").format(
            choices=", ".join(choices), step=steps.get(step, step), why=_sentence(why))
            for (step, why), choices in groups.items()]
        self.verdict.setText("\n".join(lines))
        self.verdict.setVisible(True)



def _sentence(text: str) -> str:
    """``text`` ending as a sentence once: the wizard's reason may end in "." or, in Chinese, "。" ("。." was shown)."""
    text = text.strip()
    return text if text.endswith((".", "。", "!", "！", "?", "？")) else text + "."
