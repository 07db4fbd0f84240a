"""The reference tables, one test per row, and the wheel choice they drive."""

from __future__ import annotations

import pytest

from core.environment.tables import (AMP_UNSAFE_NAMES, ARCHITECTURES, DRIVER_FLOORS, THROTTLE_BITS, TOOLKIT_DRIVERS,
                                     WHEELS, amp_unsafe, arch_covers, architecture_name, choose_wheel, cuda_tuple,
                                     driver_floor, driver_meets, parse_arch, throttle_names, version_tuple)

FLOOR_ROWS = [(13, "580.65.06", "580"), (12, "525.60.13", "528.33"), (11, "450.80.02", "452.39")]


@pytest.mark.parametrize("major, linux, windows", FLOOR_ROWS)
def test_driver_floor_row(major, linux, windows):
    assert DRIVER_FLOORS[major] == (linux, windows)
    assert driver_floor(major, "Linux") == linux and driver_floor(major, "Windows") == windows
    below = list(version_tuple(linux))
    below[0] -= 1
    assert driver_meets(linux, linux) is True
    assert driver_meets(".".join(map(str, below)), linux) is False


def test_floor_table_has_exactly_these_rows():
    assert sorted(DRIVER_FLOORS) == sorted(r[0] for r in FLOOR_ROWS)


TOOLKIT_ROWS = [("12.1", "530.30.02", "531.14"), ("12.4", "550.54.14", "551.61"), ("12.6", "560.28.03", "560.76"),
                ("12.8", "570.26", "570.65"), ("12.9", "575.51.03", "576.02"), ("13.0", "580.65.06", "580")]


@pytest.mark.parametrize("cuda, linux, windows", TOOLKIT_ROWS)
def test_toolkit_driver_row(cuda, linux, windows):
    assert TOOLKIT_DRIVERS[cuda] == (linux, windows)
    major = cuda_tuple(cuda)[0]
    assert driver_meets(linux, driver_floor(major, "Linux")) is True  # a toolkit's driver meets its family floor


ARCH_ROWS = [((5, 0), "Maxwell"), ((5, 2), "Maxwell"), ((6, 0), "Pascal"), ((6, 1), "Pascal"), ((7, 0), "Volta"),
             ((7, 5), "Turing"), ((8, 0), "Ampere"), ((8, 6), "Ampere"), ((8, 9), "Ada"), ((9, 0), "Hopper"),
             ((10, 0), "Blackwell"), ((12, 0), "Blackwell")]


@pytest.mark.parametrize("cc, family", ARCH_ROWS)
def test_architecture_row(cc, family):
    assert ARCHITECTURES[cc][0] == family
    assert architecture_name(cc) == family


def test_architecture_table_has_exactly_these_rows():
    assert sorted(ARCHITECTURES) == sorted(r[0] for r in ARCH_ROWS)


# wheel tag -> (a GPU it runs, a GPU it does not), torch 2.14 (pytorch/pytorch#190355): cu132 and cu130 carry
# sm_75-sm_120, cu126 sm_50-sm_90; no cu128 (deprecated in 2.12, pytorch/pytorch#178665)
WHEEL_ROWS = [("cu132", (12, 0), (7, 0)), ("cu130", (7, 5), (6, 1)), ("cu126", (6, 1), (12, 0))]


@pytest.mark.parametrize("tag, runs, fails", WHEEL_ROWS)
def test_wheel_row(tag, runs, fails):
    wheel = next(w for w in WHEELS if w.tag == tag)
    assert arch_covers(wheel.archs, runs)
    assert not arch_covers(wheel.archs, fails)


def test_wheel_table_newest_first():
    assert [w.tag for w in WHEELS] == [r[0] for r in WHEEL_ROWS]


@pytest.mark.parametrize("bit, name", [(0x4, "SwPowerCap"), (0x8, "HwSlowdown"), (0x20, "SwThermalSlowdown"),
                                       (0x40, "HwThermalSlowdown"), (0x80, "HwPowerBrakeSlowdown")])
def test_throttle_row(bit, name):
    assert THROTTLE_BITS[bit] == name
    assert throttle_names(bit | 0x1) == [name]  # idle (0x1) is never a reason


def test_idle_alone_is_not_throttling():
    assert throttle_names(0x1) == [] and throttle_names(None) == []
    assert len(THROTTLE_BITS) == 5


@pytest.mark.parametrize("name, unsafe", [("NVIDIA GeForce GTX 1660 SUPER", True), ("GeForce GTX 1650", True),
                                          ("Quadro T2000", True), ("NVIDIA T1000", True), ("Tesla T4", False),
                                          ("NVIDIA GeForce RTX 2080", False), ("NVIDIA GeForce GTX 1080", False)])
def test_amp_unsafe_names(name, unsafe):
    assert amp_unsafe(name) is unsafe


def test_amp_table_rows():
    assert len(AMP_UNSAFE_NAMES) == 3


@pytest.mark.parametrize("entry, parsed", [("sm_86", ("sm", (8, 6))), ("sm_120", ("sm", (12, 0))),
                                           ("compute_90", ("compute", (9, 0))), ("sm_90a", ("sm", (9, 0))),
                                           ("gfx90a", None)])
def test_parse_arch(entry, parsed):
    assert parse_arch(entry) == parsed


def test_arch_rules():
    assert arch_covers(["sm_80"], (8, 6))  # same major, higher minor runs
    assert not arch_covers(["sm_86"], (8, 0))
    assert not arch_covers(["sm_90"], (10, 0))  # other major needs PTX
    assert arch_covers(["compute_90"], (10, 0))


@pytest.mark.parametrize("driver, driver_cuda, caps, os_name, tag", [
    ("580.82.07", (13, 0), [(8, 9)], "Linux", "cu130"),
    ("595.45.04", (13, 2), [(8, 9)], "Linux", "cu132"),
    ("570.86.15", (12, 8), [(8, 9)], "Linux", "cu126"),  # a 12.x driver takes cu126
    ("570.86.15", (12, 8), [(12, 0)], "Linux", None),  # Blackwell on a 12.x driver: no 2.14 wheel
    ("570.86.15", (12, 8), [(6, 1)], "Linux", "cu126"),
    ("535.104.05", (12, 2), [(8, 6)], "Linux", "cu126"),  # minor-version compatibility, closest wheel
    ("580.82.07", (13, 0), [(7, 0)], "Linux", "cu126"),  # Volta: only cu126 still has it
    ("580.82.07", None, [(12, 0)], "Linux", "cu132"),  # 13.x minor-version compatibility: cu132 on 580
    ("560.94", None, [(8, 6)], "Windows", "cu126"),
    ("470.82.01", (11, 4), [(8, 6)], "Linux", None),  # below every floor: update the driver
    (None, None, [], "Linux", "cpu"),
])
def test_choose_wheel(driver, driver_cuda, caps, os_name, tag):
    wheel = choose_wheel(driver, driver_cuda, caps, os_name)
    assert (wheel.tag if wheel else None) == tag


def test_cuda_tuple():
    assert cuda_tuple(12080) == (12, 8) and cuda_tuple("13.0") == (13, 0) and cuda_tuple(None) is None


def test_no_cu128_and_python_range_from_the_release_table():
    """The pinned torch 2.14's row (pytorch/pytorch#190355, PR #194367): the tables the rules use are its."""
    from core.environment.tables import PINNED, PYTHON_SUPPORTED
    from core.environment.torch_builds import TORCH_RELEASES, release_for

    release = release_for(PINNED["torch"])
    assert release is TORCH_RELEASES[(2, 14)]
    assert [w.tag for w in WHEELS] == ["cu132", "cu130", "cu126"] and "cu128" not in [w.tag for w in WHEELS]
    assert PYTHON_SUPPORTED == ((3, 10), (3, 15)) and release.pypi_default == "cu132"
    assert release.has_python((3, 14, 0)) and not release.has_python((3, 16)) and not release.has_python((3, 9))


@pytest.mark.parametrize("os_name, wsl, platform", [("Linux", True, "Windows"), ("Linux", False, "Linux"),
                                                    ("Windows", False, "Windows"), ("Linux", None, "Linux")])
def test_wsl_driver_is_the_windows_one(os_name, wsl, platform):
    from core.environment.tables import driver_platform

    assert driver_platform(os_name, wsl) == platform
