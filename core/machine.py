"""Quick machine facts for validating options in the GUI/CLI process, without importing torch.

NVML answers in milliseconds and needs no CUDA context; when it can't be read (no driver, no GPU,
no library) the GPU count is unknown and validation says so instead of guessing. The full environment
check (torch's view, a test kernel) runs in a worker — this is only the cheap part.
"""

from __future__ import annotations

from core.train_config import MachineFacts


def quick_machine_facts() -> MachineFacts:
    try:
        import pynvml

        pynvml.nvmlInit()
        try:
            count = pynvml.nvmlDeviceGetCount()
            names = []
            for i in range(count):
                name = pynvml.nvmlDeviceGetName(pynvml.nvmlDeviceGetHandleByIndex(i))
                names.append(name.decode() if isinstance(name, bytes) else str(name))
        finally:
            pynvml.nvmlShutdown()
    except Exception:  # noqa: BLE001 - ImportError, NVMLError_LibraryNotFound, DriverNotLoaded...
        return MachineFacts(gpu_count=0, gpu_names=())
    return MachineFacts(gpu_count=count, gpu_names=tuple(names))
