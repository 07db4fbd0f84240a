"""The search's plan (core/tune/plan.py): slots, the trial count, and the tune job's spec."""

from __future__ import annotations

from pathlib import Path

from core.tune.budget import trials_in_budget
from core.tune.plan import can_resume, plan_search, planned_trials, search_slots
from core.tune.space import default_space


def test_one_trial_per_gpu_unless_the_device_is_cpu():
    assert search_slots(4, 32, "", None, 1.0).count == 4
    assert search_slots(4, 32, "0,1,2,3", 2.0, 1.0).count == 2  # two GPUs a trial
    cpu = search_slots(4, 32, "cpu", None, 1.0)
    assert cpu.count == 32 and cpu.gpus_per_trial == 0.0 and cpu.gpus == 0  # the GPUs stay out of a CPU search


def test_without_gpus_the_slots_are_cores_per_trial():
    assert search_slots(0, 16, "", None, 4.0).count == 4
    assert search_slots(0, 1, "", None, 4.0).count == 1  # at least one


def test_the_trial_count_is_the_users_else_the_measured_budget_else_open():
    assert planned_trials(3600.0, 10, 2, 7, 60.0) == 7
    assert planned_trials(3600.0, 10, 2, None, 60.0) == trials_in_budget(3600.0, 60.0, 10, 2) == 12
    assert planned_trials(3600.0, 10, 2, None, None) == -1  # the time budget alone ends it


def test_the_spec_names_the_folder_the_space_and_a_cpu_device_on_cpu_slots(tmp_path):
    space = default_space()
    slots = search_slots(0, 2, "cpu", None, 1.0)
    plan = plan_search({"data": "/d/data.yaml", "epochs": 3, "device": ""}, Path("/h.yaml"), tmp_path, space, 600.0,
                       slots, tune_dir=tmp_path / "tune" / "t", trials=4)
    spec = plan.spec
    assert spec["run_dir"] == str(tmp_path / "tune" / "t") and spec["trials"] == 4 and spec["cpus"] == 2
    assert spec["base"]["config"]["device"] == "cpu" and spec["space"] == space.to_dict()
    assert spec["ray_address"] == "" and not spec["resume"]
    assert not can_resume(tmp_path / "tune" / "t")
    (tmp_path / "tune" / "t" / "ray").mkdir(parents=True)
    assert can_resume(tmp_path / "tune" / "t")
