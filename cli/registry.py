"""The verb registry: a verb is one module under ``cli/verbs/`` that calls ``register`` when imported.

Adding a verb means adding one module — ``load_verbs`` imports every module of the ``cli.verbs``
package (lazily, when the parser is built: a verb's imports never slow another verb's start), and the
parser lists the verbs by their ``order``. A verb module keeps its imports light (no torch, no Qt).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import pkgutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

#: A verb's work: (parsed arguments, the resolved workspace or None) -> exit code.
Handler = Callable[[argparse.Namespace, "Path | None"], int]


@dataclass(frozen=True)
class Verb:
    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Handler
    order: int = 100  # position in ``yolostudio --help``
    needs_workspace: bool = True  # False: ``run`` gets None and the workspace folder is not touched


_VERBS: dict[str, Verb] = {}


def register(verb: Verb) -> Verb:
    """Called by a verb module at import time; a second verb with the same name is a programming error."""
    existing = _VERBS.get(verb.name)
    if existing is not None and existing.run is not verb.run:
        raise ValueError(f"two verbs are named {verb.name!r}")
    _VERBS[verb.name] = verb
    return verb


def load_verbs(package: str = "cli.verbs") -> list[Verb]:
    """Import every verb module of ``package`` and return the registered verbs in help order."""
    module = importlib.import_module(package)
    for info in pkgutil.iter_modules(module.__path__):
        if not info.name.startswith("_"):
            importlib.import_module(f"{package}.{info.name}")
    return sorted(_VERBS.values(), key=lambda v: (v.order, v.name))


def load_verb(name: str, package: str = "cli.verbs") -> list[Verb]:
    """Only the verb ``name`` when a module of that name registers it, else every verb (``load_verbs``).

    The CLI's start is its import time (~0.55 s CPU with every verb's imports, a third of it numpy through
    evaluate's and train's): a command that names its verb imports only that verb's module."""
    if name.isidentifier() and not name.startswith("_"):
        try:
            found = importlib.util.find_spec(f"{package}.{name}") is not None
        except ModuleNotFoundError:
            found = False
        if found:
            importlib.import_module(f"{package}.{name}")
            if name in _VERBS:
                return [_VERBS[name]]
    return load_verbs(package)


def verb_named(name: str) -> Verb:
    return _VERBS[name]
