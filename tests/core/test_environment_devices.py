"""Which GPUs training gets (``rules/devices.py``, ``visible_devices.py``), table-driven from the upstream
definitions: CUDA_VISIBLE_DEVICES per the CUDA Programming Guide ("CUDA Environment Variables"),
NVIDIA_VISIBLE_DEVICES per the NVIDIA Container Toolkit, CUDA's fastest-first order against NVML's PCI order."""

from __future__ import annotations

import pytest

from core.environment.facts import EnvironmentFacts
from core.environment.rules import evaluate
from core.environment.visible_devices import parse_cuda_visible
from tests.core.environment_builders import healthy_gpu_machine

UUIDS = ["GPU-8932f937-d72c-4106-c12f-20bd9faed9f6", "GPU-1a2b3c4d-0000-1111-2222-333344445555"]

# (CUDA_VISIBLE_DEVICES, GPUs on the machine, visible entries, first invalid entry) — the guide's own examples
# ("2,1": both, reordered; "0,2,-1,1": 0 and 2) and each way an entry names no GPU.
PARSE = [
    ("2,1", 3, ["2", "1"], None),
    ("0,2,-1,1", 3, ["0", "2"], "-1"),
    ("", 2, [], None),
    ("-1", 2, [], "-1"),
    ("5", 2, [], "5"),
    ("0,5,1", 2, ["0"], "5"),
    ("GPU-8932f937", 2, ["GPU-8932f937"], None),  # an abbreviated UUID, unique here
    ("GPU-ffff", 2, [], "GPU-ffff"),
    ("cuda:0", 2, [], "cuda:0"),
    (" 1 , 0 ", 2, ["1", "0"], None),
]


@pytest.mark.parametrize("value, count, visible, invalid", PARSE)
def test_cuda_visible_devices_as_cuda_reads_it(value, count, visible, invalid):
    seen = parse_cuda_visible(value, count, UUIDS[:count] + [None] * max(0, count - 2))
    assert seen.visible == visible and seen.invalid == invalid


def _two(second_name: str = "NVIDIA GeForce RTX 4090", second_memory: float = 24.0,
         second_cc: tuple[int, int] = (8, 9)) -> EnvironmentFacts:
    f = healthy_gpu_machine(gpus=2)
    for g, uuid in zip(f.nvml.gpus, UUIDS):
        g.uuid = uuid
    f.torch.devices[0].uuid, f.torch.devices[1].uuid = UUIDS
    g = f.nvml.gpus[1]
    g.name, g.memory_total_gb, g.capability = second_name, second_memory, list(second_cc)
    d = f.torch.devices[1]
    d.name, d.capability, d.memory_total_gb = second_name, list(second_cc), second_memory
    return f


def _fastest_first(f: EnvironmentFacts) -> None:
    """CUDA's default order puts NVML's GPU 1 first: torch index 0 is NVML index 1."""
    a, b = f.torch.devices
    a.index, b.index = 1, 0
    f.torch.devices = [b, a]


def _env(**values: str):
    def mutate(f: EnvironmentFacts) -> None:
        f.system.env = dict(values)
    return mutate


def _hidden(f: EnvironmentFacts, count: int = 0) -> None:
    f.torch.cuda_available = count > 0
    f.torch.device_count = count
    f.torch.devices = f.torch.devices[:count]


def _container(kind: str, value: str):
    def mutate(f: EnvironmentFacts) -> None:
        f.system.container = kind
        f.system.env = {"NVIDIA_VISIBLE_DEVICES": value}
        f.nvml.gpus = []
        _hidden(f)
    return mutate


# (case, machine, mutation, finding id, severity, text the fix must contain)
CASES = [
    ("CUDA_VISIBLE_DEVICES=-1", _two, lambda f: (_env(CUDA_VISIBLE_DEVICES="-1")(f), _hidden(f)), "gpu-hidden",
     "error", "unset CUDA_VISIBLE_DEVICES"),
    ("an index that does not exist", _two, lambda f: (_env(CUDA_VISIBLE_DEVICES="2")(f), _hidden(f)), "gpu-hidden",
     "error", "unset CUDA_VISIBLE_DEVICES"),
    ("an invalid entry hides the ones after it", _two,
     lambda f: (_env(CUDA_VISIBLE_DEVICES="0,7,1")(f), _hidden(f, 1)), "gpu-hidden", "warning",
     "export CUDA_VISIBLE_DEVICES=0,1"),
    ("a UUID of another machine", _two,
     lambda f: (_env(CUDA_VISIBLE_DEVICES="GPU-ffffffff")(f), _hidden(f)), "gpu-hidden", "error",
     "unset CUDA_VISIBLE_DEVICES"),
    ("Windows", _two, lambda f: (_env(CUDA_VISIBLE_DEVICES="")(f), _hidden(f), setattr(f.system, "os", "Windows")),
     "gpu-hidden", "error", "set CUDA_VISIBLE_DEVICES="),
    ("docker container started without GPUs", _two, _container("docker", "none"), "gpu-hidden", "warning",
     "--gpus all"),
    ("Kubernetes pod without a GPU limit", _two, _container("kubernetes", "void"), "gpu-hidden", "warning",
     "nvidia.com/gpu: 1"),
    # A probe that counted fastest first (no CUDA_DEVICE_ORDER in its environment) against the worker, which counts
    # in PCI-bus order (core.job.launch.worker_env): --device is the worker's index, the card named beside it.
    ("a far weaker display card: the strong one by the worker's (PCI) index",
     lambda: _two("NVIDIA RTX A400", 4.0, (8, 6)), _fastest_first, "gpu-mixed", "info",
     "--device 0   # NVIDIA GeForce RTX 4090"),
    ("a card this PyTorch cannot use beside a good one: no reinstall",
     lambda: _two("NVIDIA GeForce GTX 1080 Ti", 11.0, (6, 1)), _fastest_first, "gpu-arch-unsupported", "warning",
     "--device 0   # NVIDIA GeForce RTX 4090"),
    ("the user's own fastest-first order: the probe's torch index is the worker's",
     lambda: _two("NVIDIA RTX A400", 4.0, (8, 6)),
     lambda f: (_fastest_first(f), _env(CUDA_DEVICE_ORDER="FASTEST_FIRST")(f)), "gpu-mixed", "info", "--device 1"),
    ("torch's view not read: NVML's index in PCI order", lambda: _two("NVIDIA RTX A400", 4.0, (8, 6)),
     lambda f: setattr(f.torch, "devices", []), "gpu-mixed", "info", "--device 0"),
    ("a test kernel failed on one of two cards: the other by the worker's index", _two,
     lambda f: (_fastest_first(f), setattr(f.torch.devices[1], "kernel_ok", False)), "cuda-unusable", "warning",
     "--device 1   # NVIDIA GeForce RTX 4090"),
    ("two good GPUs: the app's DDP by --device", _two, _fastest_first, "multi-gpu-dataparallel-risk", "info",
     "--device 0,1"),
    ("torch's view not read under a mask: the GPUs by UUID", lambda: _two("NVIDIA RTX A400", 4.0, (8, 6)),
     lambda f: (setattr(f.torch, "devices", []), _env(CUDA_VISIBLE_DEVICES="1,0")(f)), "gpu-mixed", "info",
     f"CUDA_VISIBLE_DEVICES={UUIDS[0]} yolostudio train DATA.yaml --device 0"),
]


@pytest.mark.parametrize("case, machine, mutate, finding_id, severity, fix_text", CASES, ids=[c[0] for c in CASES])
def test_device_case(case, machine, mutate, finding_id, severity, fix_text):
    facts = machine()
    mutate(facts)
    result = evaluate(facts)
    found = [f for f in result.findings if f.code == finding_id]
    assert len(found) == 1, result.ids()
    finding = found[0]
    assert finding.severity == severity and fix_text in finding.fix, finding.fix
    for word in ("Reboot", "reboot", "pip install", "torchrun", "nproc"):
        assert word not in finding.fix
    assert not {"cuda-unusable", "no-gpu"} & set(result.ids()) - {finding_id}


def test_hidden_gpus_name_the_variable_and_its_value():
    facts = _two()
    facts.system.env = {"CUDA_VISIBLE_DEVICES": "0,7,1"}
    _hidden(facts, 1)
    finding = next(f for f in evaluate(facts).findings if f.code == "gpu-hidden")
    assert "CUDA_VISIBLE_DEVICES='0,7,1'" in finding.message and "'7'" in finding.message
    assert "There is no GPU 7" in finding.detail
    assert "multi-gpu-dataparallel-risk" not in evaluate(facts).ids()  # not with the wrong indices meanwhile


def test_a_deliberate_subset_is_not_a_finding():
    facts = _two()
    facts.system.env = {"CUDA_VISIBLE_DEVICES": "1"}
    _hidden(facts, 1)
    assert "gpu-hidden" not in evaluate(facts).ids()


def test_weak_card_is_left_out_of_ddp_and_the_mixed_fix_sets_the_device():
    facts = _two("NVIDIA RTX A400", 4.0, (8, 6))
    _fastest_first(facts)
    result = evaluate(facts)
    assert "multi-gpu-dataparallel-risk" not in result.ids()
    mixed = next(f for f in result.findings if f.code == "gpu-mixed")
    assert [(c.field, c.value) for c in mixed.changes] == [("device", "0")]  # PCI order, as the worker counts


def test_no_usable_gpu_still_means_the_right_wheel():
    facts = _two("NVIDIA GeForce GTX 1080 Ti", 11.0, (6, 1))
    for g, d in zip(facts.nvml.gpus, facts.torch.devices):
        g.capability = d.capability = [6, 1]
    arch = [f for f in evaluate(facts).findings if f.code == "gpu-arch-unsupported"]
    assert arch and arch[0].severity == "error" and "pip install" in arch[0].fix


def test_mig_entries_are_judged_only_when_mig_devices_were_read():
    assert parse_cuda_visible("MIG-abc", 1, UUIDS[:1]).invalid is None
    assert parse_cuda_visible("MIG-abc", 1, UUIDS[:1], mig_uuids=[]).invalid == "MIG-abc"
    assert parse_cuda_visible("MIG-abc", 1, UUIDS[:1], mig_uuids=["mig-abcdef"]).invalid is None


