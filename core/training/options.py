"""Every training option, described once: ``TrainConfig`` and the metadata every front end derives from.

Each ``TrainConfig`` field carries an ``Option`` (``option(...)``): label, help, CLI flags, widget kind,
range or choices, whether it is advanced, and its yolov5 ``opt`` name. From that one description come
the CLI flags (``add_train_arguments`` / ``config_from_args``, used by ``yolostudio train``), the Train
form's rows and tooltips (``gui/train/train_form.py``), the problem labels (``option_labels``), the
range checks (``core.training.config.validate_config``) and the mapping to yolov5 (``yolov5_fields``).
**Adding an option is one ``option(...)`` line here** (plus a rule in ``validate_config`` when a range
is not enough). Help texts say what the option does *and what it costs*: they are the form's tooltips
and the CLI's ``--help``. Texts are source strings, translated where they are shown (``core.i18n.tr``).
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path
from dataclasses import asdict, dataclass, fields
from typing import Any, Callable

from core.file_values import finite_number
from core.i18n import tr
from core.model_catalog import DEFAULT_MODEL

AUTO_BATCH = -1
#: How the form edits an option: composite editors for the first five, generic ones for the rest.
WIDGETS = ("dataset", "model", "weights", "hyp", "device", "int", "float", "bool", "choice", "text")


@dataclass(frozen=True)
class Option:
    """One training option as every front end shows it (``name``/``default`` are filled in from the field)."""

    label: str
    help: str
    widget: str
    flags: tuple[str, ...] = ()  # CLI flags; empty: --<name-with-dashes>; a bare name: positional
    minimum: float | None = None
    maximum: float | None = None
    step: float | None = None
    special: str = ""  # how the form shows the minimum ("auto" for batch -1)
    suffix: str = ""  # unit shown after the number in the form
    choices: tuple[tuple[Any, str], ...] = ()  # (value, label) for ``choice``
    advanced: bool = False  # in the form's Advanced section
    section: str = ""  # a section of its own in the form ("cluster": Run on several machines)
    yolov5: str | None = ""  # yolov5 ``opt`` name; "" = the field's name; None = passed as a resolved path
    to_yolov5: Callable[[Any], Any] | None = None
    name: str = ""
    default: Any = None

    def __post_init__(self) -> None:
        assert self.widget in WIDGETS, self.widget

    @property
    def positional(self) -> bool:
        return bool(self.flags) and not self.flags[0].startswith("-")

    @property
    def cli_flags(self) -> tuple[str, ...]:
        return self.flags or ("--" + self.name.replace("_", "-"),)

    @property
    def yolov5_name(self) -> str | None:
        return self.name if self.yolov5 == "" else self.yolov5


def option(default: Any, label: str, help: str, widget: str, **meta: Any) -> Any:
    """A ``TrainConfig`` field described for every front end (see ``Option``)."""
    return dataclasses.field(default=default, metadata={"option": Option(label, help, widget, **meta)})


@dataclass
class TrainConfig:
    """What the user chose (GUI form, CLI flags, a saved run's ``config.json``); one field per option."""

    data: str = option("", "Dataset", "The dataset's data.yaml: where the images are and the class names. Check it on "
                       "the Dataset page first — an error there stops training.", "dataset", flags=("data",),
                       yolov5=None)
    model: str = option(DEFAULT_MODEL, "Model", "The network: yolov5n (smallest, fastest) … yolov5x (largest, "
                        "most accurate, about 25x the compute of n), a model YAML, or a .pt checkpoint to start "
                        "from. Larger models need more GPU memory and time per image.", "model", yolov5=None)
    weights: str = option("", "Initial weights", "A .pt checkpoint to start from when Model is a YAML "
                          "(fine-tuning): reaches a good mAP in far fewer epochs than training from scratch. A .pt "
                          "from outside your runs is a pickle and needs your confirmation.", "weights", advanced=True,
                          yolov5=None)
    epochs: int = option(100, "Epochs", "Passes over the training images. Accuracy keeps improving until it levels "
                         "off (Patience then stops early); every epoch costs the same time.", "int", minimum=1,
                         maximum=10_000)
    imgsz: int = option(640, "Image size", "Images are resized to this square size (a multiple of 32). Larger "
                        "finds smaller objects, but time and GPU memory grow with the square of the size: 1280 "
                        "costs about 4x 640.", "int", flags=("--imgsz", "--img"), minimum=32, maximum=4096, step=32,
                        suffix=" px")
    batch: int = option(16, "Batch", "Images per training step. A larger batch keeps the GPU busier and trains "
                        "faster until GPU memory runs out; 'auto' (-1) lets yolov5 pick the largest that fits on "
                        "one GPU.", "int", flags=("--batch", "--batch-size"), minimum=AUTO_BATCH, maximum=4096,
                        special="auto", suffix=" images", yolov5="batch_size")
    # yolov5 train.py's --workers default, on either face; yolov5 itself starts at most os.cpu_count() // GPUs
    # of them (core.environment.tables.yolov5_loader_workers), and the environment checker says when that is few.
    workers: int = option(8, "Workers", "Processes that load and augment images alongside training, per training "
                          "process (with several GPUs each GPU's process starts this many). Too few and the GPU "
                          "waits for data; each costs a CPU core, RAM, and shared memory in Docker.", "int",
                          minimum=0, maximum=64)
    device: str = option("", "Device", "Where to train: empty picks the first GPU, else the CPU; 'cpu'; '0' for "
                         "the first GPU; '0,1' for two GPUs. The CPU is one to two orders of magnitude slower.",
                         "device")
    name: str = option("exp", "Run name", "The run's folder under runs/; a number is added when it exists "
                       "already.", "text", yolov5=None)
    hyp: str = option("hyp.scratch-low.yaml", "Hyperparameters", "Learning rate, loss weights and augmentation: "
                      "hyp.scratch-low suits small models from scratch, scratch-high the large ones; or the path "
                      "of your own file.", "hyp", advanced=True, yolov5=None)
    cache: str = option("", "Cache", "Keep decoded images so decoding JPEGs leaves every epoch after the first: "
                        "'ram' is fastest but needs RAM for the whole dataset (yolov5 checks it fits); 'disk' "
                        "writes .npy files beside the images (their decoded size on disk).", "choice",
                        choices=(("", "No cache (read each image from disk)"),
                                 ("ram", "RAM (decode once, keep in memory)"),
                                 ("disk", "Disk (decoded .npy files beside the images)")),
                        to_yolov5=lambda value: value or None)
    optimizer: str = option("SGD", "Optimizer", "SGD (yolov5's default) generalises well from scratch; Adam and "
                            "AdamW converge faster on small or fine-tuning sets but may need a lower learning rate.",
                            "choice", choices=(("SGD", "SGD"), ("Adam", "Adam"), ("AdamW", "AdamW")), advanced=True)
    cos_lr: bool = option(False, "Cosine learning rate", "Lower the learning rate along a cosine curve instead of "
                          "linearly; sometimes a little more accuracy at the end, at no cost.", "bool", advanced=True)
    patience: int = option(100, "Patience", "Stop early when the best fitness has not improved for this many "
                           "epochs, saving the time of a plateau; 0 never stops early.", "int", minimum=0,
                           maximum=10_000, advanced=True)
    seed: int = option(0, "Seed", "Random seed for shuffling and augmentation: the same seed repeats a run.",
                       "int", minimum=0, maximum=2**31 - 1, advanced=True)
    rect: bool = option(False, "Rectangular batches", "Train on letterboxed rectangles instead of squares: less "
                        "padding, faster for wide images, but images are no longer shuffled (can cost accuracy).",
                        "bool", advanced=True)
    single_cls: bool = option(False, "Single class", "Train every class as one 'object' class: detection without "
                              "telling the classes apart.", "bool", advanced=True)
    multi_scale: bool = option(False, "Multi-scale", "Vary the image size ±50 % per batch: more robust to object "
                               "size, but a 1.5x batch costs about 2.25x time and GPU memory.", "bool", advanced=True)
    image_weights: bool = option(False, "Image weights", "Draw images with rare classes more often: helps an "
                                 "imbalanced dataset; epochs then repeat some images and skip others.", "bool",
                                 advanced=True)
    label_smoothing: float = option(0.0, "Label smoothing", "Soften the class targets by this amount (0.1 is "
                                    "typical) against over-confident classes; 0 is off.", "float", minimum=0.0,
                                    maximum=0.99, step=0.05, advanced=True)
    freeze: int = option(0, "Freeze layers", "Keep the first N layers fixed while fine-tuning (10 = the backbone): "
                         "faster steps and less memory, but those layers don't adapt to your data.", "int",
                         minimum=0, maximum=100, advanced=True, to_yolov5=lambda value: [value])
    save_period: int = option(-1, "Save every N epochs", "Keep a checkpoint every N epochs besides last.pt and "
                              "best.pt (each costs about three times the model's size on disk); -1 keeps only "
                              "those two.", "int", minimum=-1, maximum=10_000, special="never", advanced=True)
    noval: bool = option(False, "Validate only at the end", "Skip validation after each epoch: faster epochs, but "
                         "mAP, best.pt and early stopping then see only the final epoch.", "bool", advanced=True)
    noplots: bool = option(False, "No plots", "Don't draw yolov5's plots (labels, batches, curves): saves seconds "
                           "per run, and the live view has no validation pictures.", "bool", advanced=True)
    no_amp: bool = option(False, "Train without mixed precision (AMP)", "Train in FP32 instead of letting yolov5 "
                          "switch mixed precision on: for GPUs whose FP16 training turns the loss to NaN later in "
                          "the run although yolov5's AMP check passes (GTX 16xx, Quadro T-series). Costs about "
                          "twice the GPU memory per image and slower steps on GPUs with tensor cores.", "bool",
                          advanced=True, yolov5=None)
    gpu_augment: str = option("off", "Augment on the training device", "Run yolov5's augmentation (mosaic, "
                              "perspective, HSV, flips, mixup) on whole batches where the model trains, so the "
                              "loader's workers only decode: about a third of their CPU time per image, for a fast "
                              "GPU fed by few cores. 'auto' lets the wizard turn it on when its measured loader "
                              "supply is below the measured training speed. copy_paste is not supported.",
                              "choice", choices=(("off", "Off (yolov5's workers augment)"),
                                                 ("on", "On (batches augmented on the device)"),
                                                 ("auto", "Auto (the wizard decides by measurement)")),
                              advanced=True, yolov5=None)
    noautoanchor: bool = option(False, "Keep anchors", "Keep the model's anchors instead of checking them "
                                "against your boxes (and re-fitting them when they fit badly).", "bool", advanced=True)

    sync_bn: bool = option(False, "Synchronised BatchNorm", "With several GPUs, compute BatchNorm statistics over "
                           "every GPU's images instead of each GPU's own: steadier training when each GPU gets 8 "
                           "images or fewer, for a little time per step. GPUs only (CUDA).", "bool", advanced=True)
    nproc_per_node: int = option(0, "Processes per machine", "Training processes (DDP ranks) on this machine: 0 = "
                                 "one per GPU named in Device (one on the CPU). A run with more than one goes "
                                 "through PyTorch's launcher (torch.distributed.run), never DataParallel; the "
                                 "batch is split between them and every process starts its own workers.", "int",
                                 minimum=0, maximum=64, special="auto", section="cluster", yolov5=None)
    nnodes: int = option(1, "Machines", "How many machines train this run together (each runs the same command "
                         "with its own node rank). Every machine needs the same dataset, yolov5 and torch.", "int",
                         minimum=1, maximum=1024, section="cluster", yolov5=None)
    node_rank: int = option(0, "This machine's rank", "0 on the machine that leads (it writes the run's record "
                            "and saves the weights), 1, 2 … on the others.", "int", minimum=0, maximum=1023,
                            section="cluster", yolov5=None)
    rdzv_endpoint: str = option("", "Rendezvous", "HOST:PORT where the machines meet (PyTorch's c10d rendezvous, "
                                "hosted by the machine at HOST, usually rank 0). The port must be open between "
                                "the machines. Or give the leader's address and port below.", "text",
                                section="cluster", yolov5=None)
    rdzv_id: str = option("", "Run id", "The rendezvous's name, the same on every machine of this run. Left "
                          "empty, machine 0 makes an unguessable one and puts it in "
                          "the other machines' commands; it is not a password: the rendezvous must be on a "
                          "network you trust.", "text", section="cluster", yolov5=None)
    master_addr: str = option("", "Leader address", "The address of machine 0, reachable from every machine "
                              "(static rendezvous, instead of Rendezvous).", "text", section="cluster", yolov5=None)
    master_port: int = option(29500, "Leader port", "A free TCP port on machine 0, open to the other machines.",
                              "int", minimum=1, maximum=65535, section="cluster", yolov5=None)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> TrainConfig:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in raw.items() if k in known})


def train_options() -> list[Option]:
    """Every option in declaration order (the order the form and ``--help`` show them)."""
    return [dataclasses.replace(f.metadata["option"], name=f.name, default=f.default) for f in fields(TrainConfig)]


def option_labels() -> dict[str, str]:
    """Translated label per option name (the problem list names the field it is about)."""
    return {o.name: tr(o.label) for o in train_options()}


def choice_label(opt: Option, value: Any) -> str:
    return next((tr(label) for choice, label in opt.choices if choice == value), str(value))


def yolov5_fields(cfg: TrainConfig) -> dict[str, Any]:
    """The options yolov5 takes as they are (paths are resolved by the caller), under yolov5's names."""
    out = {}
    for opt in train_options():
        if opt.yolov5_name is not None:
            value = getattr(cfg, opt.name)
            out[opt.yolov5_name] = opt.to_yolov5(value) if opt.to_yolov5 else value
    return out


def off_flag(flag: str) -> str:
    """The flag that switches a true/false option off: ``--no-X`` for ``--X``, and ``--X`` for an option that is
    itself spelt ``--no-X`` (``--no-amp`` → ``--amp``, never ``--no-no-amp``)."""
    return "--" + flag[len("--no-"):] if flag.startswith("--no-") else "--no-" + flag[2:]


class _Switch(argparse.Action):
    """A true/false flag and its ``off_flag``. argparse's ``BooleanOptionalAction`` takes every flag that starts
    with ``--no-`` for the negative one, so ``--no-amp`` (a positive option) would have switched AMP-off *off*."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        setattr(namespace, self.dest, option_string != self.option_strings[-1])


def add_train_arguments(parser: argparse.ArgumentParser) -> None:
    """One argparse argument per option: flags, type, choices and help from the metadata.

    Every argument's parsed default is None, meaning "not given on the line" (the option's own default is
    applied by ``config_from_args``), so a flag typed with its default value still wins over a ``--config``
    file; every true/false option has its ``off_flag``."""
    for opt in train_options():
        kwargs: dict[str, Any] = {"help": tr(opt.help).replace("%", "%%"), "default": None}  # argparse formats %
        if opt.positional:  # optional on the command line: a --config file may name it
            parser.add_argument(opt.flags[0], nargs="?", **kwargs)
            continue
        kwargs["dest"] = opt.name
        if opt.widget == "bool":
            parser.add_argument(*opt.cli_flags, off_flag(opt.cli_flags[0]), action=_Switch, nargs=0, **kwargs)
            continue
        kwargs["type"] = {"int": int, "float": float}.get(opt.widget, str)
        choices = [value for value, _label in opt.choices if value != ""]
        if choices:
            kwargs["choices"] = choices
        if opt.default not in ("", None):
            kwargs["help"] += " " + tr("(default: {value})", value=opt.default).replace("%", "%%")
        parser.add_argument(*opt.cli_flags, **kwargs)


def config_from_args(args: argparse.Namespace, base: TrainConfig | None = None,
                     defaults: dict[str, Any] | None = None) -> TrainConfig:
    """The ``TrainConfig`` the parsed arguments describe. A flag given on the line always wins, even when it
    says the default; an option left off (None: ``add_train_arguments``) keeps the value of ``base`` (a saved
    config: ``yolostudio train --config FILE``), else ``defaults``' value (the dataset's:
    ``core.training.defaults``), else its own default."""
    values = {}
    for opt in train_options():
        value = getattr(args, opt.name, None)
        if value is None:
            value = getattr(base, opt.name) if base is not None else (defaults or {}).get(opt.name, opt.default)
        values[opt.name] = value
    return TrainConfig(**values)


def read_config_document(path: Path) -> Any:
    """A saved config file as written (JSON or YAML): a mapping of options, or the wizard's whole document.
    Raises ValueError naming the file when it cannot be read."""
    import yaml  # safe_load reads JSON too

    try:
        return yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ValueError(tr("Cannot read the config {path}: {reason}", path=path, reason=exc)) from exc


def load_config_file(path: Path) -> TrainConfig:
    """A saved config: a JSON or YAML mapping of option names, or the wizard's ``--json`` document (its
    ``config``). Raises ValueError naming the file and what is wrong; unknown keys are refused by name."""
    raw = read_config_document(path)
    if isinstance(raw, dict) and isinstance(raw.get("config"), dict):
        raw = raw["config"]
    if not isinstance(raw, dict):
        raise ValueError(tr("{path} holds no options (expected a mapping of option names).", path=path))
    known = {f.name: f for f in fields(TrainConfig)}
    unknown = sorted(set(raw) - set(known))
    if unknown:
        raise ValueError(tr("{path}: unknown options {names}.", path=path, names=", ".join(map(str, unknown))))
    defaults = TrainConfig()
    for name, value in raw.items():
        default = getattr(defaults, name)
        if not isinstance(value, type(default)) or isinstance(value, bool) != isinstance(default, bool):
            if not (isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool)):
                raise ValueError(tr("{path}: {name} = {value!r} is not a {kind}.", path=path, name=name, value=value,
                                    kind=type(default).__name__))
        if isinstance(default, (int, float)) and not isinstance(default, bool):
            finite_number(value, file=path, key=name)  # `.nan` / `1e400`: FileValueError (a ValueError)
    return TrainConfig.from_dict(raw)


def changed_cli_flags(value_of: Callable[[str, Any], Any]) -> list[str]:
    """``yolostudio train`` flags for every non-positional option whose value (``value_of(name, default)``)
    differs from its default: one spelling of a config as a command, for the wizard and other machines."""
    argv: list[str] = []
    for opt in train_options():
        value = value_of(opt.name, opt.default)
        if opt.positional or value == opt.default:
            continue
        flag = opt.cli_flags[0]
        argv += ([flag if value else off_flag(flag)]) if opt.widget == "bool" else [flag, str(value)]
    return argv
