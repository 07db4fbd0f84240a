"""Export option rules on injected machine facts: what is possible, why not, and what installs it."""

from __future__ import annotations

import pytest

from core.export.facts import ExportFacts, torch_cuda_version
from core.export.options import ExportOptions, option_states, tensorrt_install_command, validate_options

NO_GPU = ExportFacts(gpu_count=0, torch_cuda="13.0", tensorrt_version=None)
GPU_NO_TRT = ExportFacts(gpu_count=1, gpu_name="RTX 4090", gpu_capability=(8, 9), torch_cuda="13.0")
GPU_TRT8 = ExportFacts(gpu_count=1, gpu_name="RTX 4090", gpu_capability=(8, 9), torch_cuda="12.8",
                       tensorrt_version="8.6.1")
GPU_TRT10 = ExportFacts(gpu_count=1, gpu_name="RTX 4090", gpu_capability=(8, 9), torch_cuda="13.0",
                        tensorrt_version="10.16.1", onnxsim=True)
GPU_TRT11 = ExportFacts(gpu_count=1, gpu_name="H200", gpu_capability=(9, 0), torch_cuda="13.0",
                        tensorrt_version="11.4.0")
OLD_GPU_TRT10 = ExportFacts(gpu_count=1, gpu_name="GTX 1080", gpu_capability=(6, 1), torch_cuda="12.4",
                            tensorrt_version="10.16.1")
CPU_TORCH = ExportFacts(gpu_count=1, gpu_name="RTX 4090", gpu_capability=(8, 9), torch_cuda=None,
                        tensorrt_version="10.16.1")
MAXWELL_TRT10 = ExportFacts(gpu_count=1, gpu_name="GTX 980", gpu_capability=(5, 2), torch_cuda="12.4",
                            tensorrt_version="10.16.1")


def opts(**kw) -> ExportOptions:
    return ExportOptions(weights="best.pt", **{"formats": ("onnx",), **kw})


@pytest.mark.parametrize("facts, enabled, words, install", [
    (NO_GPU, False, "needs an NVIDIA GPU", ""),
    (GPU_NO_TRT, False, "'tensorrt' package, which is not installed",
     'pip install --extra-index-url https://pypi.nvidia.com "tensorrt-cu13>=10.13,<11"'),
    (GPU_TRT8, False, "TensorRT 8.6.1 is installed; export needs TensorRT 10",
     'pip install --extra-index-url https://pypi.nvidia.com "tensorrt-cu12>=10,<11"'),
    (GPU_TRT10, True, "", ""),
    (GPU_TRT11, True, "", ""),
    (OLD_GPU_TRT10, False, "does not support this GPU (GTX 1080, compute capability 6.1", ""),
    (CPU_TORCH, False, "CUDA build of PyTorch", ""),
])
def test_engine_format(facts, enabled, words, install):
    state = option_states(opts(formats=("engine",)), facts)["engine"]
    assert state.enabled is enabled
    assert words in state.reason
    assert state.install == install


def test_half_needs_a_gpu_and_excludes_dynamic():
    assert "needs an NVIDIA GPU" in option_states(opts(), NO_GPU)["half"].reason
    assert option_states(opts(), GPU_TRT10)["half"].enabled
    both = option_states(opts(dynamic=True), GPU_TRT10)
    assert not both["half"].enabled and "dynamic shapes" in both["half"].reason
    assert not option_states(opts(half=True), GPU_TRT10)["dynamic"].enabled
    assert not option_states(opts(), MAXWELL_TRT10)["half"].enabled  # capability 5.2: no fast FP16


def test_trt11_allows_fp32_engines_only():
    states = option_states(opts(formats=("engine",)), GPU_TRT11)
    assert states["engine"].enabled
    assert not states["half"].enabled and "TensorRT 11 removed the FP16" in states["half"].reason
    assert not states["int8"].enabled and "TensorRT 11 removed INT8" in states["int8"].reason
    assert "tensorrt-cu13>=10.13,<11" in states["half"].install
    assert option_states(opts(formats=("onnx",)), GPU_TRT11)["half"].enabled  # FP16 ONNX doesn't need TensorRT


@pytest.mark.parametrize("facts, formats, enabled, words", [
    (GPU_TRT10, ("engine",), True, ""),
    (GPU_TRT10, ("onnx",), True, ""),  # ONNX Runtime's static INT8, on the CPU
    (NO_GPU, ("openvino",), True, ""),  # NNCF's post-training INT8, on the CPU
    (ExportFacts(nncf=False), ("openvino",), False, "needs the 'nncf' package"),
    (GPU_TRT10, ("torchscript",), False, "TensorRT engines, ONNX and OpenVINO"),
    (NO_GPU, ("engine",), False, "INT8 is a TensorRT, ONNX or OpenVINO option: TensorRT needs an NVIDIA GPU"),
    (GPU_NO_TRT, ("engine",), False, "not installed"),
    (ExportFacts(gpu_count=1, gpu_capability=(6, 0), torch_cuda="12.4", tensorrt_version="10.0.1"), ("engine",),
     False, "does not support this GPU"),
])
def test_int8(facts, formats, enabled, words):
    state = option_states(opts(formats=formats), facts)["int8"]
    assert state.enabled is enabled and words in state.reason


def test_simplify_needs_onnxsim_and_says_how_to_install_it():
    state = option_states(opts(), NO_GPU)["simplify"]
    assert not state.enabled and state.install == "pip install onnxsim"
    assert option_states(opts(), GPU_TRT10)["simplify"].enabled
    assert not option_states(opts(formats=("torchscript",)), GPU_TRT10)["simplify"].enabled


def test_validate_lists_each_refusal_with_its_hint():
    checked = validate_options(opts(formats=("onnx", "engine"), half=True, dynamic=True, simplify=True, int8=True,
                                    imgsz=100, opset=9), NO_GPU)
    assert not checked.ok
    fields = [p.field for p in checked.problems]
    assert fields == ["engine", "half", "dynamic", "simplify", "int8", "data", "imgsz", "opset"]
    simplify = checked.problems[fields.index("simplify")]
    assert simplify.fix == "Install it with: pip install onnxsim"
    assert "multiple of 32" in checked.problems[fields.index("imgsz")].message


def test_validate_accepts_a_plain_cpu_export():
    checked = validate_options(opts(formats=("onnx", "torchscript"), imgsz=64), NO_GPU)
    assert checked.ok and checked.problems == []
    assert not validate_options(opts(formats=()), NO_GPU).ok
    assert not validate_options(opts(formats=("tflite",)), NO_GPU).ok


def test_valid_gpu_export_with_every_option():
    checked = validate_options(opts(formats=("onnx", "engine"), half=True, simplify=True, int8=True,
                                    data="data.yaml"), GPU_TRT10)
    assert checked.ok, checked.problems


@pytest.mark.parametrize("cuda, expected", [
    ("13.0", 'pip install --extra-index-url https://pypi.nvidia.com "tensorrt-cu13>=10.13,<11"'),
    ("12.8", 'pip install --extra-index-url https://pypi.nvidia.com "tensorrt-cu12>=10,<11"'),
    (None, ""),
])
def test_install_command_matches_torch_cuda(cuda, expected):
    assert tensorrt_install_command(cuda) == expected


def test_facts_round_trip_and_torch_cuda_read_without_import():
    facts = ExportFacts.from_dict(GPU_TRT10.to_dict())
    assert facts == GPU_TRT10
    import sys

    had_torch = "torch" in sys.modules
    version = torch_cuda_version()
    assert version is None or version[0].isdigit()
    assert ("torch" in sys.modules) == had_torch  # read as text, never imported
