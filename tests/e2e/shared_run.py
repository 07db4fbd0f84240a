"""One tiny completed training shared by the e2e tests that only read a finished run (``completed_run`` in
``tests/e2e/conftest.py``): trained once per test session, even across pytest-xdist's processes, instead of
once per test file. A real training is the suite's unit of cost (20-45 s each on two shared cores).

The run is built under the session's base temporary folder, which xdist's processes share
(``tmp_path_factory.getbasetemp().parent`` in a worker), behind a file lock: the first process to ask trains,
the other waits for it and reads the same result. A test that writes into the run (an export, an evaluation)
takes ``copy_workspace`` — the workspace copied with its provenance secret, the files' times kept, so its
checkpoints stay the workspace's own (``core.run.provenance``) — and never the shared folder itself.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock

from core.demo.dataset import DemoSpec, generate_demo_dataset

#: The shared training: what ``test_train_e2e`` needs of a completed run (two epochs, so a best epoch is chosen
#: between two; yolov5's plots, the default that every other e2e training turns off) on the e2e tiny dataset;
#: ``--no-amp`` is the option ``test_no_amp_e2e`` reads the effect of (on a CPU yolov5 decides AMP off either
#: way, so nothing else of the run differs).
NAME = "e2e"
EPOCHS = 2
OPTIONS = ("--no-amp",)


@dataclass(frozen=True)
class CompletedRun:
    """The shared run: its root (``data/``, ``ws/``, ``config/``, ``home/``), the CLI's ``--json`` stream and
    exit code, and the worker environment it was trained with."""

    root: Path
    code: int
    events: list[dict[str, Any]]
    stderr: str
    env: dict[str, str]

    @property
    def data(self) -> Path:
        return self.root / "data" / "tiny" / "data.yaml"

    @property
    def workspace(self) -> Path:
        return self.root / "ws"

    @property
    def run(self) -> Path:
        return self.workspace / "runs" / NAME

    @property
    def net_audit(self) -> Path:
        return self.root / "net-audit.log"

    def copy_workspace(self, dest: Path) -> Path:
        """``dest/ws``: a copy of the workspace (the run, its weights, the workspace's secret) to write into."""
        return Path(shutil.copytree(self.workspace, dest / "ws", symlinks=True))


def shared_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This session's folder for things every test process builds once: the base temporary folder, or its parent
    (this test run's own) in an xdist worker."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def completed_run(tmp_path_factory: pytest.TempPathFactory, spec: DemoSpec) -> CompletedRun:
    """The shared run, trained here unless another test process has (or is training it: then wait for it)."""
    from tests.e2e.conftest import Cli, e2e_environment, train_args

    root = shared_root(tmp_path_factory) / "shared-completed-run"
    result = root / "result.json"
    with FileLock(str(root) + ".lock"):
        if not result.is_file():
            shutil.rmtree(root, ignore_errors=True)  # a process that died mid-build left half a run
            data = generate_demo_dataset(root / "data" / "tiny", spec)
            env = e2e_environment(root, root / "net-audit.log")
            cli = Cli(train_args(data, name=NAME, epochs=EPOCHS, extra=OPTIONS, plots=True), env)
            code = cli.finish()
            doc = {"code": code, "events": cli.events, "stderr": cli.stderr(), "env": env}
            result.write_text(json.dumps(doc), encoding="utf-8")
    doc = json.loads(result.read_text(encoding="utf-8"))
    return CompletedRun(root, doc["code"], doc["events"], doc["stderr"], doc["env"])
