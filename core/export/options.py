"""Which export options are possible here, and why not when they are not — pure rules on injected facts.

``option_states(options, facts)`` answers, for every format and option, "enabled?" with the reason and,
where a package is missing, the exact command that installs the right one for this CUDA. The GUI greys
out what is disabled and shows the reason; the CLI refuses with the same words (``validate_options``).
No torch, no tensorrt, no Qt: the facts come from ``core/export/facts.py`` or from a test.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from core.export.facts import ExportFacts
from core.findings import Finding, has_errors, problem
from core.i18n import tr

FORMATS = ("onnx", "engine", "torchscript", "openvino")
#: An OpenVINO IR is ``best.xml`` and the ``best.bin`` beside it (``core/worker/export_openvino.py``).
SUFFIXES = {"onnx": ".onnx", "engine": ".engine", "torchscript": ".torchscript", "openvino": ".xml"}
OPENVINO_INSTALL = "pip install openvino"
NNCF_INSTALL = "pip install nncf"  # OpenVINO's post-training INT8 quantiser (core/worker/export_int8.py)
OPSET_MIN, OPSET_MAX, OPSET_DEFAULT = 11, 20, 17  # the legacy exporter's range (torch 2.14: max 20)
#: TensorRT 10.5+ supports only compute capability >= 7.5.
TRT_MIN_CAPABILITY = (7, 5)
INT8_MIN_CAPABILITY = (6, 1)
FP16_MIN_CAPABILITY = (5, 3)
ONNXSIM_INSTALL = "pip install onnxsim"


@dataclass
class ExportOptions:
    weights: str
    formats: tuple[str, ...] = ("onnx",)
    imgsz: int = 640
    batch: int = 1
    half: bool = False
    dynamic: bool = False
    opset: int = OPSET_DEFAULT
    simplify: bool = False
    int8: bool = False
    #: INT8 is called verified only when its mAP@0.5 on val falls by at most this much from FP32's (--int8-max-drop).
    int8_max_drop: float = 0.02
    data: str = ""  # dataset YAML for verification images and INT8 calibration ("" = the run's own)
    device: str = ""  # "" = first GPU when the options need one, else CPU

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["formats"] = list(self.formats)
        return data


@dataclass(frozen=True)
class OptionState:
    enabled: bool = True
    reason: str = ""
    install: str = ""  # the command that makes it possible, when a package is what's missing


@dataclass
class CheckedOptions:
    options: ExportOptions
    states: dict[str, OptionState] = field(default_factory=dict)
    problems: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not has_errors(self.problems)


def _major(version: str | None) -> int | None:
    try:
        return int(str(version).split(".")[0])
    except (TypeError, ValueError):
        return None


def tensorrt_install_command(torch_cuda: str | None) -> str:
    """The pip command that installs a TensorRT 10 matching torch's CUDA (11 dropped the FP16/INT8 flags).

    The wheels' real libraries come from NVIDIA's own index, hence the extra index URL.
    """
    major = _major(torch_cuda)
    if major is None:
        return ""
    package = "tensorrt-cu13>=10.13,<11" if major >= 13 else f"tensorrt-cu{major}>=10,<11"
    return f'pip install --extra-index-url https://pypi.nvidia.com "{package}"'


def _engine_state(facts: ExportFacts) -> OptionState:
    if facts.gpu_count <= 0:
        return OptionState(False, tr("TensorRT needs an NVIDIA GPU, and none was found on this machine."))
    install = tensorrt_install_command(facts.torch_cuda)
    if facts.torch_cuda is None:
        return OptionState(False, tr("TensorRT needs a CUDA build of PyTorch; this one is CPU-only."))
    if facts.tensorrt_version is None:
        return OptionState(False, tr("TensorRT needs the 'tensorrt' package, which is not installed."), install)
    major = _major(facts.tensorrt_version)
    if major is not None and major < 10:
        return OptionState(False, tr("TensorRT {version} is installed; export needs TensorRT 10 or newer "
                                     "(version 8's API was removed in 10).", version=facts.tensorrt_version), install)
    cap = facts.gpu_capability
    if cap is not None and tuple(cap) < TRT_MIN_CAPABILITY:
        return OptionState(False, tr("TensorRT 10 does not support this GPU ({name}, compute capability "
                                     "{major}.{minor}; it needs 7.5 or newer).", name=facts.gpu_name or "GPU",
                                     major=cap[0], minor=cap[1]))
    return OptionState()


def option_states(options: ExportOptions, facts: ExportFacts) -> dict[str, OptionState]:
    """Every format/option name → whether it can be used with the others as chosen, and why not."""
    gpu = facts.gpu_count > 0 and facts.torch_cuda is not None
    engine = _engine_state(facts)
    trt_major = _major(facts.tensorrt_version)
    states: dict[str, OptionState] = {
        "onnx": OptionState(),
        "torchscript": OptionState(),
        "engine": engine,
        "openvino": OptionState() if facts.openvino else OptionState(
            False, tr("OpenVINO export needs the 'openvino' package, which is not installed."), OPENVINO_INSTALL),
    }
    if not gpu:
        states["half"] = OptionState(False, tr("FP16 export needs an NVIDIA GPU (half precision does not run on "
                                               "the CPU)."))
    elif options.dynamic:
        states["half"] = OptionState(False, tr("FP16 export cannot be combined with dynamic shapes; turn off "
                                               "dynamic shapes to export FP16."))
    elif facts.gpu_capability is not None and tuple(facts.gpu_capability) < FP16_MIN_CAPABILITY:
        states["half"] = OptionState(False, tr("This GPU has no fast FP16 support."))
    elif "engine" in options.formats and engine.enabled and trt_major is not None and trt_major >= 11:
        states["half"] = OptionState(False, tr("TensorRT 11 removed the FP16 builder flag; install TensorRT 10 "
                                               "for FP16 engines."), tensorrt_install_command(facts.torch_cuda))
    else:
        states["half"] = OptionState()
    if options.half:
        states["dynamic"] = OptionState(False, tr("Dynamic shapes cannot be combined with FP16; turn off FP16 to "
                                                  "export dynamic shapes."))
    else:
        states["dynamic"] = OptionState()
    if not ({"onnx", "engine"} & set(options.formats)):
        states["simplify"] = OptionState(False, tr("Simplifying applies to ONNX and TensorRT exports only."))
        states["opset"] = OptionState(False, tr("The ONNX opset applies to ONNX and TensorRT exports only."))
    else:
        states["opset"] = OptionState()
        states["simplify"] = OptionState() if facts.onnxsim else OptionState(
            False, tr("Simplifying needs the 'onnxsim' package, which is not installed."), ONNXSIM_INSTALL)
    cpu_int8 = {"onnx", "openvino"} & set(options.formats)
    if cpu_int8 and "engine" not in options.formats:
        # ONNX Runtime's static quantisation and NNCF's for OpenVINO, both on the CPU
        states["int8"] = OptionState() if "openvino" not in cpu_int8 or facts.nncf else OptionState(
            False, tr("OpenVINO INT8 needs the 'nncf' package, which is not installed."), NNCF_INSTALL)
    elif not engine.enabled:
        states["int8"] = OptionState(False, tr("INT8 is a TensorRT, ONNX or OpenVINO option: {reason}",
                                               reason=engine.reason), engine.install)
    elif trt_major is not None and trt_major >= 11:
        states["int8"] = OptionState(False, tr("TensorRT 11 removed INT8 calibration; install TensorRT 10 for "
                                               "calibrated INT8 engines."), tensorrt_install_command(facts.torch_cuda))
    elif facts.gpu_capability is not None and tuple(facts.gpu_capability) < INT8_MIN_CAPABILITY:
        states["int8"] = OptionState(False, tr("This GPU has no fast INT8 support (compute capability 6.1 or "
                                               "newer is needed)."))
    elif "engine" not in options.formats:
        states["int8"] = OptionState(False, tr("INT8 applies to TensorRT engines, ONNX and OpenVINO; choose one "
                                               "of them."))
    else:
        states["int8"] = OptionState()
    return states


def validate_options(options: ExportOptions, facts: ExportFacts) -> CheckedOptions:
    """The options' states plus the problems that refuse an export (each says what to do)."""
    checked = CheckedOptions(options, option_states(options, facts))
    add = checked.problems.append
    if not options.formats:
        add(refusal("formats", tr("Choose at least one format to export.")))
    for fmt in options.formats:
        if fmt not in FORMATS:
            add(refusal("formats", tr("Unknown format {format}; choose from {formats}.", format=fmt,
                                            formats=", ".join(FORMATS))))
        elif not checked.states[fmt].enabled:
            state = checked.states[fmt]
            add(refusal(fmt, state.reason, _install_hint(state)))
    for name in ("half", "dynamic", "simplify", "int8"):
        state = checked.states[name]
        if getattr(options, name) and not state.enabled:
            add(refusal(name, state.reason, _install_hint(state)))
    if options.int8 and not options.data:
        add(refusal("data", tr("INT8 calibration needs images: give the dataset with --data DATA.yaml "
                                     "(a run's own dataset is used when the weights come from a run).")))
    if options.int8 and not 0.0 <= options.int8_max_drop <= 1.0:
        add(refusal("int8_max_drop", tr("--int8-max-drop {value} is not between 0 and 1.",
                                        value=options.int8_max_drop)))
    if options.imgsz < 32 or options.imgsz % 32:
        add(refusal("imgsz", tr("Image size {imgsz} must be a multiple of 32 (the model's largest stride) "
                                      "and at least 32.", imgsz=options.imgsz)))
    if options.batch < 1:
        add(refusal("batch", tr("Batch size must be at least 1.")))
    if not OPSET_MIN <= options.opset <= OPSET_MAX:
        add(refusal("opset", tr("ONNX opset {opset} is outside {low}–{high}, the range of the exporter "
                                      "used.", opset=options.opset, low=OPSET_MIN, high=OPSET_MAX)))
    return checked


def refusal(option: str, message: str, fix: str = "") -> Finding:
    """An option the export cannot use, as the app's one finding record (an error naming the option)."""
    return problem("error", option, message, fix)


def _install_hint(state: OptionState) -> str:
    return tr("Install it with: {command}", command=state.install) if state.install else ""
