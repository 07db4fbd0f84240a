"""A prepared copy of a dataset: every image resized once to the training size, labels copied unchanged.

Why: decoding a 4000 px JPEG costs tens of milliseconds and yolov5 decodes four per mosaic sample, every
epoch, to throw most of the pixels away at imgsz 640 — a data loader that starves the GPU (the seeds' first
remedy: "resize the images once to the training size"). The copy's images have long side = imgsz (never
upscaled, aspect kept, EXIF orientation applied as cv2 applies it when yolov5 reads the original), so
normalised labels stay valid and are copied byte for byte; yolov5 then finds ``r == 1`` and never resizes.

Safety: the copy is never written into the dataset's own folders, nor into a non-empty folder that is not an
earlier copy of the same source (``core.dataset.prepare_target``, the one rule for every front end); a full
disk removes the incomplete copy and says the space it needs. Each file is written under a temporary name
and renamed; a journal records every finished image, so an interrupted run resumes where it stopped; the copy's ``data.yaml`` is removed when work starts and written
last, after the manifest, so a half-written copy is never trained on. A copy whose manifest matches every
source file's (size, mtime) and the imgsz/format is up to date and is skipped. The validator keeps judging
the user's own data.yaml: the copy records ``prepared_from`` and findings point at the originals.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import threading
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import yaml

from core.atomic import atomic_write_text
from core.dataset.data_yaml import read_data_yaml
from core.dataset.files import label_path_for, list_split
from core.dataset.label_file import is_label_file
from core.dataset.prepare_target import (give_back_space, output_problem, source_folders, space_message,
                                         space_needed)
from core.disk_space import is_disk_full
from core.i18n import tr

PREPARE_VERSION = 1
MANIFEST = "prepared.json"
JOURNAL = "prepared.journal"
DATA_YAML = "data.yaml"
FORMATS = ("jpg", "png")
JPEG_QUALITY = 95

Progress = Callable[[int, int], None]
Cancelled = Callable[[], bool]


class PrepareError(Exception):
    """The dataset cannot be prepared (unreadable data.yaml, no images); the message says why."""


class PrepareCancelled(Exception):
    """Stopped by the user; the finished images are kept and a later run resumes from them."""


@dataclass
class PrepareResult:
    data_yaml: Path  # the copy's data.yaml, ready to train on
    out_dir: Path
    images: int
    written: int = 0  # images resized in this run
    resumed: int = 0  # images already done by an interrupted run
    up_to_date: bool = False  # nothing to do: the copy matched its sources
    failed: list[tuple[str, str]] = field(default_factory=list)  # (source image, reason): copied as they are

    def to_json(self) -> dict[str, Any]:
        return {"data_yaml": str(self.data_yaml), "out_dir": str(self.out_dir), "images": self.images,
                "written": self.written, "resumed": self.resumed, "up_to_date": self.up_to_date,
                "failed": [{"image": image, "reason": reason} for image, reason in self.failed]}


@dataclass(frozen=True)
class _Item:
    source: str  # the original image
    rel: str  # its place under the copy
    key: list[int]  # image size, mtime_ns, label size, mtime_ns (-1 = no label)


def default_out_dir(cache_dir: Path, data_yaml: Path, imgsz: int, fmt: str) -> Path:
    """``<cache>/prepared/<dataset>-<hash of its path>/<imgsz>-<format>``: one copy per dataset and size."""
    data_yaml = Path(data_yaml).expanduser().absolute()
    digest = hashlib.blake2b(str(data_yaml).encode("utf-8"), digest_size=4).hexdigest()
    stem = re.sub(r"[^\w.-]+", "_", data_yaml.parent.name or "dataset")[:40]
    return Path(cache_dir) / "prepared" / f"{stem}-{digest}" / f"{imgsz}-{fmt}"


def prepared_size(width: int, height: int, imgsz: int) -> tuple[int, int]:
    """The copy's size: long side = imgsz, never upscaled; yolov5's own rounding (``math.ceil(w0 * r)``)."""
    r = imgsz / max(width, height)
    if r >= 1:
        return width, height
    return max(1, -(-width * imgsz // max(width, height))), max(1, -(-height * imgsz // max(width, height)))


def _key(path: str) -> list[int]:
    st = os.stat(path)
    label = label_path_for(path)
    try:
        lst = os.stat(label)
        return [st.st_size, st.st_mtime_ns, lst.st_size, lst.st_mtime_ns]
    except FileNotFoundError:
        return [st.st_size, st.st_mtime_ns, -1, -1]


def _own_copy(out_dir: Path, data_yaml: Path) -> bool:
    """``out_dir`` holds an earlier prepared copy of ``data_yaml`` (finished: its manifest; interrupted: its
    journal), so preparing there again only updates it."""
    sources: list[Any] = []
    try:
        sources.append(json.loads((out_dir / MANIFEST).read_text(encoding="utf-8")).get("source"))
    except (OSError, ValueError, AttributeError):
        pass
    sources.append(_read_journal(out_dir / JOURNAL).get("__source__"))
    target = Path(data_yaml).resolve()
    return any(isinstance(source, str) and Path(source).resolve() == target for source in sources)


def _is_default_place(out_dir: Path, data_yaml: Path, imgsz: int, fmt: str) -> bool:
    """``out_dir`` is where the app itself puts this copy (``default_out_dir`` under some cache folder)."""
    return len(out_dir.parents) >= 3 and default_out_dir(out_dir.parents[2], data_yaml, imgsz, fmt) == out_dir


def _check_output(data_yaml: Path, out_dir: Path, imgsz: int, fmt: str, spec: Any,
                  splits: dict[str, list[_Item]]) -> None:
    folders = source_folders(data_yaml, spec.root, [p for split in spec.splits.values() for p in split.paths],
                             (item.source for items in splits.values() for item in items))
    problem = output_problem(out_dir, folders, own_copy=_own_copy(out_dir, data_yaml),
                             default_place=_is_default_place(out_dir, data_yaml, imgsz, fmt))
    if problem is not None:
        raise PrepareError(problem)


def _copy_files(out_dir: Path, items: dict[str, _Item], fmt: str, splits: dict[str, list[_Item]]) -> list[Path]:
    """Every file of the copy that may exist: images (resized or as they are), labels, lists, records."""
    files = [out_dir / name for name in (MANIFEST, JOURNAL, DATA_YAML)] + [out_dir / f"{name}.txt" for name in splits]
    for rel in items:
        for image in {out_dir / _out_rel(rel, fmt), out_dir / rel}:
            files += [image, Path(label_path_for(str(image)))]
    return files


def _plan(data_yaml: Path) -> tuple[dict[str, Any], dict[str, list[_Item]]]:
    """The data.yaml's meaning and, per split, each image with its place in the copy and its source key."""
    judged = read_data_yaml(data_yaml)
    if not judged.trainable or judged.spec is None:
        reasons = "; ".join(f"{f.where}: {f.message}" for f in judged.errors) or tr("unreadable")
        raise PrepareError(tr("{path} cannot be prepared: {reasons}", path=data_yaml, reasons=reasons))
    spec = judged.spec
    root = spec.root.resolve()
    splits: dict[str, list[_Item]] = {}
    for name, split in spec.splits.items():
        items = []
        for image in list_split(split, str(data_yaml)).images:
            try:
                rel = Path(image).resolve().relative_to(root).as_posix()
            except ValueError:  # outside the root: a folder of its own, named by the parent's hash
                parent = hashlib.blake2b(str(Path(image).parent).encode("utf-8"), digest_size=4).hexdigest()
                rel = f"_outside/{parent}/{Path(image).name}"
            try:
                items.append(_Item(image, rel, _key(image)))
            except OSError:
                continue  # vanished since the listing; the validator reports missing files
        splits[name] = items
    if not splits.get("train"):
        raise PrepareError(tr("{path}: the train split holds no images.", path=data_yaml))
    return {"names": spec.names, "spec": spec}, splits


def _out_rel(rel: str, fmt: str) -> str:
    return rel.rsplit(".", 1)[0] + "." + fmt


def _manifest_matches(out_dir: Path, imgsz: int, fmt: str, splits: dict[str, list[_Item]]) -> bool:
    try:
        manifest = json.loads((out_dir / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    sources = {item.rel: item.key for items in splits.values() for item in items}
    return (manifest.get("version") == PREPARE_VERSION and manifest.get("imgsz") == imgsz
            and manifest.get("format") == fmt and manifest.get("sources") == sources
            and (out_dir / DATA_YAML).is_file())


def find_prepared(data_yaml: Path, imgsz: int, cache_dir: Path, fmt: str = "jpg") -> Path | None:
    """The up-to-date copy's data.yaml for this dataset and size, or None (absent, stale or half-written)."""
    out_dir = default_out_dir(cache_dir, data_yaml, imgsz, fmt)
    if not (out_dir / MANIFEST).is_file():
        return None
    try:
        _, splits = _plan(Path(data_yaml))
    except PrepareError:
        return None
    return out_dir / DATA_YAML if _manifest_matches(out_dir, imgsz, fmt, splits) else None


def _resize_one(item: _Item, out_dir: Path, imgsz: int, fmt: str) -> str | None:
    """Write one image of the copy (temp name + rename) and its label; the reason when the image can't be read
    (it is then copied as it is, so yolov5 reports it exactly as it would the original)."""
    from PIL import Image, ImageOps

    target = out_dir / _out_rel(item.rel, fmt)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.tmp")
    reason = None
    try:
        with Image.open(item.source) as im:
            width, height = im.size
            turned = _rotated(im)
            size = prepared_size(*((height, width) if turned else (width, height)), imgsz)  # as cv2 shows it
            im.draft("RGB", (size[1], size[0]) if turned else size)  # JPEG: decode at 1/2 … 1/8 scale if enough
            im = ImageOps.exif_transpose(im).convert("RGB")
            if im.size != size:
                im = im.resize(size, Image.Resampling.BILINEAR, reducing_gap=2.0)
            im.save(tmp, "JPEG" if fmt == "jpg" else "PNG", **({"quality": JPEG_QUALITY} if fmt == "jpg" else {}))
    except (OSError, ValueError, Image.DecompressionBombError) as exc:
        reason = str(exc) or type(exc).__name__
        target = out_dir / item.rel
        tmp = target.with_name(f".{target.name}.tmp")
        with open(item.source, "rb") as src, open(tmp, "wb") as dst:
            dst.write(src.read())
    os.replace(tmp, target)
    label_src = label_path_for(item.source)
    label_dst = Path(label_path_for(str(target)))
    label_dst.parent.mkdir(parents=True, exist_ok=True)
    if is_label_file(label_src):  # as yolov5 asks: a pipe or a device under a label's name is no label
        tmp_label = label_dst.with_name(f".{label_dst.name}.tmp")
        shutil.copyfile(label_src, tmp_label)  # streamed: a huge label costs no memory
        os.replace(tmp_label, label_dst)
    else:
        label_dst.unlink(missing_ok=True)
    return reason


def _rotated(im: Any) -> bool:
    try:
        return im.getexif().get(0x0112, 1) in (5, 6, 7, 8)
    except Exception:  # noqa: BLE001 - a broken EXIF block: treat as not rotated, as cv2 does
        return False


def _finished_sources(out_dir: Path, settings: dict[str, Any]) -> dict[str, list[int]]:
    try:
        manifest = json.loads((out_dir / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    same = all(manifest.get(name) == value for name, value in settings.items())
    sources = manifest.get("sources") if same and manifest.get("version") == PREPARE_VERSION else None
    return dict(sources) if isinstance(sources, dict) else {}


def _read_journal(path: Path) -> dict[str, list[int]]:
    done: dict[str, list[int]] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return done
    for line in lines:
        try:
            entry = json.loads(line)
            done[entry["rel"]] = entry["key"]
        except (ValueError, KeyError, TypeError):
            continue  # a line cut by the interruption
    return done


def prepare_dataset(data_yaml: Path, imgsz: int, out_dir: Path, *, fmt: str = "jpg", workers: int | None = None,
                    progress: Progress | None = None, cancelled: Cancelled | None = None) -> PrepareResult:
    """Write (or resume, or skip) the prepared copy of ``data_yaml`` at ``imgsz`` in ``out_dir``.

    Raises ``PrepareError`` (nothing usable to prepare) or ``PrepareCancelled`` (finished images kept)."""
    if fmt not in FORMATS:
        raise PrepareError(tr("Unknown image format {fmt}: use jpg or png.", fmt=fmt))
    if imgsz < 32:
        raise PrepareError(tr("The image size must be at least 32, not {imgsz}.", imgsz=imgsz))
    data_yaml = Path(data_yaml).expanduser().absolute()
    out_dir = Path(out_dir).expanduser().absolute()
    meta, splits = _plan(data_yaml)
    items = {item.rel: item for split in splits.values() for item in split}
    total = len(items)
    if _manifest_matches(out_dir, imgsz, fmt, splits):
        if progress:
            progress(total, total)
        return PrepareResult(out_dir / DATA_YAML, out_dir, total, up_to_date=True)
    _check_output(data_yaml, out_dir, imgsz, fmt, meta["spec"], splits)
    try:
        return _write_copy(data_yaml, imgsz, out_dir, fmt, workers, progress, cancelled, meta, splits, items)
    except OSError as exc:
        if not is_disk_full(exc, out_dir):
            raise
        needed = space_needed([(out_dir / _out_rel(rel, fmt), out_dir / rel) for rel in items],
                              sum(max(item.key[0], 0) for item in items.values()))
        freed = give_back_space(out_dir, _copy_files(out_dir, items, fmt, splits))
        raise PrepareError(space_message(out_dir, needed, freed)) from exc


def _write_copy(data_yaml: Path, imgsz: int, out_dir: Path, fmt: str, workers: int | None,
                progress: Progress | None, cancelled: Cancelled | None, meta: dict[str, Any],
                splits: dict[str, list[_Item]], items: dict[str, _Item]) -> PrepareResult:
    """The copy's work once its folder is known to be allowed: resume, resize what is left, finish."""
    total = len(items)
    out_dir.mkdir(parents=True, exist_ok=True)
    journal_path = out_dir / JOURNAL
    journal = _read_journal(journal_path)
    settings = {"imgsz": imgsz, "format": fmt}
    journal.pop("__source__", None)
    if journal.pop("__settings__", None) != [imgsz, FORMATS.index(fmt)]:
        # A finished copy at these settings is the journal of an update: only changed sources are redone.
        journal = _finished_sources(out_dir, settings)
        journal_path.write_text("".join(json.dumps({"rel": rel, "key": key}) + "\n" for rel, key in
                                        [("__settings__", [imgsz, FORMATS.index(fmt)]),
                                         ("__source__", str(data_yaml)), *journal.items()]),  # whose copy
                                encoding="utf-8")
    (out_dir / DATA_YAML).unlink(missing_ok=True)  # from here on the copy is not usable until it is finished
    (out_dir / MANIFEST).unlink(missing_ok=True)
    todo = [item for rel, item in items.items() if journal.get(rel) != item.key
            or not (out_dir / _out_rel(rel, fmt)).exists() and not (out_dir / rel).exists()]
    result = PrepareResult(out_dir / DATA_YAML, out_dir, total, resumed=total - len(todo))
    done = total - len(todo)
    if progress:
        progress(done, total)
    lock = threading.Lock()
    with open(journal_path, "a", encoding="utf-8") as log, \
            ThreadPoolExecutor(max_workers=workers or _usable_cores()) as pool:  # Pillow decodes without the GIL
        pending: set[Future] = set()
        queue = iter(todo)
        futures: dict[Future, _Item] = {}
        while True:
            while len(pending) < 4 * (workers or _usable_cores()):
                item = next(queue, None)
                if item is None:
                    break
                future = pool.submit(_resize_one, item, out_dir, imgsz, fmt)
                futures[future] = item
                pending.add(future)
            if not pending:
                break
            finished, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            for future in finished:
                item = futures.pop(future)
                try:
                    reason = future.result()
                except OSError:
                    for other in pending:  # a full disk: no new image starts; the pool ends the ones running
                        other.cancel()
                    raise
                with lock:
                    if reason is not None:
                        result.failed.append((item.source, reason))
                    log.write(json.dumps({"rel": item.rel, "key": item.key}) + "\n")
                    result.written += 1
                    done += 1
            log.flush()
            if progress and finished:
                progress(done, total)
            if cancelled and cancelled():
                for future in pending:
                    future.cancel()
                raise PrepareCancelled(tr("Stopped after {done} of {total} images; run it again to resume.",
                                          done=done, total=total))
    _finish(out_dir, data_yaml, meta, splits, settings, fmt)
    return result


def _finish(out_dir: Path, source_yaml: Path, meta: dict[str, Any], splits: dict[str, list[_Item]],
            settings: dict[str, Any], fmt: str) -> None:
    """The split lists, the manifest, then the data.yaml last: its presence means the copy is complete."""
    data: dict[str, Any] = {"path": str(out_dir)}
    for name, items in splits.items():
        lines = []
        for item in items:
            resized = out_dir / _out_rel(item.rel, fmt)
            lines.append("./" + (_out_rel(item.rel, fmt) if resized.exists() else item.rel))
        (out_dir / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        data[name] = f"{name}.txt"
    data["names"] = {i: name for i, name in enumerate(meta["names"])}
    data["prepared_from"] = str(source_yaml)
    sources = {item.rel: item.key for items in splits.values() for item in items}
    atomic_write_text(out_dir / MANIFEST, json.dumps({"version": PREPARE_VERSION, **settings, "source": str(source_yaml),
                                                      "sources": sources}) + "\n", backup=False)
    header = tr("# Prepared copy of {source} (images resized to {imgsz} px). Written by YOLO Studio; edit the "
                "original instead.", source=source_yaml, imgsz=settings["imgsz"])
    atomic_write_text(out_dir / DATA_YAML, header + "\n" + yaml.safe_dump(data, allow_unicode=True, sort_keys=False),
                      backup=False)
    (out_dir / JOURNAL).unlink(missing_ok=True)


def _usable_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # Windows, macOS
        return max(1, os.cpu_count() or 1)
