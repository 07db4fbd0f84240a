"""The campaign's "code execution from data" cases (``bench/faults_code.py``) are registered and judge the
fixed code as handled — the cheap ones run here for real through the same CLI (the three ``download:``
trainings run in the campaign; their deterministic test is ``tests/worker/test_code_from_data_worker.py``)."""

from __future__ import annotations

import os
import sys

import pytest

import bench.faults as faults
import bench.faults_code as faults_code
from core.demo.dataset import DemoSpec, generate_demo_dataset
from core.job.launch import worker_env
from core.runs.store import create_run
from core.training.config import MachineFacts, TrainConfig, validate_config

TRAININGS = ("download: Python, one val entry missing", "download: bash line, one val entry missing",
             "download: zip URL on loopback")
CHEAP = [label for label, _ in faults_code.CASES if label not in TRAININGS]


def test_the_code_section_is_registered_and_each_case_is_named_once():
    names = [name for name, _ in faults_code.CASES]
    assert len(names) == len(set(names)) == 11 and set(TRAININGS) <= set(names)
    source = open(faults.__file__, encoding="utf-8").read()
    assert "code" in faults.__doc__ and "faults_code.code(" in source


@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    work = tmp_path_factory.mktemp("campaign")
    data = generate_demo_dataset(work / "data", DemoSpec(n_train=8, n_val=4, image_size=64, seed=3))
    ws = work / "ws"
    create_run(ws, validate_config(TrainConfig(data=str(data), device="cpu"), MachineFacts(0)))  # the seed run
    env = worker_env()
    env.update(YOLOSTUDIO_WORKSPACE=str(ws), YOLOSTUDIO_CONFIG_DIR=str(work / "config"),
               HOME=str(work / "home"), CUDA_VISIBLE_DEVICES="",
               PYTHONPATH=os.pathsep.join([str(faults.ROOT), os.environ.get("PYTHONPATH", "")]))
    return data, ws, work, env


@pytest.mark.parametrize("label", CHEAP)
def test_a_cheap_case_is_handled(campaign, label):
    data, ws, work, env = campaign
    case = dict(faults_code.CASES)[label]
    case_work = work / label.replace("/", "_").replace(" ", "_").replace(":", "")
    case_work.mkdir()
    assert case(data, ws, case_work, env, sys.modules["bench.faults"]) is True
