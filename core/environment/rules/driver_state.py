"""The NVIDIA driver's own state, where the fix is to reload or reboot — never to install or reinstall anything:
an updated driver whose old kernel module is still loaded, and CUDA's "unknown error" after a suspend.

Facts, with their sources:
- Driver/library mismatch. NVML's ``NVML_ERROR_LIB_RM_VERSION_MISMATCH`` (18), "RM has detected an NVML/RM version
  mismatch." (NVML API Reference; pynvml's ``NVMLError_LibRmVersionMismatch``); ``nvidia-smi`` prints "Failed to
  initialize NVML: Driver/library version mismatch" beside "NVML library version: 580.159", while
  ``/proc/driver/nvidia/version`` still names the loaded module's 580.126.09 (cpnr/computing#109); CUDA's
  ``cudaErrorSystemDriverMismatch`` (803): "a mismatch between the versions of the display driver and the CUDA
  driver". The user-space libraries were replaced by a package update, the kernel module in memory was not: a
  reboot loads the new module (NVIDIA/deepops#1186), or, with nothing using the GPU, unloading the modules and
  loading them again (``rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia``; XuehaiPan/nvitop#41).
- CUDA "unknown error" (``CUDA_ERROR_UNKNOWN``, 999) after a suspend: PyTorch warns "CUDA initialization: CUDA
  unknown error - this may be due to an incorrectly set up environment …" and sees no GPU; reloading the
  ``nvidia_uvm`` module brings CUDA back without a reboot (pytorch/pytorch#88639, #49081: "sudo modprobe -r
  nvidia_uvm && sudo modprobe nvidia_uvm"; pop-os/default-settings#64: "CUDA fails to initialize after resuming
  from suspend with UNKNOWN_ERROR(99) until we reload the nvidia_uvm module"). NVIDIA's driver README,
  "Configuring Power Management Support", keeps video memory across suspend with
  ``NVreg_PreserveVideoMemoryAllocations=1`` and the ``nvidia-suspend``/``nvidia-resume`` services.
"""

from __future__ import annotations

import re

from core.environment.facts import EnvironmentFacts
from core.environment.nvml import error_words
from core.findings import Finding
from core.i18n import tr

MISMATCH_ERROR = "LibRmVersionMismatch"
#: cudaErrorSystemDriverMismatch's words (CUDA Runtime API, error 803), as torch reports it.
_CUDA_MISMATCH = re.compile(r"unsupported display driver\s*/\s*cuda driver combination|driver/library version "
                            r"mismatch", re.I)
_UNKNOWN = re.compile(r"\bunknown error\b|CUDA_ERROR_UNKNOWN", re.I)
RELOAD_MODULES = ("sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia && "
                  "sudo modprobe nvidia_uvm")
RELOAD_UVM = "sudo rmmod nvidia_uvm && sudo modprobe nvidia_uvm"


def versions_differ(f: EnvironmentFacts) -> bool:
    k, lib = f.nvml.kernel_module_version, f.nvml.library_version
    return bool(k and lib and k != lib)


def driver_mismatch(f: EnvironmentFacts) -> bool:
    """The loaded kernel module and the user-space driver libraries are of different versions."""
    if f.nvml.error == MISMATCH_ERROR:
        return True
    if f.nvml.available:
        return False  # NVML started: its library and the module agree
    return versions_differ(f) or bool(f.nvml.error and _CUDA_MISMATCH.search(f.torch.cuda_error or ""))


def mismatch_finding(f: EnvironmentFacts) -> Finding:
    k, lib = f.nvml.kernel_module_version, f.nvml.library_version
    evidence = {tr("kernel module (loaded)"): k or tr("not read"), tr("NVML library (on disk)"): lib or tr("not read"),
                tr("NVML error"): error_words(f.nvml.error) if f.nvml.error else tr("none")}
    if f.torch.cuda_error:
        evidence[tr("PyTorch")] = f.torch.cuda_error
    if f.system.container:
        fix, kind = tr("On the host (not inside this container): reboot it — or, with nothing using the GPU, reload "
                       "the modules: {reload} — then restart the container.", reload=RELOAD_MODULES), "advice"
    elif f.system.wsl or f.system.os == "Windows":
        fix, kind = tr("Restart Windows (then, under WSL, reopen it): the updated driver is loaded at start."), "advice"
    else:
        fix = tr("sudo reboot   # or, with every program that uses the GPU closed (the desktop too): {reload}",
                 reload=RELOAD_MODULES)
        kind = "command"
    versions = tr(" (loaded {kernel}, on disk {library})", kernel=k, library=lib) if k and lib else ""
    return Finding("driver-mismatch", "error",
                   tr("The NVIDIA driver was updated, but the old one is still loaded"),
                   tr("NVML answers 'Driver/library version mismatch': the driver's libraries on disk are a newer "
                      "version than its kernel module in memory{versions}, which happens after a driver update "
                      "without a reboot. Until the new module is loaded, neither nvidia-smi nor CUDA works. Nothing "
                      "needs to be installed or reinstalled.", versions=versions), evidence, fix, kind)


def unknown_error(text: str | None) -> bool:
    """CUDA's catch-all 'unknown error' (999), what CUDA answers after a suspend broke nvidia_uvm."""
    return bool(text and _UNKNOWN.search(text))


def uvm_fix(f: EnvironmentFacts) -> tuple[str, str]:
    """(fix, kind) that brings CUDA back after a suspend: reload nvidia_uvm where the driver is this system's."""
    if f.system.container:
        return tr("On the host (not inside this container): {reload}, then restart the container.",
                  reload=RELOAD_UVM), "advice"
    if f.system.wsl or f.system.os == "Windows":
        return tr("Restart Windows (under WSL: 'wsl --shutdown' in Windows, then reopen WSL); a PyTorch reinstall "
                  "cannot help."), "advice"
    modules = f.system.nvidia_modules
    if modules is not None and "nvidia" in modules and "nvidia_uvm" not in modules:
        return tr("sudo modprobe nvidia_uvm   # CUDA needs this module and it is not loaded"), "command"
    return tr("{reload}   # close the programs that use CUDA first; if the module stays busy, reboot",
              reload=RELOAD_UVM), "command"


def uvm_detail(f: EnvironmentFacts) -> str:
    where = (tr("On a laptop this follows a suspend and resume: the driver's unified-memory module (nvidia_uvm) "
                "does not come back, so CUDA answers 'unknown error' until it is reloaded.") if f.system.laptop else
             tr("This usually follows a suspend and resume: the driver's unified-memory module (nvidia_uvm) does "
                "not come back, so CUDA answers 'unknown error' until it is reloaded."))
    keep = tr("To keep it from recurring, enable NVIDIA's suspend support (sudo systemctl enable "
              "nvidia-suspend.service nvidia-resume.service, with the module option "
              "NVreg_PreserveVideoMemoryAllocations=1). Nothing needs to be reinstalled.") if f.system.os == "Linux" and not f.system.container and not f.system.wsl else \
        tr("Nothing needs to be reinstalled.")
    return f"{where} {keep}"
