"""A paged gallery of the dataset's images with their boxes and class names drawn, filterable to problems.

Thumbnails are decoded and drawn with Pillow on a background thread, one page at a time and only when
the page is shown (``QImage`` is built from the bytes on the GUI thread, which is cheap); turning the
page cancels the previous page's job, so scrolling through 20,000 images never queues 20,000 decodes.
"Edit the boxes…" (E) opens the box editor (``gui.labelling``) on the selected image.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QIcon, QImage, QPixmap
from PySide6.QtWidgets import (QCheckBox, QHBoxLayout, QLabel, QListView, QListWidget, QListWidgetItem, QPushButton,
                               QVBoxLayout, QWidget)

from core.dataset.validate import ImageRecord
from gui.background import BackgroundTask
from gui.dataset import operations
from gui.labelling.editor_dialog import BoxEditorDialog

PAGE = 48
THUMB = 150
LARGE = 900  # the double-click view's longest side
PALETTE = [(47, 127, 209), (217, 140, 0), (46, 157, 87), (214, 69, 65), (138, 99, 210), (0, 150, 160)]


def render_thumbnail(record: ImageRecord, names: list[str], size: int = THUMB,
                     enlarge: bool = True) -> tuple[bytes, int, int]:
    """RGBA bytes of a thumbnail with boxes and class names drawn (runs on a pool thread; no Qt). ``enlarge``
    scales a smaller image up to ``size``, pixels kept sharp: every tile (and the broken-image one) has the
    same size, and the large view is large."""
    from PIL import Image, ImageDraw

    try:
        with Image.open(record.path) as im:
            im.draft("RGB", (size * 2, size * 2))  # JPEG: decode at a reduced scale, much faster
            im = im.convert("RGB")
            im.thumbnail((size, size))
            if enlarge and max(im.size) < size:
                factor = size / max(im.size)
                im = im.resize((round(im.width * factor), round(im.height * factor)), Image.Resampling.NEAREST)
    except Exception:  # noqa: BLE001 - a broken image gets a grey tile with an X
        im = Image.new("RGB", (size, size), (90, 90, 90))
        draw = ImageDraw.Draw(im)
        draw.line((0, 0, size, size), fill=(214, 69, 65), width=3)
        draw.line((0, size, size, 0), fill=(214, 69, 65), width=3)
        return im.convert("RGBA").tobytes(), size, size
    draw = ImageDraw.Draw(im)
    w, h = im.size
    for cls, x, y, bw, bh in record.boxes:
        colour = PALETTE[cls % len(PALETTE)]
        box = ((x - bw / 2) * w, (y - bh / 2) * h, (x + bw / 2) * w, (y + bh / 2) * h)
        draw.rectangle(box, outline=colour, width=2)
        label = names[cls] if 0 <= cls < len(names) else str(cls)
        left, top, right, bottom = draw.textbbox((box[0], box[1]), label)
        draw.rectangle((left, top, right + 3, bottom + 2), fill=colour)  # a solid tag stays readable on any image
        draw.text((box[0] + 1, box[1] + 1), label, fill=(255, 255, 255))
    return im.convert("RGBA").tobytes(), w, h


class DatasetGallery(QWidget):
    def __init__(self, parent: QWidget | None = None, *, renderer: Callable[..., Any] = render_thumbnail) -> None:
        super().__init__(parent)
        self._renderer = renderer
        self.records: list[ImageRecord] = []
        self.flagged: dict[str, list[str]] = {}
        self.names: list[str] = []
        self.page = 0
        self.thumbnails_loaded = 0
        self._generation = 0
        self._task: BackgroundTask | None = None
        self.only_problems = QCheckBox(self.tr("Only images with problems"), self)
        self.only_problems.toggled.connect(lambda _: self.show_page(0))
        self.prev_button = QPushButton(self.tr("Previous"), self, clicked=lambda: self.show_page(self.page - 1))
        self.next_button = QPushButton(self.tr("Next"), self, clicked=lambda: self.show_page(self.page + 1))
        self.page_label = QLabel(self)
        self.list = QListWidget(self)
        self.list.setViewMode(QListView.ViewMode.IconMode)
        self.list.setIconSize(QSize(THUMB, THUMB))
        self.list.setGridSize(QSize(THUMB + 16, THUMB + 36))
        self.list.setResizeMode(QListView.ResizeMode.Adjust)
        self.list.setMovement(QListView.Movement.Static)
        self.list.setUniformItemSizes(True)
        self.list.setWordWrap(True)
        self.list.itemDoubleClicked.connect(self._open_large)
        self.edit_button = QPushButton(self.tr("Edit the boxes…"), self, clicked=self.edit_boxes)
        self.list.installEventFilter(self)  # E on the tiles: the box editor
        self.empty = QLabel(self.tr("Images appear here after a check."), self)
        bar = QHBoxLayout()
        bar.addWidget(self.only_problems)
        bar.addStretch(1)
        bar.addWidget(self.edit_button)
        bar.addWidget(self.prev_button)
        bar.addWidget(self.page_label)
        bar.addWidget(self.next_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.empty)
        layout.addWidget(self.list, 1)
        self.page_label.setText("")

    def set_records(self, records: list[ImageRecord], names: list[str],
                    flagged: dict[str, list[str]] | None = None) -> None:
        """``flagged``: image path -> codes of findings about it that are not the image's own (duplicates,
        train/val leaks, a missing label): "Only images with problems" shows those too."""
        self.records, self.names, self.flagged = records, names, flagged or {}
        if self.isVisible():
            self.show_page(0)
        else:
            self.page = -1  # shown lazily, the first time the gallery is visible

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        if self.page < 0:
            self.show_page(0)

    def visible_records(self) -> list[ImageRecord]:
        if self.only_problems.isChecked():
            return [r for r in self.records if r.problems or r.path in self.flagged]
        return self.records

    def show_page(self, page: int) -> None:
        shown = self.visible_records()
        pages = max(1, (len(shown) + PAGE - 1) // PAGE)
        self.page = max(0, min(page, pages - 1))
        if self._task is not None:
            self._task.cancel()
        self.list.clear()
        chunk = shown[self.page * PAGE:(self.page + 1) * PAGE]
        self.empty.setVisible(not chunk)
        if not chunk:
            self.empty.setText(self.tr("No images with problems.") if self.only_problems.isChecked()
                               else self.tr("Images appear here after a check."))
        self.page_label.setText(self.tr("Page {page} of {pages} · {n} images").format(
            page=self.page + 1, pages=pages, n=len(shown)))
        self.prev_button.setEnabled(self.page > 0)
        self.next_button.setEnabled(self.page < pages - 1)
        placeholder = QPixmap(THUMB, THUMB)
        placeholder.fill(Qt.GlobalColor.lightGray)
        for record in chunk:
            text = record.path.rsplit("/", 1)[-1]
            problems = [*record.problems, *self.flagged.get(record.path, [])]
            if problems:
                text = self.tr("⚠ {name}").format(name=text)
            item = QListWidgetItem(QIcon(placeholder), text)
            item.setToolTip("\n".join([record.path] + problems))
            self.list.addItem(item)
        names, renderer = list(self.names), self._renderer

        def job(progress: Callable[[int, int], None], cancelled: Callable[[], bool]) -> list[tuple[int, Any]]:
            out = []
            for index, record in enumerate(chunk):
                if cancelled():
                    break
                out.append((index, renderer(record, names)))
            return out

        self._generation += 1
        self.thumbnails_loaded = 0
        generation = self._generation
        self._task = operations.draw_pictures(self, job, self.tr("Drawing thumbnails")).progress(lambda *_: None) \
            .success(lambda result: self._thumbs(generation, result)).run()

    def _open_large(self, item: Any) -> None:
        """Double-click: the image large, with its boxes and class names (drawn off the GUI thread)."""
        chunk = self.visible_records()[self.page * PAGE:(self.page + 1) * PAGE]
        row = self.list.row(item)
        if not 0 <= row < len(chunk):
            return
        record, names, renderer = chunk[row], list(self.names), self._renderer
        self.large_view = view = QLabel(self, Qt.WindowType.Window)
        view.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        view.setWindowTitle(record.path)
        view.setAlignment(Qt.AlignmentFlag.AlignCenter)
        view.setText(self.tr("Drawing {name}…").format(name=record.path.rsplit("/", 1)[-1]))
        view.resize(LARGE + 20, LARGE + 20)
        view.show()

        def shown(result: tuple[bytes, int, int]) -> None:
            data, w, h = result
            try:
                view.setPixmap(QPixmap.fromImage(QImage(data, w, h, 4 * w, QImage.Format.Format_RGBA8888).copy()))
            except RuntimeError:
                pass  # closed before the drawing was done

        operations.draw_pictures(self, lambda progress, cancelled: renderer(record, names, LARGE, True),
                                 self.tr("Drawing {name}").format(name=record.path)) \
            .progress(lambda *_: None).success(shown).run()

    def eventFilter(self, watched: Any, event: Any) -> bool:  # noqa: N802 - Qt's name
        if watched is self.list and event.type() == QEvent.Type.KeyPress and event.key() == Qt.Key.Key_E \
                and not event.modifiers():
            self.edit_boxes()
            return True
        return super().eventFilter(watched, event)

    def edit_boxes(self) -> BoxEditorDialog | None:
        """The box editor on the selected image (E); the next check reads what it writes (the check's cache
        keys on the label's size and mtime, which every write moves)."""
        chunk = self.visible_records()[self.page * PAGE:(self.page + 1) * PAGE]
        row = self.list.currentRow()
        if not 0 <= row < len(chunk):
            return None
        record = chunk[row]
        dialog = BoxEditorDialog(self, record.path, Path(record.label), record.width, record.height, list(self.names))
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def _thumbs(self, generation: int, result: list[tuple[int, tuple[bytes, int, int]]]) -> None:
        if generation != self._generation:
            return  # a later page or filter replaced this one
        for index, (data, w, h) in result:
            item = self.list.item(index)
            if item is None:
                continue
            image = QImage(data, w, h, 4 * w, QImage.Format.Format_RGBA8888).copy()
            item.setIcon(QIcon(QPixmap.fromImage(image)))
        self.thumbnails_loaded = len(result)
