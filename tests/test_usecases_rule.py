"""The door rule: the faces (cli/, gui/) build no worker spec and start no worker except through core/usecases.

A face that builds a ``JobSpec`` itself, or names the worker's command, skips the door's pre-flight — the trust
check from provenance, the free port, the changed store file — which is how k-fold once unpickled a run's hostile
start weights while resume refused them. ``offenders`` reads the source (no import), like ``tools.core_io``: a
call of ``JobSpec(...)`` / ``JobSpec.for_run`` / ``JobSpec.scratch``, of ``worker_argv`` or ``core.job.launch``,
or a ``core.worker`` command line. The runners (``cli/jobs.py``, ``gui/job_runner.py``) take the door itself —
they feed it every event and show its ``result()``, the one fold of a job's ending — so a face that hands a runner
``door.spec()``'s bare JobSpec (``render_job``, ``run_job``, ``run_worker``, a runner's ``start``/``launch``) is
on the old path, where the ending was the runner's own: found too. The runners are the only places a spec's argv
is read.
"""

from __future__ import annotations

import ast
import shutil
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILDERS = frozenset({"JobSpec", "JobSpec.for_run", "JobSpec.scratch", "worker_argv", "worker_env"})
#: What runs a job: given a door, never the bare JobSpec its ``spec()`` returns.
RUNNER_FUNCTIONS = frozenset({"render_job", "run_job", "run_worker"})
RUNNER_METHODS = frozenset({"start", "launch"})


def _dotted(node: ast.AST) -> str:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


def _is_spec_call(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "spec" \
        and not node.args and not node.keywords


def _bare_specs(tree: ast.AST) -> list[str]:
    """Runner calls in ``tree`` given ``….spec()`` — directly or through a name it was assigned to."""
    names = {target.id for node in ast.walk(tree) if isinstance(node, ast.Assign) and _is_spec_call(node.value)
             for target in node.targets if isinstance(target, ast.Name)}
    hits = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if called not in RUNNER_FUNCTIONS and not (isinstance(func, ast.Attribute) and called in RUNNER_METHODS):
            continue
        given = node.args[1] if called == "render_job" and len(node.args) > 1 else node.args[0]
        if _is_spec_call(given) or isinstance(given, ast.Name) and given.id in names:
            hits.append(f"line {node.lineno}: {called}(…) given a bare JobSpec, not its door")
    return hits


def offenders(root: Path) -> dict[str, list[str]]:
    """Face module (path under ``root``) → what in it builds a spec or starts a worker outside the door."""
    found: dict[str, list[str]] = {}
    for face in ("cli", "gui"):
        for path in sorted((root / face).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            hits = []
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and _dotted(node.func) in BUILDERS:
                    hits.append(f"line {node.lineno}: {_dotted(node.func)}(…)")
                elif isinstance(node, ast.ImportFrom) and node.module in ("core.job.launch", "core.worker") \
                        or isinstance(node, ast.ImportFrom) and (node.module or "").startswith("core.worker."):
                    hits.append(f"line {node.lineno}: from {node.module} import …")
                elif isinstance(node, ast.Constant) and node.value == "core.worker":
                    hits.append(f"line {node.lineno}: a 'core.worker' command line")
            hits += _bare_specs(tree)
            if hits:
                found[str(path.relative_to(root))] = hits
    return found


def test_no_face_builds_a_job_or_starts_a_worker_outside_the_door():
    found = offenders(ROOT)
    assert not found, ("These face modules build a worker job themselves instead of asking its door "
                       "(core/usecases: Door.spec()):\n"
                       + "\n".join(f"  {module}: {'; '.join(hits)}" for module, hits in found.items()))


def test_a_planted_face_that_builds_its_own_spec_is_found(tmp_path):
    for face in ("cli", "gui"):
        shutil.copytree(ROOT / face, tmp_path / face)
    assert offenders(tmp_path) == {}
    (tmp_path / "gui" / "planted_page.py").write_text(textwrap.dedent("""\
        from core.job.jobs import JobSpec

        def start(runner, run_dir, spec):
            runner.start(JobSpec.for_run("train", run_dir, spec))  # no pre-flight, no trust check
        """))
    (tmp_path / "cli" / "planted_verb.py").write_text(textwrap.dedent("""\
        import subprocess, sys

        def run(spec_file):
            subprocess.run([sys.executable, "-m", "core.worker", "evaluate_kfold", spec_file])
        """))
    found = offenders(tmp_path)
    assert set(found) == {"gui/planted_page.py", "cli/planted_verb.py"}, found
    assert "JobSpec.for_run" in found["gui/planted_page.py"][0]


def test_a_planted_face_that_runs_a_bare_spec_instead_of_its_door_is_found(tmp_path):
    """The old path: the runner folded the ending itself, so the door's ``fold``/``result`` were never asked."""
    for face in ("cli", "gui"):
        shutil.copytree(ROOT / face, tmp_path / face)
    (tmp_path / "gui" / "planted_page.py").write_text(textwrap.dedent("""\
        def start(self, door):
            self.runner.start(door.spec())
        """))
    (tmp_path / "cli" / "planted_verb.py").write_text(textwrap.dedent("""\
        from cli.jobs import render_job

        def run(renderer, door):
            job = door.spec()
            return render_job(renderer, job)
        """))
    found = offenders(tmp_path)
    assert set(found) == {"gui/planted_page.py", "cli/planted_verb.py"}, found
    assert all("given a bare JobSpec" in hits[0] for hits in found.values()), found
