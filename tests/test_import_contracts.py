"""The layer boundaries checked statically: the import-linter contracts in pyproject.toml hold for the code,
and each contract really breaks on the import it forbids (a miniature project that violates each one)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("importlinter")
tomllib = pytest.importorskip("tomllib")  # Python 3.11+

ROOT = Path(__file__).resolve().parents[1]
LINT = "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports(no_cache=True, no_logo=True))"


def lint(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", LINT], cwd=folder, capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(folder), "PATH": "/usr/bin:/bin"})


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
]


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
    display = next(c for c in config["contracts"] if c["id"] == "widgets-only-display")["forbidden_modules"]
    for name in display:  # the modules a widget may not import exist in the miniature too
        (tmp_path / name.replace(".", "/")).mkdir(exist_ok=True)
        (tmp_path / name.replace(".", "/") / "__init__.py").write_text("")
    (tmp_path / "gui" / "train" / "train_page.py").write_text("")
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
