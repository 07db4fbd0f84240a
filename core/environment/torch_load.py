"""Why an installed PyTorch fails to import, from the error text, and the fix that matches the cause.

"Installed but cannot load" is its own case: torch's distribution is present (``TorchFacts.dist_version``,
read from its metadata without importing it) but ``import torch`` raised. Telling the user to
``pip install torch`` then only answers "Requirement already satisfied". The causes are the ways torch's
own loader fails (``torch/__init__.py`` of the installed 2.14.1):
- Windows, ``_load_dll_libraries``: it loads ``vcruntime140.dll``, ``msvcp140.dll`` and
  ``vcruntime140_1.dll`` first — when they are missing it prints "Microsoft Visual C++ Redistributable is not
  installed … https://aka.ms/vs/17/release/vc_redist.x64.exe" — then every DLL in ``torch\\lib``, raising
  ``[WinError 1114]`` (a DLL's initialisation failed) or ``[WinError 126]`` (a dependency was not found)
  '… Error loading "…\\c10.dll" or one of its dependencies.'; when torch's own loader is bypassed, Python says
  "DLL load failed while importing _C".
- Linux, ``_load_global_deps`` / ``_preload_cuda_deps``: the CUDA libraries a CUDA build takes from its
  ``nvidia-*`` pip packages (``CUDA_PIP_LIBRARIES``, torch's own ``cuda_libs`` list); one missing gives
  "libcudnn.so.9: cannot open shared object file" — the packages are missing or damaged, and only a forced
  reinstall of the build brings them back (a plain one is "already satisfied").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: The libraries torch 2.14.1's ``_preload_cuda_deps`` loads from the ``nvidia-*`` pip packages (its
#: ``cuda_libs`` list, ``torch/__init__.py``), by soname stem; nvToolsExt is optional there.
CUDA_PIP_LIBRARIES: tuple[str, ...] = (
    "libcublasLt", "libcublas", "libcudnn", "libnvrtc", "libnvrtc-builtins", "libcudart", "libcupti", "libcufft",
    "libcurand", "libnvJitLink", "libcusparse", "libcusparseLt", "libcusolver", "libnccl", "libnvshmem_host",
    "libcufile", "libnvToolsExt")
#: Microsoft's link for the latest supported Visual C++ Redistributable (x64), as torch's loader prints it.
VC_REDIST_URL = "https://aka.ms/vs/17/release/vc_redist.x64.exe"

_WINERROR = re.compile(r"\[WinError (\d+)\]")
#: Python's own words when a Windows extension module's DLL (or one it needs) does not load: "ImportError: DLL load
#: failed while importing _C: The specified module could not be found." — the same missing runtime as above.
_DLL_LOAD_FAILED = "DLL load failed"
_DLL = re.compile(r'Error loading "([^"]+)"')
_MISSING_SO = re.compile(r"([\w.+-]+\.so(?:\.[\w.]+)?): cannot open shared object file")


@dataclass(frozen=True)
class LoadFailure:
    """What an import error means: ``cause`` a stable word, ``library`` the file named, ``winerror`` its code."""

    cause: str  # "vc-runtime" | "cuda-library" | "system-library" | "damaged"
    library: str | None = None
    winerror: int | None = None


def classify(error: str | None) -> LoadFailure:
    """The cause behind ``import torch``'s error text (``TorchFacts.import_error``)."""
    text = error or ""
    win = _WINERROR.search(text)
    dll = _DLL.search(text)
    if win and int(win.group(1)) in (126, 1114) or (dll and "DLL" in text) or "vcruntime140" in text.lower() \
            or _DLL_LOAD_FAILED in text:
        name = dll.group(1).replace("\\", "/").rsplit("/", 1)[-1] if dll else None
        return LoadFailure("vc-runtime", name, int(win.group(1)) if win else None)
    missing = _MISSING_SO.search(text)
    if missing:
        library = missing.group(1)
        stem = library.split(".so", 1)[0]
        return LoadFailure("cuda-library" if stem in CUDA_PIP_LIBRARIES else "system-library", library)
    return LoadFailure("damaged")
