"""One YOLO label file: its rows, and what is wrong with each line — judged the way yolov5 reads it.

yolov5 (``verify_image_label``) reads ``f.read().strip().splitlines()``, splits each non-empty line on
whitespace and converts everything with numpy; any failure drops the *whole image* as "corrupt" with a
terse message. This parser never raises: every problem becomes a finding with its line, and each
finding says what yolov5 would do. CRLF, tabs, trailing spaces and empty lines are accepted (yolov5
accepts them). Class ids are checked against ``nc`` later (``validate``), so a cached parse stays valid
when only the class list changes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from core.dataset.findings import Finding, finding
from core.i18n import tr

BOM = b"\xef\xbb\xbf"
SLIGHT = 0.02  # coordinates this far outside [0, 1] are rounding, not pixel coordinates


@dataclass
class LabelResult:
    """``rows``: (line, class, x, y, w, h) per usable row (polygons as their bounding box)."""

    rows: list[tuple[int, float, float, float, float, float]] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    segments: bool = False
    fixable_bom: bool = False


def decode_label(raw: bytes, file: str, out: list[Finding]) -> tuple[str, bool]:
    """Text of a label file; records ``label-encoding`` for a BOM or bytes that are not UTF-8."""
    bom = raw.startswith(BOM)
    if bom:
        raw = raw[3:]
        out.append(finding("label-encoding", file, tr(
            "The file starts with a UTF-8 byte-order mark. yolov5 cannot read the first number and drops "
            "the image as corrupt with a confusing 'could not convert string to float' message; strip "
            "the mark (one-click fix)."), 1))
    try:
        return raw.decode("utf-8"), bom
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        out.append(finding("label-encoding", file, tr(
            "Byte {offset} is not UTF-8 text. yolov5 drops the image as corrupt; save the file as plain "
            "UTF-8 (or ASCII) text.", offset=exc.start), line))
        return raw.decode("utf-8", errors="replace"), bom


def parse_label_bytes(raw: bytes, file: str = "labels.txt") -> LabelResult:
    result = LabelResult()
    text, result.fixable_bom = decode_label(raw, file, result.findings)
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
    for index, line in enumerate(lines):
        tokens = line.split()
        if tokens:
            parsed.append((index + 1, tokens))
        elif line and first < index < last:
            out.append(finding("label-columns", file, tr(
                "This line holds only spaces or tabs between label rows. yolov5 keeps it as an empty row "
                "and drops the whole image as corrupt ('inhomogeneous shape'); delete the line."), index + 1))
    result.segments = any(len(tokens) > 6 for _, tokens in parsed)
    seen: dict[tuple[float, ...], int] = {}
    for line_no, tokens in parsed:
        values = [_number(t) for t in tokens]
        bad = [t for t, v in zip(tokens, values) if v is None]
        if bad:
            out.append(finding("label-value", file, tr(
                "'{token}' is not a number. yolov5 drops the image as corrupt ('could not convert string to "
                "float').", token=bad[0][:40]), line_no))
            continue
        nums = [v for v in values if v is not None]
        if not _columns_ok(nums, result.segments, file, line_no, out):
            continue
        if any(math.isnan(v) or math.isinf(v) for v in nums):
            out.append(finding("label-nan", file, tr(
                "The row holds NaN or infinity. yolov5 drops the image as corrupt and reports it as "
                "'negative label values []', which hides the real cause."), line_no))
            continue
        cls = nums[0]
        if cls < 0 or cls != int(cls):
            out.append(finding("label-class-range", file, tr(
                "Class id {cls} is not a whole number ≥ 0. yolov5 drops the image as corrupt.",
                cls=tokens[0]), line_no))
            continue
        coords = nums[1:]
        box = _box(coords) if result.segments else tuple(coords)
        if not _range_ok(coords, file, line_no, out):
            continue
        x, y, w, h = box
        if w <= 0 or h <= 0:
            out.append(finding("label-nonpositive-size", file, tr(
                "The box has width {w} and height {h}. yolov5 keeps it, but a box without area teaches "
                "the model nothing and usually means a labelling slip.", w=_fmt(w), h=_fmt(h)), line_no))
        key = tuple(nums)
        if key in seen:
            out.append(finding("label-duplicate-row", file, tr(
                "The same row as line {first}. yolov5 removes duplicates with a warning; drop it "
                "(one-click fix).", first=seen[key]), line_no))
            continue
        seen[key] = line_no
        result.rows.append((line_no, cls, x, y, w, h))
    return result


def _columns_ok(nums: list[float], segments: bool, file: str, line_no: int, out: list[Finding]) -> bool:
    n = len(nums)
    if not segments:
        if n != 5:
            out.append(finding("label-columns", file, tr(
                "{n} values; a box row is 'class x_center y_center width height' (5 values). yolov5 drops "
                "the image as corrupt ('labels require 5 columns').", n=n), line_no))
            return False
        return True
    if n < 3:
        out.append(finding("label-columns", file, tr(
            "{n} values in a file of polygons; a polygon row is a class and at least 3 x y pairs. yolov5 drops "
            "the image as corrupt.", n=n), line_no))
        return False
    if (n - 1) % 2:
        out.append(finding("label-columns", file, tr(
            "A polygon row needs a class and x y pairs, but this one has {n} coordinates (an odd number). "
            "yolov5 drops the image as corrupt.", n=n - 1), line_no))
        return False
    if n <= 6:
        out.append(finding("label-mixed-formats", file, tr(
            "A {n}-value row in a file of polygons. yolov5 reads every row of this file as a polygon, so "
            "this row becomes a {points}-point polygon and its box is wrong; keep one format per file.",
            n=n, points=(n - 1) // 2), line_no))
    return True


def _range_ok(coords: list[float], file: str, line_no: int, out: list[Finding]) -> bool:
    low, high = min(coords), max(coords)
    if low >= 0 and high <= 1:
        return True
    if high > 1.5:
        hint = tr("They look like pixel coordinates: divide x and width by the image width, y and height "
                  "by its height.")
    elif low >= -SLIGHT and high <= 1 + SLIGHT:
        hint = tr("They are only slightly outside: clip them to [0, 1] (one-click fix).")
    else:
        hint = tr("Coordinates are fractions of the image size, between 0 and 1.")
    out.append(finding("label-not-normalized", file, tr(
        "Values outside [0, 1] (from {low} to {high}). yolov5 drops the image as corrupt "
        "('non-normalized or out of bounds coordinates'). {hint}", low=_fmt(low), high=_fmt(high), hint=hint),
        line_no))
    return False


def _box(coords: list[float]) -> tuple[float, float, float, float]:
    xs, ys = coords[0::2], coords[1::2]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    return (x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0


def _fmt(value: float) -> str:
    return f"{value:.6g}"
