"""The training worker's CUDA_VISIBLE_DEVICES (``core/worker/visible_gpus.py``): yolov5 trains on ``cuda:0``
of whatever CUDA shows, so the worker must show exactly the GPUs ``--device`` names — counted among the
GPUs the user's own CUDA_VISIBLE_DEVICES shows, as the environment check counts them."""

from __future__ import annotations

import os

import pytest

from core.worker.visible_gpus import restrict_to_device, visible_for_device

# (device, CUDA_VISIBLE_DEVICES now, what the worker sets)
CASES = [
    ("1", None, "1"),  # the second GPU: yolov5's cuda:0 must be it
    ("0,2", None, "0,2"),  # DDP ranks take cuda:LOCAL_RANK of these
    ("cuda:1", None, "1"),  # yolov5 strips "cuda:" the same way
    ("1", "2,3", "3"),  # the user's mask shows GPUs 2 and 3: the second of them
    ("0", "GPU-8932f937-d72c", "GPU-8932f937-d72c"),  # entries are kept as the user wrote them (UUIDs too)
    ("2", "0,1", None),  # not shown: yolov5's own check refuses it in its words
    ("", None, None),  # yolov5's default GPU: nothing to choose
    ("cpu", None, None),
    ("mps", "0", None),
]


@pytest.mark.parametrize("device, current, expected", CASES)
def test_visible_for_device(device, current, expected):
    assert visible_for_device(device, current) == expected


def test_restrict_sets_the_variable_only_for_gpu_devices():
    env = {"CUDA_VISIBLE_DEVICES": "2,3"}
    assert restrict_to_device({"config": {"device": "1"}}, env) == "3"
    assert env["CUDA_VISIBLE_DEVICES"] == "3"
    env = {}
    restrict_to_device({"config": {"device": "cpu"}}, env)
    assert env == {}


def test_yolov5_select_device_trains_on_cuda0_of_what_cuda_shows(monkeypatch):
    """yolov5's own ``select_device`` (run with CUDA's answers injected): ``--device 1`` only sets the variable
    and returns ``cuda:0`` — so the variable must be in place before CUDA starts, which the worker does."""
    from types import SimpleNamespace

    import torch
    from yolov5.utils import torch_utils

    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 2)
    monkeypatch.setattr(torch.cuda, "get_device_properties",
                        lambda i: SimpleNamespace(name=f"GPU{i}", total_memory=1 << 30))
    chosen = torch_utils.select_device("1")
    assert str(chosen) == "cuda:0"
    assert os.environ["CUDA_VISIBLE_DEVICES"] == "1"


def test_workers_count_gpus_in_pci_order_like_nvml_unless_the_user_chose():
    """The Train page lists NVML's GPUs (PCI-bus order); CUDA's default is fastest first: workers get PCI order."""
    from core.job.launch import worker_env

    assert worker_env({})["CUDA_DEVICE_ORDER"] == "PCI_BUS_ID"
    assert worker_env({"CUDA_DEVICE_ORDER": "FASTEST_FIRST"})["CUDA_DEVICE_ORDER"] == "FASTEST_FIRST"
