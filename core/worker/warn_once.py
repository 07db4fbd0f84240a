"""Each library warning once per worker, however often the library resets Python's warning registry.

torch and yolov5 raise deprecation warnings from code that runs every batch (autocast, ``torch.meshgrid``,
…). Python would print each once per place, but every ``warnings.catch_warnings``/``filterwarnings`` call
made meanwhile (yolov5 and torch make them inside the loop) clears that memory, so ``worker.log`` got one
copy per batch. The dedupe is done where a warning is shown, after every filter has had its say.
"""

from __future__ import annotations

import warnings
from typing import Any


def show_each_warning_once() -> None:
    """From now on a warning with the same category, text and place is written once (idempotent)."""
    if getattr(warnings.showwarning, "_yolostudio_once", False):
        return
    original = warnings.showwarning
    seen: set[tuple[Any, str, str, int]] = set()

    def show(message: Any, category: Any, filename: str, lineno: int, file: Any = None, line: Any = None) -> None:
        key = (category, str(message), filename, lineno)
        if key not in seen:
            seen.add(key)
            original(message, category, filename, lineno, file, line)

    show._yolostudio_once = True  # type: ignore[attr-defined]
    warnings.showwarning = show
