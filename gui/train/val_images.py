"""The latest validation images with predictions (yolov5's ``val_batch*_pred.jpg``), once per epoch.

A picture says whether the boxes are getting better faster than any number. The page asks for a
look (``request(run_dir)``) at each epoch end and when a run ends or is replayed; finding the
newest file and decoding it (``QImageReader``, scaled while decoding) runs in the background, never
on the GUI thread. One look at a time: a request that arrives meanwhile is done right after.
Which epoch a picture is from is read the same way live and in a replay: the last epoch the run's events say
had ended when the file was written (``gui.train.operations.picture_epoch``, called on the look's background thread) — live used the epoch being reported at the time of the
look and a replay none, so the two disagreed (issue 32; yolov5 draws the pictures in its final validation).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QDateTime, QLocale, QSize, Qt
from PySide6.QtGui import QImage, QImageReader, QPixmap, QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from gui.background import BackgroundTask, run_in_background
from gui.train.operations import picture_epoch

PATTERN = "val_batch*_pred.jpg"
MAX_SIZE = QSize(480, 320)


@dataclass
class ValImage:
    path: Path
    mtime: float
    image: QImage
    size: QSize  # the file's own pixels
    epoch: int | None = None  # 0-based: the last epoch that had ended when it was written



def newest_val_image(run_dir: Path) -> Path | None:
    """The most recently written prediction picture in a run folder, None when there is none yet."""
    try:
        found = [(p.stat().st_mtime, p.name, p) for p in Path(run_dir).glob(PATTERN)]
    except OSError:
        return None
    return max(found)[2] if found else None


def load_val_image(run_dir: Path, max_size: QSize = MAX_SIZE) -> ValImage | None:
    """Background job: find and decode the newest picture, scaled to fit ``max_size``."""
    path = newest_val_image(run_dir)
    if path is None:
        return None
    reader = QImageReader(str(path))
    original = reader.size()
    if original.isValid():
        reader.setScaledSize(original.scaled(max_size, Qt.AspectRatioMode.KeepAspectRatio))
    image = reader.read()
    if image.isNull():
        raise OSError(reader.errorString())
    mtime = path.stat().st_mtime
    return ValImage(path, mtime, image, original, picture_epoch(run_dir, mtime))


class ValImages(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.current: ValImage | None = None
        self._task: BackgroundTask | None = None
        self._pending: Path | None = None
        self.image_label = QLabel(self, alignment=Qt.AlignmentFlag.AlignCenter)
        self.image_label.setMinimumSize(160, 110)
        self.image_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.caption = QLabel(self, wordWrap=True, alignment=Qt.AlignmentFlag.AlignCenter)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.image_label, 1)
        layout.addWidget(self.caption)
        self.clear()

    def clear(self) -> None:
        self.current, self._pending = None, None
        self.image_label.clear()
        self.image_label.setText(self.tr("Validation pictures appear here once yolov5 draws them."))
        self.image_label.setWordWrap(True)
        self.caption.setText("")

    def request(self, run_dir: Path) -> None:
        """Look for a newer picture in ``run_dir`` (cheap to call: at most one look runs at a time)."""
        if self._task is not None:
            self._pending = run_dir
            return
        self._task = run_in_background(self, lambda progress, cancelled: load_val_image(run_dir),
                                       on_done=self._on_loaded, on_failed=self._on_failed)

    @property
    def busy(self) -> bool:
        return self._task is not None

    def _on_loaded(self, found: ValImage | None) -> None:
        self._task = None
        if found is not None and (self.current is None or (found.path, found.mtime) != (self.current.path,
                                                                                       self.current.mtime)):
            self.current = found
            self._show(found)
        self._next()

    def _on_failed(self, exc: BaseException) -> None:
        self._task = None
        self.caption.setText(self.tr("Could not read the validation picture: {reason}").format(reason=exc))
        self._next()

    def _next(self) -> None:
        if self._pending is not None:
            run_dir, self._pending = self._pending, None
            self.request(run_dir)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.current is not None:
            self._fit()

    def _fit(self) -> None:
        """The decoded picture (at most 480×320) scaled to the space there is: cheap, no file access."""
        assert self.current is not None
        size = self.image_label.size()
        image = self.current.image
        if image.width() > size.width() or image.height() > size.height():
            image = image.scaled(size, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation)
        self.image_label.setPixmap(QPixmap.fromImage(image))

    def _show(self, found: ValImage) -> None:
        self._fit()
        written = QLocale().toString(QDateTime.fromSecsSinceEpoch(int(found.mtime)).time(),
                                     QLocale.FormatType.ShortFormat)
        if found.epoch is not None:
            text = self.tr("{file}: predictions on validation images, after epoch {epoch} (written {time})")
        else:
            text = self.tr("{file}: predictions on validation images (written {time})")
        self.caption.setText(text.format(file=found.path.name, epoch=(found.epoch or 0) + 1, time=written))
        self.image_label.setToolTip(str(found.path))
