"""What the installer program shares with the app: the torch wheel choice, the index check, pip's progress and
the PyTorch repair plan.

The installer program itself (``python -m installer``: arguments, detection, plan, steps, shortcuts,
uninstall) is the top-level ``installer/`` package beside the per-OS scripts, its only users. The in-app
repair (Environment page, ``yolostudio doctor --repair``) and the repair worker use these modules, so they
stay in core. Everything here runs on the standard library alone: the installer runs it with the system's
Python before any of the app's dependencies exist (``tests/core/test_install_plan.py`` proves it in an
isolated interpreter). The wheel rules themselves are not here: they are the environment checker's tables
(``core/environment/tables.py``), imported, so the installer and the checker can never disagree.
"""

from __future__ import annotations
