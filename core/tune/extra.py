"""The optional ``tune`` extra (Ray Tune, Optuna): whether it is installed, and the words and command to add it.

Found without importing it (``importlib.util.find_spec``): the CLI and the GUI process never import Ray; only
the tune worker does (``core/worker/tune_*``).
"""

from __future__ import annotations

import importlib.util

from core.i18n import tr

#: The packages of the ``tune`` extra (pyproject.toml) and the download a user is told about before installing.
TUNE_PACKAGES = ("ray", "optuna")
INSTALL_COMMAND = "pip install 'yolo-studio[tune]'"
#: Measured: du -shc of ray, pyarrow, optuna, sqlalchemy and alembic in site-packages after the install (445 MB).
INSTALL_SIZE_MB = 450


def missing_tune_packages() -> list[str]:
    """The ``tune`` extra's packages this interpreter lacks."""
    return [name for name in TUNE_PACKAGES if importlib.util.find_spec(name) is None]


def install_words() -> str:
    return tr("Hyperparameter search needs Ray Tune, an optional extra: {command} (about {size} MB installed).",
              command=INSTALL_COMMAND, size=INSTALL_SIZE_MB)
