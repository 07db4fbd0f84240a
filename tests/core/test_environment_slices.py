"""Facts version 2 and the rules that use them: a MIG slice (NVIDIA MIG User Guide's profiles), the Windows
commit limit (WinError 1455), and version-1 files, which still load and are judged by what they hold."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from core.environment.facts import ADDED_LATER, FACTS_VERSION, facts_from_dict
from core.environment.gather_nvml import gather_nvml, mig_profile
from core.environment.rules import RuleContext, evaluate
from core.environment.rules.loader import worker_ram_need_gb
from core.environment.rules.slices import mig_share
from tests.core.environment_builders import healthy_gpu_machine
from tests.fixtures.fake_nvml import FakeNvml

GB = 1024**3

PROFILES = [
    ("NVIDIA A100-SXM4-40GB MIG 1g.5gb", "1g.5gb"),
    ("NVIDIA H100 80GB HBM3 MIG 3g.40gb", "3g.40gb"),
    ("NVIDIA A100-SXM4-40GB MIG 1c.3g.20gb", "1c.3g.20gb"),
    ("NVIDIA H200 MIG 1g.18gb+me", "1g.18gb+me"),
    ("NVIDIA A100-SXM4-40GB", None),
]


@pytest.mark.parametrize("name, profile", PROFILES)
def test_mig_profile_from_the_device_name(name, profile):
    assert mig_profile(name) == profile


# (profile, parent GPU, (compute slices, of the whole GPU's, memory GB)) — the guide's profile tables
SHARES = [
    ("1g.5gb", "NVIDIA A100-SXM4-40GB", (1, 7, 5)),
    ("3g.40gb", "NVIDIA H100 80GB HBM3", (3, 7, 40)),
    ("7g.80gb", "NVIDIA H100 80GB HBM3", (7, 7, 80)),
    ("1g.6gb", "NVIDIA A30", (1, 4, 6)),
    ("1c.3g.20gb", "NVIDIA A100-SXM4-40GB", (1, 7, 20)),
]


@pytest.mark.parametrize("profile, parent, share", SHARES)
def test_mig_share(profile, parent, share):
    assert mig_share(profile, parent) == share


class MigNvml(FakeNvml):
    """An A100 in MIG mode with two slices at MIG indices 0 and 2 (slots are sparse)."""

    def nvmlDeviceGetName(self, h):
        return {"h0": b"NVIDIA A100-SXM4-40GB", "m0": b"NVIDIA A100-SXM4-40GB MIG 1g.5gb",
                "m2": b"NVIDIA A100-SXM4-40GB MIG 3g.20gb"}[h]

    def nvmlDeviceGetUUID(self, h):
        return {"h0": "GPU-abc", "m0": "MIG-aaa", "m2": "MIG-ccc"}[h]

    def nvmlDeviceGetMemoryInfo(self, h):
        total = {"h0": 40, "m0": 5, "m2": 20}[h] * GB
        return SimpleNamespace(used=0, total=total)

    def nvmlDeviceGetMigMode(self, h): return (1, 1)
    def nvmlDeviceGetMaxMigDeviceCount(self, h): return 3

    def nvmlDeviceGetMigDeviceHandleByIndex(self, h, i):
        if i == 1:
            raise type("NVMLError_NotFound", (Exception,), {})()
        return f"m{i}"


def test_gather_reads_mig_mode_and_slices():
    gpu = gather_nvml(MigNvml()).gpus[0]
    assert gpu.mig_mode is True
    assert [(m["profile"], m["uuid"], m["memory_total_gb"]) for m in gpu.mig_devices] == [
        ("1g.5gb", "MIG-aaa", 5.0), ("3g.20gb", "MIG-ccc", 20.0)]


def test_a_gpu_without_mig_says_why_it_was_not_read():
    gpu = gather_nvml(FakeNvml()).gpus[0]  # this fake has no nvmlDeviceGetMigMode: an older pynvml
    assert gpu.mig_mode is None and gpu.mig_devices is None and gpu.unknown["mig_mode"] == "NotSupported"


def _mig_machine(gpus: int = 1):
    f = healthy_gpu_machine(gpus=gpus, name="NVIDIA A100-SXM4-40GB", capability=(8, 0))
    for g in f.nvml.gpus:
        g.mig_mode = True
        g.mig_devices = [{"name": "NVIDIA A100-SXM4-40GB MIG 1g.5gb", "uuid": f"MIG-{g.index}", "profile": "1g.5gb",
                          "memory_total_gb": 4.75}]
    return f


def test_a_mig_slice_is_named_with_its_share_and_never_ddp():
    result = evaluate(_mig_machine(gpus=2))
    mig = next(x for x in result.findings if x.code == "gpu-mig-slice")
    assert "1g.5gb" in mig.message and "1/7" in mig.message and "5 GB" in mig.message
    assert "-mig 0" in mig.fix
    assert "multi-gpu-dataparallel-risk" not in result.ids()


def test_mig_uuids_in_cuda_visible_devices_are_judged_against_the_slices():
    f = _mig_machine()
    f.system.env = {"CUDA_VISIBLE_DEVICES": "MIG-7"}
    f.torch.cuda_available, f.torch.device_count, f.torch.devices = False, 0, []
    assert "gpu-hidden" in evaluate(f).ids()
    f.system.env = {"CUDA_VISIBLE_DEVICES": "MIG-0"}
    f.torch.cuda_available, f.torch.device_count = True, 1
    assert "gpu-hidden" not in evaluate(f).ids()


def _version1(facts) -> dict:
    """The facts as a version-1 file holds them: none of the fields added later."""
    raw = facts.to_dict()
    raw["version"] = 1

    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in ADDED_LATER}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value
    return strip(raw)


def test_a_version_1_file_loads_without_complaints_and_mig_comes_from_torchs_names():
    assert FACTS_VERSION == 3  # version 3 (issue 31) added more; a version-1 file still loads
    f = healthy_gpu_machine(name="NVIDIA A100-SXM4-40GB", capability=(8, 0))
    f.torch.devices[0].name, f.torch.devices[0].memory_total_gb = "NVIDIA A100-SXM4-40GB MIG 1g.5gb", 4.75
    raw = _version1(f)
    assert "mig_mode" not in raw["nvml"]["gpus"][0] and "commit_limit_gb" not in raw["system"]
    loaded, problems = facts_from_dict(raw)
    assert problems == []
    assert loaded.nvml.gpus[0].mig_mode is None and loaded.system.commit_available_gb is None
    mig = next(x for x in evaluate(loaded).findings if x.code == "gpu-mig-slice")
    assert "1g.5gb" in mig.message and "1/7" in mig.message


def _windows(commit_available_gb: float | None):
    f = healthy_gpu_machine()
    f.system.os, f.system.commit_limit_gb, f.system.commit_available_gb = "Windows", 40.0, commit_available_gb
    return f


def test_windows_commit_limit_gives_the_workers_that_fit():
    ctx = RuleContext(workers=8, batch=16, imgsz=640)
    f = _windows(6.0)
    result = evaluate(f, ctx)
    commit = next(x for x in result.findings if x.code == "windows-commit-low")
    fits = commit.changes[0].value
    assert commit.fix.startswith(f"--workers {fits}") and "page file" in commit.fix
    assert worker_ram_need_gb(f, fits, 16, 640) <= 6.0 < worker_ram_need_gb(f, fits + 1, 16, 640)
    assert "windows-workers" not in result.ids()  # one finding for the one cause


def test_enough_commit_keeps_the_general_windows_note_and_a_version_1_file_is_not_checked():
    ctx = RuleContext(workers=8)
    assert "windows-commit-low" not in evaluate(_windows(200.0), ctx).ids()
    loaded, _ = facts_from_dict(_version1(_windows(6.0)))
    result = evaluate(loaded, ctx)
    check = next(c for c in result.checks if c.key == "windows-commit")
    assert check.status == "not-checked" and "commit limit" in check.note
    assert "windows-workers" in result.ids()
