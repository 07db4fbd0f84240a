"""The main window's status bar: the machine at a glance, always visible, so nobody needs nvidia-smi.

GPU name, utilisation and memory (NVML), CPU %, RAM, and the active run's progress. Refreshed every
2 s by a timer; NVML's slow ``init`` runs once in the background (``gui.background``).
"""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QLabel, QStatusBar, QWidget

from gui.machine_glance import GpuGlance, NvmlGlance, read_host
from gui.shell_operations import open_gpu_readings

REFRESH_MS = 2000


class MachineStatusBar(QStatusBar):
    def __init__(self, parent: QWidget | None = None, *, nvml: NvmlGlance | None = None,
                 start: bool = True) -> None:
        super().__init__(parent)
        self._nvml = nvml or NvmlGlance()
        self._nvml_ready = False
        self.run_label = QLabel(self.tr("No active run"), self)
        self.gpu_label = QLabel(self.tr("GPU: checking…"), self)
        self.cpu_label = QLabel(self)
        self.ram_label = QLabel(self)
        for label in (self.run_label, self.gpu_label, self.cpu_label, self.ram_label):
            label.setContentsMargins(6, 0, 6, 0)
            self.addPermanentWidget(label)
        self._timer = QTimer(self, interval=REFRESH_MS, timeout=self.refresh)
        if start:
            self.start()

    def start(self) -> None:
        """Begin the readings: CPU and RAM now and every ``REFRESH_MS``, NVML loaded in the background. The
        window calls it after its first paint: psutil's import and NVML's start are not start-up's cost."""
        read_host()  # the first cpu_percent(None) only sets the reference point
        self._timer.start()
        open_gpu_readings(self, self._nvml.init).success(self._on_nvml_ready).failure(
            lambda exc: self._on_nvml_ready(False)).run()
        self.refresh()

    def set_run_summary(self, text: str) -> None:
        self.run_label.setText(text or self.tr("No active run"))

    def refresh(self) -> None:
        host = read_host()
        self.cpu_label.setText(self.tr("CPU {percent} %").format(percent=f"{host.cpu_percent:.0f}"))
        self.ram_label.setText(self.tr("RAM {used}/{total} GB").format(
            used=f"{host.ram_used_gb:.1f}", total=f"{host.ram_total_gb:.1f}"))
        if self._nvml_ready:
            self._show_gpus(self._nvml.read())

    def _on_nvml_ready(self, ok: bool) -> None:
        self._nvml_ready = True
        self._show_gpus(self._nvml.read() if ok else None)

    def _show_gpus(self, gpus: list[GpuGlance] | None) -> None:
        if not gpus:
            self.gpu_label.setText(self.tr("No NVIDIA GPU"))
            self.gpu_label.setToolTip(self.tr("No NVIDIA GPU could be read through NVML: training uses the CPU."))
            return
        self.gpu_label.setText(self._gpu_text(gpus[0]) if len(gpus) == 1 else self.tr(
            "{first} (+{more} more)").format(first=self._gpu_text(gpus[0]), more=len(gpus) - 1))
        self.gpu_label.setToolTip("\n".join(self._gpu_text(g) for g in gpus))

    def _gpu_text(self, gpu: GpuGlance) -> str:
        unknown = "—"
        return self.tr("GPU {index} {name} · {util} % · {used}/{total} GB").format(
            index=gpu.index, name=gpu.name,
            util=unknown if gpu.util_percent is None else f"{gpu.util_percent:.0f}",
            used=unknown if gpu.mem_used_gb is None else f"{gpu.mem_used_gb:.1f}",
            total=unknown if gpu.mem_total_gb is None else f"{gpu.mem_total_gb:.1f}")

    def shutdown(self) -> None:
        self._timer.stop()
        self._nvml.close()
