"""Which label files the Errors browser may read and write: those of the images of the evaluation's dataset.

Why: a fix follows an image path stored in the evaluation (``result.json``, ``images.json``), and those files
are only files — a changed store named ``/elsewhere/images/x.jpg`` and Accept created ``/elsewhere/labels/x.txt``,
Delete rewrote a file outside the dataset. So an edit's label file is found from the *dataset*, not from the
store: the stored image must be one of the dataset's images (as the dataset check lists every split of its
data.yaml, both sides resolved — symlinks, ``..``), its label is yolov5's rule applied to the dataset's own path
of that image, and that label file (and its ``.bak``) must not be a link: an atomic write would replace the
link, a backup copy would follow it. The data.yaml is the one the evaluation was planned from (the run's),
whose fingerprint is part of the store's key — not a path read back from the store.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from core.dataset.data_yaml import read_data_yaml
from core.dataset.files import label_path_for
from core.evaluation.fingerprint import split_images
from core.i18n import tr


class OutsideDataset(ValueError):
    """A stored image path that does not lead to a label file of the dataset; the words name the path."""


def _resolved(path: str) -> str:
    try:
        return str(Path(path).resolve())
    except (OSError, RuntimeError):  # a symlink loop resolves to nothing of the dataset's
        return ""


class DatasetLabels:
    """The label files of ``data_yaml``'s images; the dataset is listed once, on first use (off the GUI thread)."""

    def __init__(self, data_yaml: Path) -> None:
        self.data_yaml = Path(data_yaml)
        self._images: dict[str, str] | None = None  # resolved image -> the dataset's own path of it
        self._lock = threading.Lock()

    def _listed(self) -> dict[str, str]:
        with self._lock:
            if self._images is None:
                judged = read_data_yaml(self.data_yaml)
                splits = judged.spec.splits if judged.spec is not None else {}
                images: dict[str, str] = {}
                for split in splits:
                    for image in split_images(self.data_yaml, split):
                        images.setdefault(_resolved(image), image)
                images.pop("", None)
                self._images = images
            return self._images

    def label_for(self, image: str) -> Path:
        """The label file an edit of ``image`` (a stored path) may touch; ``OutsideDataset`` when none may."""
        listed = self._listed().get(_resolved(str(image)))
        if listed is None:
            raise OutsideDataset(tr(
                "{image} is not an image of the dataset {data}: its label was not read or changed. The stored "
                "evaluation may have been edited; evaluate the run again.", image=image, data=self.data_yaml))
        label = Path(label_path_for(listed))
        for path in (label, label.with_name(label.name + ".bak")):
            if os.path.islink(path):
                raise OutsideDataset(tr(
                    "{path} is a link (to {target}); label edits change only the dataset's own files. Replace "
                    "the link with the file itself to edit it here.", path=path, target=os.readlink(path)))
        return label
