"""Turning a failure inside the training stack into words a user can act on.

yolov5 reports most problems as bare ``AssertionError``/``Exception`` texts written for its own CLI
(emoji, GitHub links, no way out). ``classify_failure`` is a pure, table-driven mapping from the
exception's type name and text to a ``kind`` the GUI can switch on, a one-line message and a hint.
It takes strings, not exception objects, so tests need neither torch nor a failing GPU.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.i18n import tr


@dataclass(frozen=True)
class Failure:
    kind: str  # dataset | weights | out_of_memory | cuda | disk_full | ram | shm | config | internal
    message: str
    hint: str


_EMOJI = re.compile(r"[\u2600-\u27bf\U0001F300-\U0001FAFF\ufe0f]")


def _tidy(text: str) -> str:
    text = _EMOJI.sub("", text)
    text = re.sub(r"\s*See https?://\S+", "", text)
    text = re.sub(r"\x1b\[[0-9;]*m", "", text)  # colorstr ANSI codes
    return " ".join(text.split())


# (kind, type names or None for any, regex on the message, hint). First match wins.
_RULES: list[tuple[str, tuple[str, ...] | None, str, str]] = [
    ("out_of_memory", None, r"out of memory|OutOfMemoryError|CUBLAS_STATUS_ALLOC_FAILED",
     "The GPU ran out of memory. Lower the batch size (or image size), close other programs using the GPU, "
     "then resume from the last checkpoint."),
    ("disk_full", None, r"No space left on device|\[Errno 28\]",
     "The disk is full. Free some space (old runs, caches), then resume from the last checkpoint."),
    ("shm", None, r"shared memory|/dev/shm|Bus error|bus error",
     "Data-loader workers ran out of shared memory. In a container start it with --ipc=host or a larger "
     "--shm-size; or use fewer workers."),
    ("ram", ("MemoryError",), r".*",
     "The machine ran out of RAM. Use fewer workers, or turn off the RAM cache."),
    ("ram", None, r"DataLoader worker .* killed|Killed",
     "A data-loader worker was killed, usually for lack of RAM. Use fewer workers, or turn off the RAM cache."),
    ("cuda", None, r"no kernel image|not compatible with the current PyTorch|CUDA error|CUDA driver|cudaError",
     "The GPU could not run PyTorch's CUDA code. Check the Environment page: driver, CUDA build and GPU "
     "architecture must match."),
    ("weights", ("UnpicklingError",), r".*",
     "This checkpoint could not be loaded safely. Only load .pt files you trust; weights from your own runs "
     "are trusted automatically."),
    ("weights", None, r"weights_only|\.pt\b.*(not found|does not exist)|training to \d+ epochs is finished",
     "Check the weights file. A finished run cannot be resumed: start a new run from its best.pt instead."),
    ("dataset", None, r"Label class \d+ exceeds nc",
     "A label uses a class id that is not in the data.yaml's names. Add the class to names, or fix the "
     "label files (the Dataset page lists them)."),
    ("dataset", None, r"Image Not Found|No labels found|No images found|Dataset not found|does not exist|Error loading data|"
                      r"data\.yaml .* field missing|names keys must be integers",
     "Check the dataset: the data.yaml paths must point at existing image folders or lists, with labels in a "
     "matching labels/ folder."),
    ("config", ("ValueError", "TypeError", "KeyError"), r"hyp|opt|argument",
     "An option has an unexpected value; check the training settings."),
]


def classify_failure(type_name: str, message: str) -> Failure:
    """Map an exception (its class name and text) to a kind, a clean message and a way out."""
    tidy = _tidy(message) or type_name
    for kind, types, pattern, hint in _RULES:
        if types is not None and type_name not in types:
            continue
        if re.search(pattern, f"{type_name}: {message}"):
            return Failure(kind, tidy, tr(hint))
    return Failure("internal", f"{type_name}: {tidy}",
                   tr("This looks like a bug. The log and the run's events.jsonl show the details; please attach "
                      "them to a bug report. Your checkpoints are kept: resume from the last one."))
