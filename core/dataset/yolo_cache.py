"""yolov5's own label cache beside a dataset (``labels/train.cache``): would it hand yolov5 old labels?

yolov5 7.0.14 (``LoadImagesAndLabels.__init__``) keeps every split's parsed labels in ``<split>.cache``
(``cache_path``: beside a list file, or named after the first label's folder) and reuses it while
``cache['hash'] == get_hash(label_files + im_files)`` — a hash of the paths and of the *total* size of the
files. An edit that keeps the size (class 1 → 2, a coordinate digit changed) keeps the hash, so yolov5 trains
on the labels of the last scan, silently. It also loads the file with ``np.load(allow_pickle=True)``: a cache
that came with a downloaded dataset is a pickle, and unpickling it can run anything.

Here a cache is read only through a restricted unpickler that builds nothing but numpy arrays and plain
values (``safe_load``: anything else makes it *unsafe*), and its stored labels are compared, image by image,
with what the label files hold now (``stale_images``: same float32 rows, as sets — yolov5 sorts rows when it
removes duplicates). The dataset check reports a stale or unsafe cache; the training worker sets aside every
cache it cannot prove current before yolov5 builds its dataset (``set_aside_unproven``), so yolov5 rescans.
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from core.dataset.files import label_path_for

CACHE_VERSION = 0.6  # LoadImagesAndLabels.cache_version in yolov5 7.0.14
MAX_CACHE_BYTES = 512 << 20  # a cache of a million images is ~100 MB; beyond this it is not read
_ALLOWED = {("numpy._core.multiarray", "_reconstruct"), ("numpy.core.multiarray", "_reconstruct"),
            ("numpy", "ndarray"), ("numpy", "dtype"), ("numpy._core.multiarray", "scalar"),
            ("numpy.core.multiarray", "scalar")}
_META = ("hash", "results", "msgs", "version")


class _ArraysOnly(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in _ALLOWED:
            raise pickle.UnpicklingError(f"{module}.{name}")
        return super().find_class(module, name)


@dataclass
class CacheState:
    """``kind``: ``absent``, ``unsafe`` (not only arrays and plain values, or not readable as a cache),
    ``other-version``/``other-files`` (yolov5 rebuilds it), or ``in-use`` (yolov5 will read it);
    ``stale``: images whose stored labels differ from their files now; ``unproven``: images the cache left
    out although their labels read cleanly now (a corrupt image then, or a label fixed since)."""

    path: Path
    kind: str
    stale: list[str] = field(default_factory=list)
    unproven: list[str] = field(default_factory=list)
    reason: str = ""


def cache_path(split_path: Path, first_label: str) -> Path:
    """yolov5's ``(p if p.is_file() else Path(self.label_files[0]).parent).with_suffix('.cache')``, ``p`` being
    the split's last path as ``check_dataset`` resolved it."""
    return (split_path if split_path.is_file() else Path(first_label).parent).with_suffix(".cache")


def yolov5_hash(paths: list[str], total_size: int | None = None) -> str:
    """``utils/dataloaders.py: get_hash`` of yolov5 7.0.14 (``total_size``: the files' sizes, when known)."""
    size = total_size if total_size is not None else sum(os.path.getsize(p) for p in paths if os.path.exists(p))
    h = hashlib.sha256(str(size).encode())
    h.update("".join(paths).encode())
    return h.hexdigest()


def safe_load(path: Path) -> tuple[dict[str, Any] | None, str]:
    """The cache's dict, or None and why (``unsafe`` reasons name the first forbidden global)."""
    from numpy.lib import format as npy

    try:
        with open(path, "rb") as handle:
            if os.fstat(handle.fileno()).st_size > MAX_CACHE_BYTES:
                return None, "too large"
            raw = handle.read()
        buffer = io.BytesIO(raw)
        version = npy.read_magic(buffer)
        _, _, dtype = npy.read_array_header_1_0(buffer) if version == (1, 0) else npy.read_array_header_2_0(buffer)
        if dtype != np.dtype(object):
            return None, "not a pickled cache"
        loaded = _ArraysOnly(buffer).load()
    except (OSError, ValueError, EOFError, pickle.UnpicklingError, TypeError, AttributeError, IndexError) as exc:
        return None, str(exc) or type(exc).__name__
    if isinstance(loaded, np.ndarray) and loaded.shape == () and loaded.dtype == object:
        loaded = loaded.item()
    if not isinstance(loaded, dict):
        return None, "not a dict"
    return loaded, ""


#: ``current_many(images)``: for each image, the rows yolov5 would read now, all in one ``(N, 5)`` float32
#: array, their counts, and whether each is known (False: not known or dropped — then asked one by one).
CurrentMany = Callable[[list[str]], "tuple[np.ndarray, np.ndarray, np.ndarray]"]


@dataclass
class Contents:
    """What a cache holds, as plain arrays: yolov5's version and hash, its images in order, each one's row
    count and all rows (float32 ``(N, 5)``); or ``unsafe`` with its reason."""

    unsafe: str = ""
    version: Any = None
    hash: Any = None
    images: list[str] = field(default_factory=list)
    counts: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    rows: np.ndarray = field(default_factory=lambda: np.zeros((0, 5), dtype=np.float32))


def read_contents(path: Path) -> Contents:
    """Unpickle the cache through the arrays-only unpickler and keep its labels as arrays."""
    cache, reason = safe_load(path)
    if cache is None:
        return Contents(unsafe=reason)
    images = [k for k in cache if k not in _META]
    if not all(isinstance(k, str) for k in images):
        return Contents(unsafe="keys are not paths")
    arrays: list[np.ndarray] = []
    for image in images:
        entry = cache[image]
        rows = entry[0] if isinstance(entry, (list, tuple)) and entry else None
        if not isinstance(rows, np.ndarray) or rows.ndim != 2 or rows.shape[1:] != (5,):
            return Contents(unsafe=f"{image}: not a label array")
        arrays.append(rows)
    counts = np.fromiter((len(a) for a in arrays), dtype=np.int64, count=len(arrays))
    rows = np.concatenate(arrays).astype(np.float32) if arrays else np.zeros((0, 5), dtype=np.float32)
    return Contents("", cache.get("version"), cache.get("hash"), images, counts, rows)


def inspect(path: Path, im_files: list[str] | None = None,
            current: Callable[[str], np.ndarray | None] | None = None, total_size: int | None = None,
            current_many: CurrentMany | None = None, contents: Contents | None = None,
            label_files: list[str] | None = None) -> CacheState:
    """What yolov5 would make of the cache at ``path`` for a split whose images are ``im_files`` (sorted, as
    yolov5 lists them; None: unknown, the hash is not judged). ``current(image)`` gives the rows yolov5 would
    read for an image now (None: yolov5 drops the image); by default its label file is read again, and for an
    image the cache left out, the image too (a corrupt image is left out of every cache: not a change).
    ``current_many`` compares every image at once first; only images that differ are judged one by one.
    ``contents``: the cache's contents already read (``snapshot``), else the file is read here; ``label_files``:
    the labels of ``im_files``, when known."""
    if current is None:
        current = _rows_now
    if not path.is_file():
        return CacheState(path, "absent")
    contents = contents if contents is not None else read_contents(path)
    if contents.unsafe:
        return CacheState(path, "unsafe", reason=contents.unsafe)
    if contents.version != CACHE_VERSION:
        return CacheState(path, "other-version")
    images = contents.images
    kind = "in-use"
    if label_files is None and im_files is not None:
        label_files = [label_path_for(i) for i in im_files]
    if im_files is not None and contents.hash != yolov5_hash(label_files + im_files, total_size):
        kind = "other-files"
    state = CacheState(path, kind)
    starts = np.cumsum(contents.counts) - contents.counts
    for i in _differing(contents, current_many):
        now = current(images[i])
        mine = contents.rows[int(starts[i]):int(starts[i] + contents.counts[i])]
        if now is None or not _same_rows(mine, now):
            state.stale.append(images[i])
    stored = set(images)
    for image in im_files or []:
        if image not in stored and os.path.isfile(image) and (
                _rows_now(image, whole=True) if current is _rows_now else current(image)) is not None:
            state.unproven.append(image)
    return state


def _differing(contents: Contents, current_many: CurrentMany | None) -> list[int]:
    """Positions of the images whose stored rows may differ from now: all of them without ``current_many``;
    with it, those whose count or any row differs, found in a few array passes."""
    n = len(contents.images)
    if current_many is None or not n:
        return list(range(n))
    now_rows, now_counts, known = current_many(contents.images)
    counts = contents.counts
    same = known & (counts == now_counts)
    stored_owner = np.repeat(np.arange(n), counts)
    now_owner = np.repeat(np.arange(n), now_counts)
    a, b = contents.rows[same[stored_owner]], now_rows[same[now_owner]]  # aligned: equal counts, image by image
    unequal = ~(a == b).all(axis=1)
    bad = np.zeros(n, dtype=bool)
    bad[stored_owner[same[stored_owner]][unequal]] = True
    return np.flatnonzero(~same | bad).tolist()


def _rows_now(image: str, *, whole: bool = False) -> np.ndarray | None:
    rows = current_rows(label_path_for(image))
    if rows is None or not whole:
        return rows
    from core.dataset.findings import ERROR
    from core.dataset.scan import check_image

    return None if any(f[1] == ERROR for f in check_image(image)["f"]) else rows


def current_rows(label: str) -> np.ndarray | None:
    """The float32 ``(n, 5)`` rows yolov5 would keep for this label file now, or None when it would drop the
    image for its label (a label error); an absent label is no rows, as in yolov5."""
    from core.dataset.findings import ERROR
    from core.dataset.label_file import read_label_file
    from core.dataset.labels import parse_label_bytes

    found = read_label_file(label)
    if found.data is None:
        return np.zeros((0, 5), dtype=np.float32) if found.kind in ("missing", "special") else None
    parsed = parse_label_bytes(found.data, label)
    if any(f.severity == ERROR for f in parsed.findings):  # an infinite class id too: its row is not kept here
        return None
    return np.array([r[1:] for r in parsed.rows], dtype=np.float32).reshape(-1, 5)


def _same_rows(a: np.ndarray, b: np.ndarray) -> bool:
    if a.shape == b.shape and np.array_equal(a, b):
        return True
    a = np.unique(np.asarray(a, dtype=np.float32).reshape(-1, 5), axis=0)
    b = np.unique(np.asarray(b, dtype=np.float32).reshape(-1, 5), axis=0)
    return a.shape == b.shape and bool(np.array_equal(a, b))


def set_aside(path: Path) -> Path:
    """Move a cache yolov5 must not read to ``<name>.stale`` (one rename: yolov5 sees the old file or none)."""
    target = path.with_name(path.name + ".stale")
    os.replace(path, target)
    return target


def split_caches(data_yaml: Path) -> list[tuple[Path, list[str]]]:
    """Each split's yolov5 cache and its images as yolov5 lists them (the validator's listing, the same rules)."""
    from core.dataset.data_yaml import read_data_yaml
    from core.dataset.files import list_split, yolov5_split_path

    judged = read_data_yaml(data_yaml)
    if judged.spec is None:
        return []
    out = []
    for split in judged.spec.splits.values():
        files = list_split(split, str(data_yaml))
        if files.images and split.paths:
            out.append((cache_path(yolov5_split_path(split.paths[-1]), label_path_for(files.images[0])),
                        files.images))
    return out


def must_set_aside(state: CacheState) -> bool:
    """Whether yolov5 could read wrong labels (or run code) from this cache."""
    return state.kind == "unsafe" or bool(state.stale) or bool(state.unproven)


def set_aside_unproven(data_yaml: Path) -> list[Path]:
    """Before yolov5 builds its datasets: every split's cache that is not proven current (unsafe, stale, or
    leaving out images whose labels now read cleanly) is set aside, so yolov5 scans the files again. Returns
    the caches set aside. A cache another process (a DDP rank) moved first is simply gone."""
    moved = []
    for path, images in split_caches(data_yaml):
        if not must_set_aside(inspect(path, images)):
            continue
        try:
            moved.append(set_aside(path))
        except FileNotFoundError:
            pass
    return moved


def cache_findings(cache: Path, images: list[str], current: Callable[[str], np.ndarray | None],
                   total_size: int | None = None, current_many: CurrentMany | None = None,
                   contents: Contents | None = None, label_files: list[str] | None = None) -> list[Any]:
    """The dataset check's findings on one split's yolov5 cache: unsafe, or in use and stale."""
    from core.dataset.findings import finding
    from core.i18n import tr

    if not images:
        return []
    state = inspect(cache, images, current, total_size, current_many, contents, label_files)
    if state.kind == "unsafe":
        return [finding("yolo-cache-unsafe", state.path, tr(
            "This is not only yolov5's label data ({reason}). yolov5 loads its label cache with pickle, which can "
            "run code, whenever it trains on this split. YOLO Studio's trainings set it aside unread; delete it "
            "if you train with yolov5 yourself.", reason=state.reason[:120]))]
    if state.kind != "in-use" or not (state.stale or state.unproven):
        return []
    changed = state.stale + state.unproven
    return [finding("yolo-cache-stale", state.path, tr(
        "yolov5 reuses this label cache while the files' paths and total size stay the same, so it would train "
        "on the labels of its last scan: {n} labels have changed since (first {image}). YOLO Studio's trainings "
        "set it aside so yolov5 reads the labels again; delete it if you train with yolov5 yourself.",
        n=len(changed), image=label_path_for(changed[0])))]
