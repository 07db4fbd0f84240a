"""How yolov5 7.0.14 reads the lines of a ``.txt`` split list — and where that differs from what was meant.

``LoadImagesAndLabels.__init__`` does, for a list file ``p`` (already ``resolve()``-d by ``check_dataset``)::

    t = open(p).read().strip().splitlines()
    parent = str(p.parent) + os.sep
    f += [x.replace('./', parent, 1) if x.startswith('./') else x for x in t]
    im_files = sorted(x.replace('/', os.sep) for x in f if x.split('.')[-1].lower() in IMG_FORMATS)

So only the whole text is stripped, not each line: a line ending in a space has the "suffix" ``'jpg '``
and is skipped silently; a line starting with a space does not start with ``./`` and is opened, space
included, relative to the folder training was started from. A relative line without ``./`` is relative to
that folder too — not to the list's folder — and no path is normalised. ``yolov5_lines`` gives yolov5's
string for each line with its line number; ``misread`` says why a line will not reach the image meant.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from core.dataset.images import IMG_FORMATS


def yolov5_lines(text: str) -> Iterator[tuple[int, str, str]]:
    """``(line number in the file, the line as written, the line as yolov5 holds it)`` for each non-blank line.

    yolov5 strips the whole text, so only the first line's leading and the last line's trailing whitespace go."""
    lines = text.splitlines()
    filled = [i for i, line in enumerate(lines) if line.strip()]
    if not filled:
        return
    first, last = filled[0], filled[-1]
    for i in filled:
        x = lines[i]
        if i == first:
            x = x.lstrip()
        if i == last:
            x = x.rstrip()
        yield i + 1, lines[i], x


def yolov5_image(x: str, parent: str) -> str | None:
    """The image path yolov5 makes of list line ``x`` (``parent`` ends with a separator), or None when its
    suffix test skips the line."""
    path = x.replace("./", parent, 1) if x.startswith("./") else x
    path = path.replace("/", os.sep)
    return path if path.split(".")[-1].lower() in IMG_FORMATS else None


def misread(x: str) -> str:
    """Why yolov5 will not find the image meant by line ``x``: ``trailing-space``, ``leading-space``,
    ``relative`` (no ``./``, not absolute), or "" when it reads the line as meant."""
    if x != x.rstrip():
        return "trailing-space"
    if x != x.lstrip():
        return "leading-space"
    if not x.startswith("./") and not os.path.isabs(x):
        return "relative"
    return ""
