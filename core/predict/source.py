"""What a predict SOURCE is, decided without opening it: both faces refuse a wrong one before a worker starts.

The kinds follow Ultralytics' ``predict`` sources (ultralytics/data/utils.py IMG_FORMATS/VID_FORMATS and
build.py check_source): a digit string is a webcam index, an rtsp/rtmp/http(s) URL a stream (the network is
used only because the user gave the URL), an existing file an image or a video by its suffix, a folder its
images and videos (sorted), anything with ``* ? [`` a glob. The worker expands the same way (``expand``), one
file at a time, so a folder of a million images is never listed into a spec.
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from core.dataset.images import IMG_FORMATS
from core.i18n import tr

#: Ultralytics' VID_FORMATS (ultralytics/data/utils.py), the suffixes OpenCV's FFmpeg backend opens.
VID_FORMATS = ("asf", "avi", "gif", "m4v", "mkv", "mov", "mp4", "mpeg", "mpg", "ts", "wmv", "webm")
STREAM_SCHEMES = ("rtsp://", "rtmp://", "http://", "https://")
GLOB_CHARS = ("*", "?", "[")


class SourceError(ValueError):
    """A SOURCE this app cannot read, with what to do."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message, self.hint = message, hint


@dataclass(frozen=True)
class Source:
    """``kind``: image | video | folder | glob | webcam | stream; ``value``: the path, pattern, index or URL."""

    kind: str
    value: str

    @property
    def is_live(self) -> bool:
        """A camera or a stream: no end of its own, so the job runs until stopped."""
        return self.kind in ("webcam", "stream")


def suffix_kind(path: str | Path) -> str | None:
    suffix = Path(path).suffix.lower().lstrip(".")
    return "image" if suffix in IMG_FORMATS else "video" if suffix in VID_FORMATS else None


def classify(text: str) -> Source:
    """The kind of ``text``; ``SourceError`` when it is none of them (a missing file, an unknown suffix)."""
    text = str(text).strip()
    if text.isdigit():
        return Source("webcam", text)
    if text.lower().startswith(STREAM_SCHEMES):
        return Source("stream", text)
    path = Path(text).expanduser()
    if path.is_dir():
        return Source("folder", str(path.resolve()))
    if path.is_file():
        kind = suffix_kind(path)
        if kind is None:
            raise SourceError(tr("{path} is neither an image nor a video this app reads.", path=path),
                              tr("Images: {images}; videos: {videos}.", images=", ".join(IMG_FORMATS),
                                 videos=", ".join(VID_FORMATS)))
        return Source(kind, str(path.resolve()))
    if any(c in text for c in GLOB_CHARS):
        return Source("glob", str(Path(text).expanduser()))
    raise SourceError(tr("{path} does not exist.", path=path),
                      tr("Give an image, a folder, a glob such as 'images/*.jpg', a video, a camera index (0) or "
                         "an rtsp:// or http:// stream."))


def expand(source: Source) -> Iterator[Path]:
    """The files of a folder or glob (images and videos, sorted), or the one file; nothing for a live source."""
    if source.kind in ("image", "video"):
        yield Path(source.value)
        return
    if source.kind == "folder":
        names = sorted(os.listdir(source.value))
        paths = (Path(source.value) / name for name in names)
    elif source.kind == "glob":
        paths = (Path(p) for p in sorted(glob.iglob(source.value, recursive=True)))
    else:
        return
    for path in paths:
        if path.is_file() and suffix_kind(path):
            yield path


def check(source: Source) -> None:
    """A folder or glob with nothing to predict on is refused before a worker starts."""
    if source.kind in ("folder", "glob") and next(expand(source), None) is None:
        raise SourceError(tr("{source} holds no image or video.", source=source.value),
                          tr("Images: {images}; videos: {videos}.", images=", ".join(IMG_FORMATS),
                             videos=", ".join(VID_FORMATS)))
