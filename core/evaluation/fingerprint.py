"""The inputs an evaluation depends on, as hashes: the weights file's content, the dataset split as checked.

An evaluation is stored under the key of its settings, the weights' SHA-256 and the dataset's fingerprint
(``store.evaluation_key``); the same key later means the same result, so it is read back, not run again.
The dataset fingerprint covers what yolov5's validation reads: the data.yaml's bytes and, for every image
of the split (listed as the dataset check lists it, ``core.dataset.files.list_split``), the image and its
label file (``label_path_for``, yolov5's pairing) by path, size and modification time — so a label edited in
the Errors browser makes a new evaluation, and so does an image added to the split.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from core.dataset.data_yaml import read_data_yaml
from core.dataset.files import label_path_for, list_split
from core.weights.store import sha256_of


def weights_hash(path: Path) -> str:
    """SHA-256 of the weights file (the weights store's own hashing)."""
    return sha256_of(Path(path))


def _stamp(path: str) -> list[object]:
    try:
        st = os.stat(path)
    except OSError:
        return [path, None, None]
    return [path, st.st_size, st.st_mtime_ns]


def split_images(data_yaml: Path, split: str) -> list[str]:
    """The split's images as the dataset check lists them ([] when the YAML or the split cannot be read)."""
    judged = read_data_yaml(Path(data_yaml))
    spec = judged.spec.splits.get(split) if judged.spec is not None else None
    return list_split(spec, str(data_yaml)).images if spec is not None else []


def dataset_fingerprint(data_yaml: Path, split: str, images: list[str] | None = None) -> str:
    """SHA-256 over the data.yaml's bytes and the split's images and labels (path, size, mtime)."""
    digest = hashlib.sha256()
    try:
        digest.update(Path(data_yaml).read_bytes())
    except OSError:
        digest.update(b"<unreadable>")
    digest.update(split.encode())
    for image in images if images is not None else split_images(data_yaml, split):
        digest.update(json.dumps([_stamp(image), _stamp(label_path_for(image))]).encode())
    return digest.hexdigest()
