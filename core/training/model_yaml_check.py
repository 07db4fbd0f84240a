"""Is a model YAML only a model? The strict check of every string yolov5 would ``eval`` from it.

A model YAML is code to yolov5: ``parse_model`` (yolov5 7.0.14, ``models/yolo.py`` lines 299-314) runs
``eval(d['activation'])``, ``eval(m)`` on each layer's module string and ``eval(a)`` on each string among a
layer's arguments (a ``NameError`` keeps the string). So ``activation: __import__('os').system(...)`` runs
whatever it says. This module passes a YAML only when nothing but names from the tables below (or literals)
could reach ``eval``; anything else needs the user's confirmation (``core.trust.model_needs_trust``), and the
worker applies the same check to the dictionary ``parse_model`` receives (``core.worker.compat``).

The file is read the way yolov5's ``Model.__init__`` reads it (``open(cfg, encoding='ascii',
errors='ignore')`` then ``yaml.safe_load``), so the check and yolov5 see the same strings.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any

import yaml

from core.i18n import tr

#: Layer classes ``models/yolo.py`` defines or imports from ``models/common.py`` (yolov5 7.0.14; the test
#: ``test_model_yaml_check`` checks each is an ``nn.Module`` there). Left out on purpose: the classes that
#: load files or weights (``DetectMultiBackend``, ``AutoShape``, ``Model``, ``DetectionModel`` …).
YOLOV5_LAYERS = frozenset({
    "Bottleneck", "BottleneckCSP", "C3", "C3Ghost", "C3SPP", "C3TR", "C3x", "Classify", "Concat", "Contract",
    "Conv", "CrossConv", "DWConv", "DWConvTranspose2d", "Detect", "Expand", "Focus", "GhostBottleneck",
    "GhostConv", "MixConv2d", "Proto", "SPP", "SPPF", "Segment", "Sum", "TransformerBlock", "TransformerLayer",
})
#: ``torch.nn`` layers a model YAML may name as ``nn.<Name>`` (the packaged YAMLs use Upsample, MaxPool2d,
#: ZeroPad2d; parse_model handles BatchNorm2d and ConvTranspose2d by name).
NN_LAYERS = frozenset({"Upsample", "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d", "ZeroPad2d", "BatchNorm2d",
                       "ConvTranspose2d", "Identity", "Dropout"})
#: ``torch.nn`` activations ``activation:`` may construct (``nn.LeakyReLU(0.1)`` in yolov5s-LeakyReLU.yaml).
NN_ACTIVATIONS = frozenset({"SiLU", "ReLU", "ReLU6", "LeakyReLU", "Hardswish", "Hardsigmoid", "Mish", "GELU",
                            "ELU", "SELU", "CELU", "PReLU", "Sigmoid", "Tanh", "Identity"})
#: Names a layer argument may be: ``parse_model``'s own locals the packaged YAMLs use (``nc``, ``anchors``)
#: and nn.Upsample's modes, which are no name in yolo.py, so ``eval`` fails and the string is kept.
ARGUMENT_NAMES = frozenset({"nc", "anchors", "nearest", "linear", "bilinear", "bicubic", "trilinear"})
#: The packaged YAMLs are under 4 kB; a larger file is not read (the check runs on the GUI thread too).
MAX_MODEL_YAML_BYTES = 1 << 20


def read_model_yaml(path: str | os.PathLike[str]) -> Any:
    """The document as yolov5 reads it (ascii, undecodable bytes dropped, safe loader)."""
    with open(path, encoding="ascii", errors="ignore") as handle:
        return yaml.safe_load(handle)


def model_dict_problem(d: Any) -> str | None:
    """None when no string of ``d`` (a parsed model YAML) could run code in ``parse_model``; else the first
    such string, in words. Other mistakes (a missing key, a wrong shape) are yolov5's to report."""
    if not isinstance(d, dict):
        return None
    act = d.get("activation")
    if act and not _is_activation(act):
        return tr("activation: {value} is not one of torch's activations (nn.SiLU(), nn.LeakyReLU(0.1) …); "
                  "yolov5 would run it as Python code.", value=_shown(act))
    layers = [row for key in ("backbone", "head") if isinstance(d.get(key), list) for row in d[key]]
    for index, row in enumerate(layers):
        if not isinstance(row, (list, tuple)) or len(row) != 4:
            continue
        module, args = row[2], row[3]
        if isinstance(module, str) and not _is_layer(module):
            return tr("layer {index}: module {value} is not a layer yolov5 or torch.nn defines; yolov5 would run "
                      "it as Python code.", index=index, value=_shown(module))
        for arg in args if isinstance(args, list) else ():
            if isinstance(arg, str) and not _is_argument(arg):
                return tr("layer {index}: argument {value} is neither a number, a literal nor one of {names}; "
                          "yolov5 would run it as Python code.", index=index, value=_shown(arg),
                          names=", ".join(sorted(ARGUMENT_NAMES)))
    return None


def anchors_problem(d: Any) -> str | None:
    """None when ``d``'s ``anchors`` is what ``parse_model`` and ``Detect`` can build; else why, in words.

    What yolov5 7.0.14 accepts, found by building ``Model`` from yolov5n.yaml with each value (the test
    ``test_model_yaml_check`` repeats it): a whole number N ≥ 1 (N anchors per level, ``parse_model`` line 306
    and ``args[1] = [list(range(args[1] * 2))] * len(f)``), or a list of levels, each a list of the same even
    number of numbers (``torch.tensor(anchors).view(nl, -1, 2)`` in ``Detect``). Refused by yolov5, late, in
    training: ``"lots"`` (TypeError: invalid data type 'str'), ``3.5`` (TypeError: no len()), ``0`` (a
    convolution of size 0), ``[]`` (IndexError), rows of 5 and 6 numbers (ValueError)."""
    if not isinstance(d, dict) or "anchors" not in d:
        return None
    anchors = d["anchors"]
    if type(anchors) is int and anchors >= 1:
        return None
    rows = anchors if isinstance(anchors, list) and anchors else None
    numbers = all(isinstance(row, list) and row and all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                                        for x in row) for row in rows or [None])
    if rows and numbers and len({len(row) for row in rows}) == 1 and len(rows[0]) % 2 == 0:
        return None
    return tr("anchors: {value} is neither a whole number of anchors per level (3) nor a list of levels of "
              "width, height pairs ([[10,13, 16,30, 33,23], …]); yolov5 would fail with it when training starts.",
              value=_shown(anchors))


def model_shape_problem(path: str | os.PathLike[str]) -> str | None:
    """``anchors_problem`` of the model YAML at ``path``, read as yolov5 reads it; an unreadable file is yolov5's
    error (None)."""
    try:
        if Path(path).stat().st_size > MAX_MODEL_YAML_BYTES:
            return None  # ``model_yaml_problem`` says so
        return anchors_problem(read_model_yaml(Path(path)))
    except (OSError, yaml.YAMLError):
        return None


def model_yaml_problem(path: str | os.PathLike[str]) -> str | None:
    """``model_dict_problem`` of the file at ``path``; an unreadable file is yolov5's error, not ours."""
    try:
        size = Path(path).stat().st_size
        if size > MAX_MODEL_YAML_BYTES:
            return tr("the file is {size} bytes, too large to check (a model YAML is a few kB).", size=size)
        return model_dict_problem(read_model_yaml(Path(path)))
    except (OSError, yaml.YAMLError):
        return None


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _nn_name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "nn":
        return node.attr
    return None


def _parsed(text: str) -> ast.AST | None:
    try:
        return ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError):
        return None


def _is_literal(node: ast.AST) -> bool:
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def _is_activation(value: Any) -> bool:
    node = _parsed(value) if isinstance(value, str) else None
    return (isinstance(node, ast.Call) and _nn_name(node.func) in NN_ACTIVATIONS
            and all(_is_literal(a) for a in node.args) and all(_is_literal(k.value) for k in node.keywords))


def _is_layer(value: str) -> bool:
    node = _parsed(value)
    if isinstance(node, ast.Name):
        return node.id in YOLOV5_LAYERS
    return _nn_name(node) in NN_LAYERS if node is not None else False


def _is_argument(value: str) -> bool:
    node = _parsed(value)
    if node is None:
        return False
    if isinstance(node, ast.Name):
        return node.id in ARGUMENT_NAMES
    return _is_literal(node)
