"""``python -m gui``: start the YOLO Studio window."""

from __future__ import annotations

import sys

from gui.app import main

sys.exit(main())
