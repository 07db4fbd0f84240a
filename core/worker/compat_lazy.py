"""Compat fix 15: seaborn (and with it scipy.stats) loaded on first use, not at every worker's start.

``yolov5.utils.plots`` imports seaborn at its top, and every ``import yolov5`` reaches it (``yolov5.helpers`` →
``models.common`` → ``utils.plots``); seaborn imports ``scipy.stats``. Measured with ``python -X importtime -c
"import yolov5.train"`` (torch 2.14.1, seaborn 0.13, scipy 1.16): seaborn 886 ms of 5.8 s, 821 ms of it
``scipy.stats`` — paid by every train, evaluate, export and predict worker, though yolov5 calls seaborn only to
draw the labels correlogram (``plot_labels``: ``sn.pairplot``, ``sn.histplot``) and the confusion matrix
(``ConfusionMatrix.plot``: ``sn.set``, ``sn.heatmap``), both when plots are on. Python's own
a stand-in module in ``sys.modules`` imports the real one at the first read of an attribute it does not hold,
so ``import seaborn as sn`` binds it at no cost and ``sn.pairplot`` loads the real seaborn. ``bench/worker_start.py`` measures the effect on a worker's start.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from typing import Any

#: Modules yolov5 imports at its top but uses only when it draws plots (see the module docstring).
DEFERRED = ("seaborn",)


class _Deferred(types.ModuleType):
    """A stand-in that holds what a scanner of ``sys.modules`` reads (``__file__``, ``__spec__``, ``__path__``:
    ``inspect.getmodule``, which torch calls while registering its operators, reads every module's ``__file__``)
    and imports the real module at the first read of anything else, then becomes it."""

    def __getattr__(self, attr: str) -> Any:  # called only for what the stand-in does not hold
        name = self.__name__
        if sys.modules.get(name) is self:
            del sys.modules[name]
        real = importlib.import_module(name)
        self.__dict__.update(real.__dict__)
        return getattr(real, attr)


def defer_plotting_imports(names: tuple[str, ...] = DEFERRED) -> list[str]:
    """Put a stand-in for each of ``names`` not yet imported into ``sys.modules``; the names deferred.

    Must run before ``import yolov5``; a module already imported (or not installed) is left as it is.
    (``importlib.util.LazyLoader``, the standard library's recipe, loads at the first read of *any* attribute,
    ``__file__`` included, so torch's own import loaded seaborn through ``inspect``.)"""
    deferred = []
    for name in names:
        if name in sys.modules:
            continue
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            continue
        stand_in = _Deferred(name)
        stand_in.__spec__ = spec
        stand_in.__loader__ = spec.loader
        stand_in.__file__ = spec.origin
        stand_in.__package__ = spec.parent
        if spec.submodule_search_locations is not None:
            stand_in.__path__ = list(spec.submodule_search_locations)
        sys.modules[name] = stand_in
        deferred.append(name)
    return deferred
