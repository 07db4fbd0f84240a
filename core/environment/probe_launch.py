"""The probe job from the launcher's side: its spec, its step words, and its events folded into facts.

``ProbeCollector`` is the pure part shared by the CLI (``yolostudio doctor``, through ``cli.jobs.run_job``)
and the GUI (the Environment page, through ``gui.job_runner.JobRunner``): it keeps the latest ``facts``
event and the step in progress, and at the end turns the job's ``JobOutcome`` into the facts with
``probe`` filled in — completed, failed, or killed after ``PROBE_TIMEOUT_S`` in the step that hung (a
wedged driver must never hang the app or the terminal).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.environment.facts import EnvironmentFacts, ProbeInfo, facts_from_dict
from core.i18n import tr
from core.job.jobs import JobOutcome, JobSpec

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


def probe_job(workspace: Path, data: str | None = None, imgsz: int = 640, read_budget_s: float = 2.0) -> JobSpec:
    """The probe as a job: a private spec file each time (the GUI and a terminal may probe at once)."""
    return JobSpec.scratch("probe", probe_spec(workspace, data, imgsz, read_budget_s), workspace)


def step_text(step: str | None) -> str:
    return tr(STEP_WORDS.get(step or "", "Checking…"))


class ProbeCollector:
    def __init__(self) -> None:
        self.step: str | None = None
        self.index = 0
        self.count = 4  # core.worker.probe_job.STEPS
        self.facts_raw: dict[str, Any] | None = None
        self.final = False
        self.error: str | None = None

    def feed(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "probe_step":
            self.step = event.get("step")
            self.index, self.count = int(event.get("index", 0)), int(event.get("count", self.count))
        elif kind == "facts" and isinstance(event.get("facts"), dict):
            self.facts_raw = event["facts"]
            self.final = bool(event.get("final"))
        elif kind == "error":
            self.error = str(event.get("message") or "")

    def result(self, outcome: JobOutcome, detail: str = "") -> tuple[EnvironmentFacts, list[str]]:
        """The facts gathered, with ``probe`` saying how the probe ended; and any problems with them.

        ``detail`` is the launcher's own word on a failure (the probe's last stderr line, "cancelled")."""
        if self.facts_raw is not None:
            facts, notes = facts_from_dict(self.facts_raw)
        else:
            facts, notes = EnvironmentFacts(), []
        probe = facts.probe if self.facts_raw is not None else ProbeInfo()
        if outcome.timed_out_s is not None:
            probe.completed, probe.timed_out, probe.timeout_s, probe.hung_at = (False, True, outcome.timed_out_s,
                                                                                self.step)
        elif not self.final or outcome.failed:
            probe.completed = False
            probe.error = self.error or detail or outcome.message or tr("the probe exited with code {code}",
                                                                        code=outcome.exit_code)
        facts.probe = probe
        if not self.final and self.facts_raw is None:
            notes = []  # nothing was read: the probe finding says why; field-by-field notes would be noise
        return facts, notes
