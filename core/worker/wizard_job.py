"""The ``wizard_measure`` worker job: measure what this machine can feed and compute, for the wizard.

Steps, each announced with ``wizard_step`` (started, then done / failed / skipped with the reason), and every
figure in ``done.measurements`` (``core.wizard.inputs.Measurements``): ``cache`` (yolov5's check_cache_ram
estimate), ``loader`` (the originals at each worker count), ``prepared`` (a sample resized to imgsz by
``core.dataset.prepare``), ``cached`` (the sample with ``--cache ram``), ``demand`` (the model's training
step), ``batch`` (the CUDA probe and yolov5's AutoBatch figure), ``amp`` (the local check, CUDA). A step
that fails does not stop the others: the wizard recommends with what was measured and marks the rest
estimated. The loader is measured on a sample of the training images (``sample``, default 64) so the
whole job stays near ``budget_s`` (default 45 s after imports). A stop ends it between batches, its
loader workers shut down, with the figures measured so far.

Spec: ``workspace``, ``data``, ``imgsz``, ``batch``, ``model``, ``device`` ("cpu", "0", "0,1"), optional
``workers`` (counts to try), ``sample``, ``budget_s``, ``hyp``.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any, Callable

import yaml

from core.dataset.data_yaml import read_data_yaml
from core.dataset.files import list_split
from core.dataset.prepare import prepare_dataset
from core.model_catalog import DEFAULT_MODEL
from core.environment.gather_disk import cache_estimate
from core.i18n import tr
from core.model_catalog import builtin_hyp_path, builtin_model_path
from core.scratch_dirs import make_scratch
from core.worker import wizard_measure as wm
from core.worker.job import JobContext, JobError
from core.wizard.inputs import Measurements
from core.wizard.rules import worker_counts
from core.wizard.tables import BATCH_MEMORY_MARGIN

STEPS = ("cache", "loader", "prepared", "cached", "demand", "batch", "amp")
#: Share of the time budget per step (the rest is dataset building and model set-up).
SHARES = {"loader": 0.3, "prepared": 0.15, "cached": 0.15, "demand": 0.15}


def _sample(data: Path, size: int) -> tuple[list[str], list[str]]:
    judged = read_data_yaml(data)
    if not judged.trainable or judged.spec is None:
        raise JobError("dataset", tr("{path} cannot be read for training: {reasons}", path=data, reasons="; ".join(
            f"{f.where}: {f.message}" for f in judged.errors)), tr("Check it on the Dataset page."))
    train = judged.spec.splits.get("train")
    images = list_split(train, str(data)).images if train else []
    if not images:
        raise JobError("dataset", tr("{path}: the train split holds no images.", path=data),
                       tr("Check it on the Dataset page."))
    return judged.spec.names, random.Random(0).sample(images, min(size, len(images)))


def run_wizard_measure(ctx: JobContext) -> str:
    spec = ctx.spec
    ctx.prepare_stack()
    m = Measurements(imgsz=int(spec["imgsz"]), batch=int(spec.get("batch", 16)),
                     model=spec.get("model", DEFAULT_MODEL))
    ctx.done_fields["measurements"] = m.to_json()
    budget = float(spec.get("budget_s", 45))
    names, images = _sample(Path(spec["data"]), int(spec.get("sample", 64)))
    m.sample_images = len(images)
    hyp_path = Path(spec.get("hyp") or builtin_hyp_path("hyp.scratch-low.yaml"))
    hyp = yaml.safe_load(hyp_path.read_text(encoding="utf-8"))
    workers = [int(w) for w in spec.get("workers") or worker_counts(2, 1)]
    measure_batch = min(m.batch, 8)  # images/s hardly depend on the loader's batch; a small one times faster
    scratch = make_scratch(ctx.workspace / ".cache" / "wizard", "wizard-")  # a killed job's folder goes now
    stopped = False

    def step(name: str, run: Callable[[], Any]) -> None:
        nonlocal stopped
        if stopped:
            return
        ctx.emit("wizard_step", step=name, index=STEPS.index(name), count=len(STEPS), status="started")
        try:
            detail = run()
            ctx.emit("wizard_step", step=name, index=STEPS.index(name), count=len(STEPS), status="done",
                     detail=detail or "")
        except wm.MeasureCancelled:
            stopped = True
        except _Skip as skip:
            m.failures[name] = str(skip)
            ctx.emit("wizard_step", step=name, index=STEPS.index(name), count=len(STEPS), status="skipped",
                     detail=str(skip))
        except Exception as exc:  # noqa: BLE001 - one failed measurement must not stop the others
            reason = ctx.report_error(exc, step=name)
            m.failures[name] = reason["message"]
            ctx.emit("wizard_step", step=name, index=STEPS.index(name), count=len(STEPS), status="failed",
                     detail=reason["message"])
        ctx.done_fields["measurements"] = m.to_json()
        stopped = stopped or ctx.stop_requested

    cancelled = lambda: ctx.stop_requested  # noqa: E731
    try:
        originals = _list_file(scratch / "originals", images)

        def cache() -> str:
            m.cache_ram_gb, sampled = cache_estimate([Path(p) for p in _all_train(Path(spec["data"]))], m.imgsz)
            return tr("{gb:.2f} GB from {n} sampled images", gb=m.cache_ram_gb or 0, n=sampled)

        def loader() -> str:
            dataset = wm.build_dataset(originals, m.imgsz, measure_batch, hyp, None)
            m.loader = wm.loader_supply(dataset, measure_batch, workers, budget_s=budget * SHARES["loader"] /
                                        len(workers), cancelled=cancelled,
                                        on_result=lambda w, r: _partial(ctx, "loader", w, r))
            return _rates(m.loader)

        def prepared() -> str:
            sample_yaml = _sample_yaml(scratch / "sample", images, names)
            copy = prepare_dataset(sample_yaml, m.imgsz, scratch / "prepared", cancelled=cancelled)
            listed = (scratch / "prepared" / "train.txt").read_text(encoding="utf-8").split()
            files = [str(scratch / "prepared" / line[2:]) for line in listed]
            dataset = wm.build_dataset(_list_file(scratch / "prepared-list", files), m.imgsz, measure_batch, hyp,
                                       None)
            m.loader_prepared = wm.loader_supply(dataset, measure_batch, workers, budget_s=budget *
                                                 SHARES["prepared"] / len(workers), cancelled=cancelled)
            return _rates(m.loader_prepared) + tr(" ({n} sample images resized)", n=copy.written)

        def cached() -> str:
            dataset = wm.build_dataset(originals, m.imgsz, measure_batch, hyp, "ram")
            m.loader_cached = wm.loader_supply(dataset, measure_batch, workers, budget_s=budget *
                                               SHARES["cached"] / len(workers), cancelled=cancelled)
            return _rates(m.loader_cached)

        step("cache", cache)
        step("loader", loader)
        step("prepared", prepared)
        step("cached", cached)
        _model_steps(ctx, step, m, spec, hyp, len(names), budget)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        ctx.done_fields["measurements"] = m.to_json()
    return "stopped" if stopped or ctx.stop_requested else "completed"


class _Skip(Exception):
    """A step that does not apply here (the batch probe on a CPU); the message says why."""


def _model_steps(ctx: JobContext, step: Callable[[str, Callable[[], Any]], None], m: Measurements,
                 spec: dict[str, Any], hyp: dict[str, Any], nc: int, budget: float) -> None:
    import torch

    device_text = str(spec.get("device") or "cpu")
    device = torch.device("cpu" if device_text == "cpu" or not torch.cuda.is_available()
                          else f"cuda:{device_text.split(',')[0]}")
    cuda = device.type == "cuda"
    model_yaml = str(builtin_model_path(m.model) or m.model)
    holder: dict[str, Any] = {}

    def trainer() -> Any:
        if "trainer" not in holder:
            holder["trainer"] = wm.Trainer(model_yaml, nc, hyp, device, amp=cuda)
        return holder["trainer"]

    def demand() -> str:
        m.demand = wm.model_demand(trainer(), m.batch, m.imgsz, budget_s=budget * SHARES["demand"],
                                   cancelled=lambda: ctx.stop_requested)
        m.first_step_s = trainer().first_step_s
        return tr("{rate:.0f} img/s at batch {b}, imgsz {imgsz} on {device}", rate=m.demand, b=m.batch,
                  imgsz=m.imgsz, device=device)

    def batch() -> str:
        if not cuda:
            raise _Skip(tr("no CUDA device: the batch is chosen from RAM"))
        free, _total = torch.cuda.mem_get_info(device)
        m.batch_probe, m.batch_probe_gb = wm.probe_batch(wm.cuda_try_batch(trainer(), m.imgsz), free / 1024**3,
                                                         BATCH_MEMORY_MARGIN)
        try:
            from yolov5.utils.autobatch import check_train_batch_size

            m.autobatch = int(check_train_batch_size(trainer().model, m.imgsz, amp=True))
        except Exception as exc:  # noqa: BLE001 - the comparison figure is optional
            m.failures["autobatch"] = str(exc)
        if m.batch_probe is None:
            raise JobError("out-of-memory", tr("Out of memory at batch 1 with {model} at imgsz {imgsz}.",
                                               model=m.model, imgsz=m.imgsz),
                           tr("Free the GPU (other processes), or choose a smaller model or image size."))
        return tr("batch {b} fits ({gb:.1f} GB peak); yolov5 AutoBatch: {auto}", b=m.batch_probe,
                  gb=m.batch_probe_gb or 0, auto=m.autobatch or "?")

    def amp() -> str:
        if not cuda:
            raise _Skip(tr("no CUDA device: yolov5 trains in FP32 on the CPU"))
        m.amp_ok = wm.amp_matches(trainer(), m.imgsz)
        return tr("FP16 matches FP32") if m.amp_ok else tr("FP16 differs from FP32")

    step("demand", demand)
    step("batch", batch)
    step("amp", amp)


def _partial(ctx: JobContext, step: str, workers: int, rate: float) -> None:
    ctx.emit("wizard_step", step=step, index=STEPS.index(step), count=len(STEPS), status="progress",
             detail=tr("workers {w}: {rate:.0f} img/s", w=workers, rate=rate))


def _rates(rates: dict[int, float]) -> str:
    return ", ".join(tr("workers {w}: {rate:.0f} img/s", w=w, rate=r) for w, r in sorted(rates.items()))


def _list_file(folder: Path, images: list[str]) -> Path:
    """A yolov5 image list; its label cache (``<list>.cache``) lands beside it, never in the user's dataset."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "train.txt"
    path.write_text("\n".join(str(Path(p).absolute()) for p in images) + "\n", encoding="utf-8")
    return path


def _sample_yaml(folder: Path, images: list[str], names: list[str]) -> Path:
    listed = _list_file(folder, images)
    data = folder / "data.yaml"
    data.write_text(yaml.safe_dump({"path": str(folder), "train": listed.name, "val": listed.name,
                                    "names": dict(enumerate(names))}), encoding="utf-8")
    return data


def _all_train(data: Path) -> list[str]:
    judged = read_data_yaml(data)
    train = judged.spec.splits.get("train") if judged.spec else None
    return list_split(train, str(data)).images if train else []

