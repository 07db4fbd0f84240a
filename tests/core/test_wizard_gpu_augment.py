"""The wizard's ``--gpu-augment`` choice (core/wizard/gpu_augment.py): on only for a GPU its measured loader
supply cannot feed; its reason says which and why, and the prediction counts the loader's gain."""

from __future__ import annotations

from core.wizard.gpu_augment import LOADER_GAIN, choose_gpu_augment
from core.wizard.inputs import Gpu, Hardware


def _gpu() -> Hardware:
    return Hardware(usable_cores=8, ram_available_gb=30, gpus=(Gpu("NVIDIA H100", 80.0),))


def test_an_input_bound_gpu_gets_it_and_the_supply_it_brings():
    reason, supply = choose_gpu_augment(_gpu(), 300.0, 2000.0)
    assert reason.value == "on" and reason.estimated and "fewer images than the GPU trains" in reason.why
    assert "300" in reason.evidence and "2000" in reason.evidence
    assert supply == 300.0 * LOADER_GAIN
    assert choose_gpu_augment(_gpu(), 900.0, 1000.0)[1] == 1000.0  # never above what the model consumes


def test_a_fed_gpu_and_the_cpu_keep_yolov5s_own_augmentation():
    reason, supply = choose_gpu_augment(_gpu(), 3000.0, 2000.0)
    assert reason.value == "off" and "already feeds" in reason.why and supply == 3000.0
    reason, supply = choose_gpu_augment(Hardware(usable_cores=2), 20.0, 70.0)
    assert reason.value == "off" and "same cores" in reason.why and supply == 20.0
