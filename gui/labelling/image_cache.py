"""Images for the box editor, decoded off the GUI thread and kept for the next key press.

A 4000×3000 JPEG takes longer than a frame to decode, so the editor never decodes on the GUI thread: it asks
for the image (``request``), shows the boxes at once over a grey field, and puts the picture in when the pool
thread hands it back. ``prefetch`` decodes the neighbours before the person moves to them, so "next image" finds
its picture ready. Qt's reader turns the picture by its EXIF orientation (``setAutoTransform``), which is how
yolov5 reads it (``cv2.imread``; see ``core.boxedit.session``), and decodes it scaled (a JPEG is scaled in its
DCT, much cheaper than a full decode) to at most ``LONGEST`` pixels a side.
"""

from __future__ import annotations

from collections import OrderedDict

from PySide6.QtCore import QObject, QRunnable, QSize, QThreadPool, Signal
from PySide6.QtGui import QImage, QImageIOHandler, QImageReader

LONGEST = 2048  # px a side kept for display [design: sharp at 1:1 on a 1280×720 view zoomed 2× over half a photo]
KEEP = 12  # images kept decoded (~16 MB each at most)


def oriented_size(path: str) -> tuple[int, int]:
    """Width and height as yolov5 sees the image (EXIF rotation of 90° swaps them); (0, 0) when unreadable.
    Reads the header only."""
    reader = QImageReader(path)
    reader.setAutoTransform(True)
    size = reader.size()
    if not size.isValid():
        return 0, 0
    if reader.transformation() & QImageIOHandler.Transformation.TransformationRotate90:
        return size.height(), size.width()
    return size.width(), size.height()


def decode(path: str, longest: int = LONGEST) -> QImage:
    """The oriented image scaled to fit ``longest`` (a null QImage when unreadable)."""
    reader = QImageReader(path)
    reader.setAutoTransform(True)
    size = reader.size()
    if size.isValid() and max(size.width(), size.height()) > longest:
        scale = longest / max(size.width(), size.height())
        reader.setScaledSize(QSize(max(1, round(size.width() * scale)), max(1, round(size.height() * scale))))
    return reader.read()


class _Signals(QObject):
    done = Signal(str, QImage)


class _Decode(QRunnable):
    def __init__(self, path: str, signals: _Signals) -> None:
        super().__init__()
        self.path, self.signals = path, signals

    def run(self) -> None:
        self.signals.done.emit(self.path, decode(self.path))


class ImageCache(QObject):
    """Decoded images by path; ``ready(path, image)`` when one arrives from the pool."""

    ready = Signal(str, QImage)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._images: OrderedDict[str, QImage] = OrderedDict()
        self._pending: set[str] = set()
        # No parent for the relay: a decode still running when the editor closes keeps it alive through its own
        # reference (a child would be deleted before the pool waits for that decode, which then emits on nothing).
        self._signals = _Signals()
        self._signals.done.connect(self._arrived)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(2)

    def get(self, path: str) -> QImage | None:
        image = self._images.get(path)
        if image is not None:
            self._images.move_to_end(path)
        return image

    def request(self, path: str) -> None:
        if path in self._images or path in self._pending:
            return
        self._pending.add(path)
        self._pool.start(_Decode(path, self._signals))

    def prefetch(self, paths: list[str]) -> None:
        for path in paths:
            self.request(path)

    def wait(self, msecs: int = 30000) -> None:
        """Tests and the bench: let the pool finish (the queued ``ready`` still needs the event loop)."""
        self._pool.waitForDone(msecs)

    def _arrived(self, path: str, image: QImage) -> None:
        self._pending.discard(path)
        self._images[path] = image
        while len(self._images) > KEEP:
            self._images.popitem(last=False)
        self.ready.emit(path, image)
