"""Asking the index before installing: the dry run's argv, how pip's answer is read, and which builds may
replace a first choice the index does not serve (only builds of the release table that fit the machine)."""

from __future__ import annotations

import pytest

from core.environment.tables import WHEELS, arch_covers
from core.install.index_check import answer, check_argv, fallback_tags
from core.install.wheel_choice import choose_index
from tests.core.test_install_wheel_choice import machine


def test_the_dry_run_asks_for_exactly_the_build_it_would_install():
    argv = check_argv("/venv/bin/python", "cu126", "2.14.1", "0.29.1", "Linux", "https://mirror.example/whl/")
    assert argv == ["/venv/bin/python", "-m", "pip", "install", "--dry-run", "--no-deps", "--ignore-installed",
                    "--retries", "2", "torch==2.14.1+cu126", "torchvision==0.29.1+cu126", "--index-url",
                    "https://mirror.example/whl/cu126"]


@pytest.mark.parametrize("code, lines, state", [
    (0, ["Would install torch-2.14.1+cu130 torchvision-0.29.1+cu130"], "served"),
    (1, ["ERROR: Could not find a version that satisfies the requirement torch==2.14.1+cu132 (from versions: none)",
         "ERROR: No matching distribution found for torch==2.14.1+cu132"], "not-served"),
    (1, ["ERROR: Could not install packages due to an OSError: HTTPSConnectionPool(...): Max retries exceeded"],
     "failed"),
    (2, ["no such option: --dry-run"], "failed"),  # pip older than 22.2 cannot ask: not a reason to swap builds
])
def test_pips_answer(code, lines, state):
    assert answer(code, lines) == state


# (driver, NVML CUDA, GPUs, OS) -> the builds that may replace the first choice, in the table's order
@pytest.mark.parametrize("driver, cuda, caps, os_name, first, others", [
    ("580.82.07", 13000, [(8, 9)], "Linux", "cu130", ["cu132", "cu126"]),
    ("580.82.07", 13000, [(12, 0)], "Linux", "cu130", ["cu132"]),  # cu126 has no Blackwell kernels
    ("580.82.07", 13000, [(6, 1)], "Linux", "cu126", []),  # only cu126 has Pascal
    ("570.86.15", 12080, [(8, 9)], "Linux", "cu126", []),  # a 12.x driver runs no CUDA 13 build
    ("566.36", 12070, [(8, 9)], "Windows", "cu126", []),
])
def test_fallbacks_fit_the_machine(driver, cuda, caps, os_name, first, others):
    choice = choose_index(machine(driver, cuda, caps, os_name))
    assert choice.tag == first
    tags = fallback_tags(choice, os_name)
    assert tags == others
    for tag in tags:
        wheel = next(w for w in WHEELS if w.tag == tag)
        assert all(arch_covers(wheel.archs, cc) for cc in caps)


def test_an_explicit_build_is_never_swapped():
    assert fallback_tags(choose_index(machine("580.82.07", 13000, [(8, 9)]), "cu126"), "Linux") == []
