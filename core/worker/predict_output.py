"""What predict writes into its output folder, frame by frame (nothing is held until the end).

- the annotated image (same name) or video (``<stem>.mp4``, the source's frame rate; one writer open at a time);
- ``labels/<stem>.txt`` (a video's frame: ``<stem>_<frame>.txt``), yolov5's ``detect.py --save-txt`` lines;
- ``detections.jsonl`` (one object per image or frame, ``core.predict.records.record``) and
  ``detections.csv`` (one row per box), each line flushed as written, so a stopped job keeps what it did.
The folder is a new one the job owns (not a file of the user's), so files are written in place.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import numpy as np

from core.predict.records import CSV_HEADER, csv_rows, label_lines

_PALETTE = [(56, 56, 255), (151, 157, 255), (31, 112, 255), (29, 178, 255), (49, 210, 207), (10, 249, 72),
            (23, 204, 146), (134, 219, 61), (52, 147, 26), (187, 212, 0), (168, 153, 44), (255, 194, 0)]


def annotate(image: np.ndarray, boxes: list[list[float]], names: dict[int, str]) -> np.ndarray:
    """Boxes and ``name conf`` drawn with OpenCV alone (yolov5's Annotator may download a font)."""
    import cv2

    out = image.copy()
    for x1, y1, x2, y2, conf, cls in boxes:
        color = _PALETTE[int(cls) % len(_PALETTE)]
        p1, p2 = (int(x1), int(y1)), (int(x2), int(y2))
        cv2.rectangle(out, p1, p2, color, 2, cv2.LINE_AA)
        label = f"{names.get(int(cls), int(cls))} {conf:.2f}"
        (w, h), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, 0.5, 1)
        top = max(p1[1] - h - 4, 0)
        cv2.rectangle(out, (p1[0], top), (p1[0] + w + 2, top + h + 4), color, -1)
        cv2.putText(out, label, (p1[0] + 1, top + h + 1), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 1,
                    cv2.LINE_AA)
    return out


def _stem(source: str) -> str:
    name = Path(source).stem if "://" not in source else "stream"
    return name.replace(" ", "") or "frame"


class Outputs:
    """The output folder of one predict job; ``write`` per frame, ``close`` at the end (also on a stop)."""

    def __init__(self, folder: Path, names: dict[int, str], *, save_images: bool = True,
                 save_labels: bool = True) -> None:
        self.folder, self.names = Path(folder), names
        self.save_images, self.save_labels = save_images, save_labels
        self.folder.mkdir(parents=True, exist_ok=True)
        if save_labels:
            (self.folder / "labels").mkdir(exist_ok=True)
        self.jsonl = open(self.folder / "detections.jsonl", "w", encoding="utf-8")
        self.csv_file = open(self.folder / "detections.csv", "w", encoding="utf-8", newline="")
        self.csv = csv.writer(self.csv_file)
        self.csv.writerow(CSV_HEADER)
        self.video: Any = None
        self.video_source = ""
        self.written: list[str] = []

    def write(self, rec: dict[str, Any], image: np.ndarray, boxes: list[list[float]], *, video: bool,
              fps: float) -> None:
        self.jsonl.write(json.dumps(rec, ensure_ascii=False) + "\n")
        self.jsonl.flush()
        self.csv.writerows(csv_rows(rec))
        self.csv_file.flush()
        stem = _stem(rec["source"])
        if self.save_labels:
            name = f"{stem}_{rec['frame']}.txt" if video else f"{stem}.txt"
            height, width = image.shape[:2]
            lines = label_lines(boxes, width, height)
            (self.folder / "labels" / name).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        if self.save_images:
            drawn = annotate(image, boxes, self.names)
            if video:
                self._video_frame(rec["source"], stem, drawn, fps)
            else:
                import cv2

                target = self.folder / Path(rec["source"]).name
                cv2.imwrite(str(target), drawn)
                self.written.append(str(target))

    def _video_frame(self, source: str, stem: str, image: np.ndarray, fps: float) -> None:
        import cv2

        if self.video is None or self.video_source != source:
            self._close_video()
            target = self.folder / f"{stem}.mp4"
            height, width = image.shape[:2]
            self.video = cv2.VideoWriter(str(target), cv2.VideoWriter_fourcc(*"mp4v"), fps if fps > 0 else 30.0,
                                         (width, height))
            self.video_source = source
            self.written.append(str(target))
        self.video.write(image)

    def _close_video(self) -> None:
        if self.video is not None:
            self.video.release()
            self.video = None

    def close(self) -> None:
        self._close_video()
        self.jsonl.close()
        self.csv_file.close()
