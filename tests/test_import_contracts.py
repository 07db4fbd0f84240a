"""The layer boundaries checked statically: the import-linter contracts in pyproject.toml hold for the code,
each contract really breaks on the import it forbids (a miniature project that violates each one, and the
real tree with the imports issue 30 planted), and every package of core/ and gui/ is named in a contract."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("importlinter")
tomllib = pytest.importorskip("tomllib")  # Python 3.11+

ROOT = Path(__file__).resolve().parents[1]
LINT = "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports(no_cache=True, no_logo=True))"


def lint(folder: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` in ``folder``; the repository comes after it on the path for the allow-list contract type
    (``tools/import_allowlist.py``), which a miniature project does not carry."""
    return subprocess.run([sys.executable, "-c", LINT], cwd=folder, capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": f"{folder}{os.pathsep}{ROOT}", "PATH": "/usr/bin:/bin"})


def test_the_code_keeps_every_contract():
    result = lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


#: (the contract ids it breaks, module to add to the miniature project, its source)
VIOLATIONS = [
    ("core-no-qt", "core/view.py", "import PySide6.QtWidgets\n"),
    ("core-no-qt", "core/show.py", "from gui import window\n"),
    ("training-stack-in-workers", "core/quick.py", "import torch\n"),
    ("training-stack-in-workers", "gui/preview.py", "import cv2\n"),
    ("training-stack-in-workers", "cli/verbs/fast.py", "import onnxruntime\n"),
    ("training-stack-in-workers", "gui/tune_page.py", "from ray import tune\n"),
    ("gui-not-worker worker-entered-by-process", "gui/jobs.py", "from core.worker import train_job\n"),
    ("worker-entered-by-process", "core/shortcut.py", "from core.worker.train_job import run\n"),
    ("worker-entered-by-process", "cli/verbs/direct.py", "import core.worker.train_job\n"),
    ("widgets-only-display", "gui/widgets/busy.py", "from gui.background import run_in_background\n"),
    ("widgets-only-display", "gui/widgets/start.py", "from gui.job_runner import JobRunner\n"),
    ("widgets-only-display", "gui/widgets/panel.py", "from gui.train import train_page\n"),
    ("widgets-only-display", "gui/widgets/tuned.py", "from gui.tune import operations\n"),  # a package newer than the list
    ("widgets-only-display", "gui/widgets/saver.py", "from core.atomic import atomic_write_text\n"),  # writes a file
]
#: Modules the planted imports above name, made in the miniature so that the import graph holds them.
MINIATURE_MODULES = ["gui/background.py", "gui/job_runner.py", "gui/train/__init__.py", "gui/train/train_page.py",
                     "gui/tune/__init__.py", "gui/tune/operations.py", "core/atomic.py"]


def as_toml(config: dict) -> str:
    """The same [tool.importlinter] section, written back out (tomllib only reads)."""
    def value(v: object) -> str:
        return json.dumps(v)  # JSON strings, lists and booleans are valid TOML

    lines = ["[tool.importlinter]", *(f"{k} = {value(v)}" for k, v in config.items() if k != "contracts")]
    for contract in config["contracts"]:
        named = {**contract, "name": contract["id"]}  # reported by id, one word
        lines += ["", "[[tool.importlinter.contracts]]", *(f"{k} = {value(v)}" for k, v in named.items())]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("contract,module,source", VIOLATIONS, ids=[f"{v[0]}:{v[1]}" for v in VIOLATIONS])
def test_each_contract_catches_what_it_forbids(tmp_path, contract, module, source):
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    config["contracts"] = [c for c in config["contracts"] if c["type"] != "layers"]  # its own miniature: below
    for folder in ("core", "core/worker", "gui", "gui/widgets", "cli", "cli/verbs", "installer"):
        (tmp_path / folder).mkdir(exist_ok=True)
        (tmp_path / folder / "__init__.py").write_text("")
    (tmp_path / "gui" / "window.py").write_text("import PySide6\n")
    (tmp_path / "gui" / "widgets" / "label.py").write_text("from PySide6.QtWidgets import QLabel\n")  # allowed
    for name in MINIATURE_MODULES:
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("")
    stack = next(c for c in config["contracts"] if c["id"] == "training-stack-in-workers")["protected_modules"]
    worker_job = "".join(f"import {module}\n" for module in stack) + "def run(): ...\n"  # imports the whole stack
    (tmp_path / "core" / "worker" / "train_job.py").write_text(worker_job)
    (tmp_path / module).write_text(source)
    (tmp_path / "pyproject.toml").write_text(as_toml(config))
    result = lint(tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    broken = {line.split()[0] for line in result.stdout.splitlines() if " BROKEN" in line}
    assert broken == set(contract.split()), result.stdout


#: (what it shows, module of the miniature core, the import added to it)
LAYER_VIOLATIONS = [
    ("an import up a layer", "atomic", "import core.runs\n"),
    ("a lazy import up a layer", "job", "def later():\n    from core.worker import train_job\n"),
    ("an import sideways inside a layer", "findings", "from core import atomic\n"),
    ("a circle", "environment", "import core.training\n"),  # core.training already imports core.environment
    ("a tuning module importing evaluation", "tune", "import core.evaluation\n"),  # issue 30's planted import
]


def _miniature_module(root: Path, name: str) -> Path:
    """The miniature's file for layer ``name``: a package where the real core has one, else a module."""
    return root / "core" / name / "__init__.py" if (ROOT / "core" / name).is_dir() else root / "core" / f"{name}.py"


@pytest.mark.parametrize("case,module,source", LAYER_VIOLATIONS, ids=[v[0] for v in LAYER_VIOLATIONS])
def test_the_layers_of_core_break_on_an_upward_or_sideways_import(tmp_path, case, module, source):
    """A miniature core with every layer's modules, the real imports it has between two of them, and one new
    import: the ``core-layers`` contract breaks, and it holds without the new import."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    config["contracts"] = [c for c in config["contracts"] if c["id"] == "core-layers"]
    (layers,) = [c["layers"] for c in config["contracts"]]
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "__init__.py").write_text("")
    for name in (n.strip() for layer in layers for n in layer.split("|")):
        path = _miniature_module(tmp_path, name)
        path.parent.mkdir(exist_ok=True)
        path.write_text("")
    (tmp_path / "core" / "worker" / "train_job.py").write_text("import core.runs\n")
    _miniature_module(tmp_path, "training").write_text("import core.environment\n")
    (tmp_path / "gui").mkdir()
    (tmp_path / "gui" / "__init__.py").write_text("")
    (tmp_path / "cli").mkdir()
    (tmp_path / "cli" / "__init__.py").write_text("")
    (tmp_path / "installer").mkdir()
    (tmp_path / "installer" / "__init__.py").write_text("")
    (tmp_path / "pyproject.toml").write_text(as_toml(config))
    kept = lint(tmp_path)
    assert kept.returncode == 0, kept.stdout + kept.stderr
    with open(_miniature_module(tmp_path, module), "a", encoding="utf-8") as handle:
        handle.write(source)
    result = lint(tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "core-layers BROKEN" in result.stdout, result.stdout


#: Issue 30's planted imports, in the real tree: (file to add, its source, the contracts it must break).
PLANTED = [
    ("gui/widgets/planted.py", "from gui.tune import operations\n", {"widgets-only-display", "gui-layers"}),
    ("core/tune/planted.py", "import core.evaluation\n", {"core-layers"}),
]


@pytest.mark.parametrize("module,source,contracts", PLANTED, ids=[p[0] for p in PLANTED])
def test_the_imports_issue_30_planted_break_the_real_contracts(tmp_path, module, source, contracts):
    for name in ("core", "gui", "cli", "installer", "tools"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    (tmp_path / "pyproject.toml").write_text(as_toml(config))
    (tmp_path / module).write_text(source)
    result = lint(tmp_path)
    broken = {line.split()[0] for line in result.stdout.splitlines() if " BROKEN" in line}
    assert result.returncode == 1 and broken == contracts, result.stdout + result.stderr


def named_in_contracts(config: dict) -> set[str]:
    """Every module a contract names: its module lists, and each layer of a layers contract under its container."""
    names: set[str] = set()
    for contract in config["contracts"]:
        for key, value in contract.items():
            if key.endswith("_modules") or key == "allowed_importers":
                names.update(value)
        for container in contract.get("containers", []):
            for layer in contract.get("layers", []):
                names.update(f"{container}.{n.strip()}" for n in layer.replace(":", "|").split("|"))
    return names


def unnamed_packages(root: Path, config: dict) -> list[str]:
    """The packages right under ``core/`` and ``gui/`` (the folders, walked) that no contract names."""
    named = named_in_contracts(config)
    return sorted(f"{top}.{p.name}" for top in ("core", "gui") for p in (root / top).iterdir()
                  if (p / "__init__.py").is_file() and f"{top}.{p.name}" not in named)


def test_every_package_of_core_and_gui_is_named_in_a_contract():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    missing = unnamed_packages(ROOT, config)
    assert not missing, (f"no import contract names {missing}: give each a layer in pyproject's core-layers or "
                         "gui-layers contract (the layer above everything it imports)")


def test_a_new_package_on_no_contract_is_found(tmp_path):
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    for package in ("core/zz_unnamed", "gui/dataset"):
        (tmp_path / package).mkdir(parents=True)
        (tmp_path / package / "__init__.py").write_text("")
    assert unnamed_packages(tmp_path, config) == ["core.zz_unnamed"]
