"""The search space of a tuning run: yolov5's own evolve bounds, plus image size, model and batch on request.

yolov5 7.0.14 keeps its evolve table as a literal inside ``train.main`` (``meta = {'lr0': (1, 1e-5, 1e-1), …}``:
mutation scale, lower, upper). It is read here from the *installed* ``yolov5/train.py`` with ``ast`` — the
package is never imported (the GUI process shows the bounds and must not load torch) — so the bounds are
yolov5's, not a copy. A scale of 0 is yolov5's "never mutated" (``iou_t``, ``fl_gamma``, ``perspective``,
``fliplr``): those keep the hyp file's value, as in ``--evolve``. ``anchors`` (anchors per grid) is left out:
it changes the model's head rather than the training, and yolov5 drops it with ``--noautoanchor``.

A ``--space FILE`` (YAML, safe loader) narrows or widens it: ``name: [low, high]`` for a hyperparameter,
``name: {low: …, high: …, log: true}``, or ``imgsz: [320, 640]`` / ``model: [yolov5n.pt, yolov5s.pt]`` /
``batch: [8, 16]`` as the choices to try. Every mistake names the file, the key and the value.
"""

from __future__ import annotations

import ast
import importlib.util
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from core.i18n import tr

#: Searched on a log scale: yolov5's lr0 bounds span four decades (1e-5..1e-1), where a uniform draw would
#: almost never try the small rates.
LOG_SCALE = frozenset({"lr0"})
#: In yolov5's table but not a training hyperparameter to search (see the module docstring).
LEFT_OUT = frozenset({"anchors"})
#: Settings that are not hyperparameters but may be searched as choices (training options' names).
CHOICE_KEYS = ("imgsz", "model", "batch")


class SpaceError(ValueError):
    """A search space that cannot be used; the message names the file, key and value."""


@dataclass(frozen=True)
class Bound:
    name: str
    low: float
    high: float
    log: bool = False


@dataclass
class SearchSpace:
    bounds: list[Bound] = field(default_factory=list)
    choices: dict[str, list[Any]] = field(default_factory=dict)  # imgsz / model / batch: the values to try

    def to_dict(self) -> dict[str, Any]:
        return {"bounds": [asdict(b) for b in self.bounds], "choices": dict(self.choices)}

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> SearchSpace:
        return cls([Bound(**b) for b in raw.get("bounds", [])], dict(raw.get("choices", {})))

    def names(self) -> list[str]:
        return [b.name for b in self.bounds] + list(self.choices)


def yolov5_train_file() -> Path:
    """The installed ``yolov5/train.py``, found without importing the package."""
    spec = importlib.util.find_spec("yolov5")
    if spec is None or not spec.submodule_search_locations:
        raise SpaceError(tr("yolov5 is not installed, so its search bounds cannot be read. Install the app's "
                            "requirements (pip install -e .)."))
    return Path(list(spec.submodule_search_locations)[0]) / "train.py"


def yolov5_evolve_meta(train_file: Path | None = None) -> dict[str, tuple[float, float, float]]:
    """yolov5's ``meta`` table as it is in ``train.py``: name → (mutation scale, lower, upper)."""
    path = train_file or yolov5_train_file()
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "meta" for t in node.targets):
            table = ast.literal_eval(node.value)
            return {str(k): tuple(float(x) for x in v) for k, v in table.items()}  # type: ignore[misc]
    raise SpaceError(tr("{path} has no evolve table (meta = {{…}}): this yolov5 version is not one the app "
                        "knows.", path=path))


def default_space(meta: dict[str, tuple[float, float, float]] | None = None) -> SearchSpace:
    """Every hyperparameter yolov5's ``--evolve`` mutates, with yolov5's bounds."""
    table = meta if meta is not None else yolov5_evolve_meta()
    return SearchSpace([Bound(name, low, high, name in LOG_SCALE)
                        for name, (scale, low, high) in table.items() if scale > 0 and name not in LEFT_OUT])


def load_space(path: Path, meta: dict[str, tuple[float, float, float]] | None = None) -> SearchSpace:
    """A ``--space FILE``: only the keys it names are searched (the others keep the hyp file's values)."""
    import yaml

    table = meta if meta is not None else yolov5_evolve_meta()
    try:
        raw = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise SpaceError(tr("Cannot read the search space {path}: {reason}", path=path, reason=exc)) from exc
    if not isinstance(raw, dict) or not raw:
        raise SpaceError(tr("{path} holds no search space (expected a mapping such as 'lr0: [0.001, 0.02]').",
                            path=path))
    space = SearchSpace()
    for key, value in raw.items():
        name = str(key)
        if name in CHOICE_KEYS:
            if not isinstance(value, list) or not value:
                raise SpaceError(tr("{path}: {name} = {value!r} must be a list of values to try.", path=path,
                                    name=name, value=value))
            space.choices[name] = _checked_choices(path, name, value)
            continue
        if name not in table or name in LEFT_OUT:
            known = ", ".join(n for n in [*table, *CHOICE_KEYS] if n not in LEFT_OUT)
            raise SpaceError(tr("{path}: {name} is not a setting that can be searched (known: {known}).",
                                path=path, name=name, known=known))
        space.bounds.append(_checked_bound(path, name, value, table[name]))
    return space


def _checked_bound(path: Path, name: str, value: Any, meta: tuple[float, float, float]) -> Bound:
    log = name in LOG_SCALE
    if isinstance(value, dict):
        log = bool(value.get("log", log))
        value = [value.get("low"), value.get("high")]
    if not (isinstance(value, list) and len(value) == 2
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)):
        raise SpaceError(tr("{path}: {name} = {value!r} must be [low, high] (yolov5's bounds: [{low}, {high}]).",
                            path=path, name=name, value=value, low=meta[1], high=meta[2]))
    low, high = float(value[0]), float(value[1])
    if not low < high:
        raise SpaceError(tr("{path}: {name}: low {low} must be below high {high}.", path=path, name=name,
                            low=low, high=high))
    if log and low <= 0:
        raise SpaceError(tr("{path}: {name}: a log-scale bound must be above 0 (low is {low}).", path=path,
                            name=name, low=low))
    return Bound(name, low, high, log)


def _checked_choices(path: Path, name: str, values: list[Any]) -> list[Any]:
    if name in ("imgsz", "batch"):
        for v in values:
            if isinstance(v, bool) or not isinstance(v, int) or v < 1 or (name == "imgsz" and v % 32):
                raise SpaceError(tr("{path}: {name}: {value!r} is not a valid value ({rule}).", path=path,
                                    name=name, value=v, rule=tr("a multiple of 32") if name == "imgsz"
                                    else tr("a whole number of images, 1 or more")))
        return [int(v) for v in values]
    return [str(v) for v in values]
