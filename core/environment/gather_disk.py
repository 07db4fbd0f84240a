"""Disks and the dataset: free space, a bounded random-read benchmark of real image files, and yolov5's
``--cache ram`` estimate.

The read benchmark opens existing images in random order (asking the OS to drop each file from its page
cache first, where it can), for at most ``budget_s`` seconds: it measures what the data loader will see,
not a synthetic sequential read. Image sizes come from file headers (Pillow opens lazily).
"""

from __future__ import annotations

import os
import random
import shutil
import time
from pathlib import Path

from core.dataset.split_images import folder_images, split_images
from core.environment.facts import DatasetFacts, DiskFacts
from core.i18n import tr

GB = 1024**3
MAX_LISTED = 200_000
MAX_TIMED_FILES = 200
CACHE_SAMPLE = 30


def _existing(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def list_images(root: Path, limit: int = MAX_LISTED) -> list[Path]:
    """Images under ``root`` as yolov5 would find them there (``core.dataset.split_images``), at most ``limit``."""
    return folder_images(root, limit)


def _drop_cache(fd: int) -> None:
    if hasattr(os, "posix_fadvise"):
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        except OSError:
            pass


def time_reads(files: list[Path], budget_s: float = 2.0, seed: int = 0) -> tuple[int, int, float]:
    """(files read, bytes read, seconds) for random reads of ``files`` within ``budget_s``."""
    chosen = random.Random(seed).sample(files, min(len(files), MAX_TIMED_FILES))
    count = size = 0
    start = time.perf_counter()
    for path in chosen:
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
        except OSError:
            continue
        try:
            _drop_cache(fd)
            while chunk := os.read(fd, 1 << 20):
                size += len(chunk)
        finally:
            os.close(fd)
        count += 1
        if time.perf_counter() - start > budget_s:
            break
    return count, size, time.perf_counter() - start


def gather_disk(role: str, path: Path, images: list[Path] | None, budget_s: float = 2.0) -> DiskFacts:
    facts = DiskFacts(role=role, path=str(path))
    try:
        usage = shutil.disk_usage(_existing(path))
        facts.free_gb, facts.total_gb = usage.free / GB, usage.total / GB
    except OSError as exc:
        facts.unknown["free_gb"] = str(exc)
    if not images:
        facts.unknown["read_mb_s"] = tr("no image files there to time")
        return facts
    count, size, seconds = time_reads(images, budget_s)
    if count == 0 or seconds <= 0:
        facts.unknown["read_mb_s"] = tr("no image file could be read")
        return facts
    facts.files_read = count
    facts.read_mb_s = size / seconds / 1e6
    facts.files_per_s = count / seconds
    return facts


def dataset_images(data_yaml: Path) -> tuple[Path, list[Path]]:
    """(dataset root, training images) of a yolov5 data.yaml, listed by the dataset reader; ``ValueError`` (in
    words) when it cannot be read or has no ``train`` entry."""
    found = split_images(data_yaml, ("train",), limit=MAX_LISTED)
    if found.root is None:
        raise ValueError(found.problem or tr("{path} has no 'train' entry", path=data_yaml))
    if not found.split:
        raise ValueError(tr("{path} has no 'train' entry", path=data_yaml))
    return found.root, found.images


def cache_estimate(images: list[Path], imgsz: int, seed: int = 0) -> tuple[float | None, int]:
    """yolov5's ``check_cache_ram``: bytes of ``CACHE_SAMPLE`` images resized to ``imgsz``, scaled to all of them."""
    from PIL import Image

    sample = random.Random(seed).sample(images, min(len(images), CACHE_SAMPLE))
    total, n = 0.0, 0
    for path in sample:
        try:
            with Image.open(path) as im:
                w, h = im.size
        except (OSError, ValueError):
            continue
        ratio = imgsz / max(h, w)
        total += h * w * 3 * ratio**2
        n += 1
    if n == 0:
        return None, 0
    return total * len(images) / n / GB, n


def gather_dataset(data_yaml: Path, imgsz: int) -> tuple[DatasetFacts, Path | None, list[Path]]:
    facts = DatasetFacts(data_yaml=str(data_yaml), imgsz=imgsz)
    try:
        root, images = dataset_images(data_yaml)
    except (OSError, ValueError) as exc:
        facts.unknown["images"] = str(exc)
        return facts, None, []
    facts.images = len(images)
    if images:
        facts.cache_ram_gb, facts.sampled = cache_estimate(images, imgsz)
    if facts.cache_ram_gb is None:
        facts.unknown["cache_ram_gb"] = tr("no readable training image")
    return facts, root, images
