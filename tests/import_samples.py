"""Small exports as labelling tools write them (LabelImg VOC, LabelMe, COCO), for the import tests.

Each image is a plain grey picture with one bright rectangle per object, so a test can check a converted
box against the pixels yolov5 decodes. ``orientation`` saves the JPEG with that EXIF tag; the rectangle is
then drawn on the *stored* grid, as LabelImg sees it.
"""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

Box = tuple[str, int, int, int, int]  # class, x0, y0, x1, y1 on the stored grid (pixels, x1/y1 exclusive)


def picture(path: Path | None, size: tuple[int, int], boxes: list[Box], orientation: int = 1,
            seed: int = 0, fmt: str = "JPEG") -> bytes:
    """A picture of its own (a dark random texture from ``seed``, so two pictures never look alike to a
    perceptual hash) with a white rectangle per box."""
    noise = np.random.default_rng(seed).integers(0, 120, (max(size[1] // 8, 1), max(size[0] // 8, 1), 3))
    im = Image.fromarray(noise.astype(np.uint8)).resize(size, Image.Resampling.NEAREST)
    draw = ImageDraw.Draw(im)
    for _, x0, y0, x1, y1 in boxes:
        if x1 > x0 and y1 > y0:
            draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=(250, 250, 250))
    buffer = io.BytesIO()
    if orientation != 1:
        exif = Image.Exif()
        exif[0x0112] = orientation
        im.save(buffer, fmt, quality=95, exif=exif.tobytes())
    else:
        im.save(buffer, fmt, quality=95)
    data = buffer.getvalue()
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return data


def hash_seed(text: str) -> int:
    return sum((i + 1) * ord(c) for i, c in enumerate(text))


def voc_xml(filename: str, size: tuple[int, int], boxes: list[Box], difficult: tuple[int, ...] = ()) -> str:
    """LabelImg's XML: the drawn corners as whole pixels (x1/y1 one past the last pixel filled)."""
    objects = "".join(
        f"<object><name>{name}</name><pose>Unspecified</pose><truncated>0</truncated>"
        f"<difficult>{1 if i in difficult else 0}</difficult><bndbox><xmin>{max(x0, 1)}</xmin><ymin>{max(y0, 1)}</ymin>"
        f"<xmax>{x1}</xmax><ymax>{y1}</ymax></bndbox></object>"
        for i, (name, x0, y0, x1, y1) in enumerate(boxes))
    return (f"<annotation><folder>images</folder><filename>{filename}</filename><path>C:\\Users\\me\\{filename}"
            f"</path><size><width>{size[0]}</width><height>{size[1]}</height><depth>3</depth></size>"
            f"<segmented>0</segmented>{objects}</annotation>")


def write_voc(folder: Path, name: str, size: tuple[int, int], boxes: list[Box], orientation: int = 1,
              declared: tuple[int, int] | None = None, difficult: tuple[int, ...] = (), seed: int = 0) -> Path:
    image = folder / name
    picture(image, size, boxes, orientation, seed=seed or hash_seed(str(image)))
    (folder / (image.stem + ".xml")).write_text(voc_xml(name, declared or size, boxes, difficult), encoding="utf-8")
    return image


def labelme_doc(image_name: str, size: tuple[int, int], shapes: list[dict], data: bytes | None = None) -> dict:
    return {"version": "5.4.1", "flags": {}, "shapes": shapes, "imagePath": image_name,
            "imageData": base64.b64encode(data).decode() if data else None,
            "imageHeight": size[1], "imageWidth": size[0]}


def rect_shape(name: str, x0: float, y0: float, x1: float, y1: float) -> dict:
    return {"label": name, "points": [[x0, y0], [x1, y1]], "group_id": None, "shape_type": "rectangle", "flags": {}}


def polygon_shape(name: str, points: list[tuple[float, float]]) -> dict:
    return {"label": name, "points": [list(p) for p in points], "group_id": None, "shape_type": "polygon",
            "flags": {}}


def write_coco(path: Path, images: list[dict], annotations: list[dict], categories: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"images": images, "annotations": annotations, "categories": categories}),
                    encoding="utf-8")
    return path
