"""Frames of a predict source, one at a time: an image, a video's frames, a camera's or a stream's.

Nothing is read whole: a video is decoded frame by frame by OpenCV (``cv2.VideoCapture``) and each frame is
dropped once predicted and written, so an hour of video takes the memory of one frame. A camera index or a
stream that does not open is the job's ``source`` error (the CLI's exit 2); a file in a folder that OpenCV cannot
read is a ``Skipped`` item (the job warns and goes on).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import numpy as np

from core.i18n import tr
from core.predict.source import Source, expand, suffix_kind
from core.worker.job import JobError


@dataclass
class Frame:
    source: str  # the file, ``webcam 0`` or the stream's URL
    index: int  # the frame's number in its video or stream (0 for an image)
    image: np.ndarray  # BGR
    video: bool
    fps: float = 0.0


@dataclass
class Skipped:
    source: str
    reason: str  # missing | unreadable


def _capture(source: Source):  # -> cv2.VideoCapture
    import cv2

    if source.kind == "webcam":
        cap = cv2.VideoCapture(int(source.value))
        if not cap.isOpened():
            cap.release()
            raise JobError("source", tr("No camera at index {index}: it does not exist or another program holds "
                                        "it.", index=source.value),
                           tr("Check the camera is connected; try index 0, 1, …"))
        return cap
    cap = cv2.VideoCapture(source.value)
    if not cap.isOpened():
        cap.release()
        if source.kind == "stream":
            raise JobError("source", tr("The stream {url} does not open.", url=source.value),
                           tr("Check the address, and that the camera or server is reachable from this machine."))
        raise JobError("source", tr("{path}: not a video this app can read", path=source.value), "")
    return cap


def _video(source: Source, name: str) -> Iterator[Frame]:
    cap = _capture(source)
    try:
        fps = float(cap.get(5) or 0.0)  # cv2.CAP_PROP_FPS
        index = 0
        while True:
            ok, image = cap.read()
            if not ok:
                return
            yield Frame(name, index, image, True, fps)
            index += 1
    finally:
        cap.release()


def frames(source: Source) -> Iterator[Frame | Skipped]:
    """Every frame of ``source`` in order; a folder's or glob's files one after another."""
    import cv2

    if source.kind == "webcam":
        yield from _video(source, f"webcam {source.value}")
        return
    if source.kind == "stream":
        yield from _video(source, source.value)
        return
    single = source.kind in ("image", "video")
    for path in expand(source):
        if suffix_kind(path) == "video":
            try:
                yield from _video(Source("video", str(path)), str(path))
            except JobError:
                if single:
                    raise
                yield Skipped(str(path), "unreadable")
            continue
        image = cv2.imread(str(path))
        if image is None:
            yield Skipped(str(path), "missing" if not Path(path).is_file() else "unreadable")
        else:
            yield Frame(str(path), 0, image, False)
