""""Try it": an exported model's detections on real images, with the confidence threshold adjustable.

The model runs in a worker (``predict`` job); this widget only draws what comes back — the image and its
boxes with QPainter — so the GUI never loads a runtime. The worker returns every box above a low
confidence, so moving the threshold filters locally and redraws at once, without running anything again.
Images are decoded on a pool thread (a ``gui.operations.CoreOp``), never in the GUI thread.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import (QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QPushButton, QSlider,
                               QSplitter, QVBoxLayout, QWidget)

from core.i18n import tr_n
from gui.operations import CoreOp

PALETTE = ("#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#46f0f0", "#f032e6", "#bcf60c")
DEFAULT_CONF = 0.25
SCALE = 1000  # slider steps per unit of confidence: 0.001 at the low end, where weak models live
SKIPPED_NAMED = 3  # skipped images named in the summary; the rest are counted
HINT_MARGIN = 12  # px around the empty view's hint


class DetectionView(QWidget):
    """An image scaled to fit, with the boxes at or above ``threshold`` drawn over it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.image: QImage | None = None
        self.result: dict[str, Any] | None = None
        self.threshold = DEFAULT_CONF
        self.setMinimumSize(240, 180)

    def set_image(self, image: QImage | None, result: dict[str, Any] | None) -> None:
        self.image, self.result = image, result
        self.update()

    def hint_text(self) -> str:
        return self.tr("Press “Pick images…” or “Validation images” above: the model's boxes are drawn here.")

    def hint_fits(self) -> bool:
        """The empty view's hint, wrapped, fits inside the view (issue 32: one line, cut at both ends)."""
        room = self.rect().adjusted(HINT_MARGIN, HINT_MARGIN, -HINT_MARGIN, -HINT_MARGIN)
        needed = self.fontMetrics().boundingRect(room, int(Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap),
                                                 self.hint_text())
        return room.contains(needed)

    def set_threshold(self, value: float) -> None:
        self.threshold = value
        self.update()

    def visible_boxes(self) -> list[list[float]]:
        boxes = (self.result or {}).get("boxes") or []
        return [b for b in boxes if b[4] >= self.threshold]

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), self.palette().window())
        if self.image is None or self.image.isNull():  # wrapped in the view, inside a margin: never clipped
            painter.drawText(self.rect().adjusted(HINT_MARGIN, HINT_MARGIN, -HINT_MARGIN, -HINT_MARGIN),
                             Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, self.hint_text())
            return
        scale = min(self.width() / self.image.width(), self.height() / self.image.height())
        w, h = self.image.width() * scale, self.image.height() * scale
        x0, y0 = (self.width() - w) / 2, (self.height() - h) / 2
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        painter.drawImage(QRectF(x0, y0, w, h), self.image)
        names = (self.result or {}).get("names") or {}
        font = QFont(painter.font())
        font.setPointSizeF(max(7.0, font.pointSizeF() * 0.85))
        painter.setFont(font)
        for x1, y1, x2, y2, conf, cls in self.visible_boxes():
            colour = QColor(PALETTE[int(cls) % len(PALETTE)])
            painter.setPen(QPen(colour, 2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            rect = QRectF(x0 + x1 * scale, y0 + y1 * scale, (x2 - x1) * scale, (y2 - y1) * scale)
            painter.drawRect(rect)
            label = f"{names.get(str(int(cls)), names.get(int(cls), int(cls)))} {conf:.2f}" if conf >= 0.1 else \
                f"{names.get(str(int(cls)), names.get(int(cls), int(cls)))} {conf:.3f}"
            metrics = painter.fontMetrics()
            box = QRectF(rect.left(), rect.top() - metrics.height(), metrics.horizontalAdvance(label) + 6,
                         metrics.height())
            if box.top() < y0:
                box.moveTop(rect.top())
            painter.fillRect(box, colour)
            painter.setPen(QColor("white"))
            painter.drawText(box.adjusted(3, 0, 0, 0), Qt.AlignmentFlag.AlignVCenter, label)
        painter.end()


class TryItView(QWidget):
    """Model + images → the worker's boxes; the page starts the job, this view shows the results."""

    run_requested = Signal(object)  # list[Path] of images, or None for the validation set
    pick_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model_label = QLabel(self.tr("No exported model chosen: press “Try it” on a report card."), self,
                                  wordWrap=True)
        self.pick_button = QPushButton(self.tr("Pick images…"), self)
        self.pick_button.clicked.connect(self.pick_requested)
        self.val_button = QPushButton(self.tr("Validation images"), self)
        self.val_button.setToolTip(self.tr("Run on the dataset's validation images"))
        self.val_button.clicked.connect(lambda: self.run_requested.emit(None))
        self.slider = QSlider(Qt.Orientation.Horizontal, self, minimum=1, maximum=SCALE - 50,
                             value=int(DEFAULT_CONF * SCALE))
        self.slider.setToolTip(self.tr("Show only boxes at or above this confidence"))
        self.conf_label = QLabel(self)
        self.status_label = QLabel(self, wordWrap=True)
        self.image_list = QListWidget(self)
        self.view = DetectionView(self)
        self.results: dict[str, dict[str, Any]] = {}
        self.skipped: dict[str, str] = {}  # image path -> the worker's reason ("unreadable", "missing")
        self._images: dict[str, QImage] = {}
        self.model: Path | None = None

        controls = QHBoxLayout()
        controls.addWidget(self.pick_button)
        controls.addWidget(self.val_button)
        controls.addSpacing(12)
        controls.addWidget(QLabel(self.tr("Confidence ≥"), self))
        controls.addWidget(self.slider, 1)
        controls.addWidget(self.conf_label)
        split = QSplitter(Qt.Orientation.Horizontal, self, childrenCollapsible=False)
        split.addWidget(self.image_list)
        split.addWidget(self.view)
        split.setStretchFactor(1, 1)
        split.setSizes([180, 500])
        layout = QVBoxLayout(self)
        layout.addWidget(self.model_label)
        layout.addLayout(controls)
        layout.addWidget(self.status_label)
        layout.addWidget(split, 1)
        self.slider.valueChanged.connect(self._on_threshold)
        self.image_list.currentItemChanged.connect(self._show_current)
        self._on_threshold(self.slider.value())
        self.set_model(None)

    @property
    def threshold(self) -> float:
        return self.slider.value() / SCALE

    def set_model(self, path: Path | None) -> None:
        self.model = path
        self.pick_button.setEnabled(path is not None)
        self.val_button.setEnabled(path is not None)
        if path is not None:
            self.model_label.setText(self.tr("Model: {path}").format(path=path))

    def set_busy(self, busy: bool, text: str = "") -> None:
        self.pick_button.setEnabled(not busy and self.model is not None)
        self.val_button.setEnabled(not busy and self.model is not None)
        self.status_label.setText(text)

    def clear_results(self) -> None:
        self.results.clear()
        self.skipped.clear()
        self._images.clear()
        self.image_list.clear()
        self.view.set_image(None, None)

    def add_result(self, event: dict[str, Any]) -> None:
        """One ``predictions`` event: listed at once; its image is decoded in the background."""
        path = str(event["image"])
        self.results[path] = event
        item = QListWidgetItem(Path(path).name)
        item.setData(Qt.ItemDataRole.UserRole, path)
        self.image_list.addItem(item)
        self._label(item)
        CoreOp(self, lambda: QImage(path), what=self.tr("Reading image {name}").format(name=Path(path).name)) \
            .success(lambda image, p=path: self._image_loaded(p, image)).run()

    def add_skipped(self, event: dict[str, Any]) -> None:
        """The worker's ``unreadable-image`` warning: the image is named in the summary with its reason."""
        self.skipped[str(event.get("image") or "")] = str(event.get("reason") or "unreadable")

    def _image_loaded(self, path: str, image: QImage) -> None:
        self._images[path] = image
        current = self.image_list.currentItem()
        if current is None:
            self.image_list.setCurrentRow(0)
        elif current.data(Qt.ItemDataRole.UserRole) == path:
            self._show_current(current)

    def _label(self, item: QListWidgetItem) -> None:
        result = self.results.get(item.data(Qt.ItemDataRole.UserRole)) or {}
        count = sum(1 for b in result.get("boxes") or [] if b[4] >= self.threshold)
        name = Path(result.get("image", "")).name
        item.setText(tr_n("{name} — {n} box", "{name} — {n} boxes", count, name=name))

    def _show_current(self, item: QListWidgetItem | None, *_: Any) -> None:
        if item is None:
            self.view.set_image(None, None)
            return
        path = item.data(Qt.ItemDataRole.UserRole)
        self.view.set_image(self._images.get(path), self.results.get(path))

    def _on_threshold(self, value: int) -> None:
        self.conf_label.setText(f"{value / SCALE:.3f}")
        self.view.set_threshold(value / SCALE)
        for row in range(self.image_list.count()):
            self._label(self.image_list.item(row))
        if self.results and self.pick_button.isEnabled():  # not while a run is busy filling them
            self.status_label.setText(self.summary())

    def highest_score(self) -> float:
        """The best confidence among every box returned (the worker returns boxes down to 0.001)."""
        return max((float(b[4]) for r in self.results.values() for b in r.get("boxes") or []), default=0.0)

    def visible_total(self) -> int:
        return sum(1 for r in self.results.values() for b in r.get("boxes") or [] if b[4] >= self.threshold)

    def summary(self) -> str:
        """What the images show at this threshold; with no box, the highest score found (an undertrained model).
        Images the worker skipped are counted and named with their reason ("1 of 2 images; skipped x.jpg:
        cannot be read")."""
        n = len(self.results)
        if not n and not self.skipped:
            return ""
        head = self._counted(n) + self._skipped_words()
        if not n:
            return self.tr("{images}.").format(images=head)
        if self.visible_total():
            return self.tr("{images}; move the slider to change the confidence threshold.").format(images=head)
        best = self.highest_score()
        if best <= 0:
            return self.tr("{images}: the model found no object at all (not even at 0.001).").format(images=head)
        return self.tr("{images}; no box at confidence ≥ {threshold:.3f}: the highest score found is {best:.3f}. "
                       "Lower the slider to see them; a model this unsure is probably undertrained.").format(
            images=head, threshold=self.threshold, best=best)

    def _counted(self, n: int) -> str:
        """"1 image", "3 images", or with skipped ones "1 of 2 images" (``tr_n``: the form follows the total)."""
        total = n + len(self.skipped)
        if total == n:
            return tr_n("{n} image", "{n} images", n)
        return tr_n("{shown} of {n} image", "{shown} of {n} images", total, shown=n)

    def _skipped_words(self) -> str:
        """"; skipped x.jpg: cannot be read, y.png: no such file" (the first three, then how many more)."""
        if not self.skipped:
            return ""
        reasons = {"missing": self.tr("no such file")}
        named = [self.tr("{name}: {reason}").format(name=Path(path).name,
                                                   reason=reasons.get(why, self.tr("cannot be read")))
                 for path, why in list(self.skipped.items())[:SKIPPED_NAMED]]
        more = len(self.skipped) - len(named)
        text = self.tr("; skipped {images}").format(images=self.tr(", ").join(named))
        return text + (self.tr(" and {n} more").format(n=more) if more else "")

    def box_count(self) -> int:
        return len(self.view.visible_boxes())

