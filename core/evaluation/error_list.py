""""Export this list": the images of a list of errors as a text file, one path a line, the likeliest label
mistake first and each image once — the form labelling tools (and yolov5's own ``train: list.txt``) read."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

from core.atomic import atomic_write_text


def image_list(errors: Iterable[dict[str, Any]]) -> list[str]:
    """The errors' images in their order, each once."""
    return list(dict.fromkeys(str(row["image"]) for row in errors))


def write_image_list(errors: Iterable[dict[str, Any]], path: Path) -> int:
    """Write the list (atomically, a backup of a file it replaces); the number of images written."""
    images = image_list(errors)
    atomic_write_text(Path(path), "".join(f"{image}\n" for image in images), backup=True)
    return len(images)
