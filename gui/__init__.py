"""YOLO Studio's Qt face: the main window, one page per feature, reusable widgets, the worker wrapper.

Everything here is presentation and process plumbing. Decisions (validation, run folders, progress,
status) come from ``core``; training itself runs in a worker subprocess. This package must never import
torch, yolov5 or cv2, nor ``core.worker`` — not even indirectly — so the window starts fast and a CUDA
fault can never take it down.
"""

from gui.pyside_workarounds import install as _install_pyside_workarounds

_install_pyside_workarounds()  # before any signal is emitted: see gui/pyside_workarounds.py
