"""The installer program (``python -m installer``, run by installer/linux/install.sh and
installer/windows/install.ps1): it detects the machine, plans (which torch wheel, where the app goes, how much
disk), installs step by step with its own progress lines, writes the shortcuts last, and uninstalls.

Its only user is the per-OS scripts beside it, so it lives here and not in core. What the doctor's Repair and
the Environment page share with it (the wheel choice, the index check, pip's progress, the repair plan) stays
in ``core/install/``. Standard library only: it runs on the system's Python before the app's dependencies exist.
"""
