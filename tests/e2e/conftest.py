"""End-to-end fixtures: a tiny generated dataset, a workspace, and worker launches with no network."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import psutil
import pytest

from core.demo.dataset import DemoSpec, generate_demo_dataset
from core.job.launch import worker_env
from core.job.protocol import LineDecoder
from tests.e2e import shared_run

ROOT = Path(__file__).resolve().parents[2]
NETGUARD = Path(__file__).resolve().parent / "netguard"
TINY = DemoSpec(n_train=32, n_val=8, image_size=64, seed=3)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test under ``tests/e2e`` is ``e2e`` (real CPU training through the worker, or its set-up), so
    ``pytest -m "not e2e"`` is the fast loop; a real training elsewhere carries the mark itself."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.path)).parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def tiny_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_demo_dataset(tmp_path_factory.mktemp("data") / "tiny", TINY)


@pytest.fixture(scope="session")
def completed_run(tmp_path_factory: pytest.TempPathFactory) -> shared_run.CompletedRun:
    """The session's one tiny completed training on ``TINY`` (``tests/e2e/shared_run.py``): read it; to write
    into it, take ``copy_workspace``."""
    run = shared_run.completed_run(tmp_path_factory, TINY)
    assert run.code == 0, run.stderr[-3000:]
    return run


@pytest.fixture
def net_audit(tmp_path: Path) -> Path:
    return tmp_path / "net-audit.log"


def e2e_environment(root: Path, net_audit: Path) -> dict[str, str]:
    """A worker's environment for an e2e test: the network guard, the workspace, config and home under ``root``."""
    env = worker_env()
    env["PYTHONPATH"] = os.pathsep.join([str(NETGUARD), str(ROOT), env.get("PYTHONPATH", "")])
    env["YOLOSTUDIO_NET_AUDIT"] = str(net_audit)
    env["YOLOSTUDIO_WORKSPACE"] = str(root / "ws")
    env["YOLOSTUDIO_CONFIG_DIR"] = str(root / "config")
    env["HOME"] = str(root / "home")  # nothing may be written to the real home folder
    env["CUDA_VISIBLE_DEVICES"] = ""
    return env


@pytest.fixture
def e2e_env(tmp_path: Path, net_audit: Path) -> dict[str, str]:
    return e2e_environment(tmp_path, net_audit)


def train_args(data: Path, name: str = "e2e", epochs: int = 2, batch: int = 8, extra: tuple[str, ...] = (),
               imgsz: int = 64, model: str = "yolov5n.yaml", plots: bool = False) -> list[str]:
    """``yolostudio train`` of a tiny CPU run. Without yolov5's plots unless asked: they are about 40% of a
    one-epoch run's CPU time here (17.3 s → 10.3 s, docs/performance.md) and only the shared completed run's test
    looks at them (``shared_run.py`` trains with them, so the default path stays covered)."""
    return ["train", str(data), "--model", model, "--epochs", str(epochs), "--imgsz", str(imgsz),
            "--batch", str(batch), "--workers", "1", "--device", "cpu", "--name", name,
            *(() if plots else ("--noplots",)), *extra]


class Cli:
    """``python -m cli ... --json`` as a child, read event by event."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "cli", *args, "--json"], cwd=ROOT, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.events: list[dict[str, Any]] = []
        self._decoder = LineDecoder()
        self._workspace = Path(env["YOLOSTUDIO_WORKSPACE"]) if "YOLOSTUDIO_WORKSPACE" in env else None

    def iter_events(self, timeout: float = 480.0) -> Iterator[dict[str, Any]]:
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            chunk = self.proc.stdout.read1(65536)
            decoded = self._decoder.feed(chunk) if chunk else self._decoder.flush()
            for d in decoded:
                if d.event is not None:
                    self.events.append(d.event)
                    yield d.event
            if not chunk:
                return
        raise TimeoutError(f"the CLI did not finish in {timeout:.0f} s\n{self.post_mortem()}")

    def post_mortem(self) -> str:
        """Where a slow or stuck run was: its last events but the per-second ``system`` samples, and every
        worker thread's stack (the worker's faulthandler writes them to its log on SIGUSR1)."""
        lines = [f"last events: {[e for e in self.events if e['type'] != 'system'][-6:]}"]
        for child in psutil.Process(self.proc.pid).children(recursive=True):
            with contextlib.suppress(OSError, psutil.Error):
                lines.append(f"child {child.pid} {child.status()} cpu={child.cpu_times()} {child.cmdline()[:5]}")
                os.kill(child.pid, signal.SIGUSR1)
        time.sleep(2)
        for log in sorted(self._workspace.glob("runs/*/worker.log")) if self._workspace else []:
            lines.append(f"--- {log} (tail)\n{log.read_text(encoding='utf-8', errors='replace')[-6000:]}")
        return "\n".join(lines)

    def wait_for(self, predicate: Any, timeout: float = 480.0) -> dict[str, Any]:
        for event in self.iter_events(timeout):
            if predicate(event):
                return event
        raise AssertionError(f"stream ended before the expected event; last: {self.events[-3:]}")

    def finish(self, timeout: float = 480.0) -> int:
        for _ in self.iter_events(timeout):
            pass
        return self.proc.wait(timeout=timeout)

    def stderr(self) -> str:
        assert self.proc.stderr is not None
        return self.proc.stderr.read().decode("utf-8", errors="replace")


class Hold:
    """A training held at its ``step``-th step (1-based, each worker process) until released
    (``netguard/injected_delays.py``): a stop or a kill sent while it waits lands before the run can end, on a
    loaded machine as on an idle one. Released once, it holds nothing again (a resume passes through)."""

    def __init__(self, root: Path, step: int) -> None:
        self.step, self.release_file = step, root / f"release-step-{step}"

    def env(self, env: dict[str, str]) -> dict[str, str]:
        return {**env, "YOLOSTUDIO_TEST_HOLD": f"{self.step}:{self.release_file}"}

    def release(self) -> None:
        self.release_file.touch()


@pytest.fixture
def held(tmp_path: Path) -> Iterator[Callable[[int], Hold]]:
    """``held(step)`` -> a ``Hold`` for this test's workers; every one is released at the end, so a test that
    fails before its release leaves no worker waiting."""
    made: list[Hold] = []

    def make(step: int) -> Hold:
        made.append(Hold(tmp_path, step))
        return made[-1]

    yield make
    for hold in made:
        hold.release()


def stop_while_held(cli: Cli, hold: Hold, send_stop: Callable[[], Any]) -> None:
    """``send_stop()`` (a signal, a control line), then, once the worker says ``stage: stopping``, the release:
    the stop is taken at the end of the held batch (at the next batch's start with several ranks), which the
    held run has not passed."""
    send_stop()
    cli.wait_for(lambda e: e["type"] == "stage" and e["stage"] == "stopping")
    hold.release()


def run_cli(args: list[str], env: dict[str, str], timeout: float = 300.0) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cli", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)


def by_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def assert_offline(net_audit: Path) -> None:
    assert not net_audit.exists(), net_audit.read_text()


def runs_json(env: dict[str, str]) -> list[dict[str, Any]]:
    out = run_cli(["runs", "--json"], env)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)
