"""One-click fixes for findings, previewed before they run and never destructive without a backup.

Each fix is planned first (``plan_fix`` returns what will change, as before/after text for a label file or
as moves), shown to the user, and only then applied; ``undo_fix`` puts back what it changed. Label files
and list files are rewritten atomically with ``<name>.bak`` kept before the first overwrite; orphan labels
are moved aside into ``_orphaned_labels/``, images dropped from a folder split into ``_excluded_images/``
(with their label) beside the dataset — never deleted.

Which findings have a fix, and the words for it, are ``core.dataset.fix_catalogue``'s: the Dataset page's
Fix… and the Train page's "n have a one-click fix" read the same table.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from core.atomic import atomic_write_bytes
from core.dataset.files import label_path_for
from core.dataset.fix_catalogue import DROP_IMAGE
from core.dataset.images import is_image_name
from core.dataset.labels import BOM, SLIGHT
from core.findings import Finding, Severity
from core.i18n import tr


class FixChanged(OSError):
    """The file was changed after the fix, so undoing it would lose that change."""


@dataclass
class FixPlan:
    code: str
    file: str
    summary: str
    before: str = ""
    after: str = ""
    move_to: str = ""  # for a move; empty for a rewrite
    list_file: str = ""  # for a leak or a dropped image: the list rewritten without the image
    moves: list[tuple[str, str]] = field(default_factory=list)  # (from, to) besides ``move_to``
    original: bytes = b""  # the rewritten file's bytes before the fix, for ``undo_fix``

    @property
    def all_moves(self) -> list[tuple[str, str]]:
        return ([(self.file, self.move_to)] if self.move_to else []) + self.moves


def plan_fix(finding: Finding, *, val_lists: list[str] | None = None, root: Path | None = None,
             split_lists: list[str] | None = None) -> FixPlan | None:
    """What fixing ``finding`` would do, or None when there is no safe automatic fix for it.

    ``val_lists``: the val split's list files (a leak is removed from val); ``split_lists``: every split's
    list files (an unreadable image is dropped from the one that lists it); ``root``: the dataset's folder."""
    path = Path(finding.file)
    if finding.code == "label-class-range" and finding.severity is Severity.ERROR and finding.line > 0:
        return _plan_line_removal(finding, path)
    if finding.code in DROP_IMAGE:
        return _plan_drop_image(path, split_lists or [], root)
    if finding.code in ("label-duplicate-row", "label-not-normalized", "label-encoding"):
        try:
            raw = path.read_bytes()
        except OSError:
            return None
        if finding.code == "label-encoding" and not raw.startswith(BOM):
            return None  # non-UTF-8 bytes need a person: which encoding was meant is a guess
        before = raw.decode("utf-8", errors="replace")
        after = _fixed_text(raw)
        if after is None or after == before.lstrip("\ufeff") and not raw.startswith(BOM):
            return None
        return FixPlan(finding.code, str(path), tr("Rewrite {name} (backup kept as {name}.bak)", name=path.name),
                       before=before.lstrip("\ufeff"), after=after, original=raw)
    if finding.code == "label-orphan":
        from core.dataset.crossfile import image_beside

        if image_beside(str(path)) is not None:
            return None  # its image is there (now): moving the label would change what yolov5 could train
        base = root or path.parent
        target = base / "_orphaned_labels" / _relative(path, base)
        return FixPlan(finding.code, str(path), tr("Move {name} to {target}", name=path.name, target=target),
                       move_to=str(target))
    if finding.code == "train-val-leak":
        for list_file in val_lists or []:
            text = Path(list_file).read_text(encoding="utf-8", errors="replace")
            kept = [line for line in text.splitlines() if not _same_entry(line, list_file, str(path))]
            if len(kept) < len(text.splitlines()):
                after = "\n".join(kept) + ("\n" if text.endswith("\n") else "")
                return FixPlan(finding.code, str(path), tr("Remove {name} from {list}", name=path.name,
                                                           list=Path(list_file).name),
                               before=text, after=after, list_file=list_file)
        return None  # a val *folder*: moving images is the user's call
    return None


def _plan_line_removal(finding: Finding, path: Path) -> FixPlan | None:
    """Delete the one label row whose class id cannot be a class (negative, or beyond the names)."""
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    text = raw.decode("utf-8", errors="replace")
    lines = text.splitlines(keepends=True)
    if not 0 < finding.line <= len(lines):
        return None  # the file changed since the check
    after = "".join(lines[:finding.line - 1] + lines[finding.line:])
    return FixPlan(finding.code, str(path), tr("Delete line {line} of {name} ({row}); backup kept as {name}.bak",
                                               line=finding.line, name=path.name, row=lines[finding.line - 1].strip()),
                   before=text, after=after, original=raw)


def can_reassign(finding: Finding) -> bool:
    """A label row whose class id is beyond the names (or negative) may be given a class instead of deleted
    (issue 32: deleting the row was the only fix offered for "class 99")."""
    return finding.code == "label-class-range" and finding.severity is Severity.ERROR and finding.line > 0


def plan_reassign(finding: Finding, new_class: int, name: str = "") -> FixPlan | None:
    """Give the finding's label row class ``new_class`` (its box kept); None when the file changed since the
    check (the line is gone). Rewritten with a ``.bak``, undone like any fix."""
    path = Path(finding.file)
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    text = raw.decode("utf-8", errors="replace")
    lines = text.splitlines(keepends=True)
    if not can_reassign(finding) or not 0 < finding.line <= len(lines):
        return None
    line = lines[finding.line - 1]
    body = line.rstrip("\r\n")
    head = len(body) - len(body.lstrip())
    tokens = body.lstrip().split(maxsplit=1)
    if not tokens:
        return None
    new = body[:head] + str(int(new_class)) + (" " + tokens[1] if len(tokens) > 1 else "") + line[len(body):]
    after = "".join(lines[:finding.line - 1] + [new] + lines[finding.line:])
    return FixPlan(finding.code, str(path), tr("Line {line} of {name}: class {old} becomes {new} ({cls}); backup "
                                               "kept as {name}.bak", line=finding.line, name=path.name,
                                               old=tokens[0], new=int(new_class), cls=name or new_class),
                   before=text, after=after, original=raw)


def _plan_drop_image(image: Path, split_lists: list[str], root: Path | None) -> FixPlan | None:
    """Take an image yolov5 cannot read out of its split: out of the list that names it, or (a folder split)
    moved aside with its label into ``_excluded_images/``, so it can be repaired and put back."""
    for list_file in split_lists:
        try:
            text = Path(list_file).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        kept = [line for line in text.splitlines() if not _same_entry(line, list_file, str(image))]
        if len(kept) < len(text.splitlines()):
            after = "\n".join(kept) + ("\n" if text.endswith("\n") and kept else "")
            return FixPlan("image-corrupt", str(image), tr("Remove {name} from {list} (backup kept as {list}.bak)",
                                                           name=image.name, list=Path(list_file).name),
                           before=text, after=after, list_file=list_file, original=text.encode("utf-8"))
    if not image.is_file() or not is_image_name(image.name):
        return None
    base = root or image.parent
    target = base / "_excluded_images" / _relative(image, base)
    moves = []
    label = Path(label_path_for(str(image)))
    if label.is_file():
        moves.append((str(label), str(base / "_excluded_images" / _relative(label, base))))
        summary = tr("Move {name} and its label {label} out of the split into {target}", name=image.name,
                     label=label.name, target=base / "_excluded_images")
    else:
        summary = tr("Move {name} out of the split into {target}", name=image.name, target=base / "_excluded_images")
    return FixPlan("image-corrupt", str(image), summary, move_to=str(target), moves=moves)


def apply_fix(plan: FixPlan) -> None:
    if plan.all_moves:
        for source, to in plan.all_moves:
            if Path(to).exists():
                raise FileExistsError(to)
        for source, to in plan.all_moves:
            Path(to).parent.mkdir(parents=True, exist_ok=True)
            shutil.move(source, to)
    else:
        target = Path(plan.list_file or plan.file)
        if not plan.original:
            plan.original = target.read_bytes()
        atomic_write_bytes(target, plan.after.encode("utf-8"), backup=True)


def undo_fix(plan: FixPlan) -> None:
    """Put back what ``apply_fix(plan)`` changed; ``FixChanged`` when the file was edited since."""
    if plan.all_moves:
        for source, to in plan.all_moves:
            if Path(source).exists():
                raise FileExistsError(source)
        for source, to in reversed(plan.all_moves):
            shutil.move(to, source)
        return
    target = Path(plan.list_file or plan.file)
    if target.read_bytes() != plan.after.encode("utf-8"):
        raise FixChanged(tr("{name} changed after the fix; its backup {name}.bak is kept", name=target.name))
    atomic_write_bytes(target, plan.original, backup=False)


def _fixed_text(raw: bytes) -> str | None:
    """The label text without a BOM, without duplicate rows, with slightly-out coordinates clipped."""
    text = raw[3:].decode("utf-8") if raw.startswith(BOM) else raw.decode("utf-8", errors="strict")
    newline = "\r\n" if "\r\n" in text else "\n"
    out, seen = [], set()
    for line in text.splitlines():
        tokens = line.split()
        try:
            values = [float(t) for t in tokens]
        except ValueError:
            out.append(line)
            continue
        if len(values) >= 5:
            coords = values[1:]
            if all(-SLIGHT <= v <= 1 + SLIGHT for v in coords) and any(v < 0 or v > 1 for v in coords):
                tokens = tokens[:1] + [_clip(t, v) for t, v in zip(tokens[1:], coords)]
                line = " ".join(tokens)
        key = tuple(float(t) for t in tokens) if tokens else None
        if key is not None and key in seen:
            continue
        if key is not None:
            seen.add(key)
        out.append(line)
    return newline.join(out) + (newline if text.endswith(("\n", "\r")) else "")


def _clip(token: str, value: float) -> str:
    return "0" if value < 0 else "1" if value > 1 else token


def _relative(path: Path, base: Path) -> Path:
    try:
        return path.relative_to(base)
    except ValueError:
        return Path(path.name)


def _same_entry(line: str, list_file: str, image: str) -> bool:
    entry = line.strip()
    if not entry:
        return False
    parent = os.path.dirname(list_file) + os.sep
    resolved = entry.replace("./", parent, 1) if entry.startswith("./") else entry
    if not os.path.isabs(resolved):
        resolved = os.path.join(os.path.dirname(list_file), resolved)
    return os.path.normpath(resolved) == os.path.normpath(image)
