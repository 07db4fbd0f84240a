"""One YOLO label file: its rows, and what is wrong with each line — judged the way yolov5 reads it.

yolov5 7.0.14 (``utils/dataloaders.py: verify_image_label``) reads ``f.read().strip().splitlines()``, keeps
the lines that are not empty, splits each on whitespace and, when any row has more than 6 values, reads
every row as a polygon (class, x y pairs) and replaces it by its bounding box. It converts the rows to
one float32 array and then asserts, in this order: 5 columns; every value ``>= 0`` (class, centre and
size — NaN fails this too and is printed as ``[]``); every coordinate ``<= 1``. The first failure drops
the *whole image* as "corrupt" with that one message. Only then it removes duplicate rows (compared as
float32, after the polygon-to-box conversion) with a warning. Nothing else is checked: a fractional
class id, a zero-size box or a polygon point outside the image pass.

This parser never raises: every problem becomes a finding with its line, judged on the same float32
values in the same order, and each finding says what yolov5 will do — ``tests/worker/test_yolov5_claims.py``
runs yolov5's own function on each case and holds every such sentence to it. CRLF, tabs, trailing spaces
and empty lines are accepted (yolov5 accepts them). Class ids are checked against ``nc`` later
(``validate``), so a cached parse stays valid when only the class list changes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from core.dataset.findings import ERROR, WARNING, finding
from core.findings import Finding
from core.i18n import tr

BOM = b"\xef\xbb\xbf"
SLIGHT = 0.02  # coordinates this far outside [0, 1] are rounding, not pixel coordinates
#: yolov5's messages, quoted in findings so a user can match them with yolov5's own log.
NEGATIVE = "negative label values"
OUT_OF_BOUNDS = "non-normalized or out of bounds coordinates"
INHOMOGENEOUS = "inhomogeneous shape"


@dataclass
class LabelResult:
    """``rows``: (line, class, x, y, w, h) per row yolov5 keeps (polygons as their bounding box)."""

    rows: list[tuple[int, float, float, float, float, float]] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    segments: bool = False


def decode_label(raw: bytes, file: str, out: list[Finding]) -> str:
    """Text of a label file; records ``label-encoding`` for a BOM or bytes that are not UTF-8.

    yolov5 opens labels in the locale's encoding; the worker runs in UTF-8 mode (``core.job.launch``), so
    that is UTF-8 on every OS and a BOM stays glued to the first value as U+FEFF."""
    bom = raw.startswith(BOM)
    if bom:
        raw = raw[3:]
        out.append(finding("label-encoding", file, tr(
            "The file starts with a UTF-8 byte-order mark. yolov5 reads it as part of the first number and "
            "drops the image as corrupt with a confusing 'could not convert string to float' message; strip "
            "the mark (one-click fix)."), 1))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        out.append(finding("label-encoding", file, tr(
            "Byte {offset} is not UTF-8 text. yolov5 drops the image as corrupt (\"'utf-8' codec can't "
            "decode byte\"); save the file as plain UTF-8 (or ASCII) text.", offset=exc.start), line))
        return raw.decode("utf-8", errors="replace")


def parse_label_bytes(raw: bytes, file: str = "labels.txt") -> LabelResult:
    result = LabelResult()
    text = decode_label(raw, file, result.findings)
    parse_label_text(text, file, result)
    return result


def _number(token: str) -> float | None:
    try:
        return float(token)
    except ValueError:
        return None


def parse_label_text(text: str, file: str, result: LabelResult | None = None) -> LabelResult:
    result = result or LabelResult()
    out = result.findings
    lines = text.splitlines()
    filled = [i for i, line in enumerate(lines) if line.strip()]
    first, last = (filled[0], filled[-1]) if filled else (0, -1)
    parsed: list[tuple[int, list[str]]] = []
    blank_rows: list[int] = []
    for index, line in enumerate(lines):
        tokens = line.split()
        if tokens:
            parsed.append((index + 1, tokens))
        elif line and first < index < last:
            blank_rows.append(index + 1)  # kept by yolov5 as an empty row: judged once we know the format
    result.segments = any(len(tokens) > 6 for _, tokens in parsed)
    for line_no in blank_rows:
        out.append(finding("label-columns", file, tr(
            "This line holds only spaces or tabs between label rows. yolov5 keeps it as an empty row and drops "
            "the whole image as corrupt ('{reason}'); delete the line.",
            reason="list index out of range" if result.segments else INHOMOGENEOUS), line_no))
    widths = {len(tokens) for _, tokens in parsed}
    uniform = len(widths) == 1 and not blank_rows  # yolov5 can name the column count only then
    candidates: list[tuple[int, list[str], list[float]]] = []
    for line_no, tokens in parsed:
        values = [_number(t) for t in tokens]
        bad = [t for t, v in zip(tokens, values) if v is None]
        if bad:
            out.append(finding("label-value", file, tr(
                "'{token}' is not a number. yolov5 drops the image as corrupt ('could not convert string to "
                "float').", token=bad[0][:40]), line_no))
            continue
        nums = [v for v in values if v is not None]
        if _columns_ok(nums, result.segments, uniform, file, line_no, out):
            candidates.append((line_no, tokens, nums))
    boxes = _float32_boxes([nums for _, _, nums in candidates], result.segments)
    seen: dict[tuple[float, ...], int] = {}
    for (line_no, tokens, nums), row in zip(candidates, boxes):
        if not _row_kept(row, tokens[0], file, line_no, out):
            continue
        cls, x, y, w, h = row
        if math.isinf(cls):  # passes yolov5's checks (only coordinates are held to <= 1) ...
            out.append(finding("label-nan", file, tr(
                "The class id is infinite. yolov5's scan keeps the row, then training fails when it turns the "
                "class into a whole number ('cannot convert float infinity to integer')."), line_no))
            continue
        if cls != int(cls):
            out.append(finding("label-class-range", file, tr(
                "Class id {cls} is not a whole number. yolov5 accepts the row and trains it as class {int} "
                "(its loss truncates ids); was a column shifted?", cls=tokens[0], int=int(cls)), line_no,
                severity=WARNING))
        if w == 0 or h == 0:
            out.append(finding("label-nonpositive-size", file, tr(
                "The box has width {w} and height {h}. yolov5 keeps it, but a box without area teaches the "
                "model nothing and usually means a labelling slip.", w=_fmt(w), h=_fmt(h)), line_no))
        key = tuple(row)
        if key in seen:
            out.append(finding("label-duplicate-row", file, tr(
                "The same {what} as line {first}. yolov5 removes duplicates with a warning; drop it "
                "(one-click fix).", what=tr("box") if result.segments else tr("row"), first=seen[key]), line_no))
            continue
        seen[key] = line_no
        result.rows.append((line_no, cls, x, y, w, h))
    return result


def _columns_ok(nums: list[float], segments: bool, uniform: bool, file: str, line_no: int,
                out: list[Finding]) -> bool:
    """yolov5's shape rules; the quoted message is the one numpy or yolov5 gives for this file."""
    n = len(nums)
    if not segments:
        if n != 5:
            reason = f"labels require 5 columns, {n} columns detected" if uniform else INHOMOGENEOUS
            out.append(finding("label-columns", file, tr(
                "{n} values; a box row is 'class x_center y_center width height' (5 values). yolov5 drops "
                "the image as corrupt ('{reason}').", n=n, reason=reason), line_no))
            return False
        return True
    if n == 1:
        out.append(finding("label-columns", file, tr(
            "Only a class id, in a file of polygons. yolov5 drops the image as corrupt ('zero-size array to "
            "reduction operation'): a polygon row is a class and x y pairs."), line_no))
        return False
    if (n - 1) % 2:
        out.append(finding("label-columns", file, tr(
            "A polygon row needs a class and x y pairs, but this one has {n} coordinates (an odd number). "
            "yolov5 drops the image as corrupt ('cannot reshape array of size {n} into shape (2)').", n=n - 1),
            line_no))
        return False
    if n <= 6:
        out.append(finding("label-mixed-formats", file, tr(
            "A {n}-value row in a file of polygons. yolov5 reads every row of this file as a polygon, so "
            "this row becomes a {points}-point polygon and its box is wrong; keep one format per file.",
            n=n, points=(n - 1) // 2), line_no))
    return True


def _float32_boxes(rows: list[list[float]], segments: bool) -> list[list[float]]:
    """Each row as yolov5 holds it: float32 ``[class, x, y, w, h]``, polygons reduced to their box with
    yolov5's own arithmetic (``segments2boxes``: min/max of the points, then ``xyxy2xywh``)."""
    if not rows:
        return []
    with np.errstate(over="ignore", invalid="ignore"):  # 1e39 -> inf and inf - inf -> nan, as in yolov5
        if not segments:
            return np.asarray(rows, dtype=np.float32).tolist()
        out = []
        for row in rows:
            points = np.asarray(row[1:], dtype=np.float32).reshape(-1, 2)
            x0, y0 = points.min(0)
            x1, y1 = points.max(0)
            box = np.array([np.float32(row[0]), (x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0], dtype=np.float32)
            out.append(box.tolist())
        return out


def _row_kept(row: list[float], cls_token: str, file: str, line_no: int, out: list[Finding]) -> bool:
    """yolov5's two value assertions on one row, in its order; False (with one finding) when it drops the image.

    The code names the cause (NaN/infinity, class, size, position); the quoted message is the one yolov5
    prints, which for NaN is the misleading 'negative label values []'."""
    cls, x, y, w, h = row
    negative = [v for v in row if not v >= 0]  # NaN fails yolov5's ``lb >= 0`` as well
    over = [v for v in row[1:] if v > 1]
    if not negative and not over:
        return True
    quote = f"{NEGATIVE} [{' '.join(_fmt(v) for v in negative if not math.isnan(v))}]" if negative else \
        f"{OUT_OF_BOUNDS} [{' '.join(_fmt(v) for v in over)}]"
    if any(math.isnan(v) or math.isinf(v) for v in row):
        out.append(finding("label-nan", file, tr(
            "The row holds NaN or infinity. yolov5 drops the image as corrupt and reports it as '{quote}', "
            "which hides the real cause.", quote=quote), line_no))
    elif cls < 0:
        out.append(finding("label-class-range", file, tr(
            "Class id {cls} is negative. yolov5 drops the image as corrupt ('{quote}').", cls=cls_token,
            quote=quote), line_no))
    elif w < 0 or h < 0:
        out.append(finding("label-nonpositive-size", file, tr(
            "The box has width {w} and height {h}: a size cannot be negative. yolov5 drops the image as "
            "corrupt ('{quote}'). If a converter subtracted the corners in the wrong order, the absolute "
            "value is the real size.", w=_fmt(w), h=_fmt(h), quote=quote), line_no, severity=ERROR))
    else:
        out.append(finding("label-not-normalized", file, tr(
            "Values outside [0, 1] (from {low} to {high}). yolov5 drops the image as corrupt ('{quote}'). "
            "{hint}", low=_fmt(min(row[1:])), high=_fmt(max(row[1:])), quote=quote, hint=_range_hint(row[1:])),
            line_no))
    return False


def _range_hint(coords: list[float]) -> str:
    low, high = min(coords), max(coords)
    if high > 1.5:
        return tr("They look like pixel coordinates: divide x and width by the image width, y and height by its "
                  "height.")
    if low >= -SLIGHT and high <= 1 + SLIGHT:
        return tr("They are only slightly outside: clip them to [0, 1] (one-click fix).")
    return tr("Coordinates are fractions of the image size, between 0 and 1.")


def _fmt(value: float) -> str:
    return f"{value:.6g}"
