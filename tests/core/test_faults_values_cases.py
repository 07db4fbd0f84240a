"""The campaign's issue-23 cases (``bench/faults_values.py``) are registered and judge the fixed code as
handled — the cheap ones, run here for real through the same CLI (the trainings run in the campaign)."""

from __future__ import annotations

import os
import sys

import pytest

import bench.faults as faults
import bench.faults_values as faults_values
from core.demo.dataset import DemoSpec, generate_demo_dataset
from core.job.launch import worker_env

CHEAP = ("prepare --out the dataset's folder", "prepare --out a non-empty folder", "settings workspace with a NUL",
         "weights manifest size 1e400", "facts with inf cores/RAM", "config label_smoothing .nan", "hyp /etc/passwd",
         "run names COM1 / U+009B")


def test_the_values_section_is_registered_and_each_case_is_named_once():
    names = [name for name, _ in faults_values.CASES]
    assert len(names) == len(set(names)) == 14 and set(CHEAP) <= set(names)
    assert "values" in faults.__doc__ and "faults_values.values" in open(faults.__file__, encoding="utf-8").read()


@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    work = tmp_path_factory.mktemp("campaign")
    data = generate_demo_dataset(work / "data", DemoSpec(n_train=8, n_val=4, image_size=64, seed=3))
    env = worker_env()
    env.update(YOLOSTUDIO_WORKSPACE=str(work / "ws"), YOLOSTUDIO_CONFIG_DIR=str(work / "config"),
               HOME=str(work / "home"), CUDA_VISIBLE_DEVICES="",
               PYTHONPATH=os.pathsep.join([str(faults.ROOT), os.environ.get("PYTHONPATH", "")]))
    return data, work, env


@pytest.mark.parametrize("label", CHEAP)
def test_a_cheap_case_is_handled(campaign, label):
    data, work, env = campaign
    case = dict(faults_values.CASES)[label]
    case_work = work / label.replace("/", "_").replace(" ", "_")
    case_work.mkdir()
    assert case(data, case_work, env, sys.modules["bench.faults"]) is True
