"""The commands a recommendation offers to copy: ``yolostudio train``, plain ``yolov5 train``, a ``nohup`` line for
an SSH session, and for several GPUs or machines the torchrun lines (``core.job.torchrun``, the one builder).

Pure: the config (TrainConfig fields) and a place for the run give the argv; the yolov5 lines are built by
``core.training.config`` (``build_yolov5_command``, ``yolov5_module_argv``), so every flag is spelled as the
worker and yolov5 mean it.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

from core.training.distributed import new_run_id
from core.job.torchrun import DEFAULT_RDZV_PORT, Topology, node_commands, torchrun_argv
from core.environment.machine import MachineFacts
from core.model_catalog import builtin_hyp_path, builtin_model_path
from core.training.config import (ValidatedConfig, build_worker_spec, build_yolov5_command, validate_config,
                               yolov5_module_argv)
from core.training.options import TrainConfig, changed_cli_flags

MASTER_PLACEHOLDER = "MASTER_ADDR"


def yolostudio_train_argv(config: dict[str, Any], config_file: str | None = None) -> list[str]:
    """``yolostudio train --config FILE`` when the config is saved, else every option that differs from its default."""
    if config_file:
        return ["yolostudio", "train", "--config", config_file]
    return ["yolostudio", "train", str(config.get("data", "")), *changed_cli_flags(config.get)]


def _spec(config: dict[str, Any], run_dir: Path) -> dict[str, Any]:
    """A worker spec for command text only (no run folder is made): paths resolved as the Train check resolves
    them; when the config does not pass the check here (another machine's GPUs), as the config names them."""
    cfg = TrainConfig.from_dict(config)
    gpus = len([d for d in cfg.device.split(",") if d.strip().isdigit()])
    checked = validate_config(cfg, MachineFacts(gpu_count=gpus), run_dir.parent.parent)
    if not checked.ok:
        model = builtin_model_path(cfg.model) or (Path(cfg.model) if cfg.model.endswith((".yaml", ".yml")) else None)
        weights = cfg.weights or (cfg.model if cfg.model.endswith(".pt") else "")
        checked = ValidatedConfig(cfg, [], Path(cfg.data), model, Path(weights) if weights else None,
                                  builtin_hyp_path(cfg.hyp) or Path(cfg.hyp))
    return build_worker_spec(checked, run_dir, run_dir.parent.parent)


def commands(config: dict[str, Any], run_dir: Path, *, config_file: str | None = None, sync_bn: bool = False,
             nodes: int = 2, master_addr: str = MASTER_PLACEHOLDER) -> dict[str, Any]:
    """Every command to copy for ``config``: ``yolostudio``, ``yolov5``, ``nohup``; with several GPUs also
    ``torchrun`` (this machine) and ``nodes`` (one per machine, static master) and ``elastic`` (the same on each)."""
    studio = yolostudio_train_argv(config, config_file)
    spec = _spec(config, run_dir)
    out: dict[str, Any] = {
        "yolostudio": shlex.join(studio),
        "yolov5": shlex.join(build_yolov5_command(spec)),
        "nohup": f"nohup {shlex.join(studio)} > train.log 2>&1 &",
    }
    devices = [d for d in str(config.get("device", "")).split(",") if d.strip().isdigit()]
    if len(devices) > 1:
        entry = yolov5_module_argv(spec, {"sync_bn": True} if sync_bn else None)
        out["torchrun"] = shlex.join(torchrun_argv(entry, Topology(nproc_per_node=len(devices))))
        # yolov5's --batch-size is the total over every rank: the same batch per GPU on each machine.
        world = yolov5_module_argv(_spec({**config, "batch": int(config.get("batch", 16)) * nodes}, run_dir),
                                   {"sync_bn": True} if sync_bn else None)
        topology = Topology(nproc_per_node=len(devices), nnodes=nodes, master_addr=master_addr)
        out["nodes"] = [shlex.join(argv) for argv in node_commands(world, topology)]
        elastic = Topology(nproc_per_node=len(devices), nnodes=nodes,  # an unguessable id, never a fixed name
                           rdzv_endpoint=f"{master_addr}:{DEFAULT_RDZV_PORT}", rdzv_id=new_run_id())
        out["elastic"] = shlex.join(torchrun_argv(world, elastic))
    return out
