"""What the user is working on, shared by every page: the current dataset (and where to look at it).

Why one object: the Dataset page, the Train page (and the wizard) used to keep a dataset each, so opening
a data.yaml on one page left another on the demo. Any page that chooses a dataset says so here
(``set_dataset``: a data.yaml that exists), and every page that shows one follows ``dataset_changed``;
a page that wants another page on screen asks here (``show_dataset``/``show_train``), the window obeys.
Paths are compared resolved, so choosing the same file again is not news and no page echoes forever.
Plain Qt state, no files: the Train page remembers the last dataset in the settings as before.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal

DATASET, TRAIN = "dataset", "train"


class CurrentWork(QObject):
    dataset_changed = Signal(str)  # the resolved path of the current data.yaml
    show_requested = Signal(str)  # a page key (``gui.pages.catalog``) the window should show

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._dataset = ""

    @property
    def dataset(self) -> str:
        return self._dataset

    def set_dataset(self, path: str | Path) -> bool:
        """Make ``path`` the app's dataset; True when it changed (the pages were told)."""
        text = str(Path(path).expanduser().resolve()) if str(path).strip() else ""
        if not text or text == self._dataset:
            return False
        self._dataset = text
        self.dataset_changed.emit(text)
        return True

    def show_dataset(self) -> None:
        self.show_requested.emit(DATASET)

    def show_train(self) -> None:
        self.show_requested.emit(TRAIN)
