"""One image's facts (size, format, content hash) and problems, read the way yolov5's scan reads it.

Pillow only (``Image.open`` + ``verify``, no full decode), never cv2: the GUI process imports this
module. The bytes are read once and hashed in the same pass, so duplicate and train/val-leak detection
costs no second read. yolov5 7.0.14's ``verify_image_label`` checks, in this order: Pillow can verify
it; it is at least 10 px on each side (EXIF-rotated); its real format is one it supports; and for a
JPEG (Pillow's "JPEG" only, not "MPO") that does not end with the end marker, it re-saves the file in
place at quality 100. That re-save decodes the whole image, so it works only when the data is complete
(bytes after the end marker); a really truncated JPEG fails to decode ('image file is truncated'), and
the image is dropped as corrupt. The first failure drops the image with its one message; each finding
quotes it.
"""

from __future__ import annotations

import hashlib
import io
import re
import warnings
from dataclasses import dataclass, field

from core.dataset.findings import WARNING, finding
from core.findings import Finding
from core.i18n import tr

#: yolov5's own list (utils/dataloaders.py IMG_FORMATS): anything else is skipped silently.
IMG_FORMATS = ("bmp", "dng", "jpeg", "jpg", "mpo", "png", "tif", "tiff", "webp", "pfm")
#: Suffixes that are images yolov5 will not use; reported so they do not vanish silently.
OTHER_IMAGE_SUFFIXES = ("gif", "heic", "heif", "avif", "jfif", "jp2", "ico", "psd", "svg", "cr2", "nef", "raw")
MIN_SIDE = 10
LARGE_PIXELS = 40_000_000  # above this, one decoded image costs over 120 MB in every loader worker


@dataclass
class ImageFacts:
    width: int = 0
    height: int = 0
    format: str = ""
    digest: str = ""
    findings: list[Finding] = field(default_factory=list)

    @property
    def usable(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)


def is_image_name(name: str) -> bool:
    return name.rsplit(".", 1)[-1].lower() in IMG_FORMATS if "." in name else False


def is_other_image_name(name: str) -> bool:
    return "." in name and name.rsplit(".", 1)[-1].lower() in OTHER_IMAGE_SUFFIXES


def check_image_bytes(data: bytes, file: str) -> ImageFacts:
    """Never raises: an unreadable image is an ``image-corrupt`` finding."""
    from PIL import Image  # imported here so spawning a scan process stays cheap until it is needed

    facts = ImageFacts(digest=hashlib.blake2b(data, digest_size=16).hexdigest())
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as im:
                facts.format = (im.format or "").lower()
                im.verify()
                width, height = im.size
                orientation = _orientation(im)  # read from the header's EXIF, still there after verify
    except Image.DecompressionBombError as exc:
        facts.findings.append(finding("image-too-large", file, tr(
            "The image is so large that Pillow refuses to open it ('{reason}'); yolov5 drops it as corrupt. "
            "Downscale it.", reason=exc), severity="error"))
        return facts
    except Exception as exc:  # noqa: BLE001 - Pillow raises many kinds for a broken file
        facts.findings.append(finding("image-corrupt", file, tr(
            "Pillow cannot read this image ('{reason}'). yolov5 drops it as corrupt.", reason=_reason(exc))))
        return facts
    if orientation in (6, 8):
        width, height = height, width
    facts.width, facts.height = width, height
    too_small = width < MIN_SIDE or height < MIN_SIDE
    if too_small:
        facts.findings.append(finding("image-too-small", file, tr(
            "The image is {w}×{h} px. yolov5 drops images under {min} px on a side as corrupt ('image size "
            "({w}, {h}) <10 pixels').", w=width, h=height, min=MIN_SIDE)))
    if facts.format not in IMG_FORMATS:
        reason = "" if too_small else tr(" ('invalid image format')")  # yolov5 stops at its first failed check
        facts.findings.append(finding("image-corrupt", file, tr(
            "The file is really a {format} image, whatever its name says. yolov5 drops it as corrupt{reason}; "
            "convert it to JPEG or PNG.", format=facts.format.upper() or "?", reason=reason)))
    if width * height > LARGE_PIXELS:
        facts.findings.append(finding("image-too-large", file, tr(
            "The image is {w}×{h} px ({mpx:.0f} Mpx). yolov5 decodes it at full size before resizing, which "
            "slows every epoch and costs memory in each loader worker; downscale it.",
            w=width, h=height, mpx=width * height / 1e6)))
    if facts.format == "jpeg" and not too_small and data[-2:] != b"\xff\xd9":
        facts.findings.append(_unterminated_jpeg(data, file))
    return facts


def _unterminated_jpeg(data: bytes, file: str) -> Finding:
    """A JPEG not ending with its end marker: yolov5 would re-save it in place (the worker stops it, fix 13 of
    ``core/worker/compat.py``), which needs a full decode (rare, so the cost of decoding here is paid only for
    these files)."""
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as im:
            im.load()
    except Exception as exc:  # noqa: BLE001 - Pillow raises OSError or ValueError for truncated data
        return finding("image-corrupt", file, tr(
            "The JPEG is truncated ('{reason}'). yolov5 tries to re-save it, cannot decode it, and drops the "
            "image as corrupt; restore the original if you have it.", reason=_reason(exc)))
    return finding("image-corrupt", file, tr(
        "The JPEG has extra bytes after its end marker. yolov5 would re-save it in place ('corrupt JPEG restored "
        "and saved'), rewriting your file at quality 100 without those bytes; YOLO Studio stops that write "
        "(core/worker/compat_jpeg.py), keeps your file as it is and trains on the image as it reads."),
        severity=WARNING)


def _reason(exc: Exception) -> str:
    """Pillow's message without the in-memory buffer's address, so two checks of one file say the same."""
    return re.sub(r" ?<_io\.BytesIO object at 0x[0-9a-fA-F]+>", "", str(exc)) or type(exc).__name__


def _orientation(im: object) -> int:
    try:
        return int(im.getexif().get(0x0112, 1))  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - a broken EXIF block must not hide the image's other facts
        return 1
