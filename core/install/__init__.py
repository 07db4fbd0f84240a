"""Installing YOLO Studio and repairing its PyTorch: the decisions, as tested Python.

The per-OS installers (``installer/linux/install.sh``, ``installer/windows/install.ps1``) are thin: they
find a Python and hand over to ``python -m core.install``, which plans (which torch wheel fits this
driver and these GPUs, where the app goes, how much disk it needs), installs step by step and writes the
shortcuts last. The in-app repair (Environment page, ``yolostudio doctor --repair``) reuses the same wheel
choice and install command.

Everything here runs on the standard library alone: the installer runs it with the system's Python
before any of the app's dependencies exist (``tests/core/test_install_plan.py`` proves it in an isolated
interpreter). The wheel rules themselves are not here: they are the environment checker's tables
(``core/environment/tables.py``), imported, so the installer and the checker can never disagree.
"""

from __future__ import annotations
