"""The Dataset gallery opens the box editor on the selected image (E): the image's label file, its boxes."""

from __future__ import annotations

from PIL import Image
from PySide6.QtCore import Qt

from core.dataset.records import ImageRecord
from gui.dataset.dataset_gallery import DatasetGallery
from gui.labelling.editor_dialog import BoxEditorDialog
from tests.waits import TIMEOUT_MS


def test_e_on_a_tile_opens_the_editor_on_its_labels(qtbot, tmp_path) -> None:
    image, label = tmp_path / "a.png", tmp_path / "a.txt"
    Image.new("RGB", (64, 48), "white").save(image)
    label.write_text("1 0.5 0.5 0.25 0.5\n")
    gallery = DatasetGallery()
    qtbot.addWidget(gallery)
    gallery.show()
    gallery.set_records([ImageRecord(str(image), "train", str(label), True, 64, 48, [(1, 0.5, 0.5, 0.25, 0.5)])],
                        ["cat", "dog"])
    gallery.list.setCurrentRow(0)
    gallery.list.setFocus()
    qtbot.keyClick(gallery.list, Qt.Key.Key_E)
    dialog = gallery.findChild(BoxEditorDialog)
    qtbot.waitUntil(lambda: dialog.editor.session is not None, timeout=TIMEOUT_MS)
    assert dialog.editor.session.pixels(0) == (24.0, 12.0, 40.0, 36.0)
    dialog.close()
