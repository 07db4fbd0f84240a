"""Starting the probe worker and folding its events into facts — with a hard time limit.

``ProbeCollector`` is the pure part shared by the CLI (``run_probe_process``, a plain subprocess) and
the GUI (``gui/pages/environment_page.py``, a QProcess): it keeps the latest ``facts`` event and the step
in progress, and at the end returns the facts with ``probe`` filled in — completed, failed, or killed
after ``timeout_s`` in the step that hung (a wedged driver must never hang the app or the terminal).
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable

from core.environment.facts import EnvironmentFacts, ProbeInfo, facts_from_dict
from core.i18n import tr
from core.launch import worker_argv, worker_env
from core.protocol import LineDecoder
from core.workspace import app_cache_dir

#: Seconds before a probe is considered hung and killed. torch's import alone can take 20-30 s on a cold
#: disk, and CUDA initialisation several seconds per GPU; a healthy probe stays far below this.
PROBE_TIMEOUT_S = 120.0
STEP_WORDS = {"system": "Reading the system…", "nvml": "Asking the GPU driver (NVML)…",
              "disks": "Timing the disks…", "torch": "Importing PyTorch…", "cuda": "Testing CUDA on each GPU…"}


def probe_spec(workspace: Path, data: str | None = None, imgsz: int = 640,
               read_budget_s: float = 2.0) -> dict[str, Any]:
    spec: dict[str, Any] = {"workspace": str(workspace), "imgsz": imgsz, "read_budget_s": read_budget_s}
    if data:
        spec["data"] = str(Path(data).expanduser().resolve())
    return spec


def write_probe_spec(workspace: Path, spec: dict[str, Any]) -> Path:
    """A spec file of its own for each probe (the GUI and a terminal may probe at the same time)."""
    folder = app_cache_dir(workspace) / "probe"
    folder.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix="spec-", suffix=".json", dir=folder)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(spec, handle, indent=2)
    return Path(name)


def step_text(step: str | None) -> str:
    return tr(STEP_WORDS.get(step or "", "Checking…"))


class ProbeCollector:
    def __init__(self) -> None:
        self.step: str | None = None
        self.index = 0
        self.count = 5
        self.facts_raw: dict[str, Any] | None = None
        self.final = False
        self.error: str | None = None

    def feed(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "probe_step":
            self.step = event.get("step")
            self.index, self.count = int(event.get("index", 0)), int(event.get("count", 5))
        elif kind == "facts" and isinstance(event.get("facts"), dict):
            self.facts_raw = event["facts"]
            self.final = bool(event.get("final"))
        elif kind == "error":
            self.error = str(event.get("message") or "")

    def result(self, *, timed_out: bool = False, timeout_s: float | None = None, exit_code: int | None = 0,
               detail: str = "") -> tuple[EnvironmentFacts, list[str]]:
        """The facts gathered, with ``probe`` saying how the probe ended; and any problems with them."""
        if self.facts_raw is not None:
            facts, notes = facts_from_dict(self.facts_raw)
        else:
            facts, notes = EnvironmentFacts(), []
        probe = facts.probe if self.facts_raw is not None else ProbeInfo()
        if timed_out:
            probe.completed, probe.timed_out, probe.timeout_s, probe.hung_at = False, True, timeout_s, self.step
        elif not self.final or exit_code not in (0, None):
            probe.completed = False
            probe.error = self.error or detail or tr("the probe exited with code {code}", code=exit_code)
        facts.probe = probe
        if not self.final and self.facts_raw is None:
            notes = []  # nothing was read: the probe finding says why; field-by-field notes would be noise
        return facts, notes


STDERR_DRAIN_S = 10.0


def run_probe_process(spec_file: Path, *, timeout_s: float = PROBE_TIMEOUT_S, argv: list[str] | None = None,
                      on_event: Callable[[dict[str, Any]], None] | None = None) -> tuple[EnvironmentFacts, list[str]]:
    """Run the probe worker (or ``argv``), feeding its events to ``on_event``; kill it after ``timeout_s``."""
    collector = ProbeCollector()
    lines: queue.Queue[bytes | None] = queue.Queue()
    proc = subprocess.Popen(argv or worker_argv("probe", spec_file), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=worker_env())
    assert proc.stdout is not None and proc.stderr is not None
    stderr_tail: list[str] = []

    def pump_stdout() -> None:
        assert proc.stdout is not None
        for chunk in iter(lambda: proc.stdout.read1(65536), b""):  # type: ignore[union-attr]
            lines.put(chunk)
        lines.put(None)

    def pump_stderr() -> None:
        assert proc.stderr is not None
        for raw in proc.stderr:
            stderr_tail.append(raw.decode("utf-8", errors="replace").rstrip())
            del stderr_tail[:-20]

    threading.Thread(target=pump_stdout, name="probe-stdout", daemon=True).start()
    stderr_reader = threading.Thread(target=pump_stderr, name="probe-stderr", daemon=True)
    stderr_reader.start()
    decoder = LineDecoder()
    deadline = time.monotonic() + timeout_s
    timed_out = False
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            timed_out = True
            proc.kill()
            break
        try:
            chunk = lines.get(timeout=min(remaining, 0.5))
        except queue.Empty:
            continue
        decoded = decoder.feed(chunk) if chunk is not None else decoder.flush()
        for item in decoded:
            if item.event is not None:
                collector.feed(item.event)
                if on_event is not None:
                    on_event(item.event)
        if chunk is None:
            break
    code = proc.wait()
    # The process has ended, so its stderr reaches EOF at once; wait for the reader to take the last line (the
    # crash's own words), which on a busy machine it may not have done yet. Bounded: a grandchild that kept
    # the pipe open must not hang the check.
    stderr_reader.join(timeout=STDERR_DRAIN_S)
    detail = stderr_tail[-1] if stderr_tail else ""
    return collector.result(timed_out=timed_out, timeout_s=timeout_s, exit_code=None if timed_out else code,
                            detail=detail)
