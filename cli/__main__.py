"""``python -m cli``: the same as the ``yolostudio`` command (tests, scripts, a checkout without install)."""

from __future__ import annotations

import sys

from cli.main import main

sys.exit(main())
