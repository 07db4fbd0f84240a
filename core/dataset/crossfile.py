"""What only shows across files: label files without an image (or beside an image no split lists, or named
``x.TXT``), one label shared by two images, and the same image content twice.

yolov5 reports none of these. Orphans come from listing the label folders; leaks (train and val sharing
an image) and duplicates come from the content hashes the per-file checks computed, so no image is read
again here.
"""

from __future__ import annotations

import os
from collections import defaultdict

import numpy as np

from core.dataset.dirs import FolderMemo, stat_folder
from core.dataset.files import SplitFiles
from core.dataset.findings import finding
from core.dataset.images import is_image_name
from core.dataset.table import HAS_DIGEST, HAS_LABEL, ScanTable
from core.findings import Finding
from core.i18n import tr

ORPHAN_IGNORE = {"classes.txt", "notes.txt", "readme.txt", "predefined_classes.txt"}


def orphans(split_files: dict[str, SplitFiles], table: ScanTable, memo: FolderMemo | None = None) -> list[Finding]:
    """Label files nobody pairs with: ``.txt`` files in the label folders, minus the table's labels and the
    split lists. When neither those folders nor the table's file list changed, last check's answer stands."""
    memo = memo or FolderMemo()
    lists = sorted({p for files in split_files.values() for p in files.list_files})
    flat = sorted({d for files in split_files.values() for d in files.label_dirs})
    trees = sorted({d for files in split_files.values() for d in files.recursive_label_dirs})
    fingerprint = "\0".join([table.paths_id, *lists, "\1", *flat, "\1", *trees])
    paths = memo.recall("orphans", fingerprint)
    if paths is None:
        paths, folders = _orphan_paths(lists, flat, trees, set(table.labels), memo)
        memo.keep("orphans", fingerprint, folders, paths)
    unlabelled = {table.labels[i].casefold(): table.paths[i]
                  for i in np.flatnonzero((table.flags & HAS_LABEL) == 0).tolist()}
    out: list[Finding] = []
    near = ImagesNear()
    for path in paths:
        if not path.endswith(".txt"):  # x.TXT: yolov5's ``.txt`` is case-sensitive where the disk is
            image = unlabelled.get(path.casefold())
            if image is not None:
                out.append(finding("label-name-case", path, tr(
                    "yolov5 looks for the label of {image} under the name {expected} (a lower-case '.txt'), so "
                    "it does not read this file and trains the image as a background (no objects). Rename the "
                    "file to end in '.txt'.", image=image, expected=os.path.basename(
                        path.rsplit(".", 1)[0] + ".txt"))))
            continue
        image = image_beside(path, near)
        if image is not None:
            out.append(finding("label-unlisted", path, tr(
                "Its image {image} exists but is in no split of this data.yaml, so yolov5 neither trains on it "
                "nor reads this label. Add the image to a split if it should be used.", image=image)))
            continue
        out.append(finding("label-orphan", path, tr(
            "A label file without an image (yolov5's pairing: same name under images/ instead of labels/). "
            "yolov5 ignores it silently; was its image renamed or deleted? Move it aside (one-click fix).")))
    return out


def image_beside(label: str, near: "ImagesNear | None" = None) -> str | None:
    """An existing image this label would belong to (``img2label_paths`` backwards: the last ``/labels/``
    back to ``/images/``, any suffix yolov5 reads), or None."""
    sa, sb = f"{os.sep}images{os.sep}", f"{os.sep}labels{os.sep}"
    if sb not in label:
        return None
    folder, stem = os.path.split(sa.join(label.rsplit(sb, 1))[: -len(".txt")])
    return (near or ImagesNear()).find(folder, stem)


class ImagesNear:
    """Image names by stem, one listing per folder: thousands of labels beside unlisted images (a list that
    names a subset of images/) cost one ``listdir`` per folder, not a ``stat`` per suffix per label."""

    def __init__(self) -> None:
        self._stems: dict[str, dict[str, str]] = {}

    def find(self, folder: str, stem: str) -> str | None:
        stems = self._stems.get(folder)
        if stems is None:
            try:
                names = sorted(os.listdir(folder))
            except OSError:
                names = []
            stems = {}
            for name in names:
                if is_image_name(name):
                    stems.setdefault(name.rsplit(".", 1)[0], name)
            self._stems[folder] = stems
        name = stems.get(stem)
        return os.path.join(folder, name) if name is not None and os.path.isfile(os.path.join(folder, name)) else None


def shared_labels(table: ScanTable) -> list[Finding]:
    """One label file paired with several images (``x.jpg`` and ``x.png`` both → ``x.txt``): yolov5 gives each
    of them its boxes."""
    if len(set(table.labels)) == len(table.labels):  # the usual case, in one C-level pass
        return []
    owners: dict[str, list[str]] = defaultdict(list)
    for i in np.flatnonzero((table.flags & HAS_LABEL) != 0).tolist():
        owners[table.labels[i]].append(table.paths[i])
    return [finding("label-shared", label, tr(
        "This label file is the label of {n} images: {images}. yolov5 pairs an image with the label of the same "
        "name without its suffix, so all of them train with these boxes; rename all but the image it belongs "
        "to, and give each its own label.", n=len(images), images=", ".join(os.path.basename(i) for i in images)))
        for label, images in owners.items() if len(images) > 1]


def _orphan_paths(lists: list[str], flat: list[str], trees: list[str], expected: set[str],
                  memo: FolderMemo) -> tuple[list[str], list[tuple[str, str]]]:
    """The orphans' paths, sorted, and the (view, folder) listings they were derived from."""
    candidates: set[str] = set()
    visited: list[tuple[str, str]] = []
    for folder in flat:
        try:
            st, started = stat_folder(folder)
            [names] = memo.lists("label-files-any-case", folder, st, lambda: [_txt_files(folder)], started)
        except OSError:
            continue
        visited.append(("label-files-any-case", folder))
        prefix = os.path.join(folder, "")
        candidates.update([prefix + name for name in names])
    for top in trees:
        stack = [top]
        while stack:  # os.walk's rules: links to folders are not followed
            folder = stack.pop()
            try:
                st, started = stat_folder(folder)
                folders, names = memo.lists("label-tree-any-case", folder, st, lambda: _txt_tree(folder), started)
            except OSError:
                continue
            visited.append(("label-tree-any-case", folder))
            prefix = os.path.join(folder, "")
            candidates.update([prefix + name for name in names])
            stack += [prefix + name for name in folders]
    found = sorted(p for p in candidates - expected - set(lists) if os.path.basename(p).lower() not in ORPHAN_IGNORE)
    return found, visited


def _txt_files(folder: str) -> list[str]:
    return [e.name for e in os.scandir(folder) if e.name.lower().endswith(".txt") and e.is_file()]


def _txt_tree(folder: str) -> list[list[str]]:
    """Sub-folders to descend into (not links) and ``.txt`` names, as ``os.walk`` would yield them."""
    folders: list[str] = []
    names: list[str] = []
    for entry in os.scandir(folder):
        try:
            is_dir = entry.is_dir()
        except OSError:
            is_dir = False
        if is_dir:
            if not entry.is_symlink():
                folders.append(entry.name)
        elif entry.name.lower().endswith(".txt"):
            names.append(entry.name)
    return [folders, names]


def leaks_and_duplicates(table: ScanTable, members: dict[str, np.ndarray]) -> list[Finding]:
    """Same content (hash) in train and val is a leak; elsewhere a duplicate.

    Only a split member whose hash occurs more than once among all members can be either (an image listed
    in train and val is two members with one hash), so one sort of 64-bit hash prefixes finds the few
    candidates and only those are judged in Python; ``realpath`` (an lstat per path component) runs only
    inside groups of identical content.
    """
    out: list[Finding] = []
    names = list(members)
    parts = list(members.values())
    image = np.concatenate(parts).astype(np.int64) if parts else np.zeros(0, dtype=np.int64)
    split = np.repeat(np.arange(len(parts)), [len(p) for p in parts])
    hashed = (table.flags[image] & HAS_DIGEST).astype(bool)
    digest = table.digest[image]
    suspect = np.zeros(len(image), dtype=bool)
    _, inverse, counts = np.unique(digest[hashed, 0], return_inverse=True, return_counts=True)
    suspect[np.flatnonzero(hashed)[counts[inverse.reshape(-1)] > 1]] = True
    by_hash: dict[tuple[int, int], list[tuple[str, str]]] = defaultdict(list)
    for m in np.flatnonzero(suspect).tolist():
        by_hash[tuple(digest[m].tolist())].append((names[int(split[m])], table.paths[int(image[m])]))
    if "val" in members:
        train: set[str] | None = None
        first = sum(len(members[s]) for s in names[:names.index("val")])
        for m in range(first, first + len(members["val"])):
            if hashed[m] and not suspect[m]:
                continue  # content seen once among all members: not in train, no twin
            if train is None:
                train = {table.paths[i] for i in members["train"].tolist()} if "train" in members else set()
            path = table.paths[int(image[m])]
            twins = [p for s, p in by_hash.get(tuple(digest[m].tolist()), []) if s == "train"] if hashed[m] else []
            if path in train or any(os.path.realpath(t) == os.path.realpath(path) for t in twins):
                out.append(finding("train-val-leak", path, tr(
                    "The same file is in train and val, so validation scores are inflated. yolov5 never reports "
                    "this; remove it from val (one-click fix).")))
            elif twins:
                out.append(finding("train-val-leak", path, tr(
                    "Identical content to the training image {twin}, so validation scores are inflated. yolov5 "
                    "never reports this; remove it from val (one-click fix).", twin=twins[0])))
    for group in by_hash.values():
        if len(group) < 2:
            continue  # the first 64 bits matched, the whole hash did not
        real = {os.path.realpath(p) for _, p in group}
        in_splits = {s for s, _ in group}
        if len(real) < 2 or (in_splits == {"train", "val"} and len(group) == 2):
            continue  # one file listed twice, or a pair already reported as a leak
        first_split, first_path = group[0]
        first_real = os.path.realpath(first_path)
        for split_name, path in group[1:]:
            if os.path.realpath(path) == first_real or {split_name, first_split} == {"train", "val"}:
                continue
            out.append(finding("image-duplicate", path, tr(
                "Identical content to {other} under another name; it counts twice in {split}. yolov5 never "
                "reports duplicates.", other=first_path, split=split_name)))
    return out
