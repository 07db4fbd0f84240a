"""One image's or frame's detections as the user reads them: a JSON line, CSV rows, YOLO label lines.

One owner for the shape, so the worker's files (``detections.jsonl``, ``detections.csv``, ``labels/``) and the
CLI's ``--json`` lines are the same. A box is ``[x1, y1, x2, y2]`` in the original image's pixels, as
Ultralytics' ``Results.boxes.xyxy``; a label line is yolov5's ``cls x y w h`` normalised (``detect.py
--save-txt``).
"""

from __future__ import annotations

from typing import Any

CSV_HEADER = ("source", "frame", "class", "name", "confidence", "x1", "y1", "x2", "y2")


def record(event: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """The ``--json`` object of a ``predictions`` event: source, frame, detections (class, name, confidence, box)."""
    return {"source": event.get("image", ""), "frame": int(event.get("frame", 0)),
            "detections": [{"class": int(b[5]), "name": names.get(int(b[5]), str(int(b[5]))),
                            "confidence": float(b[4]), "box": [float(v) for v in b[:4]]}
                           for b in event.get("boxes", [])]}


def csv_rows(rec: dict[str, Any]) -> list[list[Any]]:
    return [[rec["source"], rec["frame"], d["class"], d["name"], d["confidence"], *d["box"]]
            for d in rec["detections"]]


def label_lines(boxes: list[list[float]], width: int, height: int) -> list[str]:
    """yolov5's label file lines: ``cls xc yc w h``, normalised to the image."""
    lines = []
    for x1, y1, x2, y2, _conf, cls in boxes:
        xc, yc = (x1 + x2) / 2 / width, (y1 + y2) / 2 / height
        lines.append(f"{int(cls)} {xc:.6f} {yc:.6f} {(x2 - x1) / width:.6f} {(y2 - y1) / height:.6f}")
    return lines
