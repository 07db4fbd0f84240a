"""yolov5's own defaults as the wizard's baseline: never recommend something the measurements say is no faster.

yolov5 ``train.py`` trains on the original images with no cache and ``--workers 8``, which ``create_dataloader``
caps at ``min(cpu_count // ranks, batch)``. The wizard measured the original images' loader at each worker count,
so the defaults' rate is predicted with the same rule as every other choice (``rules.cpu_rate`` on a CPU, the
supply against the demand on a GPU). When the wizard's own pick is not at least ``DEFAULTS_MARGIN`` faster, it
keeps the defaults and says so (issue 36: on small images a prepared copy predicted 4% faster trained 12% slower).
"""

from __future__ import annotations

from core.wizard import tables as T
from core.wizard.inputs import Hardware, Measurements
from core.wizard.rules import cpu_rate


def default_workers(hw: Hardware, batch_per_rank: int) -> int:
    """The workers yolov5 uses with its default ``--workers 8`` (create_dataloader's cap)."""
    ranks = max(1, len(hw.gpus))
    return min(T.DEFAULT_WORKERS, max(0, hw.usable_cores // ranks), batch_per_rank if batch_per_rank > 1 else 0)


def defaults_rate(hw: Hardware, m: Measurements, batch_per_rank: int, demand: float) -> tuple[int, float] | None:
    """(workers, predicted images/s per rank) of yolov5's defaults, from the original images' measured loader;
    None when it was not measured."""
    supply = {w: r for w, r in m.loader.items() if r}
    if not supply or demand <= 0:
        return None
    workers = default_workers(hw, batch_per_rank)
    measured = max((w for w in supply if w <= workers), default=min(supply))
    if not hw.gpus:
        return workers, cpu_rate(supply, measured, demand, hw.usable_cores)
    return workers, min(supply[measured], demand)


def keep_defaults(pick: str, workers: int, rate: float, defaults: tuple[int, float] | None, on_gpu: bool) -> bool:
    """Whether the defaults win: the wizard's (``pick``, ``workers``) at ``rate`` is not ``DEFAULTS_MARGIN``
    faster. On a GPU the original images with fewer workers than 8 at the same rate stay the wizard's (the
    same data path; fewer workers only save cores and memory)."""
    if defaults is None or (pick, workers) == ("originals", defaults[0]):
        return False
    if on_gpu and pick == "originals":
        return False
    return rate < defaults[1] * (1 + T.DEFAULTS_MARGIN)
