"""What this side remembers of a machine's GPUs: its last doctor report's facts, kept so the Train page checks a run
bound there on that machine's GPUs (``--device 0,1`` on a GPU server, from a laptop without one).

Written by ``machine check`` (both faces) to ``.cache/remote/machines/NAME.facts.json``; read back as the
``MachineFacts`` the option rules take (``core.training.config.validate_config``). None when the machine was never
checked: the face says so. The run itself is checked again there, on its live facts, by its own door.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from core.atomic import atomic_write_text
from core.environment.facts import EnvironmentFacts, facts_from_dict
from core.environment.machine import NO_DRIVER, MachineFacts
from core.remote.machines import Machine
from core.workspace import app_cache_dir


def facts_path(workspace: Path, name: str) -> Path:
    return app_cache_dir(Path(workspace)) / "remote" / "machines" / f"{name}.facts.json"


def remember_facts(workspace: Path, machine: Machine, raw: dict[str, Any] | None) -> None:
    """Keep the doctor's report of ``machine`` (the JSON it printed there)."""
    if not isinstance(raw, dict):
        return
    path = facts_path(workspace, machine.name)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(raw), backup=False)


def machine_facts(facts: EnvironmentFacts) -> MachineFacts:
    """The option rules' view of a doctor report: its GPUs (NVML's), their memory and capability, its cores."""
    gpus = facts.nvml.gpus if facts.nvml.available else []
    return MachineFacts(
        gpu_count=len(gpus) if facts.nvml.available else (0 if facts.nvml.error in NO_DRIVER else None),
        gpu_names=tuple(g.name or "" for g in gpus),
        gpu_capabilities=tuple(tuple(g.capability[:2]) if g.capability and len(g.capability) >= 2 else None
                               for g in gpus),  # type: ignore[misc]
        nvml_error=facts.nvml.error,
        gpu_memory=tuple((g.memory_used_gb, g.memory_total_gb) if g.memory_total_gb is not None
                         and g.memory_used_gb is not None else None for g in gpus),
        cpu_count=facts.system.usable_cores or facts.system.logical_cores)


def remembered_facts(workspace: Path, name: str) -> MachineFacts | None:
    """The machine's GPUs as its last check found them; None when it was never checked (or the file is bad)."""
    try:
        raw = json.loads(facts_path(workspace, name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    facts, _ = facts_from_dict(raw)
    return machine_facts(facts)
