"""Which dataset findings have a one-click fix, what that fix does, and how to say so — one table.

The Dataset page's Fix… button, its "no automatic fix" words and the Train page's count of fixable errors
read this table, so a page never promises a fix that is not there (issue 25: the Train page said "several
have one-click fixes" while Fix… was offered for orphan labels only). ``core.dataset.fixes`` plans and
applies them; a code listed here may still have no fix for one finding (a label already fixed, a pixel
coordinate that needs a person), so the count says "up to".
"""

from __future__ import annotations

from typing import Iterable

from core.findings import Finding, Severity
from core.i18n import tr

#: images yolov5 cannot use (``verify_image_label`` drops them as corrupt): Fix… takes them out of the split
DROP_IMAGE = ("image-corrupt", "image-too-small")
#: fixed by editing the data.yaml text (through the editor and its undo), not by rewriting a file here
YAML_FIXES = ("path-foreign", "path-relative")


def _what(code: str) -> str:
    """What Fix… does for a finding of ``code``, in words (read at call time: the language may change)."""
    return {
        "label-duplicate-row": tr("delete the repeated row"),
        "label-not-normalized": tr("clip coordinates slightly outside [0, 1] to the edge"),
        "label-encoding": tr("remove the byte-order mark"),
        "label-class-range": tr("delete the row with the impossible class id"),
        "label-orphan": tr("move the label aside into _orphaned_labels/"),
        "train-val-leak": tr("remove the image from the val list"),
        "image-corrupt": tr("take the image out of its split"),
        "image-too-small": tr("take the image out of its split"),
        "path-foreign": tr("set 'path' to where the dataset is now"),
        "path-relative": tr("set 'path' to where the dataset is now"),
    }.get(code, "")


FIXABLE = ("label-duplicate-row", "label-not-normalized", "label-encoding", "label-class-range", "label-orphan",
           "train-val-leak", *DROP_IMAGE, *YAML_FIXES)


def fix_description(code: str) -> str:
    """What Fix… does for ``code``, or "" when there is no automatic fix for it."""
    return _what(code) if code in FIXABLE else ""


def fixable_errors(findings: Iterable[Finding]) -> int:
    """How many of the errors are of a kind Fix… may fix (each is previewed; some need a person after all)."""
    return sum(1 for f in findings if f.severity is Severity.ERROR and f.code in FIXABLE)


def fix_words(findings: Iterable[Finding]) -> str:
    """The Train page's sentence about fixing a check's errors on the Dataset page."""
    findings = list(findings)
    errors = sum(1 for f in findings if f.severity is Severity.ERROR)
    fixable = fixable_errors(findings)
    if not fixable:
        return tr("None of them has an automatic fix: each says what to do; change the files, then check again.")
    if fixable == errors:
        return tr("Each has a one-click fix on the Dataset page (Fix…, previewed and undoable).")
    return tr("{n} of {total} have a one-click fix on the Dataset page (Fix…, previewed and undoable); the "
              "others say what to do.", n=fixable, total=errors)
