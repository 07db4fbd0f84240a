"""Offline hardening of the yolov5 7.0.14 package for today's torch/numpy/Pillow — the one place for it.

Each fix below answers one failure measured in ``docs/facts/yolov5-package.md`` (numbered there):
  1. fonts: yolov5 downloads Arial.ttf on every ``check_dataset`` → a bundled DejaVu Sans stands in;
  2. Pillow >= 10 removed ``FreeTypeFont.getsize`` → shimmed on ``getbbox``;
  3. numpy 2 removed ``np.trapz`` → aliased to ``np.trapezoid``;
  4. torch >= 2.6 loads checkpoints ``weights_only=True`` → full unpickling only for trusted files
     (``core.trust``: checkpoints this workspace's worker recorded writing under its runs —
     ``core.run.provenance``, recorded by ``save_checkpoint`` — files the user explicitly trusted, and the weights
     store's files while they hash to their manifest record — a changed one is refused with its own words);
  5. a relative or missing weights path becomes a Hugging Face / GitHub download → local-only lookup,
     of the path exactly as given (yolov5 strips every ``'`` from it, which breaks ``/home/o'brien``);
  6. network probes and auto-installs (DNS on import, ``check_online``, ``check_requirements``, the
     Ultralytics settings file in ``~``) → environment switches and no-op checks;
  7. ``check_amp`` compares detections after NMS, which an untrained model rarely reproduces, then falls
     back to downloading ``yolov5n.pt`` — offline that *silently disables AMP* for every training from a
     YAML (the "no AMP" cause of an idle GPU) → compare the raw head outputs of FP32 and autocast instead.
  8. its DDP set-up assumes CUDA and NCCL (``torch.cuda.set_device``, ``smart_DDP(device_ids=[LOCAL_RANK])``,
     ``dist.barrier(device_ids=...)``, and the model wrapped in DDP only ``if cuda``) → ``enable_ddp``: the
     same set-up on CPUs with gloo, so a CPU/gloo DDP run trains the same code path as NCCL on GPUs
     (``core/worker/compat_ddp.py``: the training job calls it, no other job imports ``yolov5.train``).
  9. yolov5 (``train.py``'s ``last.pt``/``best.pt``, ``strip_optimizer``) writes checkpoints in place: a kill
     or a full disk mid-write left a 0-byte or truncated ``last.pt`` and lost the previous good one →
     every ``torch.save`` to a path writes a temporary file, fsyncs it and renames it over the old one
     (``save_checkpoint``); a write that fails for lack of space says so with the space needed.
 10. mixed precision on a GPU whose FP16 training diverges although the check passes (GTX 16xx, Quadro
     T-series) → ``disable_amp``, only for a run with the ``no_amp`` option: yolov5 decides AMP once
     (``amp = check_amp(model)``), and that one flag drives everything, so answering it False trains in FP32
     (``core/worker/compat_amp.py``).
 11. files yolov5 runs as code (``code_guards``): ``parse_model``'s ``eval`` of a model YAML's strings passes
     only the strict check or the user's confirmation; ``check_dataset`` never runs a data.yaml's ``download:``.
 12. ``noval`` ("Validate only at the end") crashes on its first unvalidated epoch (``UnboundLocalError:
     map50s``: ``train.train`` assigns ``map50s`` only in validation, and logs it every epoch) → ``allow_noval``
     initialises it beside ``maps``, only for a run with ``noval`` (``core/worker/compat_noval.py``).
 13. ``verify_image_label`` saves a JPEG that does not end with its end marker over the user's file ("corrupt
     JPEG restored and saved"; through an importer's hard link, the source image) → decoded, never saved
     (``core/worker/compat_jpeg.py``; every job, in ``apply``).
 14. augmentation one image at a time in the loader's workers starves a fast GPU (issue 36) →
     ``enable_batch_augment``, only for a run with ``gpu_augment`` on: the loader only letterboxes, and the
     batch is augmented on the training device (``core/worker/compat_augment.py``, ``batch_mosaic.py``).
 15. every ``import yolov5`` loads seaborn and scipy.stats (~0.85 s CPU a worker) for two plots →
     ``defer_plotting_imports``: loaded at first use (``core/worker/compat_lazy.py``; every job, in ``apply``).
``prepare_environment`` must run before yolov5 (or ultralytics, or matplotlib) is imported; ``apply``
patches the imported modules. Both are idempotent.
"""

from __future__ import annotations

import os
import shutil
import sys
from copy import deepcopy
from pathlib import Path
from typing import Any, Callable, Iterable

from core import RESOURCES_DIR
from core.atomic import atomic_writer
from core.disk_space import disk_full_error, is_disk_full, written_size
from core.run import provenance
from core.trust import foreign_refusal, store_refusal, stored_verdict, within
from core.workspace import runs_dir
from core.worker.code_guards import install as install_code_guards, safe_check_dataset
from core.worker.compat_jpeg import keep_dataset_files
from core.worker.compat_lazy import defer_plotting_imports

BUNDLED_FONT = RESOURCES_DIR / "fonts" / "DejaVuSans.ttf"
_FONT_NAMES = ("Arial.ttf", "Arial.Unicode.ttf")

_trusted_roots: list[Path] = []
_workspace: list[Path] = []  # the workspace whose weights store is trusted (core.trust.stored_verdict)
_applied = False


class UntrustedCheckpointError(RuntimeError):
    """A checkpoint outside the trusted places would have to be unpickled (it can run code)."""


def prepare_environment(config_dir: Path) -> None:
    """Point every config/cache folder of the stack at ``config_dir`` and switch off network features."""
    config_dir.mkdir(parents=True, exist_ok=True)
    for var in ("YOLOV5_CONFIG_DIR", "YOLO_CONFIG_DIR", "MPLCONFIGDIR"):
        os.environ[var] = str(config_dir)
    os.environ.update({
        "YOLO_OFFLINE": "1",  # ultralytics: no DNS probe on import
        "YOLO_AUTOINSTALL": "false",
        "ULTRALYTICS_SKIP_REQUIREMENTS_CHECKS": "1",
        "HF_HUB_OFFLINE": "1",
        "WANDB_MODE": "disabled",
        "COMET_MODE": "disabled",
        "MPLBACKEND": "Agg",
        "GIT_PYTHON_REFRESH": "quiet",
        "TQDM_DISABLE": "1",  # the worker reports progress as events; tqdm's bars would only fill the log
    })
    for name in _FONT_NAMES:
        target = config_dir / name
        if not target.exists() and BUNDLED_FONT.exists():
            shutil.copyfile(BUNDLED_FONT, target)


def set_trusted_roots(paths: Iterable[Path], workspace: Path | None = None) -> None:
    """Checkpoints under these folders (or equal to these files) may be fully unpickled
    (``core.trust.trusted_roots``: the workspace's runs and the files the user confirmed), and so may the
    ``workspace``'s weights store while its files are what its manifest recorded."""
    _trusted_roots[:] = [Path(p).resolve() for p in paths]
    _workspace[:] = [Path(workspace)] if workspace is not None else []


_verified_own: dict[tuple[str, int, int, int], bool] = {}


def _own_runs() -> Path | None:
    return runs_dir(_workspace[0]).resolve() if _workspace else None


def _written_here(path: Path) -> bool:
    """The worker's full check of a checkpoint under this workspace's runs: its keyed hash (core.run.provenance),
    kept per (file, size, mtime, inode) for the life of the process (yolov5 loads best.pt more than once)."""
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns, stat.st_ino)
    if key not in _verified_own:
        _verified_own[key] = provenance.verified(_workspace[0], path)
    return _verified_own[key]


def is_trusted(path: Any) -> bool:
    """May ``path`` be fully unpickled? Raises ``UntrustedCheckpointError`` for a store file that changed and
    for a checkpoint under this workspace's runs that its worker did not record writing (a foreign run)."""
    try:
        text = os.fspath(path)
    except TypeError:
        return False  # a file object or buffer: not ours to vouch for
    runs = _own_runs()
    if runs is not None and within(text, [runs]) and Path(text).is_file():
        resolved = Path(text).resolve()
        confirmed = [root for root in _trusted_roots if root != runs]
        if within(text, confirmed):
            return True  # the user's grant; the door recorded it (core.usecases.grants), never the worker
        if _written_here(resolved):
            return True
        raise UntrustedCheckpointError(foreign_refusal(text, _workspace[0] if _workspace else None))
    if within(text, _trusted_roots):
        return True
    verdict = stored_verdict(text, _workspace[0]) if _workspace else None
    if verdict is False:
        raise UntrustedCheckpointError(store_refusal(text))
    return bool(verdict)


def _patch_numpy() -> None:
    import numpy as np

    if not hasattr(np, "trapz"):
        np.trapz = np.trapezoid  # type: ignore[attr-defined]


def _patch_pillow() -> None:
    from PIL import ImageFont

    if not hasattr(ImageFont.FreeTypeFont, "getsize"):
        def getsize(self: Any, text: str, *args: Any, **kwargs: Any) -> tuple[int, int]:
            left, top, right, bottom = self.getbbox(text, *args, **kwargs)
            return right - left, bottom - top

        ImageFont.FreeTypeFont.getsize = getsize  # type: ignore[attr-defined]


def _patch_torch_load() -> None:
    import torch

    original = torch.load
    if getattr(original, "_yolostudio", False):
        return

    def load(f: Any, *args: Any, **kwargs: Any) -> Any:
        # yolov5 asks for full unpickling by omission: only a trusted file gets it. An explicit
        # ``weights_only`` is the caller's own word (``weights_check`` vouches for bytes it verified).
        if "weights_only" not in kwargs:
            if is_trusted(f):
                kwargs["weights_only"] = False
            else:
                try:
                    return original(f, *args, weights_only=True, **kwargs)
                except Exception as exc:  # noqa: BLE001 - re-raised with the reason a user can act on
                    if "weights_only" in str(exc) or type(exc).__name__ == "UnpicklingError":
                        raise UntrustedCheckpointError(
                            f"{f}: this checkpoint is outside your runs and would have to be unpickled, which can "
                            "run code from the file. Confirm that you trust it to load it.") from exc
                    raise
        return original(f, *args, **kwargs)

    load._yolostudio = True  # type: ignore[attr-defined]
    torch.load = load


def save_checkpoint(save: Callable[..., Any], obj: Any, f: Any, *args: Any, **kwargs: Any) -> None:
    """``save(obj, f)`` (``torch.save``), whole or not at all: the previous file at ``f`` survives any failure.

    A file object or buffer is written as given (its owner decides); a path gets a temporary file beside
    it, flushed and fsynced, then renamed over it. A failure for lack of space becomes ``ENOSPC`` naming
    the file, the space it needed (the larger of the previous file and what was written) and the free space."""
    if not isinstance(f, (str, os.PathLike)):
        save(obj, f, *args, **kwargs)
        return
    target = Path(f)
    previous = written_size(target)
    written = 0
    try:
        with atomic_writer(target) as handle:
            try:
                save(obj, handle, *args, **kwargs)
            finally:
                try:
                    written = handle.tell()
                except (OSError, ValueError):
                    pass
            runs = _own_runs()
            if runs is not None and within(target, [runs]):
                handle.flush()  # recorded before the rename: a kill in between leaves a file that verifies
                provenance.record_before_rename(_workspace[0], target.resolve(), handle.fileno())
    except Exception as exc:  # noqa: BLE001 - re-raised, in words when the disk is full
        if is_disk_full(exc, target.parent):
            raise disk_full_error(target, max(previous, written) or None) from exc
        raise


def record_written(path: Path) -> None:
    """Record a checkpoint of this workspace's runs as written here (``core.run.provenance``). A record that cannot
    be written leaves the file unrecorded — asked about before its next load, never trusted silently."""
    if not _workspace:
        return
    for key in [k for k in _verified_own if k[0] == str(path)]:
        del _verified_own[key]
    try:
        provenance.record_checkpoint(_workspace[0], path)
    except OSError:
        pass


def _patch_torch_save() -> None:
    import torch
    import torch.serialization

    if getattr(torch.save, "_yolostudio", False):
        return
    # torch's own save, not what is bound to ``torch.save`` now: ultralytics (imported by yolov5) replaces
    # it with a retrying wrapper, and a retry would append a second archive to the same temporary file.
    original = torch.serialization.save

    def save(obj: Any, f: Any, *args: Any, **kwargs: Any) -> None:
        save_checkpoint(original, obj, f, *args, **kwargs)

    save._yolostudio = True  # type: ignore[attr-defined]
    save.original = original  # type: ignore[attr-defined]
    torch.save = save


def local_weights(file: Any, *args: Any, **kwargs: Any) -> str:
    """Replacement for yolov5's ``attempt_download``: a local file or a clear error, never a download.

    yolov5's own version edits the path as a string (``str(file).strip().replace("'", '')``, so that a
    ``--weights 'yolov5s.pt'`` typed in a shell that keeps the quotes still names the file). The app never
    passes a quoted path — every path here comes from code, not a shell — and a real folder may hold an
    apostrophe (``/home/o'brien``): stripping it named a file that does not exist, so every training failed
    at its end and every resume at its start. The path is taken exactly as given."""
    path = file if isinstance(file, Path) else Path(str(file))
    if path.is_file():
        return str(path)
    raise FileNotFoundError(
        f"Weights file not found: {path}. YOLO Studio works offline and does not download weights; "
        "download them yourself and give their full path.")


def _no_hub(*args: Any, **kwargs: Any) -> None:
    return None  # "not a Hugging Face repo": the caller then uses the path as a local file


def _no_op(*args: Any, **kwargs: Any) -> None:
    return None


def _offline(*args: Any, **kwargs: Any) -> bool:
    return False


def _local_font(font: Any = "Arial.ttf", progress: bool = False) -> None:
    from yolov5.utils import general

    target = general.CONFIG_DIR / Path(str(font)).name
    if not Path(str(font)).exists() and not target.exists():
        shutil.copyfile(BUNDLED_FONT, target)


def outputs_agree(fp32: Any, amp: Any, rel_tol: float = 0.05) -> bool:
    """AMP is usable when its outputs are finite and within ``rel_tol`` of FP32's (relative to their range)."""
    import torch

    a, b = fp32.float(), amp.float()
    if a.shape != b.shape or not torch.isfinite(b).all():
        return False
    scale = a.abs().max().clamp_min(1e-6)
    return bool(((a - b).abs().max() / scale) <= rel_tol)


def offline_check_amp(model: Any) -> bool:
    """yolov5's ``check_amp`` contract (True: train with AMP), decided on this model alone, offline."""
    import torch
    from yolov5.utils.general import LOGGER, colorstr

    device = next(model.parameters()).device
    if device.type in ("cpu", "mps"):
        return False
    prefix = colorstr("AMP: ")
    try:
        probe = deepcopy(model).eval()
        im = torch.rand(1, 3, 256, 256, device=device, generator=torch.Generator(device).manual_seed(0))
        with torch.no_grad():
            a = probe(im)[0]
            with torch.autocast("cuda"):
                b = probe(im)[0]
        ok = outputs_agree(a, b)
    except Exception as exc:  # noqa: BLE001 - any failure means "don't use AMP", said plainly
        LOGGER.warning(f"{prefix}check failed ({type(exc).__name__}: {exc}); training without mixed precision")
        return False
    if ok:
        LOGGER.info(f"{prefix}checks passed: training with mixed precision")
    else:
        LOGGER.warning(f"{prefix}FP16 outputs differ from FP32 on this GPU; training without mixed precision")
    return ok


def _replacements() -> dict[str, Any]:
    return {"check_font": _local_font, "check_online": _offline, "check_requirements": _no_op,
            "check_git_status": _no_op, "check_amp": offline_check_amp, "attempt_download": local_weights,
            "attempt_download_from_hub": _no_hub}


def _patch_yolov5() -> None:
    """Replace yolov5's network habits at their source, then in every yolov5 module already loaded.

    A module imported *later* binds the replacements (``from ..utils.general import check_amp`` reads the
    patched attribute), so nothing has to be imported here beyond what ``import yolov5`` loads itself: a
    job pays only for the parts of yolov5 it uses (export and predict never import ``yolov5.train``)."""
    from yolov5.utils import downloads, general

    replacements = _replacements()
    current = general.check_dataset  # 10. never a dataset's download: (code_guards)
    replacements["check_dataset"] = current if getattr(current, "_yolostudio", False) else safe_check_dataset(current)
    sources = {name: downloads if name.startswith("attempt_download") else general for name in replacements}
    originals = {name: getattr(sources[name], name, None) for name in replacements}
    for name, value in replacements.items():
        setattr(sources[name], name, value)
    # Modules loaded before the patch hold their own reference to each original: rebind those (only
    # where the name really is yolov5's function, never a module's own function of the same name).
    for module_name, module in list(sys.modules.items()):
        if module is None or not (module_name == "yolov5" or module_name.startswith("yolov5.")):
            continue
        for name, value in replacements.items():
            current = getattr(module, name, None)
            if current is not None and current is originals[name] and current is not value:
                setattr(module, name, value)


def apply(config_dir: Path, trusted: Iterable[Path] = (), workspace: Path | None = None,
          trusted_model: bool = False) -> None:
    """Make yolov5 train, validate and export with no network; call early, in a worker (idempotent).
    ``workspace``: its weights store's checkpoints are trusted while they hash to their record.
    ``trusted_model``: the user confirmed this job's model YAML (else its strings must pass the strict check)."""
    global _applied
    prepare_environment(config_dir)
    defer_plotting_imports()  # 15. before anything imports yolov5
    set_trusted_roots(trusted, workspace)
    _patch_numpy()
    _patch_pillow()
    _patch_torch_load()
    _patch_yolov5()
    install_code_guards(trusted_model)
    keep_dataset_files()  # 13.
    _patch_torch_save()  # after yolov5: its import of ultralytics rebinds torch.save
    _applied = True
