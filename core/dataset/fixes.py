"""One-click fixes for findings, previewed before they run and never destructive without a backup.

Each fix is planned first (``plan_fix`` returns what will change, as before/after text for a label file or
as a move), shown to the user, and only then applied. Label files and list files are rewritten
atomically with ``<name>.bak`` kept before the first overwrite; orphan labels are moved aside into
``_orphaned_labels/`` beside the dataset, never deleted.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from core.atomic import atomic_write_bytes
from core.dataset.labels import BOM, SLIGHT
from core.findings import Finding
from core.i18n import tr

FIXABLE = ("label-duplicate-row", "label-not-normalized", "label-encoding", "label-orphan", "train-val-leak",
           "path-foreign", "path-relative")
#: fixed by editing the data.yaml text (through the editor and its undo), not by rewriting a file here
YAML_FIXES = ("path-foreign", "path-relative")


@dataclass
class FixPlan:
    code: str
    file: str
    summary: str
    before: str = ""
    after: str = ""
    move_to: str = ""  # for a move; empty for a rewrite
    list_file: str = ""  # for a leak: the val list rewritten without the image


def plan_fix(finding: Finding, *, val_lists: list[str] | None = None, root: Path | None = None) -> FixPlan | None:
    """What fixing ``finding`` would do, or None when there is no safe automatic fix for it."""
    path = Path(finding.file)
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
                       before=before.lstrip("\ufeff"), after=after)
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


def apply_fix(plan: FixPlan) -> None:
    if plan.move_to:
        target = Path(plan.move_to)
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.exists():
            raise FileExistsError(target)
        shutil.move(plan.file, target)
    elif plan.list_file:
        atomic_write_bytes(Path(plan.list_file), plan.after.encode("utf-8"), backup=True)
    else:
        atomic_write_bytes(Path(plan.file), plan.after.encode("utf-8"), backup=True)


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
