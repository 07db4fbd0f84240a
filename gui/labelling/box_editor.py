"""The box editor: one image's boxes drawn, moved, resized, deleted and re-classed, by mouse or keyboard.

The Errors browser, the Dataset gallery and the review queue show this one widget. It is thin: the rows, the
undo stack and the pixel ↔ yolov5 conversion are ``core.boxedit.session.EditSession``; this view draws them
and turns input into session calls, one undo step per drag or key. The scene's units are the oriented image's
pixels (where yolov5 reads the boxes), whatever size the picture was decoded at (``image_cache``).

Keys (LabelImg's where it has one): D / → / PageDown next image, A / ← / PageUp previous, 1–9 class of the
selected box (and of the next one drawn), Delete / Backspace delete, Ctrl+Z undo, Ctrl+Y / Ctrl+Shift+Z
redo, Enter accept (proposals confirmed, the file written, ``accepted``), R reject the proposals left,
Tab / Shift+Tab select the next / previous box, Space confirm the selected proposal, W draw even over boxes, N a new box mid-view, Shift+arrows
move the selected box, Alt+arrows resize it, + / - / 0 zoom in, out, to fit, Escape deselect.
Mouse: drag on the picture draws, drag a box moves it, drag its corner or edge resizes, wheel zooms at the
cursor, middle-drag pans. Nothing is written until the host calls ``save`` (or Enter); writing is an operation (``operations``).
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QImage, QKeyEvent, QMouseEvent, QPen, QPixmap, QWheelEvent
from PySide6.QtWidgets import (QGraphicsPixmapItem, QGraphicsRectItem, QGraphicsScene, QGraphicsSimpleTextItem,
                               QGraphicsView, QWidget)

from typing import TYPE_CHECKING

from gui.labelling import operations
from gui.labelling.image_cache import ImageCache

if TYPE_CHECKING:
    from core.boxedit.session import EditSession

HANDLE_PX = 7  # screen pixels around a selected box's edge that grab it for resizing
PALETTE = [QColor(h) for h in ("#2e9d57", "#d98c00", "#2f6fde", "#c2410c", "#7c3aed", "#0e7490", "#be185d",
                               "#4d7c0f", "#b45309", "#475569")]
PREFETCH_AFTER_MS = 60  # a person looks longer than this before the next key
PROPOSAL_STYLE = Qt.PenStyle.DashLine  # a model's proposal until a person confirms it


class BoxEditor(QGraphicsView):
    """Edits one ``EditSession`` at a time (``show_image``); says what the person asked of the host."""

    next_requested = Signal()
    previous_requested = Signal()
    accepted = Signal()
    changed = Signal()
    saved = Signal(object)  # the LabelEdit written (None: nothing was to write); the host keeps it for undo
    failed = Signal(str)  # a write refused (the words say why)

    def __init__(self, parent: QWidget | None = None, cache: ImageCache | None = None) -> None:
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setBackgroundBrush(QColor(40, 40, 40))
        self.cache = cache or ImageCache(self)
        self.cache.ready.connect(self._image_arrived)
        self.session: EditSession | None = None
        self.names: list[str] = []
        self.path = ""
        self.selected = -1
        self.draw_class = 0
        self.force_draw = False
        self._pixmap = QGraphicsPixmapItem()
        self._field = QGraphicsRectItem()
        self._items: list[QGraphicsRectItem] = []
        self._drag: tuple[str, QPointF, tuple[float, float, float, float]] | None = None
        self._rubber: QGraphicsRectItem | None = None
        self._pan: QPointF | None = None
        self._fitted = True

    # --- what the host calls ---------------------------------------------------------------------------------
    def show_image(self, image_path: str, session: EditSession, names: list[str] | None = None,
                   select: int = -1) -> None:
        """Show ``session``'s boxes over the image at once; the picture follows when decoded (cached: at once)."""
        self.path, self.session, self.names = image_path, session, list(names or self.names)
        self.selected = select if 0 <= select < len(session.boxes) else -1
        scene = self.scene()
        scene.clear()
        self._items = []
        w, h = session.width, session.height
        self._field = scene.addRect(QRectF(0, 0, w, h), QPen(Qt.PenStyle.NoPen), QBrush(QColor(90, 90, 90)))
        self._pixmap = QGraphicsPixmapItem()
        self._pixmap.setTransformationMode(Qt.TransformationMode.SmoothTransformation)
        scene.addItem(self._pixmap)
        scene.setSceneRect(QRectF(0, 0, w, h))
        image = self.cache.get(image_path)
        if image is None:
            self.cache.request(image_path)
        else:
            self._set_picture(image)
        self._redraw()
        self._fitted = True
        self.fit()

    def clear(self) -> None:
        """Nothing shown (a queue image that cannot be edited: not predicted, unreadable, already added)."""
        self.session, self.path, self.selected = None, "", -1
        self.scene().clear()
        self._items = []
        self._pixmap = QGraphicsPixmapItem()

    def set_names(self, names: list[str]) -> None:
        """The dataset's class names for the tags (they may arrive after the image)."""
        self.names = list(names)
        self._redraw()

    def prefetch(self, paths: list[str]) -> None:
        """Decode ``paths`` (the neighbours) soon: after this image is painted, so the decode does not compete
        with it for a core (bench/box_editor.py: p95 90 ms with the decode started at the key press, 34 after)."""
        QTimer.singleShot(PREFETCH_AFTER_MS, self, lambda: self.cache.prefetch(paths))

    def has_picture(self) -> bool:
        return not self._pixmap.pixmap().isNull()

    def save(self, then=None) -> None:  # noqa: ANN001 - a callback
        """Write the boxes when changed (atomic, ``.bak``, off the GUI thread): ``saved`` with the edit, then
        ``then()``; a refusal is said through ``failed``."""
        if self.session is None:
            return

        def done(edit: object) -> None:
            self.saved.emit(edit)
            if then is not None:
                then()

        operations.save_session(self, self.session).success(done) \
            .failure(lambda exc: self.failed.emit(str(exc) or type(exc).__name__)).run()

    def fit(self) -> None:
        if self.session is not None:
            self.fitInView(QRectF(0, 0, self.session.width, self.session.height), Qt.AspectRatioMode.KeepAspectRatio)

    def zoom(self, factor: float) -> None:
        self._fitted = False
        self.scale(factor, factor)

    # --- drawing --------------------------------------------------------------------------------------------
    def _set_picture(self, image: QImage) -> None:
        if image.isNull() or self.session is None:
            return
        self._pixmap.setPixmap(QPixmap.fromImage(image))
        self._pixmap.setScale(self.session.width / max(1, image.width()))

    def _image_arrived(self, path: str, image: QImage) -> None:
        if path == self.path:
            self._set_picture(image)

    def _class_name(self, cls: int) -> str:
        return self.names[cls] if 0 <= cls < len(self.names) else str(cls)

    def _redraw(self) -> None:
        """All box items again from the session (200 boxes: a few ms)."""
        scene = self.scene()
        for item in self._items:
            scene.removeItem(item)
        self._items = []
        if self.session is None:
            return
        for i, box in enumerate(self.session.boxes):
            x1, y1, x2, y2 = box.pixels(self.session.width, self.session.height)
            colour = PALETTE[box.cls % len(PALETTE)]
            pen = QPen(colour, 3 if i == self.selected else 1.5)
            pen.setCosmetic(True)
            if box.origin == "model":
                pen.setStyle(PROPOSAL_STYLE)
            item = scene.addRect(QRectF(x1, y1, x2 - x1, y2 - y1), pen,
                                 QBrush(QColor(colour.red(), colour.green(), colour.blue(), 50))
                                 if i == self.selected else QBrush(Qt.BrushStyle.NoBrush))
            # the tag: white words on the class's colour, at screen size whatever the zoom (as the Errors browser's)
            back = QGraphicsRectItem(item)
            back.setFlag(QGraphicsRectItem.GraphicsItemFlag.ItemIgnoresTransformations)
            back.setPen(QPen(Qt.PenStyle.NoPen))
            back.setBrush(colour)
            back.setPos(x1, y1)
            tag = QGraphicsSimpleTextItem(self._class_name(box.cls) + (f" {box.conf:.2f}" if box.conf else ""), back)
            tag.setBrush(QColor("white"))
            tag.setPos(3, 0)
            back.setRect(tag.boundingRect().adjusted(0, 0, 6, 0))
            self._items.append(item)

    def _edited(self) -> None:
        if self.session is not None and self.selected >= len(self.session.boxes):
            self.selected = len(self.session.boxes) - 1
        self._redraw()
        self.changed.emit()

    def resizeEvent(self, event) -> None:  # noqa: N802, ANN001 - Qt's name
        super().resizeEvent(event)
        if self._fitted:
            self.fit()

    # --- the keyboard ---------------------------------------------------------------------------------------
    def focusNextPrevChild(self, next: bool) -> bool:  # noqa: N802, A002 - Qt's names
        """Tab / Shift+Tab select boxes while an image is shown (Qt would move the focus to the next widget of
        the host: in a page the keys never reached the editor)."""
        if self.session is not None and self.session.boxes:
            return False
        return super().focusNextPrevChild(next)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        if not self._key(event):
            super().keyPressEvent(event)

    def _key(self, event: QKeyEvent) -> bool:  # noqa: C901 - one table of keys, read top to bottom
        key, mods = event.key(), event.modifiers()
        ctrl = bool(mods & Qt.KeyboardModifier.ControlModifier)
        shift = bool(mods & Qt.KeyboardModifier.ShiftModifier)
        alt = bool(mods & Qt.KeyboardModifier.AltModifier)
        K = Qt.Key
        s = self.session
        if s is None:
            return False
        if ctrl and key == K.Key_Z:
            (s.redo() if shift else s.undo()) and self._edited()
        elif ctrl and key == K.Key_Y:
            s.redo() and self._edited()
        elif ctrl:
            return False
        elif self.selected >= 0 and (shift or alt) and key in (K.Key_Left, K.Key_Right, K.Key_Up, K.Key_Down):
            self._nudge(key, resize=alt)
        elif key in (K.Key_D, K.Key_Right, K.Key_PageDown):
            self.next_requested.emit()
        elif key in (K.Key_A, K.Key_Left, K.Key_PageUp):
            self.previous_requested.emit()
        elif K.Key_1 <= key <= K.Key_9:
            self.draw_class = key - K.Key_1
            if self.selected >= 0:
                self._act(lambda: s.set_class(self.selected, self.draw_class))
        elif key in (K.Key_Delete, K.Key_Backspace) and self.selected >= 0:
            self._act(lambda: s.delete(self.selected))
        elif key in (K.Key_Tab, K.Key_Backtab) and s.boxes:
            step = -1 if key == K.Key_Backtab or shift else 1
            start = self.selected if self.selected >= 0 else (0 if step < 0 else -1)  # Shift+Tab: the last box
            self.selected = (start + step) % len(s.boxes)
            self._redraw()
        elif key == K.Key_Space and self.selected >= 0:
            self._act(lambda: s.confirm(self.selected))
        elif key in (K.Key_Return, K.Key_Enter):
            self.accept()
        elif key == K.Key_R:
            self._act(s.reject_proposals)
        elif key == K.Key_W:
            self.force_draw = not self.force_draw
        elif key == K.Key_N:
            self._new_box_mid_view()
        elif key in (K.Key_Plus, K.Key_Equal):
            self.zoom(1.25)
        elif key == K.Key_Minus:
            self.zoom(0.8)
        elif key == K.Key_0:
            self._fitted = True
            self.fit()
        elif key == K.Key_Escape:
            self.selected, self.force_draw = -1, False
            self._redraw()
        else:
            return False
        return True

    def accept(self) -> None:
        """Enter: every proposal confirmed as it is, the file written, ``accepted`` for the host."""
        s = self.session
        if s is None:
            return
        for i, box in enumerate(s.boxes):
            if box.origin == "model":
                self._act(lambda i=i: s.confirm(i))
        self.save(self.accepted.emit)

    def _act(self, edit) -> None:  # noqa: ANN001 - a session call
        try:
            edit()
        except ValueError as exc:  # a polygon file: shown, never rewritten
            self.failed.emit(str(exc))
            return
        self._edited()

    def _nudge(self, key: int, resize: bool) -> None:
        s = self.session
        x1, y1, x2, y2 = s.pixels(self.selected)
        step = max(1.0, s.width / 200)
        dx = {Qt.Key.Key_Left: -step, Qt.Key.Key_Right: step}.get(key, 0.0)
        dy = {Qt.Key.Key_Up: -step, Qt.Key.Key_Down: step}.get(key, 0.0)
        rect = (x1, y1, x2 + dx, y2 + dy) if resize else (x1 + dx, y1 + dy, x2 + dx, y2 + dy)
        self._act(lambda: s.set_rect(self.selected, rect))

    def _new_box_mid_view(self) -> None:
        s = self.session
        centre = self.mapToScene(self.viewport().rect().center())
        half = min(s.width, s.height) / 10
        self._act(lambda: s.add(self.draw_class, (centre.x() - half, centre.y() - half,
                                                  centre.x() + half, centre.y() + half)))
        self.selected = len(s.boxes) - 1
        self._redraw()

    # --- the mouse ------------------------------------------------------------------------------------------
    def _grab(self, pos: QPointF) -> tuple[str, int]:
        """What a press at scene ``pos`` takes: ("resize:<edges>", i), ("move", i) or ("draw", -1)."""
        s = self.session
        tol = HANDLE_PX / max(1e-6, self.transform().m11())
        if self.selected >= 0 and not self.force_draw:
            x1, y1, x2, y2 = s.pixels(self.selected)
            if x1 - tol <= pos.x() <= x2 + tol and y1 - tol <= pos.y() <= y2 + tol:
                edges = "".join(e for e, near in (("l", abs(pos.x() - x1) <= tol), ("r", abs(pos.x() - x2) <= tol),
                                                  ("t", abs(pos.y() - y1) <= tol), ("b", abs(pos.y() - y2) <= tol))
                                if near)
                if edges:
                    return "resize:" + edges, self.selected
        if not self.force_draw:
            inside = [(b.w * b.h, i) for i, b in enumerate(s.boxes)
                      if (lambda r: r[0] <= pos.x() <= r[2] and r[1] <= pos.y() <= r[3])(s.pixels(i))]
            if inside:
                return "move", min(inside)[1]  # the smallest box under the cursor: nested boxes stay reachable
        return "draw", -1

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt's name
        if self.session is None:
            return
        if event.button() == Qt.MouseButton.MiddleButton:
            self._pan = event.position()
            return
        if event.button() != Qt.MouseButton.LeftButton:
            return
        pos = self.mapToScene(event.position().toPoint())
        mode, index = self._grab(pos)
        if index >= 0:
            self.selected = index
            self._redraw()
            self._drag = (mode, pos, self.session.pixels(index))
        else:
            self._drag = ("draw", pos, (pos.x(), pos.y(), pos.x(), pos.y()))
            pen = QPen(PALETTE[self.draw_class % len(PALETTE)], 2)
            pen.setCosmetic(True)
            self._rubber = self.scene().addRect(QRectF(pos, pos), pen)
        self.setFocus()

    def _dragged(self, pos: QPointF) -> tuple[float, float, float, float]:
        mode, start, (x1, y1, x2, y2) = self._drag
        dx, dy = pos.x() - start.x(), pos.y() - start.y()
        if mode == "draw":
            return (start.x(), start.y(), pos.x(), pos.y())
        if mode == "move":
            return (x1 + dx, y1 + dy, x2 + dx, y2 + dy)
        edges = mode.split(":")[1]
        return (x1 + dx * ("l" in edges), y1 + dy * ("t" in edges), x2 + dx * ("r" in edges),
                y2 + dy * ("b" in edges))

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt's name
        if self._pan is not None:
            delta = event.position() - self._pan
            self._pan = event.position()
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - int(delta.x()))
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - int(delta.y()))
            return
        if self._drag is None:
            return
        x1, y1, x2, y2 = self._dragged(self.mapToScene(event.position().toPoint()))
        rect = QRectF(QPointF(x1, y1), QPointF(x2, y2)).normalized()
        if self._rubber is not None:
            self._rubber.setRect(rect)
        elif 0 <= self.selected < len(self._items):
            self._items[self.selected].setRect(rect)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt's name
        if self._pan is not None:
            self._pan = None
            return
        if self._drag is None or self.session is None:
            return
        rect = self._dragged(self.mapToScene(event.position().toPoint()))
        mode = self._drag[0]
        self._drag = None
        if self._rubber is not None:
            self.scene().removeItem(self._rubber)
            self._rubber = None
        s = self.session
        small = abs(rect[2] - rect[0]) * self.transform().m11() < 4 or abs(rect[3] - rect[1]) * self.transform().m11() < 4
        if mode == "draw":
            if small:
                self.selected = -1
                self._redraw()
                return
            self._act(lambda: s.add(self.draw_class, rect))
            self.selected = len(s.boxes) - 1
            self.force_draw = False
            self._redraw()
        else:
            self._act(lambda: s.set_rect(self.selected, rect))

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt's name
        self.zoom(1.25 if event.angleDelta().y() > 0 else 0.8)
