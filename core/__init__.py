"""YOLO Studio's core: domain logic shared by the GUI and the CLI.

Nothing under ``core`` imports Qt, and nothing outside ``core/worker`` imports torch, yolov5 or cv2:
the GUI process stays fast to start and a CUDA fault can never take the window down.
"""

from __future__ import annotations

from pathlib import Path

__version__ = "0.1.0"

#: The repository/install root; resources (fonts, icons) live beside ``core``.
APP_ROOT = Path(__file__).resolve().parent.parent
RESOURCES_DIR = APP_ROOT / "resources"
