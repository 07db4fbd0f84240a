"""One run's folder: its layout and the questions only the folder can answer (``core.run.folder.RunFolder``)."""

from core.run.folder import (BEST_WEIGHTS, CONTROL_FILE, EXPORTS_DIR, LAST_WEIGHTS, WEIGHTS_DIR, WORKER_LOG,
                             RunFolder)

__all__ = ["BEST_WEIGHTS", "CONTROL_FILE", "EXPORTS_DIR", "LAST_WEIGHTS", "WEIGHTS_DIR", "WORKER_LOG", "RunFolder"]
