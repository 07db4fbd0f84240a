"""Installed but failing to load: torch's distribution present, ``import torch`` raising. The error texts are
the ones torch 2.14.1's own loader raises (``torch/__init__.py``: ``_load_dll_libraries`` on Windows,
``_preload_cuda_deps`` on Linux); each gets the fix for its cause, never a plain pip line that would answer
"Requirement already satisfied"."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from core.environment.rules import evaluate
from core.environment.torch_load import CUDA_PIP_LIBRARIES, VC_REDIST_URL, classify
from tests.core.environment_builders import healthy_gpu_machine

WIN1114 = ('OSError: [WinError 1114] A dynamic link library (DLL) initialization routine failed. Error loading '
           '"C:\\Users\\ann\\AppData\\Local\\Programs\\YOLO Studio\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll" '
           'or one of its dependencies.')
WIN126 = ('OSError: [WinError 126] The specified module could not be found. Error loading '
          '"C:\\venv\\Lib\\site-packages\\torch\\lib\\fbgemm.dll" or one of its dependencies.')
CUDNN = "ImportError: libcudnn.so.9: cannot open shared object file: No such file or directory"
NCCL = "OSError: libnccl.so.2: cannot open shared object file: No such file or directory"
GOMP = "ImportError: libgomp.so.1: cannot open shared object file: No such file or directory"
GONE = "ModuleNotFoundError: No module named 'torch._C'"

# (case, OS, import error) -> (cause, words the fix must hold, words it must not)
CASES = [
    ("Windows WinError 1114 in c10.dll", "Windows", WIN1114, "vc-runtime", [VC_REDIST_URL, "c10.dll"]),
    ("Windows WinError 126", "Windows", WIN126, "vc-runtime", [VC_REDIST_URL, "fbgemm.dll"]),
    ("Linux: cuDNN of the nvidia-* packages missing", "Linux", CUDNN, "cuda-library", ["--force-reinstall"]),
    ("Linux: NCCL missing", "Linux", NCCL, "cuda-library", ["--force-reinstall"]),
    ("Linux: a system library missing", "Linux", GOMP, "system-library", ["libgomp.so.1"]),
    ("files damaged", "Linux", GONE, "damaged", ["--force-reinstall"]),
]


@pytest.mark.parametrize("case, os_name, error, cause, words", CASES, ids=[c[0] for c in CASES])
def test_installed_but_cannot_load(case, os_name, error, cause, words):
    facts = healthy_gpu_machine()
    facts.system.os = os_name
    facts.torch.installed, facts.torch.import_error, facts.torch.dist_version = False, error, "2.14.1+cu130"
    facts.torch.version = facts.torch.cuda = None
    assert classify(error).cause == cause
    findings = evaluate(facts).findings
    codes = [f.code for f in findings]
    assert "torch-cannot-load" in codes and "torch-missing" not in codes
    finding = next(f for f in findings if f.code == "torch-cannot-load")
    assert "2.14.1+cu130" in finding.message and "cannot load" in finding.message
    for word in words:
        assert word in finding.fix + finding.detail, finding.fix
    pip_lines = [line for line in finding.fix.splitlines() if "pip install" in line]
    assert all("--force-reinstall" in line for line in pip_lines)  # a plain one answers "already satisfied"


def test_not_installed_is_still_not_installed():
    facts = healthy_gpu_machine()
    facts.torch.installed, facts.torch.import_error, facts.torch.dist_version = False, "No module named 'torch'", None
    finding = next(f for f in evaluate(facts).findings if f.code == "torch-missing")
    assert "--force-reinstall" not in finding.fix and "whl/cu130" in finding.fix


def test_the_library_list_is_torchs_own():
    """Every library torch's ``_preload_cuda_deps`` loads from the nvidia-* packages is in the table (read from
    the installed torch's source, without importing it)."""
    spec = importlib.util.find_spec("torch")
    if spec is None or spec.origin is None:
        pytest.skip("torch is not installed here")
    source = Path(spec.origin).read_text(encoding="utf-8")
    body = source[source.index("def _preload_cuda_deps"):source.index("def _load_global_deps")]
    theirs = {name.split(".so", 1)[0] for name in re.findall(r'"(lib[\w-]+\.so)\.\*\[0-9\]"', body)}
    assert theirs and theirs <= set(CUDA_PIP_LIBRARIES), theirs - set(CUDA_PIP_LIBRARIES)
    assert "Microsoft Visual C++ Redistributable" in source and VC_REDIST_URL in source


def test_the_checks_that_need_torch_say_it_does_not_load():
    facts = healthy_gpu_machine()
    facts.torch.installed, facts.torch.import_error, facts.torch.dist_version = False, WIN1114, "2.14.1+cu126"
    facts.torch.version = facts.torch.cuda = None
    notes = {c.key: c.note for c in evaluate(facts).checks}
    assert "installed but does not load" in notes["torch-build"] and "not installed" not in notes["torch-build"]
