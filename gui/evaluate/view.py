"""One stored evaluation on screen: the headline, the per-class table, the confusion matrix with its
background row and column in words, the PR and F1-vs-confidence curves (drawn here with pyqtgraph from the
curve data yolov5 computed, not its PNGs), and the prescription.

It shows ``result.json`` as written by the evaluate worker (``core.evaluation.store``) through the same
words as the CLI (``core.evaluation.words``), so the two never disagree. Says which images it judged: the
val/test split with the run's weights, or the train split with held-out (k-fold) predictions
(``words.predictions_words``) — never the run's own predictions on its training images (they are biased).
"""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QAbstractItemView, QGridLayout, QGroupBox, QHBoxLayout, QHeaderView, QLabel,
                               QScrollArea, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from core.evaluation.words import confusion_words, headline, is_held_out, predictions_words

_PENS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")


def _num(value: Any) -> str:
    return "—" if value is None else f"{float(value):.3f}"


class EvaluationView(QScrollArea):
    """A read-only view of one evaluation result (the dict of ``result.json``, with its prescription)."""

    def __init__(self, result: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result = result
        self.setWidgetResizable(True)
        body = QWidget(self)
        layout = QVBoxLayout(body)
        self.title = QLabel(self._title(), body, wordWrap=True)
        self.scope = QLabel(predictions_words(result), body, wordWrap=True)
        self.headline = QLabel("<br>".join(escape(line) for line in headline(result)), body, wordWrap=True)
        for label in (self.title, self.scope, self.headline):
            layout.addWidget(label)
        self.classes = self._class_table(body)
        self.confusion, self.confusion_words = self._confusion(body)
        row = QHBoxLayout()
        row.addWidget(self._group(self.tr("Per class"), self.classes), 1)
        row.addWidget(self._group(self.tr("Confusion matrix"), self.confusion, self.confusion_words), 1)
        layout.addLayout(row)
        self.pr_plot, self.f1_plot = self._curves(body)
        curves = QGridLayout()
        curves.addWidget(self._group(self.tr("Precision–recall (IoU 0.5)"), self.pr_plot), 0, 0)
        curves.addWidget(self._group(self.tr("F1 against confidence"), self.f1_plot), 0, 1)
        layout.addLayout(curves)
        self.prescription = QLabel(self._prescription_html(), body, wordWrap=True, textFormat=Qt.RichText)
        layout.addWidget(self._group(self.tr("What to change for the next run"), self.prescription))
        layout.addStretch(1)
        self.setWidget(body)

    def _title(self) -> str:
        r = self.result
        if is_held_out(r):
            text = self.tr("Held-out (k-fold) predictions of run {run} on the train split: {images} images, "
                           "{instances} objects").format(run=r.get("run", ""), images=r.get("images", 0),
                                                         instances=r.get("instances", 0))
            return "<h3>" + escape(text) + "</h3>"
        text = self.tr("{weights} on the {split} split: {images} images, {instances} objects").format(
            weights=str(r.get("weights", "")).replace("\\", "/").rsplit("/", 1)[-1], split=r.get("split", ""),
            images=r.get("images", 0), instances=r.get("instances", 0))
        return "<h3>" + escape(text) + "</h3>"

    def _group(self, title: str, *widgets: QWidget) -> QGroupBox:
        box = QGroupBox(title, self.widget() or self)
        inner = QVBoxLayout(box)
        for w in widgets:
            inner.addWidget(w)
        return box

    def _class_table(self, parent: QWidget) -> QTableWidget:
        rows = self.result.get("per_class", [])
        table = QTableWidget(len(rows), 6, parent)
        table.setHorizontalHeaderLabels([self.tr("Class"), self.tr("Instances"), "P", "R", "mAP@0.5",
                                         "mAP@0.5:0.95"])
        for i, r in enumerate(rows):
            values = [str(r["name"]), str(r["instances"]), _num(r["precision"]), _num(r["recall"]),
                      _num(r["map50"]), _num(r["map"])]
            for j, text in enumerate(values):
                item = QTableWidgetItem(text)
                if j:
                    item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
                table.setItem(i, j, item)
        self._read_only(table)
        return table

    def _confusion(self, parent: QWidget) -> tuple[QTableWidget, QLabel]:
        confusion = self.result.get("confusion", {})
        labels, matrix = confusion.get("labels", []), confusion.get("matrix", [])
        table = QTableWidget(len(matrix), len(matrix), parent)
        # the last row and column are yolov5's "background" (not a class of the dataset): said in the UI's language
        shown = [*labels[:-1], self.tr("background")] if labels else []
        table.setVerticalHeaderLabels([self.tr("predicted {name}").format(name=n) for n in shown])
        table.setHorizontalHeaderLabels([self.tr("true {name}").format(name=n) for n in shown])
        peak = max((v for row in matrix for v in row), default=0) or 1
        for p, row in enumerate(matrix):
            for t, value in enumerate(row):
                item = QTableWidgetItem(str(value))
                item.setTextAlignment(Qt.AlignCenter)
                if value:
                    shade = 255 - int(120 * value / peak)
                    item.setBackground(_shade(shade, p == t))
                table.setItem(p, t, item)
        self._read_only(table)
        words = QLabel("<br>".join(escape(line) for line in confusion_words(confusion)), parent, wordWrap=True)
        return table, words

    @staticmethod
    def _read_only(table: QTableWidget) -> None:
        table.setEditTriggers(QAbstractItemView.NoEditTriggers)
        table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
        table.setMinimumHeight(min(320, 30 + 28 * max(1, table.rowCount())))

    def _curves(self, parent: QWidget) -> tuple[QWidget, QWidget]:
        from gui.plotting import pg

        curves = self.result.get("curves", {})
        pr_plot = pg.PlotWidget(parent)
        pr_plot.setLabel("bottom", self.tr("recall"))
        pr_plot.setLabel("left", self.tr("precision"))
        f1_plot = pg.PlotWidget(parent)
        f1_plot.setLabel("bottom", self.tr("confidence"))
        f1_plot.setLabel("left", "F1")
        for plot in (pr_plot, f1_plot):
            plot.setXRange(0, 1)
            plot.setYRange(0, 1)
            plot.addLegend(offset=(-10, 10))
            plot.setMinimumHeight(240)
        pr, f1 = curves.get("pr", {}), curves.get("f1", {})
        for i, (name, ys) in enumerate(pr.get("classes", {}).items()):
            pr_plot.plot(pr.get("recall", []), ys, pen=pg.mkPen(_PENS[i % len(_PENS)], width=1), name=name)
        if pr.get("all"):
            pr_plot.plot(pr.get("recall", []), pr["all"], pen=pg.mkPen("#e6b800", width=3), name=self.tr("all classes"))
        for i, (name, ys) in enumerate(f1.get("classes", {}).items()):
            f1_plot.plot(f1.get("confidence", []), ys, pen=pg.mkPen(_PENS[i % len(_PENS)], width=1), name=name)
        if f1.get("all"):
            f1_plot.plot(f1.get("confidence", []), f1["all"], pen=pg.mkPen("#e6b800", width=3),
                         name=self.tr("all classes"))
        best = self.result.get("best_f1", {})
        if best:
            f1_plot.addItem(pg.InfiniteLine(pos=float(best.get("confidence", 0)), angle=90,
                                            pen=pg.mkPen("#888888", style=Qt.DashLine)))
        return pr_plot, f1_plot

    def _prescription_html(self) -> str:
        items = self.result.get("prescription", [])
        if not items and is_held_out(self.result):
            return escape(self.tr("The prescription judges the val evaluation (its size, its class mix against "
                                  "train); this one shows which training labels look wrong."))
        if not items:
            return escape(self.tr("Nothing to change that the evaluation can see."))
        parts = []
        for item in items:
            fix = f"<br>→ {escape(item['fix'])}" if item.get("fix") else ""
            parts.append(f"<p><b>{escape(item['title'])}</b><br>{escape(item['detail'])}{fix}</p>")
        return "".join(parts)


def _shade(level: int, diagonal: bool) -> Any:
    from PySide6.QtGui import QColor

    return QColor(level, 255, level) if diagonal else QColor(255, level, level)
