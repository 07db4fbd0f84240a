"""One rank of a DDP run under ``torch.distributed.run``: who it is, the check that every node agrees, and
the per-batch exchange that carries the stop decision and every rank's timing to rank 0.

``torch.distributed.run`` starts the same worker job once per rank (``RANK``, ``LOCAL_RANK``,
``WORLD_SIZE``, ``GROUP_RANK`` = the node in its environment). yolov5 runs its hooks on rank 0 only, so
what the app needs from every rank travels over a small gloo process group of its own (CPU tensors: no GPU
synchronisation on an NCCL run):

- ``check_nodes_agree`` — after the process group starts and before training, every rank gathers every
  rank's ``fingerprint`` (data.yaml content, image/label counts, yolov5/torch versions, host, pid); every
  rank computes the same verdict, so all refuse together, naming the node that differs.
- ``RankExchange.at_batch_start`` — one ``all_gather`` of three numbers per batch: "stop wanted", the data
  wait of this batch and the step time of the previous one. Any rank's stop stops every rank before the same
  batch (rank 0 saves one ``last.pt``); rank 0 sums each rank's figures for the ``batch`` event's ``ranks``.
- ``LoaderClock`` — times each rank's own waits for its data loader (yolov5 calls no hook after a batch on the
  other ranks, so the loader's iterator is what is timed).
- ``core/worker/lost_rank.py`` — which rank died, from the pids gathered at start (same host) or the lost
  connection, and this rank's launcher's signals.
"""

from __future__ import annotations

import hashlib
import logging
import os
import socket
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from core.i18n import tr
from core.run.folder import RunFolder

#: What a rank notes and carries on after (to stderr: the run's worker.log, or worker.rankN.log).
log = logging.getLogger("yolostudio.worker.ddp")


@dataclass(frozen=True)
class RankInfo:
    """This process's place in the run, from torchrun's environment variables."""

    rank: int
    local_rank: int
    world_size: int
    node_rank: int
    nnodes: int
    local_world_size: int

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> RankInfo | None:
        """None when this process was not started by ``torch.distributed.run``."""
        env = dict(os.environ if env is None else env)
        if "RANK" not in env or "WORLD_SIZE" not in env or "LOCAL_RANK" not in env:
            return None
        world = int(env["WORLD_SIZE"])
        local_world = int(env.get("LOCAL_WORLD_SIZE", world))
        return cls(rank=int(env["RANK"]), local_rank=int(env["LOCAL_RANK"]), world_size=world,
                   node_rank=int(env.get("GROUP_RANK", 0)),
                   nnodes=int(env.get("GROUP_WORLD_SIZE", max(1, world // max(1, local_world)))),
                   local_world_size=local_world)

    @property
    def writes_events(self) -> bool:
        """Rank 0 writes the run's events; the first rank of every other node writes that node's short record."""
        return self.local_rank == 0

    @property
    def topology(self) -> dict[str, int]:
        return {"nnodes": self.nnodes, "nproc_per_node": self.local_world_size, "world_size": self.world_size}


class RankStop(Exception):
    """Every rank agreed to stop before the current batch (raised out of yolov5's loop on every rank)."""


# -- the check before training ------------------------------------------------------------------------------
def _file_sha256(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as exc:
        log.warning("%s cannot be read to compare it across machines (%s)", path, exc)
        return None


def dataset_counts(data_yaml: Path) -> dict[str, dict[str, int]]:
    """Images and label files per split, listed by the validator's own rules (``core.dataset.files``)."""
    from core.dataset.data_yaml import read_data_yaml
    from core.dataset.files import label_path_for, list_split

    judged = read_data_yaml(data_yaml)
    counts: dict[str, dict[str, int]] = {}
    if judged.spec is None:
        return counts
    for name, split in sorted(judged.spec.splits.items()):
        images = list_split(split, str(data_yaml)).images
        counts[name] = {"images": len(images), "labels": sum(os.path.isfile(label_path_for(i)) for i in images)}
    return counts


def fingerprint(info: RankInfo, data_yaml: Path, versions: dict[str, Any], node: int | None = None) -> dict[str, Any]:
    """What every node must have in common, and who this rank is (host and pid, to name a lost rank).

    ``node``: the machine's rank as the user numbered it (c10d's rendezvous numbers nodes in its own order)."""
    return {"rank": info.rank, "node": info.node_rank if node is None else node, "host": socket.gethostname(),
            "pid": os.getpid(),
            "data_sha256": _file_sha256(data_yaml), "counts": dataset_counts(data_yaml),
            "versions": {k: versions.get(k) for k in ("yolov5", "torch")}}


def share_checkpoint(group: Any, info: RankInfo, peers: list[dict[str, Any]], last: Path) -> None:
    """Resuming on several machines: a machine whose run folder lacks ``last.pt`` (only rank 0 saves) gets rank 0's
    over the process group before yolov5 loads it on every rank."""
    import torch.distributed as dist

    from core.atomic import atomic_write_bytes

    if not any(p.get("needs_checkpoint") for p in peers):
        return
    payload = [last.read_bytes() if info.rank == 0 else None]
    dist.broadcast_object_list(payload, src=0, group=group)
    if info.local_rank == 0 and not last.is_file():
        last.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(last, payload[0], backup=False)
        from core.worker.compat import record_written

        record_written(last.resolve())  # rank 0's checkpoint of this run: this machine's own from now on
    dist.barrier(group=group)


def disagreements(prints: list[dict[str, Any]]) -> list[str]:
    """One sentence per node whose dataset or versions differ from node 0's (pure; every rank computes it)."""
    reference = min(prints, key=lambda p: p["rank"])
    out: list[str] = []
    seen_nodes: set[int] = set()
    for other in sorted(prints, key=lambda p: p["rank"]):
        if other["node"] in seen_nodes or other["node"] == reference["node"]:
            continue
        seen_nodes.add(other["node"])
        where = tr("node {node} ({host})", node=other["node"], host=other["host"])
        if other["versions"] != reference["versions"]:
            out.append(tr("{where} has yolov5 {yolov5} / torch {torch}; node 0 has yolov5 {ref_yolov5} / torch "
                          "{ref_torch}.", where=where, yolov5=other["versions"]["yolov5"],
                          torch=other["versions"]["torch"], ref_yolov5=reference["versions"]["yolov5"],
                          ref_torch=reference["versions"]["torch"]))
        if other["data_sha256"] != reference["data_sha256"]:
            out.append(tr("{where} has a different data.yaml (its content differs from node 0's).", where=where))
        elif other["counts"] != reference["counts"]:
            out.append(tr("{where} sees {counts}; node 0 sees {ref_counts}.", where=where,
                          counts=_counts_text(other["counts"]), ref_counts=_counts_text(reference["counts"])))
    return out


def _counts_text(counts: dict[str, dict[str, int]]) -> str:
    return ", ".join(f"{split}: {c['images']} images / {c['labels']} labels" for split, c in counts.items())


def start_process_group(device_text: str) -> Any:
    """Start the default process group (NCCL on GPUs, gloo on the CPU, as yolov5 would) and the app's own gloo
    group; returns the gloo group. yolov5's ``main`` then finds the group started (``compat_ddp.ddp_device``)."""
    import torch
    import torch.distributed as dist

    from core.worker.compat_ddp import ddp_device

    wants_gpu = device_text.strip().lower() != "cpu" and torch.cuda.is_available()
    ddp_device(torch.device("cuda" if wants_gpu else "cpu"))
    return dist.new_group(backend="gloo") if dist.get_backend() != "gloo" else dist.group.WORLD


def check_nodes_agree(group: Any, mine: dict[str, Any]) -> list[dict[str, Any]]:
    """Every rank's fingerprint (rank order); raises ``JobError`` on every rank when nodes differ."""
    import torch.distributed as dist

    from core.worker.job import JobError

    prints: list[Any] = [None] * dist.get_world_size()
    dist.all_gather_object(prints, mine, group=group)
    problems = disagreements(prints)
    if problems:
        raise JobError("distributed", tr("The nodes don't train on the same thing: {problems}",
                                         problems=" ".join(problems)),
                       tr("Copy the same dataset (same data.yaml, images and labels) and install the same yolov5 "
                          "and torch on every node, then start the run again on all of them."))
    return sorted(prints, key=lambda p: p["rank"])


def join_ranks(ctx: Any) -> RankExchange:
    """A training job's DDP start (``ctx``: its ``JobContext``): the process group, the check that every node
    trains on the same thing, machine 0's checkpoint for a resuming machine without one, and the exchange."""
    from core.worker.stack import versions as stack_versions

    info = RankInfo.from_env()
    assert info is not None
    ctx.emit("stage", stage="joining", detail=tr("rank {rank} of {world} on node {node}", rank=info.rank,
                                                 world=info.world_size, node=info.node_rank))
    group = start_process_group(str(ctx.spec.get("config", {}).get("device", "")))
    versions = (ctx.hello or {}).get("versions") or stack_versions()
    mine = fingerprint(info, Path(ctx.spec["config"]["data"]), versions,
                       node=int(ctx.spec["config"].get("node_rank", info.node_rank)))
    last = RunFolder(ctx.spec["run_dir"]).last_pt
    mine["needs_checkpoint"] = bool(ctx.spec.get("resume")) and info.local_rank == 0 and not last.is_file()
    peers = check_nodes_agree(group, mine)
    share_checkpoint(group, info, peers, last)
    ctx.emit("stage", stage="ranks_ready", ranks=[{k: p[k] for k in ("rank", "node", "host", "pid")} for p in peers])
    return RankExchange.over(group, info, peers)


# -- every batch --------------------------------------------------------------------------------------------
class LoaderClock:
    """Times one rank's waits for its data loader by wrapping the loader's iterator.

    ``wait_s`` of a batch: the time ``next()`` took; ``step_s`` of a batch: from its data's arrival to the next
    ``next()`` call (the forward, backward and optimizer step — and, under DDP, the wait for the other ranks)."""

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self.clock = clock
        self._ready: float | None = None
        self.last_wait_s = 0.0
        self.pending_step_s = 0.0

    def wrap(self, loader: Any) -> None:
        """Time ``loader``'s batches from now on (its class becomes a timed subclass; idempotent)."""
        cls = type(loader)
        if getattr(cls, "_yolostudio_timed", False):
            return
        clock = self

        def __iter__(inner: Any) -> Iterator[Any]:  # noqa: N807 - the iterator protocol's name
            return clock.timed(cls.__iter__(inner))

        loader.__class__ = type(f"Timed{cls.__name__}", (cls,), {"__iter__": __iter__, "_yolostudio_timed": True})

    def timed(self, batches: Iterator[Any]) -> Iterator[Any]:
        while True:
            asked = self.clock()
            if self._ready is not None:
                self.pending_step_s += asked - self._ready
                self._ready = None
            try:
                item = next(batches)
            except StopIteration:
                return
            self._ready = self.clock()
            self.last_wait_s = self._ready - asked
            yield item

    def take(self) -> tuple[float, float]:
        """(this batch's data wait, the step time finished since the last call)."""
        step, self.pending_step_s = self.pending_step_s, 0.0
        return self.last_wait_s, step


@dataclass
class RankSums:
    batches: int = 0
    data_wait_s: float = 0.0
    step_s: float = 0.0


@dataclass
class RankExchange:
    """The per-batch ``all_gather`` over the app's gloo group; ``gather`` is injectable for tests."""

    info: RankInfo
    peers: list[dict[str, Any]]
    gather: Callable[[list[float]], list[list[float]]]
    window: list[RankSums] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.window = [RankSums() for _ in range(self.info.world_size)]

    @classmethod
    def over(cls, group: Any, info: RankInfo, peers: list[dict[str, Any]]) -> RankExchange:
        import torch
        import torch.distributed as dist

        def gather(values: list[float]) -> list[list[float]]:
            mine = torch.tensor(values, dtype=torch.float64)
            out = [torch.zeros_like(mine) for _ in range(info.world_size)]
            dist.all_gather(out, mine, group=group)
            return [t.tolist() for t in out]

        return cls(info, peers, gather)

    def at_batch_start(self, stop_wanted: bool, wait_s: float, step_s: float) -> bool:
        """Share this rank's figures; True when any rank wants to stop (every rank gets the same answer)."""
        rows = self.gather([1.0 if stop_wanted else 0.0, wait_s, step_s])
        for sums, (_stop, wait, step) in zip(self.window, rows):
            sums.batches += 1
            sums.data_wait_s += wait
            sums.step_s += step
        return any(row[0] > 0 for row in rows)

    def take_window(self) -> list[dict[str, Any]]:
        """Each rank's sums since the previous call (the ``ranks`` of a ``batch`` event), then a fresh window."""
        out = []
        for rank, sums in enumerate(self.window):
            peer = self.peers[rank] if rank < len(self.peers) else {}
            total = sums.data_wait_s + sums.step_s
            out.append({"rank": rank, "node": peer.get("node"), "host": peer.get("host"), "batches": sums.batches,
                        "data_wait_s": round(sums.data_wait_s, 6), "step_s": round(sums.step_s, 6),
                        "data_wait_share": sums.data_wait_s / total if total > 0 else None})
        self.window = [RankSums() for _ in range(self.info.world_size)]
        return out


def leave_process_group() -> None:
    try:
        import torch.distributed as dist

        if dist.is_initialized():
            dist.destroy_process_group()
    except Exception:  # noqa: BLE001 - a peer already gone must not turn a report into a traceback
        log.warning("the process group did not close cleanly (a peer may be gone already)", exc_info=True)
