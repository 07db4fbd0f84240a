"""Training on several GPUs or machines: a ``TrainConfig``'s topology, its rules, and the commands for the others.

Pure (no torch, no sockets except in ``check_endpoint``/``port_free``, which the launcher calls just before
starting). A config trains *distributed* — through ``torch.distributed.run`` (``core.job.torchrun``), one
worker per rank, DDP, never DataParallel — when it names several GPUs, several machines, or asks for
processes per machine explicitly (``--nproc-per-node 1`` is single-rank DDP: the launcher path on one GPU).

``check_distributed`` holds the rules checked before a launch (``core.training.config.validate_config`` calls
it): the total batch divisible by the ranks, no AutoBatch, a GPU named twice, a rank per GPU, workers per
rank against the CPU cores, GPUs busy with other processes' memory, the several-machines fields; and
offers ``--sync-bn`` when each GPU gets 8 images or fewer (``docs/facts/gpu-environment.md`` §4, §6).

The rendezvous (docs/architecture.md, "Security rules"): one machine meets on 127.0.0.1 only
(``core.worker.rdzv_launch``); several machines meet under an unguessable run id (``new_run_id``, shown in the
other machines' commands), and a meeting point read from a file is used only once the user gives it
(``unconfirmed_endpoints``): torch's c10d rendezvous unpickles the state the endpoint serves.
"""

from __future__ import annotations

import secrets
import shlex
import socket
import time
from dataclasses import replace
from typing import Any, Callable

from core.findings import Finding, problem
from core.i18n import tr
from core.environment.machine import MachineFacts, parse_device
from core.job.torchrun import Topology
from core.training.options import AUTO_BATCH, TrainConfig, changed_cli_flags, train_options

#: Below this share of a GPU's memory free, a launch on it is refused (other processes hold the rest).
MIN_FREE_SHARE = 0.2
#: From this share of a GPU's memory used by other processes on, a launch says so.
BUSY_SHARE = 0.1
#: Each GPU's batch at or below which yolov5's docs advise SyncBatchNorm.
SYNC_BN_BATCH = 8
#: The endpoint check of a node that joins: connection attempts until this many seconds have passed.
ENDPOINT_WAIT_S = 45.0
#: Random bytes in a several-machines run id: 128 bits, as ``secrets`` advises for tokens.
RUN_ID_BYTES = 16
#: The run id of a run on one machine: its rendezvous is on 127.0.0.1 only, so the name guards nothing.
LOCAL_RUN_ID = "yolostudio-local"
#: The options that name another machine this one connects to (the c10d rendezvous, the static master).
ENDPOINT_FIELDS = ("rdzv_endpoint", "master_addr")


def gpu_list(cfg: TrainConfig) -> list[int] | None:
    """The GPUs named by the device field (None: CPU or automatic); raises ValueError when malformed."""
    return parse_device(cfg.device)


def is_distributed(cfg: TrainConfig) -> bool:
    try:
        gpus = gpu_list(cfg) or []
    except ValueError:
        gpus = []
    return cfg.nproc_per_node > 0 or cfg.nnodes > 1 or len(gpus) > 1


def topology_of(cfg: TrainConfig) -> Topology | None:
    """Where the ranks of this run go; None for a plain single-process run."""
    if not is_distributed(cfg):
        return None
    try:
        gpus = gpu_list(cfg) or []
    except ValueError:
        gpus = []
    nproc = cfg.nproc_per_node or max(1, len(gpus))
    return Topology(nproc_per_node=nproc, nnodes=cfg.nnodes, node_rank=cfg.node_rank,
                    master_addr=cfg.master_addr.strip(), master_port=cfg.master_port,
                    rdzv_endpoint=cfg.rdzv_endpoint.strip(), rdzv_id=cfg.rdzv_id.strip() or LOCAL_RUN_ID)


def new_run_id() -> str:
    """An unguessable rendezvous id (not derived from the run name, so no one can predict the store's key)."""
    return secrets.token_hex(RUN_ID_BYTES)


def needs_run_id(cfg: TrainConfig) -> bool:
    """Machine 0 of a c10d several-machines run without an id yet (the others must be given machine 0's)."""
    return cfg.nnodes > 1 and bool(cfg.rdzv_endpoint.strip()) and not cfg.rdzv_id.strip() and cfg.node_rank == 0


def with_run_id(cfg: TrainConfig, make: Callable[[], str] = new_run_id) -> TrainConfig:
    """``cfg`` with a fresh run id where ``needs_run_id``; else ``cfg`` itself."""
    return replace(cfg, rdzv_id=make()) if needs_run_id(cfg) else cfg


def unconfirmed_endpoints(from_file: TrainConfig | None, given: set[str], source: str) -> list[Finding]:
    """An error per meeting point (``ENDPOINT_FIELDS``) that ``from_file`` names and the user did not give
    themselves (``given``: the options typed on the command line): a file must not make this machine connect
    somewhere — the c10d rendezvous unpickles the state that address serves."""
    if from_file is None:
        return []
    flags = {opt.name: opt.cli_flags[0] for opt in train_options()}
    out = []
    for name in ENDPOINT_FIELDS:
        value = str(getattr(from_file, name) or "").strip()
        if not value or name in given:
            continue
        out.append(problem("error", name, tr("{source} names the meeting point {name} = {value}; a run connects to "
                                             "one only when you give it yourself (PyTorch's rendezvous unpickles "
                                             "what that address serves: a hostile one runs code here).",
                                             source=source, name=name, value=value),
                           tr("If you trust {value}, give it on the command line: {flag} {value}.", value=value,
                              flag=flags[name])))
    return out


def topology_spec(cfg: TrainConfig) -> dict[str, Any] | None:
    """The topology as a worker spec keeps it (``core.job.launch`` builds the torchrun argv from it)."""
    topology = topology_of(cfg)
    return None if topology is None else dict(vars(topology))


def check_distributed(cfg: TrainConfig, facts: MachineFacts) -> list[Finding]:
    """The rules of a distributed launch, each with its reason and fix; [] for a single-process run."""
    out: list[Finding] = []
    try:
        gpus = gpu_list(cfg) or []
    except ValueError:
        return out  # the device check says what is wrong with it
    twice = sorted({g for g in gpus if gpus.count(g) > 1})
    if twice:
        out.append(problem("error", "device", tr("GPU {gpus} is listed more than once in Device ({value}).",
                                                 gpus=",".join(map(str, twice)), value=cfg.device),
                           tr("Name each GPU once, e.g. {fixed}.", fixed=",".join(map(str, dict.fromkeys(gpus))))))
    topology = topology_of(cfg)
    if topology is None:
        return out
    world = topology.world_size
    if cfg.batch == AUTO_BATCH:
        out.append(problem("error", "batch", tr("Automatic batch size (-1) does not work with several processes "
                                                "(yolov5 sizes it for one GPU only)."),
                           tr("Set a batch size that is a multiple of {world} (the number of processes).",
                              world=world)))
    elif cfg.batch > 0 and cfg.batch % world:
        lower, upper = cfg.batch // world * world, (cfg.batch // world + 1) * world
        out.append(problem("error", "batch", tr("Batch {batch} cannot be split evenly between {world} processes.",
                                                batch=cfg.batch, world=world),
                           tr("Use a batch that is a multiple of {world}: {suggestions}.", world=world,
                              suggestions=" or ".join(str(b) for b in (lower, upper) if b > 0))))
    elif cfg.batch > 0 and gpus and cfg.batch // world <= SYNC_BN_BATCH and not cfg.sync_bn:
        out.append(problem("info", "sync_bn", tr("Each GPU gets {per_gpu} images per step: BatchNorm statistics "
                                                 "from so few images are noisy.", per_gpu=cfg.batch // world),
                           tr("Turn on Synchronised BatchNorm (--sync-bn), or use a larger batch.")))
    if gpus and topology.nproc_per_node > len(gpus):
        out.append(problem("error", "nproc_per_node",
                           tr("{nproc} processes per machine but Device names {count} GPU(s): each process needs a "
                              "GPU of its own.", nproc=topology.nproc_per_node, count=len(gpus)),
                           tr("Name as many GPUs as processes, or set processes per machine to 0 (one per GPU).")))
    if facts.cpu_count and cfg.workers * topology.nproc_per_node > facts.cpu_count:
        out.append(problem("warning", "workers",
                           tr("Workers are per process: {nproc} processes x {workers} workers = {total} loader "
                              "processes for {cores} CPU cores.", nproc=topology.nproc_per_node,
                              workers=cfg.workers, total=cfg.workers * topology.nproc_per_node,
                              cores=facts.cpu_count),
                           tr("Use about {per_rank} workers (the cores divided by the processes).",
                              per_rank=max(1, facts.cpu_count // topology.nproc_per_node))))
    out += _busy_gpus(gpus, facts)
    out += _several_machines(cfg)
    return out


def _busy_gpus(gpus: list[int], facts: MachineFacts) -> list[Finding]:
    out: list[Finding] = []
    for index in gpus:
        memory = facts.gpu_memory[index] if index < len(facts.gpu_memory) else None
        if memory is None or not memory[1]:
            continue
        used, total = memory
        free_share = (total - used) / total
        words = dict(gpu=index, used=f"{used:.1f}", total=f"{total:.1f}")
        if free_share < MIN_FREE_SHARE:
            out.append(problem("error", "device", tr("GPU {gpu} is busy: other processes use {used} of its {total} "
                                                     "GB.", **words),
                               tr("Pick another GPU, or end what runs on it (nvidia-smi lists the processes).")))
        elif 1 - free_share >= BUSY_SHARE:
            out.append(problem("warning", "device", tr("GPU {gpu} is shared: other processes use {used} of its "
                                                       "{total} GB, which this run cannot have.", **words),
                               tr("Expect a smaller batch to fit, or pick a free GPU.")))
    return out


def _several_machines(cfg: TrainConfig) -> list[Finding]:
    out: list[Finding] = []
    if cfg.node_rank >= cfg.nnodes:
        out.append(problem("error", "node_rank", tr("Machine rank {rank} but only {nnodes} machine(s).",
                                                    rank=cfg.node_rank, nnodes=cfg.nnodes),
                           tr("Number the machines 0 to {last}.", last=cfg.nnodes - 1)))
    if cfg.rdzv_endpoint.strip() and split_endpoint(cfg.rdzv_endpoint) is None:
        out.append(problem("error", "rdzv_endpoint", tr("Rendezvous {value!r} is not HOST:PORT.",
                                                        value=cfg.rdzv_endpoint),
                           tr("Give the leading machine's address and a free port, e.g. 10.0.0.1:29400.")))
    if cfg.nnodes > 1 and cfg.rdzv_endpoint.strip() and cfg.node_rank > 0 and not cfg.rdzv_id.strip():
        out.append(problem("error", "rdzv_id", tr("Machine {rank} needs the run id of machine 0.", rank=cfg.node_rank),
                           tr("Use the command machine 0 printed for this machine (it has --rdzv-id).")))
    if cfg.nnodes > 1 and not cfg.rdzv_endpoint.strip() and not cfg.master_addr.strip():
        out.append(problem("error", "rdzv_endpoint", tr("Several machines need a meeting point."),
                           tr("Give --rdzv-endpoint HOST:PORT (or --master-addr and --master-port) of machine 0, "
                              "the same on every machine.")))
    return out


def split_endpoint(text: str) -> tuple[str, int] | None:
    host, sep, port = text.strip().rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        return None
    return host.strip("[]"), int(port)


# -- the other machines ------------------------------------------------------------------------------------
def _cli_flags(cfg: TrainConfig) -> list[str]:
    """``yolostudio train`` flags for every option that differs from its default (the data.yaml first)."""
    return [cfg.data, *changed_cli_flags(lambda name, default: getattr(cfg, name))]


def node_command(cfg: TrainConfig, node_rank: int, program: str = "yolostudio") -> list[str]:
    """The ``yolostudio train`` command machine ``node_rank`` runs (same options, its own rank); it works the
    same under ``nohup`` or in a container with the dataset at the same path."""
    return [program, "train", *_cli_flags(replace(cfg, node_rank=node_rank))]


def other_node_commands(cfg: TrainConfig, program: str = "yolostudio") -> list[tuple[int, str]]:
    """(node rank, command line) for every machine except this one."""
    return [(rank, shlex.join(node_command(cfg, rank, program))) for rank in range(cfg.nnodes) if rank != cfg.node_rank]


def slurm_script(cfg: TrainConfig, program: str = "yolostudio", partition: str = "") -> str:
    """A Slurm batch script: one task per node (``srun``), each running this app's command with its node rank
    (``SLURM_NODEID``), meeting at the first node of the allocation."""
    topology = topology_of(replace(cfg, nnodes=max(cfg.nnodes, 1))) or Topology(nproc_per_node=1)
    port = split_endpoint(cfg.rdzv_endpoint)[1] if split_endpoint(cfg.rdzv_endpoint) else 29400
    flags = _cli_flags(replace(cfg, node_rank=0, rdzv_endpoint="HEAD:PORT", master_addr="", rdzv_id="RDZV_ID"))
    command = shlex.join([program, "train", *flags]).replace("HEAD:PORT", '"$HEAD:$PORT"')
    command = command.replace("RDZV_ID", '"$RDZV_ID"')
    command = command.replace("--node-rank 0", '--node-rank "$SLURM_NODEID"')
    if "--node-rank" not in command:
        command += ' --node-rank "$SLURM_NODEID"'
    lines = ["#!/bin/bash", f"#SBATCH --job-name={cfg.name or 'yolostudio'}", f"#SBATCH --nodes={cfg.nnodes}",
             "#SBATCH --ntasks-per-node=1", f"#SBATCH --cpus-per-task={max(1, (cfg.workers + 1) * topology.nproc_per_node)}"]
    try:
        gpus = len(gpu_list(cfg) or [])
    except ValueError:
        gpus = 0
    if gpus:
        lines.append(f"#SBATCH --gpus-per-node={gpus}")
    if partition:
        lines.append(f"#SBATCH --partition={partition}")
    lines += ["", "# The first node of the allocation hosts the rendezvous; every node runs one task.",
              'HEAD=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)', f"PORT={port}",
              "# An unguessable rendezvous id for this job, the same on every node (srun passes the environment).",
              "export RDZV_ID=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \\n')",
              f"srun --kill-on-bad-exit=1 bash -c '{command.replace(chr(39), chr(39) + chr(92) + chr(39) + chr(39))}'",
              ""]
    return "\n".join(lines)


# -- just before a launch ----------------------------------------------------------------------------------
def port_free(port: int, host: str = "") -> bool:
    """True when nothing on this machine holds ``port`` (bound, never listened on: the app opens no server)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def endpoint_answers(host: str, port: int, wait_s: float = ENDPOINT_WAIT_S, attempt_s: float = 3.0) -> bool:
    """True as soon as ``host:port`` accepts a connection; False after ``wait_s`` (node 0 not started yet, a
    firewall, a wrong address) — so a joining machine says so within a minute instead of hanging."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            with socket.create_connection((host, port), timeout=attempt_s):
                return True
        except OSError:
            if time.monotonic() + 1.0 >= deadline:
                return False
            time.sleep(1.0)


def launch_problems(cfg: TrainConfig) -> list[Finding]:
    """What only this machine can tell just before it starts its share: the leader's port taken (machine 0),
    or the meeting point not answering (the others)."""
    topology = topology_of(cfg)
    if topology is None or topology.nnodes == 1 and not topology.rdzv_endpoint:
        return []  # one machine: torchrun's standalone rendezvous picks a free port itself
    endpoint = split_endpoint(topology.rdzv_endpoint) if topology.rdzv_endpoint else (
        topology.master_addr, topology.master_port)
    if endpoint is None:
        return []
    host, port = endpoint
    if topology.node_rank == 0:
        if not port_free(port):
            return [problem("error", "rdzv_endpoint" if topology.rdzv_endpoint else "master_port",
                            tr("Port {port} is already in use on this machine (Address already in use).", port=port),
                            tr("Pick another port (e.g. {other}) and use the same one on every machine.",
                               other=port + 1))]
        return []
    if not endpoint_answers(host, port):
        return [problem("error", "rdzv_endpoint" if topology.rdzv_endpoint else "master_addr",
                        tr("Nothing answers at {host}:{port} after {seconds:.0f} s.", host=host, port=port,
                           seconds=ENDPOINT_WAIT_S),
                        tr("Start machine 0 first, and check the address and that the port is open between the "
                           "machines (firewall)."))]
    return []


# -- resuming ----------------------------------------------------------------------------------------------
#: What a resume may change: where the ranks run (another GPU count, a fresh meeting point), never what trains.
RESUME_CHANGES = ("device", "nproc_per_node", "rdzv_endpoint", "rdzv_id", "master_addr", "master_port")


def resume_with(spec: dict[str, Any], facts: MachineFacts, changes: dict[str, Any]) -> tuple[dict[str, Any],
                                                                                          list[Finding]]:
    """The worker spec of a resume on ``changes`` (``RESUME_CHANGES`` only; None = keep), its topology rebuilt and
    the launch rules checked again (a different GPU count must still split the batch evenly)."""
    cfg = TrainConfig.from_dict(spec.get("config", {}))
    kept = {k: v for k, v in changes.items() if k in RESUME_CHANGES and v is not None}
    cfg = with_run_id(replace(cfg, **kept))  # a run from before run ids: machine 0 makes one (resume_commands)
    problems = check_distributed(cfg, facts)
    return {**spec, "config": cfg.to_dict(), "topology": topology_spec(cfg)}, problems


def resume_commands(cfg: TrainConfig, run: str, program: str = "yolostudio") -> list[tuple[int, str]]:
    """(machine rank, command) with which every other machine resumes ``run`` alongside machine 0 (its meeting
    point and run id); [] on one machine, on a joining machine, or with a static master."""
    if cfg.nnodes < 2 or cfg.node_rank != 0 or not cfg.rdzv_endpoint.strip():
        return []
    argv = [program, "resume", run, "--rdzv-endpoint", cfg.rdzv_endpoint.strip(), "--rdzv-id", cfg.rdzv_id]
    return [(rank, shlex.join(argv)) for rank in range(1, cfg.nnodes)]
