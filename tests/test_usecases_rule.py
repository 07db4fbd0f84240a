"""The door rule: the faces (cli/, gui/) build no worker spec and start no worker except through core/usecases.

A face that builds a ``JobSpec`` itself, or names the worker's command, skips the door's pre-flight — the trust
check from provenance, the free port, the changed store file — which is how k-fold once unpickled a run's hostile
start weights while resume refused them. ``offenders`` reads the source (no import), like ``tools.core_io``: a
call of ``JobSpec(...)`` / ``JobSpec.for_run`` / ``JobSpec.scratch``, of ``worker_argv`` or ``core.job.launch``,
or a ``core.worker`` command line. The runners that take the door's JobSpec and drive its process
(``cli/jobs.py``, ``gui/job_runner.py``) are the only places a spec's argv is read.
"""

from __future__ import annotations

import ast
import shutil
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILDERS = frozenset({"JobSpec", "JobSpec.for_run", "JobSpec.scratch", "worker_argv", "worker_env"})


def _dotted(node: ast.AST) -> str:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


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
