"""The ops rule: a GUI module reaches core's I/O only through an operations module (``gui/operations.py``).

A page that imports an I/O-doing core function can call it on the GUI thread (issue 20: the Export page
listed a whole split with ``rglob`` there). So only ``gui/operations.py``-style modules — a feature
package's ``operations.py`` and the shell's ``gui/shell_operations.py``, each a small ``CoreOp`` per call —
import core functions and classes that read, write, list or stat files, or start processes.
``tools.core_io`` finds them from the source (directly, or through the core functions they call).

The lists below are the exceptions, each with its reason; the one of pages not converted yet only shrinks
(a module that no longer imports core's I/O must leave it), and no module joins it. The same holds for pool
work a page starts itself with ``run_in_background`` instead of a ``CoreOp`` (``OWN_BACKGROUND_JOBS``).
"""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

from tools.core_io import gui_imports, io_names

ROOT = Path(__file__).resolve().parents[1]

#: A job's description handed to ``JobRunner.start``, which writes it when it starts the worker: the job
#: path (a worker process, its events followed by Qt) is the GUI's other way to core, not an operation.
JOB_PATH_NAMES = frozenset({"core.job.jobs.JobSpec"})

#: The GUI's mechanisms beneath the operations, and start-up.
MECHANISMS = {
    "gui.job_runner": "the job path: starts and stops worker processes (QProcess), kills a run's worker",
    "gui.run_follower": "the job path: follows a worker's events file and lock on a timer (re-attach)",
    "gui.remote_follower": "the job path: follows a run on another machine over ssh on a thread of its own, and "
                           "asks it to stop there (issue 35)",
    "gui.app": "start-up before the event loop: the settings pick the language every widget is built in",
    "gui.window_guard": "start-up before any window: the one-window kernel lock (a non-blocking try) is taken, "
                        "then held while the window is open",
}

#: Pages whose owners convert them this session (issue 25's engineers); only ever shrinks.
NOT_CONVERTED_YET = {
    "gui.train.run_control", "gui.train.run_status_panel", "gui.train.run_viewer", "gui.train.train_form",
    "gui.train.train_options_panel",
    "gui.train.several_machines",  # the Train page's several-machines panel saves the Slurm script
    "gui.train.wizard_prediction",  # the Train page's wizard comparison reads wizard.json (RunFolder writes it)
}


def is_operations(module: str) -> bool:
    return module in ("gui.operations", "gui.shell_operations") or module.endswith(".operations")


def offenders(gui_root: Path, core_root: Path = ROOT / "core") -> dict[str, set[str]]:
    """GUI module -> the I/O-doing core names it imports, outside the operations modules and the job path."""
    found = gui_imports(gui_root, core_root, io_names(core_root))
    out = {module: names - JOB_PATH_NAMES for module, names in found.items() if not is_operations(module)}
    return {module: names for module, names in out.items() if names}


def test_only_operations_modules_import_cores_io():
    found = offenders(ROOT / "gui")
    new = {module: sorted(names) for module, names in found.items()
           if module not in MECHANISMS and module not in NOT_CONVERTED_YET}
    assert not new, (
        "These GUI modules import core functions that do I/O, which they could call on the GUI thread:\n"
        + "\n".join(f"  {module}: {', '.join(names)}" for module, names in sorted(new.items()))
        + "\nCall them through a small CoreOp in the package's operations.py (gui/operations.py says how).")


def test_the_not_converted_list_only_shrinks():
    found = offenders(ROOT / "gui")
    converted = sorted(module for module in (*NOT_CONVERTED_YET, *MECHANISMS) if module not in found)
    assert not converted, f"these import no core I/O any more: remove them from the lists above: {converted}"


def test_a_planted_page_that_reads_settings_itself_is_found(tmp_path):
    gui = tmp_path / "gui"
    shutil.copytree(ROOT / "gui", gui)
    (gui / "planted_page.py").write_text(textwrap.dedent("""\
        from core.job.jobs import JobOutcome, JobSpec  # values: not I/O, and the job path
        from core.run.words import status_title  # words: pure

        def on_click():
            from core.settings import load_settings  # a lazy import is an import too
            return load_settings()
        """))
    (gui / "train" / "operations.py").write_text("from core.settings import load_settings\n")  # an ops module
    found = offenders(gui)
    assert found.get("gui.planted_page") == {"core.settings.load_settings"}
    assert "gui.train.operations" not in found


MINI_CORE = {
    "__init__.py": "",
    "files.py": """\
        from pathlib import Path
        LIMIT = 3  # a constant
        def read(path):
            return Path(path).read_text()
        def label(name):
            return name.replace("_", " ")  # str.replace: not a file
        def summary(path):
            return read(path)[:LIMIT]  # through a function of the same module
        """,
    "store.py": """\
        from typing import TYPE_CHECKING
        from core import files
        from core.files import read as read_file
        if TYPE_CHECKING:
            from core.files import read
        class Store:
            def __init__(self, root):
                self.root = root
            def rows(self):
                return self._load()
            def _load(self):
                return files.summary(self.root)  # through a module alias
        class Row:
            def text(self):
                return "row"
        def first(path):
            return read_file(path)  # through an imported name
        """,
    "again.py": "from core.store import first\n",  # a re-export
}


def _mini_core(tmp_path: Path) -> Path:
    core = tmp_path / "core"
    core.mkdir()
    for name, text in MINI_CORE.items():
        (core / name).write_text(textwrap.dedent(text))
    return core


def test_io_is_found_directly_and_through_the_calls_that_reach_it(tmp_path):
    io = io_names(_mini_core(tmp_path))
    assert io == {"core.files.read", "core.files.summary", "core.store.Store", "core.store.first"}


def test_gui_imports_follow_re_exports_and_skip_type_only_imports(tmp_path):
    core = _mini_core(tmp_path)
    gui = tmp_path / "gui"
    gui.mkdir()
    (gui / "page.py").write_text(textwrap.dedent("""\
        from typing import TYPE_CHECKING
        from core.again import first
        from core.files import LIMIT, label
        from core.store import Row
        if TYPE_CHECKING:
            from core.store import Store
        """))
    (gui / "other.py").write_text("import core.files\n")
    assert gui_imports(gui, core, io_names(core)) == {"gui.page": {"core.again.first"},
                                                      "gui.other": {"core.files"}}


#: Modules that still start pool work themselves instead of through a CoreOp (issue 25's pages); only shrinks.
OWN_BACKGROUND_JOBS = {
    "gui.train.train_options_panel", "gui.train.val_images",
}


def background_callers(gui_root: Path) -> set[str]:
    """GUI modules that import ``run_in_background`` (the pool beneath ``CoreOp``) to start work themselves."""
    import ast  # noqa: PLC0415

    from tools.core_io import module_name  # noqa: PLC0415

    found = set()
    for path in sorted(gui_root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(isinstance(node, ast.ImportFrom) and node.module == "gui.background"
               and any(alias.name == "run_in_background" for alias in node.names) for node in ast.walk(tree)):
            found.add(module_name(gui_root, path))
    return found - {"gui.operations"}


def test_pool_work_is_started_through_operations():
    callers = background_callers(ROOT / "gui")
    assert callers - OWN_BACKGROUND_JOBS == set(), "start it with a CoreOp in the package's operations.py"
    assert OWN_BACKGROUND_JOBS - callers == set(), "converted: remove them from OWN_BACKGROUND_JOBS"


def test_a_planted_pool_job_is_found(tmp_path):
    gui = tmp_path / "gui"
    gui.mkdir()
    (gui / "page.py").write_text("def later():\n    from gui.background import run_in_background\n")
    assert background_callers(gui) == {"gui.page"}
