"""The Label page: a folder of images, the list most in need first (reason shown), and the box editor.

Keyboard-driven as the editor is: D / A (→ / ←) write the image's boxes when changed and move to the next /
previous image of the list, Enter accepts (proposals confirmed, written) and moves on. Images without a label
file come first, then those with the fewest boxes. The auto-labeller's review queue (issue 33, ``label auto``)
lists through the same ``ReviewList``; until it is merged this page labels by hand. Reads and writes are
operations (``gui.labelling.operations``), the editor's picture decoded off the GUI thread.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (QFileDialog, QHBoxLayout, QLabel, QPushButton, QSplitter, QVBoxLayout, QWidget)

from core.boxedit.review import ReviewRow
from core.dataset.files import label_path_for
from gui.labelling import operations
from gui.labelling.box_editor import BoxEditor
from gui.labelling.editor_dialog import keys_hint
from gui.labelling.image_cache import oriented_size
from gui.labelling.review_list import ReviewList
from gui.pages.page import Page
from gui.widgets.banner import Banner


def ask_folder(parent: QWidget) -> str:
    """The folder dialog ("" when cancelled); tests answer it."""
    return QFileDialog.getExistingDirectory(parent, QCoreApplication.translate("LabelPage", "Images to label"))


class LabelPage(Page):
    def __init__(self, workspace: Path, parent: QWidget | None = None) -> None:
        super().__init__(workspace, parent)
        self.folder = ""
        self.names: list[str] = []
        self.choose_button = QPushButton(self.tr("Choose a folder of images…"), self, clicked=self.choose)
        self.folder_label = QLabel(self.tr("No folder chosen."), self)
        self.banner = Banner(self)
        self.list = ReviewList(self)
        self.editor = BoxEditor(self)
        self.hint = QLabel(keys_hint(), self, wordWrap=True)
        top = QHBoxLayout()
        top.addWidget(self.choose_button)
        top.addWidget(self.folder_label, 1)
        split = QSplitter(self)
        split.addWidget(self.list)
        split.addWidget(self.editor)
        split.setStretchFactor(1, 3)
        split.setSizes([320, 900])
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.banner)
        layout.addWidget(split, 1)
        layout.addWidget(self.hint)
        self.list.clicked.connect(lambda index: self.open_row(index.row()))
        self.editor.next_requested.connect(lambda: self.step(1))
        self.editor.previous_requested.connect(lambda: self.step(-1))
        self.editor.accepted.connect(lambda: self.step(1, save=False))
        self.editor.failed.connect(lambda words: self.banner.show_message("error", words))
        self.list.loaded.connect(self._loaded)

    def on_bound(self) -> None:
        """Class names from the current dataset (the Dataset page's), so the editor's tags and digits read as
        the dataset's classes."""
        self.services.current.dataset_changed.connect(self._dataset)
        if self.services.current.dataset:
            self._dataset(self.services.current.dataset)

    def _dataset(self, path: str) -> None:
        operations.class_names(self, path).success(self._names).failure(lambda _exc: self._names([])).run()

    def _names(self, names: list[str]) -> None:
        self.names = names
        self.editor.set_names(names)

    def choose(self) -> None:
        folder = ask_folder(self)
        if folder:
            self.open_folder(folder)

    def open_folder(self, folder: str) -> None:
        self.folder = folder
        self.folder_label.setText(folder)
        self.list.load_op(operations.folder_review(self.list, folder))

    def _loaded(self, n: int) -> None:
        if n:
            self.open_row(0)
        else:
            self.banner.show_message("info", self.tr("{folder} holds no images yolov5 reads.").format(
                folder=self.folder))

    @property
    def rows(self) -> list[ReviewRow]:
        return self.list.model_.rows

    def open_row(self, index: int) -> None:
        if not 0 <= index < len(self.rows):
            return
        self.list.setCurrentIndex(self.list.model_.index(index))
        image = self.rows[index].image
        width, height = oriented_size(image)
        if not width:
            self.banner.show_message("error", self.tr("{image} cannot be read as an image.").format(image=image))
            return
        operations.open_session(self, Path(label_path_for(image)), width, height) \
            .success(lambda session, image=image, index=index: self._opened(index, image, session)) \
            .failure(lambda exc: self.banner.show_message("error", str(exc) or type(exc).__name__)).run()

    def _opened(self, index: int, image: str, session) -> None:  # noqa: ANN001 - an EditSession
        if self.list.currentIndex().row() != index:
            return  # moved on meanwhile
        self.editor.show_image(image, session, self.names)
        self.editor.prefetch([r.image for r in self.rows[index + 1:index + 2]])
        self.editor.setFocus()

    def step(self, by: int, save: bool = True) -> None:
        """Write this image's boxes when changed, then the next / previous image of the list."""
        target = self.list.currentIndex().row() + by
        if save:
            self.editor.save(lambda: self.open_row(target))
        else:
            self.open_row(target)

    def can_leave(self) -> bool:
        if self.editor.session is not None and self.editor.session.dirty:
            self.editor.save()
        return True
