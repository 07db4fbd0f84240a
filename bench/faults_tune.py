"""Fault campaign, issue 37 "tune" (``faults.py --skip tune``): ``--ray-address`` nothing answers, and a search
that must never outlive its CLI. Real processes and real loopback ports; no Ray cluster.

- a refused port and a malformed address: exit 2 in seconds, the address named;
- a server that accepts and never speaks Ray (``ray.init`` would wait in C++): Ctrl+C, SIGTERM, SIGHUP or
  SIGKILL to the CLI, and SIGTERM to the tune worker — each time the worker is gone soon after;
- a killed worker's Ray session folder (``ysray-*`` under TMPDIR) is gone after the next search.
Tests: ``tests/cli/test_tune_faults.py``.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator

import psutil

from bench.faults_stored import Case, _clean, run_cases

#: How long a worker may take to end after its CLI was stopped or killed (it ends within a second or two).
GONE_S = 60.0


def _server(listen: bool) -> tuple[socket.socket, int]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    if listen:
        sock.listen(64)
        threading.Thread(target=_accept_forever, args=(sock,), daemon=True).start()
    return sock, sock.getsockname()[1]


def _accept_forever(sock: socket.socket) -> None:
    held = []
    while True:
        try:
            held.append(sock.accept()[0])
        except OSError:
            return


def _tune_argv(t: ModuleType, data: Path, name: str, address: str) -> list[str]:
    args = t.train_args(data, name, epochs=1)
    return t.cli("tune", *args[1:], "--time-budget", "5m", "--ray-address", address)


def unreachable(data: Path, ws: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    sock, port = _server(listen=False)
    try:
        started = time.monotonic()
        result = t.measured(_tune_argv(t, data, "unreach", f"127.0.0.1:{port}"), env, timeout=120)
        print(f"    answered in {time.monotonic() - started:.1f} s", file=sys.stderr)
        return _clean(result, 2, words=f"No Ray cluster answers at 127.0.0.1:{port}")
    finally:
        sock.close()


def malformed(data: Path, ws: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    return _clean(t.measured(_tune_argv(t, data, "malformed", "headnode"), env, timeout=120), 2,
                  words="is not HOST:PORT")


def _events(stream: Any) -> Iterator[dict[str, Any]]:
    for line in stream:
        try:
            yield json.loads(line)
        except ValueError:
            continue


def _gone(pid: int) -> bool:
    try:
        psutil.Process(pid).wait(GONE_S)
    except psutil.NoSuchProcess:
        return True
    except psutil.TimeoutExpired:
        psutil.Process(pid).kill()
        return False
    return True


def _stopped(whom: str, signum: int) -> Case:
    """The CLI (or its worker) gets ``signum`` while the worker waits for a cluster; the worker must be gone."""

    def case(data: Path, ws: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
        sock, port = _server(listen=True)
        cli = subprocess.Popen(_tune_argv(t, data, f"sig-{whom}-{signum}", f"127.0.0.1:{port}") + ["--json"],
                               cwd=t.ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, start_new_session=True)
        try:
            assert cli.stdout is not None
            worker = None
            for event in _events(cli.stdout):  # the worker's pid, then "preparing": Ray is joined, and waits
                if event.get("type") == "stage" and event.get("stage") == "starting":
                    worker = int(event["pid"])
                if event.get("type") == "stage" and event.get("stage") == "preparing":
                    break
            if worker is None:
                return False
            os.kill(worker if whom == "worker" else cli.pid, signum)
            gone = _gone(worker)
            code = cli.wait(GONE_S)
            expected = -signal.SIGKILL if signum == signal.SIGKILL and whom == "cli" else 3
            if not gone or code != expected:
                print(f"    worker gone={gone}, CLI exit {code} (expected {expected})", file=sys.stderr)
            return gone and code == expected
        finally:
            if cli.poll() is None:
                cli.kill()
            sock.close()
    return case


def killed_workers_ray_folder(data: Path, ws: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    made = subprocess.run([sys.executable, "-c", "import os, signal\nfrom core.tune.ray_temp import make_ray_temp\n"
                           "print(make_ray_temp(), flush=True)\nos.kill(os.getpid(), signal.SIGKILL)"],
                          cwd=t.ROOT, env=env, capture_output=True, text=True, timeout=120)
    folder = Path(made.stdout.strip())
    if not folder.is_dir():
        return False
    _stopped("cli", signal.SIGTERM)(data, ws, work, env, t)  # a search that reaches its worker, then ends
    return not folder.exists()


CASES: list[tuple[str, Case]] = [
    ("--ray-address 127.0.0.1:<refused>", unreachable),
    ("--ray-address headnode (no port)", malformed),
    ("Ctrl+C to the CLI while Ray waits", _stopped("cli", signal.SIGINT)),
    ("SIGTERM to the CLI while Ray waits", _stopped("cli", signal.SIGTERM)),
    ("SIGHUP to the CLI while Ray waits", _stopped("cli", signal.SIGHUP)),
    ("SIGKILL to the CLI while Ray waits", _stopped("cli", signal.SIGKILL)),
    ("SIGTERM to the tune worker while Ray waits", _stopped("worker", signal.SIGTERM)),
    ("a killed worker's ysray-* folder", killed_workers_ray_folder),
]


def tune(data: Path, ws: Path, work: Path, env: dict[str, str], tools: ModuleType) -> dict[str, Any]:
    if os.name != "posix":
        return {"tune cases skipped": len(CASES)}
    return run_cases(CASES, "tune", data, ws, work, env, tools)
