"""Write the converted dataset: into a temporary folder beside the output, moved into place when complete.

Layout ``images/<split>/`` + ``labels/<split>/`` (yolov5 pairs them by swapping the last ``/images/``),
then ``import_report.json``, then ``data.yaml`` last with the output's absolute ``path`` (yolov5 resolves a
relative ``path`` against its own package folder, not the YAML's). An interrupted or cancelled import
removes its temporary folder: there is never a half dataset under the output's name, and the source is
never written. Images are hard-linked when the source shares the output's file system (else copied), but
a JPEG without its end marker is always copied: yolov5's label check re-saves such a file *in place*,
which through a hard link would rewrite the user's original. What a file *is* is decided from its decoded
content (Pillow's format, as yolov5's ``verify_image_label`` decides), never from its suffix: a JPEG named
``.png`` with bytes after its end marker is copied. Output names are unique per split by stem and case
(``a.jpg`` and ``a.png`` would share ``a.txt``; Windows folds case), so duplicate names from different
folders get their folder's name in front; an embedded picture's suffix is its decoded format's.

A writer killed by SIGKILL cannot remove its temporary folder: the next import into the same parent
removes every ``.NAME.importing-PID`` whose PID is no longer the process that made it (``clean_leftovers``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import psutil

from core.atomic import atomic_write_text
from core.dataset.importers.convert import ConvertedImage
from core.dataset.yaml_edit import format_scalar
from core.i18n import tr

LINK_MODES = ("auto", "link", "copy")
REPORT_NAME = "import_report.json"
Progress = Callable[[int, int], None]
Cancelled = Callable[[], bool]


class ImportCancelled(Exception):
    """Stopped by the user; nothing was left under the output's name."""


class ImportWriteError(Exception):
    """The output cannot be written (exists, no space, a link refused with --link); the message says why."""


@dataclass
class Placed:
    image: ConvertedImage
    split: str
    name: str  # file name under images/<split>/


_LEFTOVER = re.compile(r"^\..+\.importing-(\d+)$")
#: Suffix of an embedded picture by its decoded format (Pillow's name).
FORMAT_SUFFIX = {"JPEG": ".jpg", "MPO": ".jpg", "PNG": ".png", "BMP": ".bmp", "GIF": ".gif", "TIFF": ".tif",
                 "WEBP": ".webp", "DNG": ".dng"}


def temp_folder(out: Path) -> Path:
    return out.parent / f".{out.name}.importing-{os.getpid()}"


def _writer_alive(pid: int, folder: Path) -> bool:
    """True when ``pid`` may still be the import that made ``folder`` (a process started after the folder's
    last change is a recycled PID, not its writer)."""
    try:
        proc = psutil.Process(pid)
        if proc.status() == psutil.STATUS_ZOMBIE:
            return False
        return proc.create_time() <= folder.lstat().st_mtime + 1.0
    except (psutil.Error, OSError, OverflowError, ValueError):
        return False


def clean_leftovers(parent: Path) -> list[Path]:
    """Remove the temporary folders of imports into ``parent`` that were killed; returns what was removed."""
    removed = []
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return removed
    for entry in entries:
        match = _LEFTOVER.match(entry.name)
        path = Path(entry.path)
        if match and entry.is_dir(follow_symlinks=False) and not _writer_alive(int(match.group(1)), path):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


def check_output(out: Path) -> None:
    """Refuse an output that holds anything (an import never mixes into or replaces a folder), or one under
    a file. The message says what is wrong, once; the way out is the job's hint, in words that fit both faces
    (issue 32: the dialog showed the CLI's ``--out`` and said "pick a new folder" twice)."""
    for parent in out.parents:
        if parent.exists() or parent.is_symlink():
            if not parent.is_dir():
                raise ImportWriteError(tr("{parent} is a file, not a folder, so {path} cannot be made under it.",
                                          parent=parent, path=out))
            break
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ImportWriteError(tr("{path} already exists and is not empty.", path=out))


def _safe(text: str) -> str:
    return re.sub(r'[\\/:*?"<>|\x00-\x1f]+', "_", text).strip(" .") or "image"


def place(images: list[tuple[ConvertedImage, str]]) -> list[Placed]:
    """Unique output names per split: the source's name, or ``<folder>_<name>`` (then ``_2`` …) on a clash."""
    taken: dict[str, set[str]] = {}
    placed = []
    for image, split in images:
        src = image.source
        name = _safe(src.path.name if src.path is not None else src.embedded_name or "image.jpg")
        if src.path is None:  # an embedded picture: named by what it decodes as (``imagePath: notes.txt``)
            name = name.rsplit(".", 1)[0] + FORMAT_SUFFIX.get(image.format, ".jpg")
        if "." not in name:
            name += ".jpg"
        used = taken.setdefault(split, set())
        stem, suffix = name.rsplit(".", 1)
        candidate = name
        if candidate.rsplit(".", 1)[0].casefold() in used and src.path is not None:
            candidate = f"{_safe(src.path.parent.name)}_{name}"
        n = 2
        while candidate.rsplit(".", 1)[0].casefold() in used:
            candidate = f"{stem}_{n}.{suffix}"
            n += 1
        used.add(candidate.rsplit(".", 1)[0].casefold())
        placed.append(Placed(image, split, candidate))
    return placed


def safe_to_link(path: Path, fmt: str) -> bool:
    """True when yolov5 will never rewrite the file: it re-saves a *decoded* JPEG (whatever its name) whose
    last two bytes are not the end marker (``utils/dataloaders.py`` ``verify_image_label`` lines 1022-1026,
    7.0.14: ``im.format.lower() in ('jpg', 'jpeg')``; an MPO is left alone)."""
    if fmt.upper() != "JPEG":
        return bool(fmt)  # unknown content: copy
    try:
        with path.open("rb") as handle:
            handle.seek(-2, os.SEEK_END)
            return handle.read() == b"\xff\xd9"
    except OSError:
        return False


def _put_image(placed: Placed, target: Path, link: str) -> bool:
    """The image at ``target``; True when hard-linked."""
    src = placed.image.source
    if src.path is None:
        target.write_bytes(src.embedded or b"")
        return False
    if link != "copy" and safe_to_link(src.path, placed.image.format):
        try:
            os.link(src.path, target)
            return True
        except OSError as exc:
            if link == "link":
                raise ImportWriteError(tr("Cannot hard-link {src} into {out} ({error}): they are on different "
                                          "file systems or links are not allowed. Use --copy.",
                                          src=src.path, out=target.parent, error=exc.strerror or exc)) from exc
    shutil.copy2(src.path, target)
    return False


def label_text(rows: list[tuple[int, list[float]]]) -> str:
    return "".join(f"{cls} " + " ".join(f"{v:.6f}" for v in values) + "\n" for cls, values in rows)


def data_yaml_text(out: Path, names: list[str], splits: set[str]) -> str:
    lines = [tr("# Written by YOLO Studio's import; edit freely.")]
    lines.append(f"path: {format_scalar(str(out.absolute()))}")
    lines.append("train: images/train")
    lines.append(f"val: images/{'val' if 'val' in splits else 'train'}")
    if "test" in splits:
        lines.append("test: images/test")
    lines.append(f"nc: {len(names)}")
    lines.append("names: [" + ", ".join(format_scalar(n, flow=True) for n in names) + "]")
    return "\n".join(lines) + "\n"


def write_dataset(out: Path, placed: list[Placed], names: list[str], report: dict, link: str = "auto",
                  progress: Progress | None = None, cancelled: Cancelled | None = None) -> tuple[int, int]:
    """Write everything; returns (linked, copied). Raises ImportCancelled or ImportWriteError (nothing left)."""
    out = Path(out).absolute()
    check_output(out)
    clean_leftovers(out.parent)
    tmp = temp_folder(out)
    shutil.rmtree(tmp, ignore_errors=True)
    index = {name: i for i, name in enumerate(names)}
    linked = copied = 0
    try:
        for split in {p.split for p in placed}:
            (tmp / "images" / split).mkdir(parents=True, exist_ok=True)
            (tmp / "labels" / split).mkdir(parents=True, exist_ok=True)
        for done, item in enumerate(placed):
            if cancelled is not None and cancelled():
                raise ImportCancelled()
            if _put_image(item, tmp / "images" / item.split / item.name, link):
                linked += 1
            else:
                copied += 1
            rows = [(index[name], values) for name, values in item.image.rows if name in index]
            stem = item.name.rsplit(".", 1)[0]
            (tmp / "labels" / item.split / f"{stem}.txt").write_text(label_text(rows), encoding="utf-8")
            if progress is not None:
                progress(done + 1, len(placed))
        report = {**report, "linked": linked, "copied": copied}
        (tmp / REPORT_NAME).write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
        atomic_write_text(tmp / "data.yaml", data_yaml_text(out, names, {p.split for p in placed}))
        if out.exists():
            out.rmdir()  # empty (check_output): the finished folder takes its place
        os.replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return linked, copied
