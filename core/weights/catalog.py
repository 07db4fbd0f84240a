"""The official YOLOv5 v7.0 detection checkpoints: names, URLs, published figures and what each is for.

Every figure here has a source, named next to it. What was looked for and not found is said too:

- **URLs**: ``https://github.com/ultralytics/yolov5/releases/download/v7.0/<name>.pt`` — the release the
  pinned yolov5 package (7.0.14) is built from; its ``utils/downloads.py`` (``attempt_download``,
  ``release="v7.0"``) fetches the same names from the same place.
- **mAP, speed, parameters, FLOPs**: the "Pretrained Checkpoints" table of ``README.md`` at tag v7.0 of
  ultralytics/yolov5 (COCO val2017; parameters in millions, FLOPs at 640 px in billions). The parameter
  counts are also what the pinned package's model YAMLs build (7,235,389 for yolov5s …; measured with
  ``DetectionModel(yaml, nc=80)``), which the download check holds a file to.
- **File sizes and SHA-256**: no published source was found (the release page lists rounded sizes only;
  the repository, its docs and the package carry no hashes). So ``size_bytes`` and ``sha256`` are ``None``:
  a download is checked against the server's ``Content-Length``, must be plausible for the published
  parameter count (FP16, about 2 bytes each — yolov5's ``strip_optimizer`` saves them so), and must load
  as the expected architecture; its SHA-256 is then recorded in the store's manifest and verified at every
  later use. Should a published figure appear, fill it in here: the download then checks it too.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from core.i18n import tr

RELEASE = "v7.0"
OFFICIAL_BASE = f"https://github.com/ultralytics/yolov5/releases/download/{RELEASE}/"
SOURCE_FIGURES = "ultralytics/yolov5 README.md at tag v7.0, 'Pretrained Checkpoints'"
#: FP16 parameters (2 bytes) plus the pickle's own few percent (measured: a yolov5s saved the way
#: ``strip_optimizer`` saves it is 14,663,477 bytes for 7,235,389 parameters).
BYTES_PER_PARAM = 2.03


@dataclass(frozen=True)
class Checkpoint:
    """One official checkpoint (COCO, 80 classes)."""

    name: str  # "yolov5s"
    image_size: int  # the size it was trained at (px)
    params_m: float  # millions of parameters (README v7.0)
    flops_b: float  # GFLOPs at 640 px (README v7.0)
    map50_95: float  # COCO val2017 mAP@0.5:0.95 (README v7.0)
    cpu_ms: float  # CPU b1 latency on the README's machine (ms)
    purpose: str  # what it is for, for a person (translated on use)
    size_bytes: int | None = None  # published exact size: none found (see the module docstring)
    sha256: str | None = None  # published SHA-256: none found (see the module docstring)

    @property
    def file_name(self) -> str:
        return f"{self.name}.pt"

    @property
    def yaml_name(self) -> str:
        return f"{self.name}.yaml"

    @property
    def url(self) -> str:
        return OFFICIAL_BASE + self.file_name

    @property
    def p6(self) -> bool:
        """P6 models have a fourth output layer (stride 64) and were trained at 1280 px."""
        return self.name.endswith("6")

    @property
    def detect_layers(self) -> int:
        return 4 if self.p6 else 3

    @property
    def estimated_bytes(self) -> int:
        return int(self.params_m * 1e6 * BYTES_PER_PARAM)

    def describe(self) -> str:
        return tr(self.purpose)

    def size_text(self) -> str:
        """``14.7 MB`` when the exact size is published, else ``≈15 MB`` from the parameter count."""
        if self.size_bytes:
            return tr("{mb:.1f} MB", mb=self.size_bytes / 1e6)
        return tr("≈{mb:.0f} MB", mb=self.estimated_bytes / 1e6)


_P5 = "trained at 640 px"
CATALOG: tuple[Checkpoint, ...] = (
    # name, px, params M, GFLOPs, mAP@.5:.95, CPU ms — README.md at tag v7.0 (SOURCE_FIGURES)
    Checkpoint("yolov5n", 640, 1.9, 4.5, 28.0, 45,
               "Nano: the smallest and fastest — CPUs, edge devices and quick experiments; lowest accuracy."),
    Checkpoint("yolov5s", 640, 7.2, 16.5, 37.4, 98,
               "Small: the usual first choice for a custom dataset on one GPU; fast to fine-tune."),
    Checkpoint("yolov5m", 640, 21.2, 49.0, 45.4, 224,
               "Medium: clearly more accurate than s for about 3x the compute; a good default on a strong GPU."),
    Checkpoint("yolov5l", 640, 46.5, 109.1, 49.0, 430,
               "Large: higher accuracy for larger datasets; needs a GPU with plenty of memory."),
    Checkpoint("yolov5x", 640, 86.7, 205.7, 50.7, 766,
               "Extra large: the most accurate at 640 px and the slowest; about 12x the compute of s."),
    Checkpoint("yolov5n6", 1280, 3.2, 4.6, 36.0, 153,
               "Nano P6: trained at 1280 px with a fourth output layer, for small objects in large images."),
    Checkpoint("yolov5s6", 1280, 12.6, 16.8, 44.8, 385,
               "Small P6: 1280 px training for small objects in large images on one GPU."),
    Checkpoint("yolov5m6", 1280, 35.7, 50.0, 51.3, 887,
               "Medium P6: 1280 px, more accurate; needs a large GPU at that size."),
    Checkpoint("yolov5l6", 1280, 76.8, 111.4, 53.7, 1784,
               "Large P6: 1280 px, high accuracy; needs a large GPU and a large dataset."),
    Checkpoint("yolov5x6", 1280, 140.7, 209.8, 55.0, 3136,
               "Extra large P6: the most accurate YOLOv5; the slowest and the most GPU memory."),
)
_BY_NAME = {c.name: c for c in CATALOG}


def find_checkpoint(text: str) -> Checkpoint | None:
    """The catalog entry a user means by ``yolov5s``, ``yolov5s.pt`` or ``yolov5s.yaml`` (a bare name only:
    ``runs/x/yolov5s.pt`` is a path, not a catalog name)."""
    text = text.strip()
    if not text or Path(text).name != text:
        return None
    stem = text[:-3] if text.endswith(".pt") else text.rsplit(".", 1)[0] if text.endswith((".yaml", ".yml")) else text
    return _BY_NAME.get(stem.lower())


def catalog_names() -> list[str]:
    return [c.name for c in CATALOG]
