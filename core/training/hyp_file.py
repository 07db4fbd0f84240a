"""A hyperparameter YAML (``--hyp FILE``) checked before a run starts, the way yolov5 will read it.

yolov5's ``train.py`` does ``hyp = yaml.safe_load(f)`` then ``hyp.copy()`` and ``hyp['lr0']``, ``hyp['box'] *=
…``: a file that is not a mapping (``--hyp /etc/passwd``) or lacks a key stopped the worker with an
``AttributeError``/``KeyError`` the app could only call "looks like a bug", and ``lr0: .nan`` trained NaN
losses to a "completed" run. The keys yolov5 reads are those of its own ``hyp.scratch-low.yaml`` (read from
the installed package, never copied here); every value must be a finite number of at least 0 (each one is a
rate, a gain, a probability, a fraction or a count of epochs in yolov5's files).
"""

from __future__ import annotations

import functools
import os
import stat
from pathlib import Path

from core.file_values import FileValueError, finite_number
from core.i18n import tr
from core.model_catalog import builtin_hyp_path

#: A hyp file is a few dozen lines (yolov5's are about 2 kB); anything far larger is not one, and is never
#: read whole — the Train form checks it as the user types, on the GUI thread.
MAX_HYP_BYTES = 64 * 1024
#: The yolov5 file whose keys every hyp file must have (``train.py`` indexes each of them).
REFERENCE_HYP = "hyp.scratch-low.yaml"


def _read_mapping(path: Path) -> dict | str:
    """The parsed mapping, or a message saying why ``path`` is not a hyp file."""
    import yaml

    try:
        with open(path, "rb", opener=lambda p, f: os.open(p, f | getattr(os, "O_NONBLOCK", 0))) as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return tr("{path} is not a regular file.", path=path)
            data = handle.read(MAX_HYP_BYTES + 1)
    except OSError as exc:
        return tr("{path} cannot be read: {reason}", path=path, reason=exc.strerror or exc)
    if len(data) > MAX_HYP_BYTES:
        return tr("{path} is larger than a hyperparameter file ({limit} KB at most).", path=path,
                  limit=MAX_HYP_BYTES >> 10)
    try:
        raw = yaml.safe_load(data.decode("utf-8"))
    except (UnicodeDecodeError, yaml.YAMLError) as exc:
        return tr("{path} is not a YAML file: {reason}", path=path, reason=str(exc).splitlines()[0])
    if not isinstance(raw, dict):
        return tr("{path} holds no hyperparameters (yolov5 needs a mapping such as 'lr0: 0.01').", path=path)
    return raw


@functools.lru_cache(maxsize=1)
def required_keys() -> tuple[str, ...]:
    """The keys of yolov5's own ``hyp.scratch-low.yaml``; empty when the package is not installed here."""
    reference = builtin_hyp_path(REFERENCE_HYP)
    if reference is None or not reference.is_file():
        return ()
    raw = _read_mapping(reference)
    return tuple(str(k) for k in raw) if isinstance(raw, dict) else ()


def hyp_problem(path: Path) -> str | None:
    """None when yolov5 can train with the hyperparameters in ``path``, else the message saying what is wrong
    (naming the file and the key)."""
    raw = _read_mapping(Path(path))
    if isinstance(raw, str):
        return raw
    missing = [key for key in required_keys() if key not in raw]
    if missing:
        return tr("{path}: missing {keys}; yolov5 reads every key of its {reference}.", path=path,
                  keys=", ".join(missing), reference=REFERENCE_HYP)
    for key, value in raw.items():
        try:
            finite_number(value, file=path, key=str(key), low=0)
        except FileValueError as exc:
            return str(exc)
    return None
