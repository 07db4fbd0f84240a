"""Training options checked, and the commands that run them.

``TrainConfig`` (``core/training/options.py``, where every option is described once) is what the user chose
(GUI form, CLI flags, a saved run's ``config.json``).
``validate_config`` checks it *before* a GPU minute is spent, against injected machine facts, and
returns a normalised copy plus problems that name the file or value and say what to do.
``build_worker_spec`` and ``build_yolov5_command`` are pure: the first is what ``core.worker train``
runs, the second is the equivalent plain ``yolov5 train ...`` line a user can copy to a terminal.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from core.dataset.data_yaml import read_data_yaml
from core.dataset.fix_catalogue import fix_description
from core.training.distributed import check_distributed, topology_spec, with_run_id
from core.file_values import has_control_characters, is_finite_number
from core.findings import Finding, Severity, errors_of, problem
from core.training.hyp_file import hyp_problem
from core.training.model_yaml_check import model_shape_problem
from core.i18n import tr
from core.environment.machine import MachineFacts, parse_device  # noqa: F401 - parse_device re-exported
from core.model_catalog import BUILTIN_HYPS, builtin_hyp_path, builtin_model_path
from core.training.options import AUTO_BATCH, TrainConfig, train_options, yolov5_fields  # noqa: F401 - AUTO_BATCH re-exported
from core.weights.choice import WeightsNotHere, resolve_named

SPEC_VERSION = 1
_RUN_NAME = re.compile(r"^[^\\/:*?\"<>|\x00-\x1f]{1,80}$")


@dataclass
class ValidatedConfig:
    config: TrainConfig
    problems: list[Finding] = field(default_factory=list)
    data_path: Path | None = None
    cfg_path: Path | None = None  # model YAML ("" when training from a checkpoint)
    weights_path: Path | None = None
    hyp_path: Path | None = None

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def errors(self) -> list[Finding]:
        return errors_of(self.problems)

    @property
    def warnings(self) -> list[Finding]:
        return [p for p in self.problems if p.severity is Severity.WARNING]


#: Names Windows reserves for devices, whatever the extension ("NUL.txt" too), in any case — Microsoft's
#: "Naming Files, Paths, and Namespaces" (learn.microsoft.com/windows/win32/fileio/naming-a-file), which also
#: lists the superscript digits ¹ ² ³ after COM and LPT. A run folder called COM1 cannot be opened there.
WINDOWS_DEVICE_NAMES = frozenset({"CON", "PRN", "AUX", "NUL"} | {f"{p}{d}" for p in ("COM", "LPT")
                                                                 for d in "123456789¹²³"})


def run_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a run folder on Linux and Windows (None: it can): separators or reserved
    characters, a control or invisible format character (U+009B is a terminal's CSI), surrounding spaces or a
    trailing dot (Windows drops it), ``.``/``..``, or a Windows device name."""
    if has_control_characters(name):
        return tr("it holds a control or invisible character")
    if not _RUN_NAME.match(name) or name in (".", ".."):
        return tr("use letters, digits, '-', '_' or '.', without slashes")
    if name.strip() != name or name.endswith("."):
        return tr("it starts or ends with a space, or ends with a dot")
    if name.split(".", 1)[0].rstrip(" ").upper() in WINDOWS_DEVICE_NAMES:
        return tr("Windows reserves it for a device (CON, PRN, AUX, NUL, COM1–COM9, LPT1–LPT9)")
    return None


def valid_run_name(name: str) -> bool:
    """A run folder name that is safe on Linux and Windows (``run_name_problem`` says why not)."""
    return run_name_problem(name) is None


def _check_data(path_text: str, problems: list[Finding]) -> Path | None:
    """The data.yaml must exist and be trainable by the dataset reader's rule (the validator's own)."""
    if not path_text:
        problems.append(problem("error", "data", tr("No dataset chosen."),
                                tr("Choose a data.yaml, or use the demo dataset.")))
        return None
    path = Path(path_text).expanduser()
    if not path.is_file():
        problems.append(problem("error", "data", tr("Dataset file not found: {path}", path=path),
                                tr("Check the path, or open the dataset page to create a data.yaml.")))
        return None
    judged = read_data_yaml(path)
    for found in judged.errors:
        what = fix_description(found.code)  # the fix catalogue Fix… reads: no promise of a fix that is not there
        problems.append(problem("error", "data", f"{found.where}: {found.message}",
                                tr("On the Dataset page, Fix… can {what} (previewed and undoable).", what=what)
                                if what else found.fix or tr("Correct the data.yaml, then check again.")))
    return path.resolve() if judged.trainable else None


def _checkpoint_path(field_name: str, text: str, workspace: Path | None, problems: list[Finding]) -> Path | None:
    """A checkpoint's file: a bare official name (``yolov5s.pt``) comes from the weights store
    (``core.weights.choice.resolve_named``: never downloaded, a missing one names the command that gets it);
    anything else is a path. None (with the problem) when a named one is not usable."""
    try:
        stored = resolve_named(text, workspace)
    except WeightsNotHere as missing:
        problems.append(problem("error", field_name, missing.message, missing.hint))
        return None
    return stored or Path(text.strip()).expanduser()


def _check_model(cfg: TrainConfig, problems: list[Finding],
                 workspace: Path | None = None) -> tuple[Path | None, Path | None]:
    """Returns (model yaml, weights). Bare official checkpoint names come from the workspace's store."""
    cfg_path: Path | None = None
    weights: Path | None = None
    model = cfg.model.strip()
    if not model:
        problems.append(problem("error", "model", tr("No model chosen."), tr("Pick yolov5n/s/m/l/x or a model file.")))
    elif model.endswith(".pt"):
        weights = _checkpoint_path("model", model, workspace, problems)
    else:
        builtin = builtin_model_path(model)
        candidate = builtin if builtin is not None else Path(model).expanduser()
        if candidate.is_file():
            cfg_path = candidate.resolve()
            shape = model_shape_problem(cfg_path)  # before training: yolov5 would fail on it at its start
            if shape:
                problems.append(problem("error", "model", tr("{path}: {reason}", path=cfg_path, reason=shape),
                                        tr("Correct the model YAML, or start from yolov5n.yaml … yolov5x.yaml.")))
        else:
            problems.append(problem("error", "model", tr("Model definition not found: {model}", model=model),
                                    tr("Use one of yolov5n.yaml … yolov5x.yaml, or the path of a model YAML.")))
    if cfg.weights.strip():
        if weights is not None or model.endswith(".pt"):
            problems.append(problem("error", "weights", tr("Both a checkpoint model and initial weights were given."),
                                    tr("Give either a .pt model, or a model YAML plus initial weights.")))
        weights = _checkpoint_path("weights", cfg.weights, workspace, problems)
    if weights is not None:
        if weights.suffix != ".pt":
            problems.append(problem("error", "weights", tr("Weights must be a .pt file: {path}", path=weights), ""))
            weights = None
        elif not weights.is_file():
            problems.append(problem(
                "error", "weights", tr("Weights file not found: {path}", path=weights),
                tr("Check the path. YOLO Studio works offline: the official pretrained checkpoints come by "
                   "name (yolov5s.pt …) from its weights store, and yolostudio weights get yolov5s fetches one "
                   "when you ask.")))
            weights = None
        else:
            weights = weights.resolve()
    return cfg_path, weights


def _check_hyp(name: str, problems: list[Finding]) -> Path | None:
    path = builtin_hyp_path(name) if name in BUILTIN_HYPS else Path(name).expanduser()
    if path is None or not path.is_file():
        problems.append(problem("error", "hyp", tr("Hyperparameter file not found: {name}", name=name),
                                tr("Use hyp.scratch-low.yaml, or the path of a hyp YAML.")))
        return None
    found = hyp_problem(path)
    if found is not None:  # yolov5 would stop on it (a KeyError, a NaN loss) after the run had started
        problems.append(problem("error", "hyp", found, tr("Use hyp.scratch-low.yaml, or the path of a hyp YAML.")))
        return None
    return path.resolve()


def validate_config(cfg: TrainConfig, facts: MachineFacts = MachineFacts(),
                    workspace: Path | None = None) -> ValidatedConfig:
    """Check every option and return a normalised copy; nothing here touches torch or the GPU.

    ``workspace``: where bare official checkpoint names (``yolov5s.pt``) are looked up (its weights store);
    without it such a name must be a file where it is named."""
    problems: list[Finding] = []
    fixed = with_run_id(replace(cfg))  # machine 0 of several: an unguessable rendezvous id (core.training.distributed)

    data_path = _check_data(cfg.data, problems)
    cfg_path, weights_path = _check_model(cfg, problems, workspace)
    hyp_path = _check_hyp(cfg.hyp, problems)

    _check_ranges(cfg, problems)
    if cfg.imgsz >= 32 and cfg.imgsz % 32:
        rounded = (cfg.imgsz + 31) // 32 * 32
        fixed.imgsz = rounded
        problems.append(problem("warning", "imgsz",
                                tr("Image size {value} is not a multiple of 32; using {rounded}.",
                                   value=cfg.imgsz, rounded=rounded), ""))
    if cfg.batch == 0:
        problems.append(problem("error", "batch", tr("Batch size must be at least 1, or -1 for automatic (got {value}).",
                                                     value=cfg.batch), ""))
    name_problem = run_name_problem(cfg.name)
    if name_problem is not None:
        problems.append(problem("error", "name", tr("Run name {name!r} is not a valid folder name: {reason}.",
                                                    name=cfg.name, reason=name_problem),
                                tr("Use letters, digits, '-', '_' or '.', without slashes.")))

    _check_device(cfg, facts, problems)
    problems += check_distributed(cfg, facts)
    return ValidatedConfig(fixed, problems, data_path, cfg_path, weights_path, hyp_path)


def _check_ranges(cfg: TrainConfig, problems: list[Finding]) -> None:
    """Every number within its option's range, every choice one of its choices (``core.training.options``)."""
    for opt in train_options():
        value = getattr(cfg, opt.name)
        label = tr(opt.label)
        if opt.widget in ("int", "float"):
            if not is_finite_number(value):  # NaN passes every range comparison below: refuse it here
                problems.append(problem("error", opt.name, tr("{label} must be a number (got {value!r}).",
                                                              label=label, value=value), tr(opt.help)))
            elif (opt.minimum is not None and value < opt.minimum) or (opt.maximum is not None
                                                                        and value > opt.maximum):
                problems.append(problem("error", opt.name, tr("{label} must be from {low:g} to {high:g} (got {value}).",
                                                              label=label, low=opt.minimum, high=opt.maximum,
                                                              value=value), tr(opt.help)))
        elif opt.choices and value not in [choice for choice, _label in opt.choices]:
            shown = ", ".join(repr(choice) for choice, _label in opt.choices)
            problems.append(problem("error", opt.name, tr("{label} must be one of {choices} (got {value!r}).",
                                                          label=label, choices=shown, value=value), tr(opt.help)))


def _check_device(cfg: TrainConfig, facts: MachineFacts, problems: list[Finding]) -> None:
    try:
        wanted = parse_device(cfg.device)
    except ValueError:
        problems.append(problem("error", "device", tr("Device {value!r} is not understood.", value=cfg.device),
                                tr("Use cpu, 0, or a list like 0,1 (empty picks the first GPU).")))
        return
    if wanted is None:
        return
    if not facts.gpu_count:
        if facts.gpu_count is None and facts.nvml_error:
            found = tr("the GPUs could not be read ({reason})", reason=facts.nvml_error)
        elif facts.nvml_error:
            found = tr("no NVIDIA GPU was found ({reason})", reason=facts.nvml_error)
        else:
            found = tr("no NVIDIA GPU was found")
        problems.append(problem("error", "device", tr("GPU {value} was requested but {found}.", value=cfg.device,
                                                      found=found),
                                tr("Train on the CPU (device cpu), or see the Environment page for why no GPU is visible.")))
        return
    missing = [i for i in wanted if i >= facts.gpu_count]
    if missing:
        problems.append(problem("error", "device",
                                tr("GPU {missing} is not present: this machine has {count} GPU(s), numbered 0 to {last}.",
                                   missing=",".join(map(str, missing)), count=facts.gpu_count, last=facts.gpu_count - 1),
                                tr("Pick a device from 0 to {last}.", last=facts.gpu_count - 1)))


def build_worker_spec(checked: ValidatedConfig, run_dir: Path, workspace: Path, *, resume: bool = False,
                      trusted_weights: tuple[str, ...] = (), trusted_model: bool = False) -> dict[str, Any]:
    """The JSON document ``python -m core.worker train SPEC`` runs; pure, so tests check it directly."""
    if not checked.ok:
        raise ValueError("cannot build a worker spec from a config with errors")
    return {
        "spec_version": SPEC_VERSION,
        "job": "train",
        "run_dir": str(run_dir),
        "workspace": str(workspace),
        "resume": resume,
        "config": checked.config.to_dict(),
        # Several processes (GPUs, machines): the torchrun launch (core.job.launch); None: one worker process.
        "topology": topology_spec(checked.config),
        "resolved": {
            "data": str(checked.data_path),
            "cfg": str(checked.cfg_path) if checked.cfg_path else "",
            "weights": str(checked.weights_path) if checked.weights_path else "",
            "hyp": str(checked.hyp_path),
        },
        # Checkpoints are pickles; only these (and the workspace's own runs) may be fully unpickled.
        "trusted_weights": list(trusted_weights),
        # A model YAML is code to yolov5: True only when the user confirmed one that fails the strict check.
        "trusted_model": bool(trusted_model),
    }


def yolov5_options(spec: dict[str, Any]) -> dict[str, Any]:
    """yolov5's ``opt`` fields for a worker spec: the single mapping both the worker and the CLI line use.

    The resolved paths and the run folder come from the spec; every other option maps itself
    (``core.training.options``: its yolov5 name and conversion).
    """
    resolved = spec["resolved"]
    run_dir = Path(spec["run_dir"])
    return {
        "data": resolved["data"],
        "cfg": resolved["cfg"],
        "weights": resolved["weights"],
        "hyp": resolved["hyp"],
        "project": str(run_dir.parent),
        "name": run_dir.name,
        "exist_ok": True,
        **yolov5_fields(TrainConfig.from_dict(spec["config"])),
    }


def build_yolov5_command(spec: dict[str, Any]) -> list[str]:
    """The equivalent ``yolov5 train ...`` argv (python-fire flags) for a user to copy."""
    return ["yolov5", "train", *_yolov5_flags(yolov5_options(spec), fire=True)]


def yolov5_module_argv(spec: dict[str, Any], extra: dict[str, Any] | None = None) -> list[str]:
    """``-m yolov5.train`` and its argparse flags (``--batch-size``): the entry torchrun launches per rank
    (``core.job.torchrun``), as yolov5 documents for DDP. ``extra``: yolov5 options the spec has no field for."""
    return ["-m", "yolov5.train", *_yolov5_flags({**yolov5_options(spec), **(extra or {})}, fire=False)]


def _yolov5_flags(options: dict[str, Any], *, fire: bool) -> list[str]:
    """yolov5's options as flags: python-fire's (``--batch_size``, quoted lists) or train.py's argparse
    flags (``--batch-size``; every option the app passes is spelled with dashes there)."""
    argv: list[str] = []
    for key, value in options.items():
        flag = "--" + (key if fire else key.replace("_", "-"))
        if value is None:
            continue
        if isinstance(value, bool):
            if value:
                argv.append(flag)
            continue
        if isinstance(value, list):
            value = value[0] if len(value) == 1 else ",".join(map(str, value))
        text = str(value)
        if fire and key == "device" and "," in text:
            text = f'"{text}"'  # python-fire would otherwise parse 0,1 as a tuple
        argv += [flag, text]
    return argv


def command_line(argv: list[str]) -> str:
    return shlex.join(argv)
