"""The one table of what each supported PyTorch release ships: its CUDA builds (with the GPU architectures
each carries compiled code for), the Python versions it has wheels for, and the build PyPI serves by default.

Every wheel the doctor, Repair and both installers name comes from here (``release_for``), so no fix ever
points at a build that a release does not publish — the cu128 index that PyTorch 2.14 no longer has, say. The order of a release's builds is the preference among those that fit a
machine: the newest CUDA first [design].

Sources, per row (the same as ``docs/facts/gpu-environment.md`` section 1 and the table in
``docs/history.md``, "Installers and the wheel choice"):
- pytorch/pytorch#190355 (the 2.14 CUDA release matrix): CUDA 12.6 kept as the legacy build for Maxwell
  5.0 – Hopper 9.0, 13.0 stable and 13.2 the default on PyPI, both Turing 7.5 – Blackwell 12.0;
- pytorch/pytorch#178665 (2.12, the builds 2.13 and 2.14 keep): "Deprecate CUDA 12.8", CUDA 13.2 added —
  no cu128 or cu129 build from 2.12 on;
- pytorch/pytorch PR #194367 (2.14's compatibility matrix): Python >= 3.10, <= 3.15;
- pytorch/pytorch#190385 (planned for 2.15): cu126 removed — Maxwell, Pascal and Volta lose binary support.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Compiled architectures of each build family (sm_XY; same major, minor >= Y runs it).
SM_50_TO_90: tuple[tuple[int, int], ...] = ((5, 0), (6, 0), (7, 0), (7, 5), (8, 0), (8, 6), (9, 0))
SM_75_TO_120: tuple[tuple[int, int], ...] = ((7, 5), (8, 0), (8, 6), (9, 0), (10, 0), (12, 0))


@dataclass(frozen=True)
class Wheel:
    """One PyTorch wheel build: its CUDA, and the GPU architectures it carries compiled code for."""

    tag: str  # "cu132", "cu130", "cu126", "cpu"
    cuda: tuple[int, int] | None
    archs: tuple[tuple[int, int], ...]  # sm_XY it is compiled for (same major, minor >= Y runs it)


CPU_WHEEL = Wheel("cpu", None, ())


@dataclass(frozen=True)
class TorchRelease:
    """What one PyTorch release (major.minor) publishes for Linux x86_64 and Windows."""

    release: tuple[int, int]  # (2, 14)
    builds: tuple[Wheel, ...]  # CUDA builds, in order of preference (newest CUDA first)
    python: tuple[tuple[int, int], tuple[int, int]]  # oldest and newest Python with wheels, inclusive
    pypi_default: str  # the build plain `pip install torch` gets from PyPI on Linux
    sources: tuple[str, ...]

    def build(self, tag: str) -> Wheel | None:
        return CPU_WHEEL if tag == "cpu" else next((w for w in self.builds if w.tag == tag), None)

    def has_python(self, version: tuple[int, ...]) -> bool:
        low, high = self.python
        return low <= tuple(version[:2]) <= high

    def python_words(self) -> str:
        (a, b), (c, d) = self.python
        return f"{a}.{b}–{c}.{d}"


TORCH_RELEASES: dict[tuple[int, int], TorchRelease] = {
    (2, 14): TorchRelease(
        release=(2, 14),
        builds=(Wheel("cu132", (13, 2), SM_75_TO_120),  # pytorch/pytorch#190355: default on PyPI
                Wheel("cu130", (13, 0), SM_75_TO_120),  # pytorch/pytorch#190355: stable
                Wheel("cu126", (12, 6), SM_50_TO_90)),  # pytorch/pytorch#190355: legacy, pre-Turing GPUs
        python=((3, 10), (3, 15)),  # pytorch/pytorch PR #194367
        pypi_default="cu132",  # pytorch/pytorch#190355
        sources=("pytorch/pytorch#190355", "pytorch/pytorch#178665", "pytorch/pytorch PR #194367")),
}

#: The release the app is built and tested with (``tables.PINNED``: torch 2.14.1).
PINNED_RELEASE = (2, 14)


def release_of(version: str | None) -> tuple[int, int] | None:
    """'2.14.1+cu126' -> (2, 14); None when it is not a version."""
    parts = (version or "").split("+")[0].split(".")
    try:
        return int(parts[0]), int(parts[1])
    except (IndexError, ValueError):
        return None


def release_for(version: str | None = None) -> TorchRelease:
    """The table row for a torch version ('2.14.1'), or the pinned release's when the table has none for it."""
    found = release_of(version)
    return TORCH_RELEASES.get(found or PINNED_RELEASE) or TORCH_RELEASES[PINNED_RELEASE]


def in_table(version: str | None) -> bool:
    """Is this torch version's release one the table knows (so its builds may be named)?"""
    return release_of(version) in TORCH_RELEASES
