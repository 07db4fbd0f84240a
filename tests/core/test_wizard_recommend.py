"""The wizard's recommendation on other machines' facts: one row per machine the issue lists, plus the
measured cases that decide the data path and the workers, and what happens when measurements fail."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from core.environment.facts import DiskFacts, EnvironmentFacts, GpuFacts, NvmlFacts, SystemFacts, TorchFacts
from core.training.config import validate_config
from core.environment.machine import MachineFacts
from core.training.options import TrainConfig
from core.wizard.inputs import (DatasetSummary, Goal, Gpu, Hardware, Measurements, dataset_from_stats,
                                hardware_from_facts, measurements_from_json)
from core.wizard.recommend import recommend

DS = DatasetSummary("/data/d.yaml", train_images=5000, val_images=500, nc=3, long_side=1280, small_box_area=0.002)


def gpus(n: int, name: str, memory: float, cap=(8, 6), used: float = 0.0) -> tuple[Gpu, ...]:
    return tuple(Gpu(name, memory, used, cap) for _ in range(n))


@dataclass(frozen=True)
class Case:
    hw: Hardware
    device: str
    batch_range: tuple[int, int]
    max_workers: int
    amp: str
    sync_bn: bool | None = None


MACHINES = {
    "cpu-2-cores": Case(Hardware(usable_cores=2, ram_available_gb=6.0, shm_free_gb=3.0), "cpu", (16, 16), 2, "off"),
    "laptop-1x8GB": Case(Hardware(usable_cores=8, ram_available_gb=12, shm_free_gb=8,
                                  gpus=gpus(1, "NVIDIA GeForce RTX 3070 Laptop GPU", 8, used=0.5)), "0", (8, 24), 8,
                         "on"),
    "1x24GB": Case(Hardware(usable_cores=16, ram_available_gb=60, shm_free_gb=30, gpus=gpus(1, "NVIDIA GeForce RTX 4090",
                                                                                               24)), "0", (40, 64), 16,
                   "on"),
    "1x80GB": Case(Hardware(usable_cores=32, ram_available_gb=400, shm_free_gb=200,
                            gpus=gpus(1, "NVIDIA A100-SXM4-80GB", 80, (8, 0))), "0", (128, 128), 32, "on"),
    "4x24GB": Case(Hardware(usable_cores=32, ram_available_gb=200, shm_free_gb=100,
                            gpus=gpus(4, "NVIDIA RTX A5000", 24)), "0,1,2,3", (160, 256), 8, "on", False),
    "8x80GB": Case(Hardware(usable_cores=96, ram_available_gb=1500, shm_free_gb=700,
                            gpus=gpus(8, "NVIDIA H100 80GB HBM3", 80, (9, 0))), "0,1,2,3,4,5,6,7", (800, 1024), 12,
                   "on", False),
    "windows": Case(Hardware(os="Windows", usable_cores=16, ram_available_gb=24, gpus=gpus(1, "NVIDIA GeForce RTX 3060",
                                                                                            12)), "0", (16, 40), 4,
                    "on"),
    "container-small-shm": Case(Hardware(usable_cores=16, ram_available_gb=60, shm_free_gb=0.0625, container="docker",
                                         gpus=gpus(1, "Tesla T4", 16, (7, 5))), "0", (24, 48), 0, "on"),
    "low-ram": Case(Hardware(usable_cores=8, ram_available_gb=3.5, shm_free_gb=2,
                             gpus=gpus(1, "NVIDIA GeForce RTX 3060", 12)), "0", (16, 40), 2, "on"),
    "gtx-1660": Case(Hardware(usable_cores=6, ram_available_gb=14, shm_free_gb=7,
                              gpus=gpus(1, "NVIDIA GeForce GTX 1660 SUPER", 6, (7, 5))), "0", (8, 16), 6, "off"),
}


@pytest.mark.parametrize("name", list(MACHINES))
def test_every_machine_gets_a_valid_config_with_a_reason_for_each_setting(name):
    case = MACHINES[name]
    rec = recommend(case.hw, DS, Goal("balanced"), Measurements())
    cfg = rec.config
    assert cfg["device"] == case.device
    assert case.batch_range[0] <= cfg["batch"] <= case.batch_range[1], rec.reasons["batch"]
    assert cfg["batch"] % max(1, len(case.hw.gpus)) == 0
    assert cfg["workers"] <= case.max_workers, rec.reasons["workers"]
    assert rec.reasons["amp"].value == case.amp
    if case.sync_bn is not None:
        assert rec.sync_bn is case.sync_bn and "sync_bn" in rec.reasons
    for setting in ("imgsz", "model", "epochs", "batch", "workers", "cache", "data", "device", "amp"):
        reason = rec.reasons[setting]
        assert reason.why and reason.evidence and reason.step in ("hardware", "dataset", "goal", "measure")
    assert rec.reasons["workers"].estimated and rec.reasons["data"].estimated  # nothing was measured
    assert rec.predicted["images_per_s"] > 0 and rec.predicted["total_s"] > rec.predicted["epoch_s"] > 0
    gpu_count = len(case.hw.gpus)
    checked = validate_config(TrainConfig.from_dict({**cfg, "data": "", "device": "cpu" if not gpu_count else cfg["device"]}),
                              MachineFacts(gpu_count=gpu_count))
    assert [p.field for p in checked.problems if p.severity == "error"] == ["data"]  # only the fake dataset path


def test_small_shm_container_keeps_workers_in_shared_memory_and_says_so():
    rec = recommend(MACHINES["container-small-shm"].hw, DS, Goal(), Measurements())
    assert "/dev/shm" in rec.reasons["workers"].evidence


def test_models_grow_with_goal_and_memory_and_shrink_for_a_time_budget():
    hw = MACHINES["1x80GB"].hw
    assert recommend(hw, DS, Goal("quick"), Measurements()).config["model"] == "yolov5n.yaml"
    assert recommend(hw, DS, Goal("balanced"), Measurements()).config["model"] == "yolov5s.yaml"
    assert recommend(hw, DS, Goal("accurate"), Measurements()).config["model"] == "yolov5x.yaml"
    budget = recommend(hw, DS, Goal("accurate", time_budget_s=1800), Measurements())
    assert budget.config["model"] != "yolov5x.yaml" and budget.predicted["total_s"] <= 1800
    assert recommend(MACHINES["cpu-2-cores"].hw, DS, Goal("accurate"), Measurements()).config["model"] in (
        "yolov5n.yaml", "yolov5s.yaml")


def test_image_size_follows_the_images_and_the_smallest_objects():
    hw = MACHINES["1x24GB"].hw
    small_images = replace(DS, long_side=300, small_box_area=0.05)
    assert recommend(hw, small_images, Goal(), Measurements()).config["imgsz"] == 320
    tiny_objects = replace(DS, long_side=4000, small_box_area=0.00005)  # 0.7% of the side: 9 px at 1280
    assert recommend(hw, tiny_objects, Goal(), Measurements()).config["imgsz"] > 640
    fixed = recommend(hw, tiny_objects, Goal(imgsz=416), Measurements())
    assert fixed.config["imgsz"] == 416 and fixed.reasons["imgsz"].step == "goal"


LARGE_PHOTOS = Measurements(imgsz=128, batch=16, model="yolov5n.yaml", loader={0: 9.0, 1: 16.0, 2: 18.0},
                            loader_cached={0: 300.0, 1: 450.0, 2: 480.0}, loader_prepared={0: 250.0, 1: 420.0, 2: 460.0},
                            demand=70.0, cache_ram_gb=0.01)
SMALL_IMAGES = Measurements(imgsz=128, batch=16, model="yolov5n.yaml", loader={0: 220.0, 1: 400.0, 2: 430.0},
                            loader_cached={0: 300.0, 1: 450.0, 2: 480.0}, demand=70.0, cache_ram_gb=0.01)


def test_large_photos_on_a_small_cpu_get_a_prepared_copy_and_few_workers():
    ds = DatasetSummary("/d.yaml", 200, 20, 1, long_side=2400)
    rec = recommend(MACHINES["cpu-2-cores"].hw, ds, Goal(imgsz=128), LARGE_PHOTOS)
    assert rec.data_choice in ("prepared", "prepared+cache") and rec.prepare_imgsz == 128
    assert rec.config["workers"] <= 1  # the model needs the cores more than the loader once decoding is gone
    assert not rec.reasons["data"].estimated and not rec.reasons["workers"].estimated
    assert "prepared copy" in rec.reasons["data"].evidence
    assert rec.predicted["images_per_s"] > 3 * 14  # the defaults' originals at 2 workers: ~14 img/s


def test_small_images_keep_the_originals_when_a_cache_is_no_faster_for_the_model():
    ds = DatasetSummary("/d.yaml", 200, 20, 1, long_side=320)
    rec = recommend(MACHINES["cpu-2-cores"].hw, ds, Goal(imgsz=128), SMALL_IMAGES)
    assert rec.data_choice in ("originals", "cache") and rec.prepare_imgsz is None


def test_gpu_workers_are_the_smallest_count_with_headroom_over_demand():
    hw = MACHINES["1x24GB"].hw
    m = Measurements(imgsz=640, batch=64, model="yolov5s.yaml", loader={0: 90.0, 2: 300.0, 4: 560.0, 6: 910.0,
                                                                        8: 1020.0}, demand=640.0, batch_probe=64)
    rec = recommend(hw, replace(DS, long_side=640), Goal(imgsz=640), m)
    assert rec.config["workers"] == 6 and not rec.reasons["workers"].estimated
    assert "910" in rec.reasons["workers"].evidence and "640" in rec.reasons["workers"].evidence
    assert rec.config["batch"] == 64 and not rec.reasons["batch"].estimated


def test_ram_that_cannot_hold_the_cache_refuses_it():
    m = replace(LARGE_PHOTOS, cache_ram_gb=50.0)
    rec = recommend(MACHINES["cpu-2-cores"].hw, DatasetSummary("/d.yaml", 200, 20, 1, 2400), Goal(imgsz=128), m)
    assert rec.config["cache"] == "" and rec.data_choice == "prepared"


def test_failed_measurements_are_named_and_their_settings_estimated():
    m = Measurements(failures={"loader": "a loader worker crashed (bus error)", "demand": "out of memory at batch 1"})
    rec = recommend(MACHINES["1x24GB"].hw, DS, Goal(), m)
    assert any("bus error" in note for note in rec.notes) and any("batch 1" in note for note in rec.notes)
    assert {"workers", "data", "model", "batch"} <= set(rec.estimated)


def test_measurements_round_trip_through_the_job_json():
    raw = {**LARGE_PHOTOS.to_json(), "loader": {"0": 9.0, "2": 18.0}}
    assert measurements_from_json(raw).loader == {0: 9.0, 2: 18.0}


def test_hardware_and_dataset_come_from_the_checkers_facts_and_the_validators_stats():
    facts = EnvironmentFacts(system=SystemFacts(os="Linux", logical_cores=32, usable_cores=8, ram_available_gb=30.0,
                                                shm_free_gb=0.0625, container="docker"),
                             nvml=NvmlFacts(available=True, gpus=[GpuFacts(0, "Tesla T4", memory_total_gb=16,
                                                                           memory_used_gb=1, capability=[7, 5]),
                                                                  GpuFacts(1, "Tesla T4", memory_total_gb=16)]),
                             torch=TorchFacts(cuda_available=True, device_count=2),
                             disks=[DiskFacts("dataset", "/d", free_gb=100, read_mb_s=900)])
    hw = hardware_from_facts(facts, [0])
    assert hw.usable_cores == 8 and hw.container == "docker" and len(hw.gpus) == 1
    assert hw.gpus[0].capability == (7, 5) and hw.disk_read_mb_s == 900
    assert hardware_from_facts(replace(facts, torch=TorchFacts(cuda_available=False))).gpus == ()
    stats = {"nc": 2, "splits": {"train": {"images": 40}, "val": {"images": 8}}, "image_sizes": {"1920x1080": 30},
             "box_area": {"p10": 0.01}}
    ds = dataset_from_stats(str(Path("/x/data.yaml")), stats)
    assert (ds.train_images, ds.val_images, ds.long_side, ds.small_box_area) == (40, 8, 1920, 0.01)


def test_a_cache_too_big_for_ram_goes_to_a_fast_disk_with_room_and_is_marked_estimated():
    slow_loader = replace(SMALL_IMAGES, loader={0: 9.0, 1: 16.0, 2: 18.0}, cache_ram_gb=40.0)
    ds = DatasetSummary("/d.yaml", 200, 20, 1, long_side=140)  # no bigger than the training size: no copy
    fast_disk = replace(MACHINES["cpu-2-cores"].hw, disk_free_gb=500.0, disk_read_mb_s=1500.0)
    rec = recommend(fast_disk, ds, Goal(imgsz=128), slow_loader)
    assert rec.config["cache"] == "disk" and rec.reasons["cache"].estimated and ".npy" in rec.reasons["cache"].why
    slow_disk = replace(fast_disk, disk_read_mb_s=80.0)
    assert recommend(slow_disk, ds, Goal(imgsz=128), slow_loader).config["cache"] == ""
