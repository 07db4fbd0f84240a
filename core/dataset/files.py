"""Which images a split holds and which label file belongs to each — yolov5's own rules.

A folder split is searched recursively (hidden files skipped, as ``glob`` does); a ``.txt`` split lists
one image per line (``./x`` is relative to the list's folder). The label of ``…/images/…/a.jpg`` is
``…/labels/…/a.txt`` (the *last* ``/images/`` is swapped, the suffix replaced), exactly
``img2label_paths``. Folder walks follow links but remember every real folder visited, so a symlink
loop is reported once instead of recursing forever. A folder unchanged since the last check is not
listed again (``dirs.FolderMemo``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path, PureWindowsPath
from typing import Callable

from core.dataset.dirs import FolderMemo, stat_folder
from core.dataset.findings import finding
from core.dataset.images import is_image_name, is_other_image_name
from core.dataset.spec import SplitSpec
from core.findings import Finding
from core.i18n import tr


def label_path_for(image: str) -> str:
    sa, sb = f"{os.sep}images{os.sep}", f"{os.sep}labels{os.sep}"
    return sb.join(image.rsplit(sa, 1)).rsplit(".", 1)[0] + ".txt"


@dataclass
class SplitFiles:
    name: str
    images: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    label_dirs: set[str] = field(default_factory=set)  # folders whose .txt files are this split's labels
    recursive_label_dirs: set[str] = field(default_factory=set)
    list_files: set[str] = field(default_factory=set)
    missing: list[str] = field(default_factory=list)  # entries that do not exist


#: Folders that are never a dataset's images: yolov5 would search the whole system under them (``train: /``
#: searched this machine's 84,613 folders for a minute). Other drive roots are not here — a USB stick with
#: the images at its top is a real dataset — they meet the folder bound instead.
_POSIX_SYSTEM_TREES = ("/", "/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/proc", "/run", "/sbin",
                       "/sys", "/usr", "/var", "/System", "/Library", "/Applications")
_WINDOWS_SYSTEM_TREES = ("Windows", "Program Files", "Program Files (x86)", "ProgramData")


def system_tree(folder: Path) -> bool:
    """Whether ``folder`` is the system's root or one of its system folders (not below them: a dataset under
    ``/var/data`` is fine)."""
    try:
        folder = folder.resolve()
    except (OSError, RuntimeError):
        return False
    if os.name == "nt":
        return windows_system_tree(PureWindowsPath(folder), os.environ.get("SystemDrive", "C:"))
    return str(folder) in _POSIX_SYSTEM_TREES


def windows_system_tree(folder: PureWindowsPath, system_drive: str) -> bool:
    """The system drive's root (``C:\\``) or a system folder at its top (``C:\\Windows``); other drives' roots
    are not (a data drive or a stick may hold the images at its top)."""
    if folder.drive.rstrip("\\/").upper() != system_drive.rstrip("\\/").upper():
        return False
    rest = folder.parts[1:]
    return not rest or (len(rest) == 1 and rest[0].lower() in {name.lower() for name in _WINDOWS_SYSTEM_TREES})


class ScanCancelled(Exception):
    """The user cancelled a dataset search or check; results so far are in the cache, so the next check resumes
    from there. Raised here (``WalkLimits.count``) and by ``core.dataset.scan``."""


@dataclass
class WalkLimits:
    """How far a folder search may go: a ``train: /`` must not search the whole disk for minutes unseen.

    ``max_folders`` is the bound (a finding names it; a dataset's images sit in a few folders, a few thousand
    for one per video or class); ``progress`` is told how many folders were listed so far, every
    ``PROGRESS_EVERY``; ``cancelled`` is asked as often, and a true answer raises ``ScanCancelled``."""

    max_folders: int = 20_000
    progress: Callable[[int], None] | None = None
    cancelled: Callable[[], bool] | None = None
    folders: int = 0

    PROGRESS_EVERY = 200

    def count(self) -> None:
        self.folders += 1
        if self.folders % self.PROGRESS_EVERY == 0:
            if self.cancelled is not None and self.cancelled():
                raise ScanCancelled()
            if self.progress is not None:
                self.progress(self.folders)


def list_split(split: SplitSpec, yaml_file: str, memo: FolderMemo | None = None,
               limits: WalkLimits | None = None) -> SplitFiles:
    """The split's images, sorted and unique; ``memo`` reuses listings of folders unchanged since last time."""
    out = SplitFiles(split.name)
    memo = memo or FolderMemo()
    limits = limits or WalkLimits()
    for entry, path in zip(split.entries, split.paths):
        path = yolov5_split_path(path)
        if path.is_dir():
            if system_tree(path):
                out.findings.append(finding("split-too-large", yaml_file, tr(
                    "{split}: {path} is a system folder, not a dataset's: yolov5 would search every folder under "
                    "it for images. Point '{split}' at the folder of its images.", split=split.name, path=path),
                    split.line))
            elif _walk(path, out, memo, limits, split, yaml_file):  # a cut-short search's label tree is as large
                out.recursive_label_dirs.add(label_path_for(str(path) + os.sep + "x.y").rsplit(os.sep, 1)[0])
        elif path.is_file():
            _read_list(path, out)
        else:
            out.missing.append(entry)
            out.findings.append(finding("split-path-missing", yaml_file, tr(
                "{split}: {entry} does not exist (looked for {path}). {consequence}",
                split=split.name, entry=entry, path=path, consequence=_missing_consequence(split.name)),
                split.line, severity="warning" if split.name == "test" else None))
    # A single folder walk never lists a path twice (loops are cut); lists and several entries can.
    out.images = sorted(set(out.images) if len(split.paths) > 1 or out.list_files else out.images)
    return out


def yolov5_split_path(path: Path) -> Path:
    """The split path as yolov5 holds it: ``check_dataset`` makes each one ``(path / entry).resolve()``, so a
    linked split folder (or list) is replaced by its target and the labels are looked for beside the target."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a link loop: left as written, the search reports it
        return path


def _missing_consequence(split: str) -> str:
    """What yolov5 7.0.14 does about a missing split path: ``check_dataset`` checks only ``val`` (and runs a
    ``download`` script if the YAML has one); ``train`` fails when its loader is built; training never
    reads ``test``."""
    if split == "val":
        return tr("yolov5 stops before training with 'Dataset not found'.")
    if split == "train":
        return tr("yolov5 stops before training with 'Error loading data from … does not exist'.")
    return tr("Training does not read it, but validating on the test split ('val.py --task test') fails.")


def _walk(top: Path, out: SplitFiles, memo: FolderMemo, limits: WalkLimits, split: SplitSpec,
          yaml_file: str) -> bool:
    """Adds the images under ``top`` to ``out``; False when the search went past the folder bound."""
    visited: set[tuple[int, int]] = set()
    stack = [str(top)]
    while stack:
        folder = stack.pop()
        limits.count()
        if limits.folders > limits.max_folders:
            out.findings.append(finding("split-too-large", yaml_file, tr(
                "{split}: searching {path} went past {limit} folders, far more than a dataset has (is it the "
                "whole disk?). Point '{split}' at the folder of its images.", split=split.name, path=top,
                limit=f"{limits.max_folders:,}"), split.line))
            out.images.clear()  # not this dataset's images: checking them would take as long again
            return False
        try:
            st, started = stat_folder(folder)
        except OSError:
            out.findings.append(finding("split-symlink-loop", folder, tr(
                "This folder cannot be opened (a broken or looping link?); its images are skipped.")))
            continue
        if (st.st_dev, st.st_ino) in visited:
            out.findings.append(finding("split-symlink-loop", folder, tr(
                "This link leads back to a folder already searched (a symlink loop). yolov5's folder search "
                "follows links, so it lists the same images again or fails; remove the link.")))
            continue
        visited.add((st.st_dev, st.st_ino))
        try:
            folders, images, others, specials, dangling = memo.lists("images+special+dangling", folder, st,
                                                                     lambda: _classify(folder), started)
        except (OSError, ValueError):
            continue
        prefix = os.path.join(folder, "")
        stack += [prefix + name for name in folders]
        out.images += [prefix + name for name in images]
        for name in specials:
            out.findings.append(finding("image-not-a-file", prefix + name, tr(
                "This is not a file but a pipe, socket or device with an image's name; reading it would wait "
                "forever, so it is skipped here — and yolov5 would hang on it: remove it from the dataset.")))
        for name in dangling:  # yolov5's glob lists the link, then cannot open it
            out.findings.append(finding("image-missing", prefix + name, tr(
                "This is a link to {target}, which does not exist. yolov5 lists it, cannot open it and trains "
                "without it ('No such file or directory'); restore its target or delete the link.",
                target=_link_target(prefix + name))))
        for name in others:
            out.findings.append(finding("image-unsupported-format", prefix + name, tr(
                "yolov5 does not read .{suffix} images and skips this file silently; convert it to JPEG or "
                "PNG if it should be used.", suffix=name.rsplit('.', 1)[-1].lower())))
    return True


def _classify(folder: str) -> list[list[str]]:
    """Names in ``folder``: sub-folders (links followed, as glob does), images yolov5 reads, other images,
    and image names that are not regular files."""
    folders: list[str] = []
    images: list[str] = []
    others: list[str] = []
    specials: list[str] = []  # image names that are not regular files (FIFOs, devices, sockets)
    dangling: list[str] = []  # image names that are links to nothing
    for entry in os.scandir(folder):
        name = entry.name
        if name.startswith("."):
            continue
        try:
            is_dir = entry.is_dir()
        except OSError:
            is_dir = False
        if is_dir:
            folders.append(name)
        elif is_image_name(name):
            try:
                regular = entry.is_file()
            except OSError:
                regular = False
            if regular:
                images.append(name)
            else:
                (dangling if entry.is_symlink() and not os.path.exists(entry.path) else specials).append(name)
        elif is_other_image_name(name):
            others.append(name)
    return [sorted(folders), sorted(images), sorted(others), sorted(specials), sorted(dangling)]  # sorted: a walk's images come out nearly in order


def _link_target(path: str) -> str:
    try:
        return os.readlink(path)
    except OSError:
        return "?"


def _read_list(path: Path, out: SplitFiles) -> None:
    """The images of a list file as yolov5 reads its lines (``list_lines``); a line it reads differently
    from what was meant is a finding with its line, and counts only as what yolov5 will find."""
    from core.dataset.list_lines import misread, yolov5_image, yolov5_lines

    out.list_files.add(str(path))
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        out.missing.append(str(path))
        out.findings.append(finding("split-path-missing", path, tr("Cannot read the list: {reason}",
                                                                   reason=exc.strerror)))
        return
    parent = str(path.parent) + os.sep
    for number, written, x in yolov5_lines(text):
        entry = written.strip()
        meant = entry.replace("./", parent, 1) if entry.startswith("./") else (
            entry if os.path.isabs(entry) else str(path.parent / entry))
        if not is_image_name(os.path.basename(meant)):
            if is_other_image_name(os.path.basename(meant)):
                out.findings.append(finding("image-unsupported-format", path, tr(
                    "{entry}: yolov5 does not read this kind of image and skips it silently.", entry=entry), number))
            continue
        why = misread(x)
        image = yolov5_image(x, parent)
        if why and _misread_finding(why, entry, image, meant, path, number, out):
            continue
        if image is None:
            continue
        if not os.path.isfile(image):
            _listed_not_a_file(image, entry, path, number, out)
            continue
        out.images.append(image)
        out.label_dirs.add(os.path.dirname(label_path_for(image)))


def _misread_finding(why: str, entry: str, image: str | None, meant: str, path: Path, number: int,
                     out: SplitFiles) -> bool:
    """Report a line yolov5 reads as another path than the one meant; True when yolov5 will not find an image
    there (the line then adds nothing to the split). A relative line that does resolve from the folder this
    check runs in is only a warning: it works when training starts from here, and nowhere else."""
    if why == "trailing-space":
        out.findings.append(finding("list-line-misread", path, tr(
            "'{entry}' is followed by a space or tab. yolov5 keeps it as part of the name, so the name no longer "
            "ends in an image suffix and yolov5 skips the line silently: the image is not trained. Delete the "
            "trailing space.", entry=entry), number))
        return True
    if why == "leading-space":
        message = tr(
            "'{entry}' starts with a space or tab. yolov5 keeps it, so the line is not a './' path to yolov5 and "
            "it looks for a file named with that space in the folder training starts from; delete the space.",
            entry=entry)
    else:
        message = tr(
            "'{entry}' has no './' in front. yolov5 reads such a line relative to the folder training is started "
            "from ({cwd}), not relative to this list's folder; write it as './{entry}' (or absolute).",
            entry=entry, cwd=os.getcwd())
    found = image is not None and os.path.isfile(image)
    if found and os.path.realpath(image) == os.path.realpath(meant):
        out.findings.append(finding("list-line-misread", path, message, number, severity="warning"))
        return False
    out.findings.append(finding("list-line-misread", path, message + " " + tr(
        "yolov5 does not find {meant} that way and trains without it.", meant=meant), number))
    return True


def _listed_not_a_file(image: str, entry: str, path: Path, number: int, out: SplitFiles) -> None:
    if os.path.exists(image):  # a pipe or device: yolov5's Image.open would wait on it forever
        out.findings.append(finding("image-not-a-file", path, tr(
            "{entry} is not a file but a pipe, socket or device. yolov5 would wait forever reading it; remove "
            "it from the list.", entry=entry), number))
        return
    out.findings.append(finding("image-missing", path, tr(
        "{entry} is listed but does not exist. yolov5 counts it as corrupt ('No such file or directory') and "
        "trains without it.", entry=entry), number))


#: Findings about a split's folders that would make yolov5's own search hang or spin: training is refused.
BLOCKING_CODES = ("split-symlink-loop", "split-too-large", "image-not-a-file")


def blocking_findings(yaml_file: Path, limits: WalkLimits | None = None) -> list[Finding]:
    """What in the training splits' folders would hang yolov5 (loops, pipes, a whole disk), found by the
    same bounded search the dataset check uses; raises ``ScanCancelled`` when ``limits.cancelled`` says so."""
    from core.dataset.data_yaml import read_data_yaml

    judged = read_data_yaml(yaml_file)
    if judged.spec is None:
        return []
    limits = limits or WalkLimits()
    found: list[Finding] = []
    for name in ("train", "val"):
        split = judged.spec.splits.get(name)
        if split is not None:
            found += [f for f in list_split(split, str(yaml_file), None, limits).findings if f.code in BLOCKING_CODES]
    return found
