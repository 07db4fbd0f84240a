"""The wizard's device: the GPUs chosen, by their own index (NVML's PCI order, which the workers use too)."""

from __future__ import annotations

from core.environment.facts import EnvironmentFacts, GpuFacts, NvmlFacts, SystemFacts, TorchFacts
from core.wizard.inputs import hardware_from_facts


def test_the_wizard_trains_on_the_gpu_that_was_chosen():
    """GPU 1 chosen alone is '--device 1', not the first GPU."""
    facts = EnvironmentFacts(system=SystemFacts(os="Linux", logical_cores=8, usable_cores=8),
                             nvml=NvmlFacts(available=True, gpus=[GpuFacts(0, "NVIDIA RTX A400", memory_total_gb=4),
                                                                  GpuFacts(1, "NVIDIA GeForce RTX 4090",
                                                                           memory_total_gb=24)]),
                             torch=TorchFacts(cuda_available=True, device_count=2))
    assert hardware_from_facts(facts, [1]).device == "1"
    assert hardware_from_facts(facts).device == "0,1"
