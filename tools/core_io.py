"""Which of core's names do I/O, and which GUI modules import them: the facts behind the ops rule.

Why: a page that imports an I/O-doing core function can call it on the GUI thread, so the GUI reaches
such names only from its operations modules (``gui/operations.py``: one small ``CoreOp`` per core call,
run off the GUI thread). This module reads the source — no import, so no Qt and no torch — and answers
two questions for ``tests/test_gui_operations_rule.py``:

- ``io_names(core_root)``: every function and class of core that does I/O, directly (a file opened, read,
  written, listed or stat'ed, a process or socket, ``shutil``) or through another core function it calls
  (same module, or imported from core; methods of the same class through ``self``). A class does I/O when
  one of its methods does: whoever holds the class can call it. Constants and pure functions do not.
- ``gui_imports(gui_root, io)``: each GUI module's imports of those names (``from core.x import f``,
  ``import core.x``), lazy ones included; imports under ``if TYPE_CHECKING:`` are types, not calls.

It reads like a reviewer would, not like an interpreter: a call through a variable or a callback is not
followed. What it finds is a floor, and what it misses a reviewer still catches.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

#: Method names that touch the file system when called on a path or a file (pathlib.Path's); ``replace``
#: counts with one argument only (``Path.replace(target)``: ``str.replace`` takes two).
IO_METHODS = frozenset({
    "open", "read_text", "write_text", "read_bytes", "write_bytes", "iterdir", "glob", "rglob", "stat", "lstat",
    "exists", "is_file", "is_dir", "mkdir", "rmdir", "unlink", "rename", "touch", "symlink_to", "hardlink_to",
    "chmod", "samefile",
})
#: ``os`` / ``os.path`` functions that are I/O (``os.path.join`` and ``os.environ`` are not).
OS_IO = frozenset({
    "listdir", "scandir", "walk", "remove", "makedirs", "removedirs", "replace", "rename", "kill", "stat",
    "unlink", "rmdir", "mkdir", "open", "access", "exists", "isfile", "isdir", "getsize", "getmtime", "fsync",
    "chmod", "link", "symlink", "utime", "truncate", "startfile", "lstat", "lexists", "samefile",
})
#: Modules every call of which is I/O (processes, sockets, copying trees, the machine's counters).
IO_MODULES = frozenset({"subprocess", "shutil", "socket", "psutil", "urllib", "http", "sqlite3", "tempfile"})
#: Builtins that are I/O.
IO_BUILTINS = frozenset({"open"})
#: Core modules whose reads are a once-per-process cache, not a call's I/O: ``core.i18n`` reads its
#: catalogue at the first ``tr()`` (start-up, before any window), and every word-building function calls ``tr``.
LOADED_ONCE = frozenset({"core.i18n"})


@dataclass
class _Module:
    name: str
    tree: ast.Module
    defs: dict[str, ast.AST] = field(default_factory=dict)  # top-level functions and classes
    imported: dict[str, str] = field(default_factory=dict)  # local name -> "core.x.y" (a module or a name)


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _type_checking_blocks(tree: ast.AST) -> set[int]:
    """ids of the statements under ``if TYPE_CHECKING:`` (types only: never called at run time)."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for stmt in node.body:
                inside.update(id(n) for n in ast.walk(stmt))
    return inside


def _imports(tree: ast.AST, module: str, *, skip: set[int] = frozenset()) -> dict[str, str]:
    """Local name -> dotted core target, for every import of core in ``tree`` (lazy ones too)."""
    found: dict[str, str] = {}
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package of ``module``
                package = module.split(".")[: -node.level] if node.level else []
                base = ".".join([*package, base] if base else package)
            if base == "core" or base.startswith("core."):
                for alias in node.names:
                    found[alias.asname or alias.name] = f"{base}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "core" or alias.name.startswith("core."):
                    found[alias.asname or alias.name.split(".")[0]] = alias.asname and alias.name or "core"
                    if alias.asname is None:
                        found[alias.name] = alias.name  # ``core.x.f()`` is read through the dotted chain
    return found


def _load(core_root: Path) -> dict[str, _Module]:
    modules: dict[str, _Module] = {}
    for path in sorted(core_root.rglob("*.py")):
        name = module_name(core_root, path)
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        module = _Module(name, tree, imported=_imports(tree, name))
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                module.defs[node.name] = node
        modules[name] = module
    return modules


def _dotted(node: ast.AST) -> str:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return ""


def _direct_io(node: ast.AST) -> bool:
    for call in (n for n in ast.walk(node) if isinstance(n, ast.Call)):
        func = call.func
        if isinstance(func, ast.Name) and func.id in IO_BUILTINS:
            return True
        if isinstance(func, ast.Attribute):
            dotted = _dotted(func)
            root = dotted.split(".")[0]
            if func.attr in IO_METHODS or root in IO_MODULES:
                return True
            if func.attr == "replace" and len(call.args) == 1 and not call.keywords:
                return True
            if dotted.rpartition(".")[0] in ("os", "os.path") and func.attr in OS_IO:
                return True
    return False


def _resolve(modules: dict[str, _Module], target: str) -> str | None:
    """``core.x.f`` -> the qualified name of the def it names, following re-exports; None if not a def."""
    for _ in range(10):  # a chain of re-exports is short; a loop of them would be a bug elsewhere
        module, _, name = target.rpartition(".")
        owner = modules.get(module)
        if owner is None:
            return None
        if name in owner.defs:
            return target
        if name not in owner.imported:
            return None
        target = owner.imported[name]
    return None


def _callees(modules: dict[str, _Module], module: _Module, node: ast.AST, cls: str = "") -> set[str]:
    """The core defs ``node`` calls (or instantiates): by name, through a module alias, or ``self.method``."""
    found: set[str] = set()
    for call in (n for n in ast.walk(node) if isinstance(n, ast.Call)):
        dotted = _dotted(call.func)
        if not dotted:
            continue
        head, _, rest = dotted.partition(".")
        if not rest and head in module.defs:
            found.add(f"{module.name}.{head}")
        elif cls and head in ("self", "cls") and rest and "." not in rest:
            found.add(f"{module.name}.{cls}.{rest}")
        elif head in module.imported:
            target = module.imported[head] + (f".{rest}" if rest else "")
            resolved = _resolve(modules, target)
            if resolved is None and rest:  # ``store.WeightsStore().x``: the class is the callee
                resolved = _resolve(modules, module.imported[head] + "." + rest.split(".")[0])
            if resolved:
                found.add(resolved)
        elif dotted.startswith("core."):
            for cut in range(dotted.count("."), 0, -1):
                resolved = _resolve(modules, ".".join(dotted.split(".")[: cut + 1]))
                if resolved:
                    found.add(resolved)
                    break
    return found


def io_names(core_root: Path) -> set[str]:
    """Qualified names (``core.settings.load_settings``, ``core.weights.store.WeightsStore``) of core's defs
    that do I/O, directly or through the core defs they call."""
    modules = _load(core_root)
    direct: dict[str, bool] = {}
    calls: dict[str, set[str]] = {}
    classes: dict[str, list[str]] = {}
    for module in modules.values():
        if module.name in LOADED_ONCE:
            continue
        for name, node in module.defs.items():
            qualified = f"{module.name}.{name}"
            if isinstance(node, ast.ClassDef):
                methods = [n for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
                classes[qualified] = [f"{qualified}.{m.name}" for m in methods]
                for method in methods:
                    key = f"{qualified}.{method.name}"
                    direct[key] = _direct_io(method)
                    calls[key] = _callees(modules, module, method, name)
                direct[qualified] = False
                calls[qualified] = set(classes[qualified])
            else:
                direct[qualified] = _direct_io(node)
                calls[qualified] = _callees(modules, module, node)
    doing = {name for name, yes in direct.items() if yes}
    changed = True
    while changed:
        changed = False
        for name, callees in calls.items():
            if name not in doing and callees & doing:
                doing.add(name)
                changed = True
    return {name for name in doing if name.count(".") and _resolve(modules, name) == name}


def gui_imports(gui_root: Path, core_root: Path, io: set[str]) -> dict[str, set[str]]:
    """GUI module -> the I/O-doing core names it imports (a module imported whole counts when it defines any)."""
    modules = _load(core_root)
    io_modules = {name.rpartition(".")[0] for name in io}
    found: dict[str, set[str]] = {}
    for path in sorted(gui_root.rglob("*.py")):
        name = module_name(gui_root, path)
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for target in _imports(tree, name, skip=_type_checking_blocks(tree)).values():
            resolved = _resolve(modules, target)
            if resolved in io or (resolved is None and target in io_modules):
                found.setdefault(name, set()).add(target)
    return found
