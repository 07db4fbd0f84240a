"""Where a prepared copy may be written, and giving the disk back when it fills — the one rule for every
front end (``yolostudio dataset prepare --out``, the Dataset page, the wizard all go through
``core.dataset.prepare.prepare_dataset``, which asks this module first).

Why: ``dataset prepare DATA --out DIR`` with DIR the dataset's own folder rewrote every original image at
the new size and replaced the user's ``data.yaml``, exit 0; any non-empty DIR had its ``data.yaml`` and
``train.txt`` replaced. So the output may be neither inside nor equal to a folder the dataset's files live
in (the data.yaml's folder, its root, each split, each image's and label's folder — paths resolved, links
followed), and a folder that already holds anything must be an earlier prepared copy of the *same* source
(its manifest or journal says so). The app's own place for the copy (``default_out_dir``, under the
workspace's hidden cache) is exempt from the "inside" test only, since the user never chose it.

A full disk: the workers' half-written temporary files and the images this run wrote are removed (the
hidden cache copy would otherwise keep the disk full), and the message says the space the copy needs, in
``core.disk_space``'s words.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

from core.disk_space import disk_full_error, megabytes
from core.i18n import tr


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def source_folders(data_yaml: Path, root: Path, split_paths: Iterable[Path], files: Iterable[str]) -> set[Path]:
    """Every folder the dataset's own files are in, resolved: the data.yaml's, the root, the splits (a list
    file's folder), and each image's and label's folder."""
    from core.dataset.files import label_path_for

    folders = {Path(data_yaml).resolve().parent, Path(root).resolve()}
    for split in split_paths:
        split = Path(split).resolve()
        folders.add(split if split.is_dir() else split.parent)
    for image in files:
        folders.add(Path(image).resolve().parent)
        folders.add(Path(label_path_for(image)).resolve().parent)
    return folders


def output_problem(out_dir: Path, folders: set[Path], *, own_copy: bool, default_place: bool) -> str | None:
    """Why the copy may not be written to ``out_dir`` (None: it may). ``folders``: ``source_folders``;
    ``own_copy``: the folder holds an earlier copy of the same source; ``default_place``: it is the app's
    own place for this copy."""
    out = Path(out_dir).resolve()  # links followed, so a link to the dataset is the dataset
    if not default_place:
        for folder in sorted(folders, key=lambda f: len(f.parts)):
            if _inside(out, folder):
                where = tr("is the dataset's own folder") if out == folder else tr(
                    "is inside the dataset's own folder {folder}", folder=folder)
                return tr("{out} {where}: the copy would overwrite your images and data.yaml. Choose an empty "
                          "folder outside the dataset, or let the copy go to the app's cache (no --out).",
                          out=out_dir, where=where)
    if out.exists() and not out.is_dir():
        return tr("{out} is a file, not a folder. Choose an empty folder for the copy.", out=out_dir)
    if out.is_dir() and not own_copy:
        try:
            occupied = next(os.scandir(out), None) is not None
        except OSError as exc:
            return tr("{out} cannot be read: {reason}", out=out_dir, reason=exc.strerror or exc)
        if occupied:
            return tr("{out} is not empty and is not a prepared copy of this dataset: the copy would replace its "
                      "data.yaml and split lists. Choose an empty folder, or let the copy go to the "
                      "app's cache (no --out).", out=out_dir)
    return None


def give_back_space(out_dir: Path, written: Iterable[Path]) -> int:
    """After a full disk: remove the temporary files left in ``out_dir`` and the files in ``written`` (this
    run's images and labels), then the folders left empty. The bytes freed."""
    out_dir = Path(out_dir)
    freed = 0
    doomed = [p for p in out_dir.rglob(".*.tmp")] + list(written)
    for path in doomed:
        try:
            size = path.stat().st_size
            path.unlink()
            freed += size
        except OSError:
            continue
    for folder in sorted((p for p in out_dir.rglob("*") if p.is_dir()), key=lambda p: len(p.parts), reverse=True):
        try:
            folder.rmdir()  # only when empty
        except OSError:
            pass
    return freed


def space_needed(images: Iterable[tuple[Path, ...]], source_bytes: int) -> int | None:
    """What the whole copy needs: the mean size of the images written so far (each image's possible names in
    ``images``) times their number, or the sources' own size before any was written."""
    images = list(images)
    sizes = []
    for names in images:
        for name in names:
            try:
                sizes.append(name.stat().st_size)
                break
            except OSError:
                continue
    if sizes:
        return int(sum(sizes) / len(sizes) * len(images))
    return source_bytes or None


def space_message(out_dir: Path, needed: int | None, freed: int) -> str:
    """A full disk during ``prepare`` in the house's words (``core.disk_space``), plus what was done about it."""
    full = disk_full_error(Path(out_dir), needed)
    return tr("{reason} The incomplete copy was removed ({freed} given back). Free that space, or choose another "
              "folder for the copy (--out), then prepare again.", reason=full.strerror, freed=megabytes(freed))
