"""The Errors browser: an evaluation's mistakes image by image, the likeliest label mistake first, and fixes.

The list is the stored order (``core.evaluation.ranking``), narrowed by kind, class and confidence
(``core.evaluation.error_browse``). The image is decoded with Pillow off the GUI thread; its boxes are
drawn here with QPainter: labels solid, predictions dashed, each with its class name (and the prediction's
confidence), the row's own boxes thicker. Up/Down or J/K move, Enter opens the image in the system's viewer.
Fixes go through ``core.evaluation.label_edits`` (atomic, with a ``.bak``), written in the background, and
Ctrl+Z undoes the last one; "Edit the boxes…" (E) opens the box editor (``gui.labelling``) on the image with the
row's box selected, to move, resize, draw or delete boxes; "Change its class" offers every class of the dataset, the predicted one first.
The boxes drawn are the label file's as it is now (read with the image), so an edit or an undo shows at once
and a row whose label was deleted offers nothing more to do to it. Every core call is an operation of
``gui/evaluate/operations.py``. Reads and edits reach only the label files of the dataset the evaluation was
planned from (``data``; ``core.evaluation.label_scope``): a stored path elsewhere is refused in words. It says
which predictions it shows (``words.predictions_words``): the run's weights on val/test, or held-out (k-fold)
predictions on the train split; over val/test it offers the held-out ones for the training images
(``review_requested``: the Evaluate window opens its held-out window, which says the time it takes before it
starts).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from PySide6.QtCore import QCoreApplication, QEvent, QPointF, QRectF, Qt, QUrl, Signal
from PySide6.QtGui import QColor, QDesktopServices, QImage, QKeySequence, QPainter, QPen, QPixmap, QShortcut
from PySide6.QtWidgets import (QComboBox, QDoubleSpinBox, QFileDialog, QHBoxLayout, QLabel, QListWidget,
                               QListWidgetItem, QMenu, QPushButton, QSizePolicy, QSplitter, QVBoxLayout, QWidget)

from core.evaluation.error_browse import (ERROR_KINDS, ErrorFilter, RowBoxes, can_accept, can_delete,
                                          class_choices, filtered, images_by_path, row_boxes)
from core.evaluation.words import error_line, kind_word, predictions_words
from gui.evaluate import operations
from gui.labelling.editor_dialog import BoxEditorDialog
from gui.widgets.banner import Banner
from gui.screen_fit import fit_to_screen

if TYPE_CHECKING:
    from core.evaluation.label_edits import LabelEdit
    from core.evaluation.label_scope import DatasetLabels

LARGE = 640  # the longest side the image is decoded at [design: fits the browser at 1280x720, tags stay readable]
LABEL_COLOUR, PREDICTION_COLOUR = QColor(46, 157, 87), QColor(217, 140, 0)
SELECTED_WIDTH, OTHER_ALPHA = 4, 110  # the row's box: px wide on a white halo; the others: this alpha, 2 px


def ask_save_path(parent: QWidget, suggested: str) -> str:
    """The save dialog of "Export this list" ("" when cancelled); tests answer it."""
    path, _filter = QFileDialog.getSaveFileName(
        parent, QCoreApplication.translate("ErrorsBrowser", "Export this list"), suggested,
        QCoreApplication.translate("ErrorsBrowser", "Text files (*.txt)"))
    return path


def decode_image(path: str, size: int = LARGE) -> tuple[bytes, int, int]:
    """RGBA bytes of the image scaled to fit ``size`` (pool thread; no Qt); a grey square when unreadable.

    A small image (a 64-pixel demo image, a crop) is enlarged by a whole factor, pixels kept sharp, so its boxes
    and their tags are drawn at a size a person can read — "the image large"."""
    from PIL import Image

    try:
        with Image.open(path) as im:
            im = im.convert("RGB")
            factor = size // max(im.width, im.height, 1)
            if factor >= 2:
                im = im.resize((im.width * factor, im.height * factor), Image.Resampling.NEAREST)
            else:
                im.thumbnail((size, size))
    except Exception:  # noqa: BLE001 - an unreadable image still shows its boxes on grey
        im = Image.new("RGB", (size, size), (90, 90, 90))
    return im.convert("RGBA").tobytes(), im.width, im.height


class ErrorsBrowser(QWidget):
    review_requested = Signal()  # "Review the training images (held-out)…"

    def __init__(self, result: dict[str, Any], images: list[dict[str, Any]], data: Path,
                 parent: QWidget | None = None, *,
                 decoder: Callable[[str], tuple[bytes, int, int]] = decode_image,
                 offer_review: bool = False) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.result, self.images, self.decoder = result, images_by_path(images), decoder
        self.dataset: DatasetLabels = operations.label_scope(data)  # the label files fixes may touch
        self.names = {int(k): v for k, v in (result.get("names") or {}).items()}
        self.rows: list[dict[str, Any]] = []
        self.undo_stack: list[tuple[LabelEdit, int]] = []  # (the edit, id() of its row)
        self.edited: dict[int, str] = {}  # id(row) -> what was done to it
        self.labels_now: dict[str, list[list[float]]] = {}  # image -> its label file as last read
        self.setWindowTitle(self.tr("Errors of {weights} — YOLO Studio").format(
            weights=Path(str(result.get("weights", ""))).name))
        self.scope = QLabel(self.tr("{predictions} The likeliest label mistake first; labels are solid, "
                                    "predictions dashed.").format(predictions=predictions_words(result)), self,
                            wordWrap=True)
        self.review_button = QPushButton(self.tr("Review the training images (held-out)…"), self)
        self.review_button.clicked.connect(self.review_requested)  # signal to signal: the window answers it
        self.review_button.setVisible(offer_review)
        self.kind = QComboBox(self)
        self.kind.addItem(self.tr("Every kind"), "")
        for kind in ERROR_KINDS:
            self.kind.addItem(kind_word(kind), kind)
        self.name = QComboBox(self)
        self.name.addItem(self.tr("Every class"), "")
        for name in self.names.values():
            self.name.addItem(name, name)
        self.confidence = QDoubleSpinBox(self, minimum=0.0, maximum=1.0, singleStep=0.05, decimals=2)
        self.confidence.setPrefix(self.tr("confidence ≥ "))
        for box in (self.kind, self.name):
            box.currentIndexChanged.connect(self.refilter)
        self.confidence.valueChanged.connect(self.refilter)
        self.list = QListWidget(self)
        self.list.setWordWrap(True)  # a long row wraps instead of being cut (its whole text is its tooltip too)
        self.list.currentRowChanged.connect(self._show_row)
        self.image = QLabel(self, alignment=Qt.AlignmentFlag.AlignCenter)
        self.image.setMinimumSize(400, 300)
        # The picture follows the pane (maximise, a dragged splitter): the label never asks for the pixmap's size.
        self.image.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.image.installEventFilter(self)
        self.drawn: QPixmap | None = None  # the row's picture at its drawn size; shown fitted to the pane
        self.delete_button = QPushButton(self.tr("Delete the label"), self, clicked=self.delete_label)
        self.change_button = QPushButton(self.tr("Change its class"), self)
        self.change_menu = QMenu(self.change_button)
        self.change_button.setMenu(self.change_menu)  # every class of the dataset, the predicted one first
        self.accept_button = QPushButton(self.tr("Accept the prediction as a label"), self,
                                         clicked=self.accept_prediction)
        self.edit_button = QPushButton(self.tr("Edit the boxes…"), self, clicked=self.edit_boxes)
        self.undo_button = QPushButton(self.tr("Undo"), self, clicked=self.undo, enabled=False)
        self.export_button = QPushButton(self.tr("Export this list…"), self, clicked=self.export_list)
        self.banner = Banner(self)
        filters = QHBoxLayout()
        for w in (QLabel(self.tr("Show:"), self), self.kind, self.name, self.confidence):
            filters.addWidget(w)
        filters.addStretch(1)
        filters.addWidget(self.review_button)
        filters.addWidget(self.export_button)
        actions = QHBoxLayout()
        for w in (self.delete_button, self.change_button, self.accept_button, self.edit_button, self.undo_button):
            actions.addWidget(w)
        actions.addStretch(1)
        split = QSplitter(self)
        split.addWidget(self.list)
        split.addWidget(self.image)
        split.setStretchFactor(1, 2)
        split.setSizes([440, 760])  # the list wide enough for its words
        layout = QVBoxLayout(self)
        layout.addWidget(self.scope)
        layout.addLayout(filters)
        layout.addWidget(self.banner)
        layout.addWidget(split, 1)
        layout.addLayout(actions)
        self.list.installEventFilter(self)  # J/K, Enter and Ctrl+Z where the keys go: the list has the focus
        QShortcut(QKeySequence.StandardKey.Undo, self, activated=self.undo)  # elsewhere in the window
        fit_to_screen(self, 1200, 760)
        self.refilter()

    # -- the list -----------------------------------------------------------------------------------
    def rule(self) -> ErrorFilter:
        return ErrorFilter(self.kind.currentData() or "", self.name.currentData() or "", self.confidence.value())

    def refilter(self) -> None:
        self.rows = filtered(self.result.get("errors", []), self.rule())
        self.list.clear()
        for row in self.rows:
            item = QListWidgetItem(self._row_text(row))
            item.setToolTip(item.text())
            self.list.addItem(item)
        if self.rows:
            self.list.setCurrentRow(0)
        else:
            self._show_row(-1)

    def _row_text(self, row: dict[str, Any]) -> str:
        text = error_line({**row, "image": Path(row["image"]).name})
        done = self.edited.get(id(row))
        return self.tr("✓ {text} ({done})").format(text=text, done=done) if done else text

    def eventFilter(self, watched: Any, event: Any) -> bool:  # noqa: N802 - Qt's name
        if watched is self.image and event.type() == QEvent.Type.Resize:
            self._fit_picture()
        if watched is self.list and event.type() == QEvent.Type.KeyPress:
            if event.matches(QKeySequence.StandardKey.Undo):
                self.undo()
                return True
            moves = {Qt.Key.Key_J: 1, Qt.Key.Key_K: -1}
            if event.key() in moves and not event.modifiers():
                self.step(moves[event.key()])
                return True
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.open_image()
                return True
            if event.key() == Qt.Key.Key_E and not event.modifiers():
                self.edit_boxes()
                return True
        return super().eventFilter(watched, event)

    def step(self, by: int) -> None:
        if self.rows:
            self.list.setCurrentRow(max(0, min(len(self.rows) - 1, self.list.currentRow() + by)))

    def current(self) -> tuple[dict[str, Any], RowBoxes] | None:
        index = self.list.currentRow()
        if not 0 <= index < len(self.rows):
            return None
        row = self.rows[index]
        image = self.images.get(str(row["image"]))
        return (row, row_boxes(row, image, self.labels_now.get(str(row["image"])))) if image else None

    # -- the image ----------------------------------------------------------------------------------
    def _show_row(self, index: int) -> None:
        """Read the row's image and its label file as it is now, then draw it and offer what it allows."""
        picked = self.current()
        self._offer(None)
        if picked is None:
            self.drawn = None
            self.image.setText(self.tr("No errors match these filters.") if not self.rows else "")
            return
        row = picked[0]
        path = str(row["image"])
        image = self.images[path]
        self.image.setText(self.tr("Drawing {name}…").format(name=Path(path).name))
        operations.read_image_and_labels(self, self.decoder, path, int(image["width"]), int(image["height"]),
                                         self.dataset) \
            .success(lambda read, row=row: self._read(row, *read)).failure(self._refused).run()

    def _read(self, row: dict[str, Any], decoded: tuple[bytes, int, int], labels_now: list[list[float]]) -> None:
        self.labels_now[str(row["image"])] = labels_now
        picked = self.current()
        if picked is None or picked[0] is not row:
            return  # the user moved on meanwhile
        self._offer(picked)
        self._draw(row, decoded)

    def _offer(self, picked: tuple[dict[str, Any], RowBoxes] | None) -> None:
        """The fixes the row's boxes allow, as the label file holds them (nothing while it is being read)."""
        self.change_menu.clear()
        if picked is None:
            for button in (self.delete_button, self.change_button, self.accept_button):
                button.setEnabled(False)
            return
        row, boxes = picked
        choices = class_choices(row, boxes, self.names)
        self.delete_button.setEnabled(can_delete(boxes))
        self.change_button.setEnabled(bool(choices))
        self.accept_button.setEnabled(can_accept(boxes, self.labels_now.get(str(row["image"]))))
        predicted = row.get("predicted_class")
        for cls in choices:
            name = self.names.get(cls, str(cls))
            text = self.tr("{name} (predicted)").format(name=name) if predicted is not None and cls == int(
                predicted) else name
            self.change_menu.addAction(text, lambda cls=cls: self.change_label_class(cls))

    def _draw(self, row: dict[str, Any], decoded: tuple[bytes, int, int]) -> None:
        picked = self.current()
        if picked is None or picked[0] is not row:
            return  # the user moved on meanwhile
        data, w, h = decoded
        pixmap = QPixmap.fromImage(QImage(data, w, h, 4 * w, QImage.Format.Format_RGBA8888).copy())
        image = self.images[str(row["image"])]
        scale = w / max(1, int(image["width"]))
        painter = QPainter(pixmap)
        for label in self.labels_now.get(str(row["image"]), image.get("labels", [])):
            self._box(painter, label[1:5], scale, LABEL_COLOUR, Qt.PenStyle.SolidLine,
                      self.names.get(int(label[0]), str(label[0])), label is picked[1].label, below=True)
        for pred in image.get("predictions", []):
            if pred[4] < self.result.get("error_conf", 0.0) and pred is not picked[1].prediction:
                continue  # the stored low-confidence predictions would hide the image
            self._box(painter, pred[:4], scale, PREDICTION_COLOUR, Qt.PenStyle.DashLine,
                      f"{self.names.get(int(pred[5]), str(pred[5]))} {pred[4]:.2f}", pred is picked[1].prediction)
        painter.end()
        self.drawn = pixmap
        self._fit_picture()

    def _fit_picture(self) -> None:
        """The drawn picture, whole, in the pane as it is now: shrunk to fit, never enlarged past its drawn size
        (issue 32: after maximising it stayed at the small window's size)."""
        if self.drawn is None:
            return
        room = self.image.contentsRect().size()
        pixmap = self.drawn
        if pixmap.width() > room.width() or pixmap.height() > room.height():
            pixmap = pixmap.scaled(room, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation)
        self.image.setPixmap(pixmap)

    @staticmethod
    def _box(painter: QPainter, box: list[float], scale: float, colour: QColor, style: Qt.PenStyle, text: str,
             this_row: bool, below: bool = False) -> None:
        """One box and its tag: a label's tag just inside its top edge, a prediction's above it, so the two
        tags of a box and the prediction on it both stay readable. The row's own box stands out (issue 32: it
        barely did): thick, on a white halo, in full colour; the image's other boxes thin and faded."""
        rect = QRectF(QPointF(box[0] * scale, box[1] * scale), QPointF(box[2] * scale, box[3] * scale))
        if this_row:
            painter.setPen(QPen(QColor("white"), SELECTED_WIDTH + 4, Qt.PenStyle.SolidLine))
            painter.drawRect(rect)
        else:
            colour = QColor(colour)
            colour.setAlpha(OTHER_ALPHA)
        painter.setPen(QPen(colour, SELECTED_WIDTH if this_row else 2, style))
        painter.drawRect(rect)
        metrics = painter.fontMetrics()
        top = rect.top() if below else max(0.0, rect.top() - metrics.height())
        tag = QRectF(rect.left(), top, metrics.horizontalAdvance(text) + 6, metrics.height())
        painter.fillRect(tag, colour)
        painter.setPen(QColor("white"))
        painter.drawText(tag.adjusted(3, 0, 0, 0), Qt.AlignmentFlag.AlignVCenter, text)

    def open_image(self) -> None:
        picked = self.current()
        if picked is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(picked[0]["image"])))

    # -- fixes --------------------------------------------------------------------------------------
    def delete_label(self) -> None:
        self._edit("delete")

    def change_label_class(self, new_class: int) -> None:
        self._edit("change_class", new_class=new_class)

    def accept_prediction(self) -> None:
        self._edit("accept")

    def edit_boxes(self) -> BoxEditorDialog | None:
        """The box editor on the row's image, the box the row points at selected; what it writes joins the undo
        list like any fix here."""
        picked = self.current()
        if picked is None:
            return None
        row, boxes = picked
        path = str(row["image"])
        image = self.images[path]
        names = [self.names.get(i, str(i)) for i in range(max(self.names, default=-1) + 1)]
        point_at = (int(boxes.label[0]), tuple(boxes.label[1:5])) if boxes.label else None
        dialog = BoxEditorDialog(self, path, lambda: self.dataset.label_for(path), int(image["width"]),
                                 int(image["height"]), names, point_at)
        dialog.written.connect(lambda edit, row=row: self._edited(row, edit))
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def _edit(self, kind: str, **options: int) -> None:
        """The ``kind`` fix of the current row (``operations.LABEL_EDITS``), built and written off the GUI thread."""
        picked = self.current()
        if picked is None:
            return
        row, boxes = picked
        self._offer(None)  # one edit at a time: offered again once the file is read back
        operations.apply_label_edit(self, kind, row, boxes, self.dataset, names=self.names, **options) \
            .success(lambda edit: self._edited(row, edit)).failure(self._refused_and_reread).run()

    def _edited(self, row: dict[str, Any], edit: LabelEdit) -> None:
        self.undo_stack.append((edit, id(row)))
        self.edited[id(row)] = edit.description
        self.undo_button.setEnabled(True)
        self.banner.show_message("ok", self.tr("{path}: {what} (a .bak beside it; Ctrl+Z undoes it).").format(
            path=edit.path, what=edit.description))
        if row in self.rows:
            item = self.list.item(self.rows.index(row))
            item.setText(self._row_text(row))
            item.setToolTip(item.text())
        self._reread()

    def undo(self) -> None:
        if not self.undo_stack:
            return
        edit, row_id = self.undo_stack.pop()
        self.undo_button.setEnabled(bool(self.undo_stack))
        operations.undo_label_edit(self, edit).success(lambda _none: self._undone(edit, row_id)) \
            .failure(self._refused_and_reread).run()

    def _undone(self, edit: LabelEdit, row_id: int) -> None:
        self.edited.pop(row_id, None)
        for i, row in enumerate(self.rows):
            self.list.item(i).setText(self._row_text(row))
        self.banner.show_message("info", self.tr("Undone: {what} in {path}.").format(what=edit.description,
                                                                                     path=edit.path))
        self._reread()

    def _reread(self) -> None:
        """After an edit or an undo: forget every label file read, and draw the current row from its file."""
        self.labels_now.clear()
        self._show_row(self.list.currentRow())

    def _refused(self, exc: BaseException) -> None:
        self.banner.show_message("error", str(exc) or type(exc).__name__)

    def _refused_and_reread(self, exc: BaseException) -> None:
        self._refused(exc)
        self._reread()

    def export_list(self) -> None:
        path = ask_save_path(self, str(Path(str(self.result.get("store", ""))).parent / "errors.txt"))
        if not path:
            return
        operations.export_image_list(self, list(self.rows), Path(path)).success(
            lambda n: self.banner.show_message("ok", self.tr(
                "{n} images written to {path}, the likeliest label mistake first.").format(n=n, path=path))) \
            .failure(self._refused).run()
