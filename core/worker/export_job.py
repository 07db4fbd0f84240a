"""The export job: weights → ONNX / TensorRT / TorchScript files, each proven against PyTorch or marked not.

For every format: export to a hidden temp name beside the final one, check the file exists and loads,
run it on the same real images as the PyTorch reference (``export_verify``), time both, then rename —
to ``<stem>.<ext>`` when verified, to ``<stem>.unverified.<ext>`` when not — and write ``export.json``
beside it. A failure leaves nothing under the final name. Events: ``stage`` (loading, exporting,
verifying, timing, with ``format``), one ``export_result`` per format, ``error`` for a failed step, ``done``.
"""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import time
from copy import deepcopy
from pathlib import Path
from typing import Any

from core.atomic import atomic_write_text
from core.disk_space import disk_full_error, is_disk_full
from core.export.options import ExportOptions
from core.dataset.split_images import split_images
from core.export.plan import REPORT_NAME, UNVERIFIED_TAG, cli_summary, final_path
from core.i18n import tr, tr_n
from core.job.protocol import EventWriter
from core.worker.control import ControlChannel
from core.worker.export_load import ExportError, LoadedModel, load_for_export
from core.worker.job import JobContext
from core.worker.export_verify import (Prepared, Runner, batches, compare, latency_report, paired_latency_ms,
                                       prepare_images, torch_runner)


def _onnx_int8() -> tuple[Any, Any]:
    from core.worker.export_formats import onnxruntime_runner
    from core.worker.export_int8 import quantize_onnx

    return quantize_onnx, onnxruntime_runner


def _openvino_int8() -> tuple[Any, Any]:
    from core.worker.export_int8 import quantize_openvino
    from core.worker.export_openvino import openvino_runner

    return quantize_openvino, openvino_runner


#: Post-training INT8 after a verified FP32 export: format → (quantiser, runner), imported when asked for.
INT8_RUNTIMES = {"onnx": _onnx_int8, "openvino": _openvino_int8}


class Cancelled(Exception):
    """The user asked the export to stop."""


def _options(spec: dict[str, Any]) -> ExportOptions:
    raw = dict(spec["options"])
    raw["formats"] = tuple(raw.get("formats") or ())
    return ExportOptions(**{k: v for k, v in raw.items() if k in ExportOptions.__dataclass_fields__})


def _device(options: ExportOptions) -> str:
    import torch

    needs_gpu = options.half or "engine" in options.formats
    if options.device == "cpu":
        if needs_gpu:
            raise ExportError("config", tr("FP16 and TensorRT need a GPU, but the CPU was chosen."), "")
        return "cpu"
    if torch.cuda.is_available():
        return f"cuda:{options.device}" if options.device.isdigit() else "cuda:0"
    if needs_gpu:
        raise ExportError("cuda", tr("FP16 and TensorRT exports need an NVIDIA GPU that PyTorch can use, and none "
                                     "is available."), tr("Export FP32 ONNX or TorchScript on this machine."))
    return "cpu"


def export_disk_hint() -> str:
    """A full disk during export: there is nothing to resume, the export just runs again."""
    return tr("Free some space (old runs, caches, other exports) and export again.")


def _check_disk(folder: Path, weights: Path, formats: int, required: int | None) -> None:
    need = required if required is not None else weights.stat().st_size * 3 * max(1, formats) + (64 << 20)
    existing = next(p for p in (folder, *folder.parents) if p.exists())  # nothing is created before it's needed
    free = shutil.disk_usage(existing).free
    if free < need:
        raise ExportError("disk_full", tr("Not enough disk space in {folder}: {free} MB free, about {need} MB "
                                          "needed.", folder=folder, free=free >> 20, need=need >> 20),
                          export_disk_hint())


def remove_stale_partials(folder: Path) -> None:
    """Partial files of exports whose worker is gone (killed, aborted): ``.<name>.<pid>.partial[.onnx]``."""
    from core.run.owner import process_alive

    for stale in folder.glob(".*.partial*") if folder.is_dir() else ():
        match = re.search(r"\.(\d+)\.partial", stale.name)
        if match is None or not process_alive(int(match.group(1)), None) or int(match.group(1)) == os.getpid():
            stale.unlink(missing_ok=True)


def _verification_images(options: ExportOptions, limit: int) -> tuple[list[Path], str]:
    if options.data:
        found = split_images(options.data, limit=limit).images
        if found:
            return found, str(options.data)
    import yolov5

    bundled = sorted((Path(yolov5.__file__).parent / "data" / "images").glob("*.jpg"))
    return bundled[:limit], "yolov5 sample images (the dataset's validation images were not found)"


def companion(path: Path) -> Path:
    """The second file of a two-file export (an OpenVINO IR's ``.bin``); for others a name never written."""
    from core.worker.export_openvino import bin_of

    return bin_of(path)


class ExportJob:
    """One export run: shared state (model, images, reference outputs) for all requested formats."""

    def __init__(self, spec: dict[str, Any], writer: EventWriter, control: ControlChannel) -> None:
        self.spec = spec
        self.writer = writer
        self.control = control
        self.options = _options(spec)
        self.weights = Path(self.options.weights)
        self.runs = int(spec.get("latency_runs", 20))
        self.results: list[dict[str, Any]] = []
        self.ctx: Any = None  # the job's context (run_export sets it): INT8's evaluation reports through it

    def stage(self, stage: str, detail: str, **fields: Any) -> None:
        if self.control.stop_requested.is_set():
            raise Cancelled()
        self.writer.emit("stage", stage=stage, detail=detail, **fields)

    # -- shared preparation --------------------------------------------------------------------------
    def prepare(self) -> None:
        import torch

        opts = self.options
        self.device = _device(opts)
        # The reference is strict FP32: TF32 convolutions/matmuls (on by default for cuDNN) would move it.
        torch.backends.cudnn.allow_tf32 = False
        torch.backends.cuda.matmul.allow_tf32 = False
        self.stage("loading", tr("loading {path}", path=self.weights))
        for fmt in opts.formats:
            remove_stale_partials(final_path(self.weights, fmt).parent)
        _check_disk(final_path(self.weights, opts.formats[0]).parent.parent, self.weights, len(opts.formats),
                    self.spec.get("min_free_bytes"))
        self.loaded: LoadedModel = load_for_export(self.weights)
        self.model = self.loaded.model.to(self.device)
        if opts.imgsz % self.loaded.stride:
            raise ExportError("config", tr("Image size {imgsz} is not a multiple of the model's stride {stride}.",
                                           imgsz=opts.imgsz, stride=self.loaded.stride), "")
        paths, self.image_source = _verification_images(opts, int(self.spec.get("verify_images", 16)))
        self.images: list[Prepared] = prepare_images(paths, opts.imgsz, self.loaded.stride)
        if not self.images:
            raise ExportError("dataset", tr("No images could be read to verify the export."),
                              tr("Check the dataset's val folder (--data DATA.yaml)."))
        self.batches = batches(self.images, max(1, opts.batch))
        self.dummy = torch.zeros(max(1, opts.batch), 3, opts.imgsz, opts.imgsz, device=self.device)
        with torch.inference_mode():
            for _ in range(2):
                self.model(self.dummy)  # dry runs, as yolov5's exporter does (builds grids)
        self.stage("reference", tr_n("running PyTorch on {n} image", "running PyTorch on {n} images",
                                     len(self.images)))
        reference = torch_runner(self.model, self.device)
        self.reference = [reference(b) for b in self.batches]
        self.sync = torch.cuda.synchronize if self.device.startswith("cuda") else None
        precision_model = deepcopy(self.model).half() if opts.half else self.model
        # Timed beside each format, interleaved with it (export_one): never once for every report
        self.torch_timed = torch_runner(precision_model, self.device, opts.half)

    # -- one format ----------------------------------------------------------------------------------
    def export_one(self, fmt: str) -> dict[str, Any]:
        target = final_path(self.weights, fmt)
        folder = target.parent
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".{target.name}.{os.getpid()}.partial"  # its writer's pid: stale ones are cleaned
        report: dict[str, Any] = {"format": fmt, "weights": str(self.weights), "created": time.time(),
                                  "options": self._option_report(fmt), "precision": self._precision(fmt),
                                  "device": self.device, "images": len(self.images), "image_source": self.image_source,
                                  "names": self.loaded.names, "checkpoint": self.loaded.info}
        try:
            self.stage("exporting", tr("exporting {format}", format=fmt), format=fmt)
            report["build"] = self._write(fmt, tmp)
            self.stage("verifying", tr("verifying {format} against PyTorch", format=fmt), format=fmt)
            runner, client = self._runner(fmt, tmp)
            outputs = [runner(b) for b in self.batches]
            verified = compare(self.reference, outputs, report["precision"])
            verified["client"] = client
            if fmt == "onnx":
                verified["second_client"] = self._opencv(tmp)
            report["verified"] = verified
            self.stage("timing", tr("timing {format}", format=fmt), format=fmt)
            report["latency_ms"] = latency_report(*paired_latency_ms(self.torch_timed, runner, self.batches[0],
                                                                     self.runs, sync=self.sync),
                                                  runs=self.runs, batch=self.options.batch)
        except BaseException as exc:
            tmp.unlink(missing_ok=True)
            companion(tmp).unlink(missing_ok=True)
            if isinstance(exc, Exception) and is_disk_full(exc, folder):
                raise ExportError("disk_full", str(exc) if isinstance(exc, OSError) and exc.errno == errno.ENOSPC
                                  else str(disk_full_error(tmp, None)), export_disk_hint()) from exc
            raise
        final = final_path(self.weights, fmt, verified=bool(report["verified"]["ok"]))
        for stale in (final_path(self.weights, fmt), final_path(self.weights, fmt, verified=False)):
            if stale != final:
                stale.unlink(missing_ok=True)
                companion(stale).unlink(missing_ok=True)
        if fmt == "openvino":  # the weights first: an xml is never left pointing at no bin
            os.replace(companion(tmp), companion(final))
        os.replace(tmp, final)
        report.update(path=str(final), bytes=final.stat().st_size + (
            companion(final).stat().st_size if fmt == "openvino" else 0))
        if fmt in INT8_RUNTIMES and self.options.int8:
            report["int8"] = self._int8(fmt, final)
        atomic_write_text(folder / REPORT_NAME, json.dumps(report, indent=2, ensure_ascii=False, default=str) + "\n",
                          backup=False)
        return report

    def _int8(self, fmt: str, fp32: Path) -> dict[str, Any]:
        """The INT8 model beside the FP32 one, and what it cost (``core/worker/export_int8.py``): one path for
        every runtime, only the quantiser and the runner differ (``INT8_RUNTIMES``)."""
        import tempfile

        from core.worker.export_int8 import calibration_images, evaluate, interleaved_latency

        quantize, runner = INT8_RUNTIMES[fmt]()
        o, suffix = self.options, fp32.suffix
        self.stage("calibrating", tr("calibrating INT8 on the training images"), format=fmt)
        images = calibration_images(o.data, o.imgsz, self.loaded.stride)
        if not images:
            raise ExportError("dataset", tr("No training images to calibrate INT8 on in {data}.", data=o.data),
                              tr("Give the dataset with --data DATA.yaml."))
        tmp = fp32.parent / f".{fp32.stem}.int8.{os.getpid()}.partial{suffix}"  # val.run knows a model by its suffix
        try:
            build = quantize(fp32, tmp, images, max(1, o.batch))
            self.stage("evaluating", tr("evaluating FP32 and INT8 on the val split"), format=fmt)
            with tempfile.TemporaryDirectory() as scratch:
                results = {name: evaluate(self.ctx, path, o.data, o.imgsz, self.loaded.names, Path(scratch))
                           for name, path in (("fp32", fp32), ("int8", tmp))}
            self.stage("timing", tr("timing FP32 and INT8"), format=fmt)
            lat32, lat8 = interleaved_latency(runner(fp32)[0], runner(tmp)[0], self.batches[0])
        except BaseException:
            tmp.unlink(missing_ok=True)
            companion(tmp).unlink(missing_ok=True)
            raise
        results["fp32"]["latency_ms"], results["int8"]["latency_ms"] = lat32, lat8
        drop = results["fp32"]["map50"] - results["int8"]["map50"]
        verified = drop <= o.int8_max_drop
        final = fp32.parent / (fp32.stem + ".int8" + ("" if verified else f".{UNVERIFIED_TAG}") + suffix)
        for stale in fp32.parent.glob(f"{fp32.stem}.int8*{suffix}"):
            stale.unlink(missing_ok=True)
            companion(stale).unlink(missing_ok=True)
        if fmt == "openvino":  # the weights first: an xml is never left pointing at no bin
            os.replace(companion(tmp), companion(final))
        os.replace(tmp, final)
        size = final.stat().st_size + (companion(final).stat().st_size if fmt == "openvino" else 0)
        return {"path": str(final), "bytes": size, "verified": verified,
                "max_drop": o.int8_max_drop, "map50_drop": drop, "quantization": build,
                "split": "val", "fp32": results["fp32"], "int8": results["int8"]}

    def _precision(self, fmt: str) -> str:
        if fmt == "engine" and self.options.int8:
            return "int8"
        if self.options.half:
            return "fp16"
        return "tf32" if fmt == "engine" else "fp32"  # TensorRT enables TF32 for FP32 layers by default

    def _option_report(self, fmt: str) -> dict[str, Any]:
        o = self.options
        keep = {"imgsz": o.imgsz, "batch": o.batch, "half": o.half, "dynamic": o.dynamic}
        if fmt in ("onnx", "engine"):
            keep.update(opset=o.opset, simplify=o.simplify)
        if fmt == "engine":
            keep.update(int8=o.int8)
        return keep

    def _sample(self) -> Any:
        return self.dummy.half() if self.options.half else self.dummy

    def _export_model(self) -> Any:
        return deepcopy(self.model).half() if self.options.half else self.model

    def _write(self, fmt: str, tmp: Path) -> dict[str, Any]:
        from core.worker.export_formats import export_onnx, export_torchscript

        o, names, stride = self.options, self.loaded.names, self.loaded.stride
        if fmt == "onnx":
            return export_onnx(self._export_model(), self._sample(), tmp, opset=o.opset, dynamic=o.dynamic,
                               simplify=o.simplify, names=names, stride=stride)
        if fmt == "torchscript":
            return export_torchscript(self._export_model(), self._sample(), tmp, names=names, stride=stride)
        if fmt == "openvino":
            from core.worker.export_openvino import export_openvino

            return export_openvino(self._export_model(), self._sample(), tmp, names=names, stride=stride)
        return self._write_engine(tmp)

    def _write_engine(self, tmp: Path) -> dict[str, Any]:
        """TensorRT builds from an FP32 ONNX (FP16/INT8 are builder flags), checked before the build."""
        from core.worker.export_formats import export_onnx, onnxruntime_runner
        from core.worker.export_trt import build_engine

        o = self.options
        onnx_tmp = tmp.with_name(tmp.name + ".onnx")
        try:
            export_onnx(self.model, self.dummy, onnx_tmp, opset=o.opset, dynamic=o.dynamic, simplify=o.simplify,
                        names=self.loaded.names, stride=self.loaded.stride)
            run, _ = onnxruntime_runner(onnx_tmp)
            check = compare(self.reference[:1], [run(self.batches[0])], "fp32")
            if not check["ok"]:
                raise ExportError("export", tr("The ONNX model TensorRT would build from does not match PyTorch "
                                               "(max abs diff {diff}).", diff=check["max_abs_diff"]), "")
            calibration = self.batches if o.int8 else None
            build = build_engine(onnx_tmp, tmp, imgsz=o.imgsz, batch=max(1, o.batch), half=o.half, int8=o.int8,
                                 dynamic=o.dynamic, calibration=calibration)
        finally:
            onnx_tmp.unlink(missing_ok=True)
        return build

    def _runner(self, fmt: str, path: Path) -> tuple[Runner, dict[str, Any]]:
        from core.worker.export_formats import onnxruntime_runner, torchscript_runner

        if fmt == "onnx":
            return onnxruntime_runner(path, use_cuda=self.device.startswith("cuda"))
        if fmt == "torchscript":
            return torchscript_runner(path, self.device, self.options.half)
        if fmt == "openvino":
            from core.worker.export_openvino import openvino_runner

            return openvino_runner(path)
        from core.worker.export_trt import TrtRunner

        runner = TrtRunner(path)
        return runner, {"client": "tensorrt", "version": str(runner.trt.__version__)}

    def _opencv(self, path: Path) -> dict[str, Any]:
        """OpenCV DNN where it can read the model (static FP32 only); never decides ``ok``."""
        if self.options.dynamic or self.options.half:
            return {"client": "opencv-dnn", "skipped": tr("OpenCV's DNN reads only static FP32 models")}
        try:
            from core.worker.export_formats import opencv_runner

            run, client = opencv_runner(path)
            result = compare(self.reference, [run(b) for b in self.batches], "fp32")
        except Exception as exc:  # noqa: BLE001 - a second client that can't read the model is a note
            return {"client": "opencv-dnn", "skipped": f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"}
        return {**client, **{k: result[k] for k in ("ok", "max_abs_diff", "nms_agreement")}}


def run_export(ctx: JobContext) -> str:
    """Export every requested format: ``completed`` only when every file was written and verified."""
    ctx.done_fields["exports"] = []
    job = ExportJob(ctx.spec, ctx.writer, ctx.control)
    job.ctx = ctx  # INT8's evaluation reports its progress as the evaluate job does
    try:
        job.prepare()
        for fmt in job.options.formats:
            try:
                report = job.export_one(fmt)
            except Cancelled:
                raise
            except Exception as exc:  # noqa: BLE001 - one format failing doesn't stop the others
                error = ctx.report_error(exc, format=fmt)
                report = {"format": fmt, "path": None, "bytes": None, "error": error,
                          "verified": {"ok": False, "max_abs_diff": None, "nms_agreement": None}}
            job.results.append(report)
            ctx.emit("export_result", format=fmt, ok=bool(report["verified"].get("ok")), report=report)
    except Cancelled:
        return "stopped"
    finally:
        ctx.done_fields["exports"] = [cli_summary(r) for r in job.results]
    return "completed" if all(r["verified"].get("ok") and (r.get("int8") or {}).get("verified", True)
                              for r in job.results) else "failed"
