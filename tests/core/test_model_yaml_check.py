"""A model YAML is code to yolov5: the strict check (core.training.model_yaml_check), the trust rule (core.trust) and the
worker's guard (core.worker.code_guards), each verified against yolov5's own ``parse_model``."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
import yaml

from core.model_catalog import yolov5_package_dir
from core.training.model_yaml_check import (ARGUMENT_NAMES, NN_ACTIVATIONS, NN_LAYERS, YOLOV5_LAYERS, model_dict_problem,
                                   model_yaml_problem)
from core.trust import model_needs_trust, model_refusal, packaged_model

PACKAGED = sorted(p for p in (yolov5_package_dir() / "models").rglob("*.yaml")
                  if "backbone" in (yaml.safe_load(p.read_text(encoding="ascii", errors="ignore")) or {}))


def _hostile(tmp_path: Path, where: str) -> tuple[Path, Path]:
    """yolov5s.yaml with one string that writes a marker file when yolov5 evals it."""
    marker = tmp_path / f"marker-{where}"
    doc = yaml.safe_load((yolov5_package_dir() / "models" / "yolov5s.yaml").read_text())
    code = f"__import__('pathlib').Path({str(marker)!r}).write_text('ran')"
    if where == "activation":
        doc["activation"] = code
    elif where == "module":
        doc["backbone"][0][2] = code
    else:
        doc["head"][-1][3].append(code)
    path = tmp_path / f"evil-{where}.yaml"
    path.write_text(yaml.safe_dump(doc))
    return path, marker


def test_every_packaged_model_yaml_passes_the_strict_check() -> None:
    assert len(PACKAGED) > 20
    for path in PACKAGED:
        assert packaged_model(path)
        assert model_yaml_problem(path) is None, path


@pytest.mark.parametrize("where", ["activation", "module", "argument"])
def test_yolov5_runs_a_hostile_model_yaml_and_the_check_refuses_it(tmp_path: Path, where: str) -> None:
    from yolov5.models import yolo

    path, marker = _hostile(tmp_path, where)
    problem = model_yaml_problem(path)
    assert problem is not None and "__import__" in problem
    assert model_needs_trust(path) and "--trust-model" in model_refusal(path)
    assert not model_needs_trust(path, confirmed=[path])
    original = getattr(yolo.parse_model, "_yolostudio_original", yolo.parse_model)
    doc = yaml.safe_load(path.read_text())
    default_act = yolo.Conv.default_act
    try:
        original(doc, ch=[3])  # yolov5's own code: its eval runs first, whatever fails after it
    except Exception:  # noqa: BLE001 - the layer built from the marker's return value may not work
        pass
    finally:
        yolo.Conv.default_act = default_act  # parse_model sets it for every later model
    assert marker.read_text() == "ran"  # the threat is real


@pytest.mark.parametrize("where", ["activation", "module", "argument"])
def test_the_worker_guard_refuses_it_before_yolov5_evals(tmp_path: Path, where: str) -> None:
    from yolov5.models import yolo

    from core.worker import code_guards

    path, marker = _hostile(tmp_path, where)
    guarded = code_guards.guarded_parse_model(getattr(yolo.parse_model, "_yolostudio_original", yolo.parse_model))
    code_guards.set_model_trusted(False)
    with pytest.raises(code_guards.UntrustedModelError, match="__import__"):
        guarded(yaml.safe_load(path.read_text()), ch=[3])
    assert not marker.exists()


def test_a_custom_model_of_known_layers_passes_and_builds(tmp_path: Path) -> None:
    from yolov5.models import yolo

    from core.worker import code_guards

    doc = yaml.safe_load((yolov5_package_dir() / "models" / "yolov5n.yaml").read_text())
    doc["activation"] = "nn.LeakyReLU(negative_slope=0.2)"
    doc["nc"] = 3
    path = tmp_path / "mine.yaml"
    path.write_text(yaml.safe_dump(doc))
    assert not model_needs_trust(path)
    code_guards.set_model_trusted(False)
    original = getattr(yolo.parse_model, "_yolostudio_original", yolo.parse_model)
    default_act = yolo.Conv.default_act
    try:
        layers, _ = code_guards.guarded_parse_model(original)(doc, ch=[3])
    finally:
        yolo.Conv.default_act = default_act
    assert len(layers) == len(doc["backbone"]) + len(doc["head"])


def test_the_tables_name_what_yolov5_defines() -> None:
    """Each layer is an nn.Module in yolov5's models/yolo.py namespace (what parse_model's eval sees); each
    argument name is parse_model's local or no name there (eval fails, the string stays)."""
    import torch.nn as nn
    from yolov5.models import yolo

    for name in YOLOV5_LAYERS:
        assert inspect.isclass(getattr(yolo, name)) and issubclass(getattr(yolo, name), nn.Module), name
    for name in NN_LAYERS:
        assert issubclass(getattr(nn, name), nn.Module), name
    for name in NN_ACTIVATIONS:
        assert issubclass(getattr(nn, name), nn.Module), name
    local_names = set(inspect.getsource(yolo.parse_model).split())
    for name in ARGUMENT_NAMES:
        assert not hasattr(yolo, name) and (name in {"nc", "anchors"} or name not in vars(yolo)), name
    assert {"nc", "anchors"} <= {w.strip("(),=") for w in local_names}


@pytest.mark.parametrize("value", ["os", "eval", "exec('1')", "nn.Module", "DetectMultiBackend", "print(1)",
                                   "nn.SiLU().__class__", "(lambda: 1)()"])
def test_anything_but_layers_literals_and_allowed_names_is_refused(value: str) -> None:
    doc = {"activation": None, "backbone": [[-1, 1, "Conv", [64, 3, value]]], "head": []}
    assert model_dict_problem(doc) is not None
    doc = {"activation": value, "backbone": [], "head": []}
    assert model_dict_problem(doc) is not None


ANCHOR_VALUES = ["lots", 3.5, 0, [], [[10, 13, 16, 30, 33], [30, 61, 62, 45, 59, 119], [116, 90, 156, 198, 373, 326]],
                 [[10, "a"]], 3, [[10, 13, 16, 30, 33, 23], [30, 61, 62, 45, 59, 119], [116, 90, 156, 198, 373, 326]]]


@pytest.mark.parametrize("anchors", ANCHOR_VALUES, ids=[repr(v)[:20] for v in ANCHOR_VALUES])
def test_the_anchors_check_agrees_with_yolov5s_own_model(tmp_path, anchors) -> None:
    """yolov5's ``Model`` builds yolov5n.yaml with these anchors exactly when the check passes them; a model the
    check refuses is refused by ``validate_config`` too, before any training (issue 37: ``anchors: "lots"``)."""
    import logging

    from yolov5.models.yolo import Model

    from core.environment.machine import MachineFacts
    from core.training.config import validate_config
    from core.training.model_yaml_check import anchors_problem
    from core.training.options import TrainConfig

    doc = yaml.safe_load((yolov5_package_dir() / "models" / "yolov5n.yaml").read_text())
    doc["anchors"] = anchors
    path = tmp_path / "m.yaml"
    path.write_text(yaml.safe_dump(doc))
    logging.disable(logging.CRITICAL)
    try:
        Model(str(path), ch=3, nc=2)
        builds = True
    except Exception:  # noqa: BLE001 - whatever yolov5 raises: TypeError, IndexError, ValueError, RuntimeError
        builds = False
    finally:
        logging.disable(logging.NOTSET)
    problem = anchors_problem(doc)
    assert (problem is None) == builds, problem
    checked = validate_config(TrainConfig(data="", model=str(path)), MachineFacts(), tmp_path)
    refusals = [p for p in checked.problems if p.field == "model" and "anchors" in p.message]
    assert bool(refusals) == (not builds)
    if refusals:
        assert str(path) in refusals[0].message and repr(anchors)[:20] in refusals[0].message
