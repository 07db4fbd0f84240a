"""Benchmark (not a test): the CPU seconds each test costs, its children's included, summed per test file.

Wall time is no measure on a machine other sessions share; CPU time (user + system, of the test process and of
every child it waited for: CLIs, workers, trainings) is. Loaded as a pytest plugin, it appends one line a test
(``node id, CPU s, wall s``, tab-separated) to ``$TEST_CPU_LOG``; run as a program, it sums such a file per test
file, the heaviest first.

    PYTHONPATH=bench TEST_CPU_LOG=/tmp/cpu.tsv python -m pytest -p suite_cpu -n 1 -m "not e2e" tests
    python bench/suite_cpu.py /tmp/cpu.tsv [--top 30]
"""

from __future__ import annotations

import argparse
import os
import time
from collections import defaultdict
from pathlib import Path
from typing import Iterator

import pytest

def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """Setup, call and teardown of one test, in the process that runs it (an xdist worker, not the controller);
    a module fixture's teardown counts to the file's last test."""
    cpu, wall = _cpu(), time.monotonic()
    yield
    with open(os.environ.get("TEST_CPU_LOG", "test-cpu.tsv"), "a", encoding="utf-8") as out:
        out.write(f"{item.nodeid}\t{_cpu() - cpu:.3f}\t{time.monotonic() - wall:.3f}\n")


def per_file(log: Path) -> dict[str, tuple[float, int]]:
    """File → (CPU seconds, tests)."""
    sums: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
    for line in log.read_text(encoding="utf-8").splitlines():
        node, cpu, _wall = line.split("\t")
        entry = sums[node.split("::")[0]]
        entry[0] += float(cpu)
        entry[1] += 1
    return {name: (cpu, int(n)) for name, (cpu, n) in sums.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", type=Path)
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    files = sorted(per_file(args.log).items(), key=lambda item: -item[1][0])
    total = sum(cpu for _, (cpu, _n) in files)
    tests = sum(n for _, (_cpu, n) in files)
    print(f"{total:8.1f} s CPU, {tests} tests, {len(files)} files")
    for name, (cpu, n) in files[:args.top]:
        print(f"{cpu:8.1f} {n:5d}  {name}")


if __name__ == "__main__":
    main()
