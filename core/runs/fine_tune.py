"""``train --from RUN``: a new run that fine-tunes from a run's best weights, with its settings, on its dataset as
the dataset is now (the labelling loop's retrain: accept, then train again from where the model was).

The parent's options come from its ``config.json`` (what the user asked for) with one change: the model is the
parent's ``best.pt`` (and no separate initial weights), so yolov5 builds the network from the checkpoint's own
definition and starts from its weights. Nothing the file claims is trusted: the door checks ``best.pt`` by
provenance like any checkpoint (``core.usecases.train.TrainDoor``), and a meeting point beyond loopback the file
names is refused unless typed now (the CLI's ``unconfirmed_endpoints``). The run's name is ``<parent>-ft``
(``-ft2``, … when taken); the new run records its parent (``spec.from_run``), which its dataset version is
compared with (``core.run.dataset_version``).
"""

from __future__ import annotations

from pathlib import Path

from core.i18n import tr
from core.run.files import UnreadableRun
from core.run.folder import RunFolder
from core.runs.store import load_run_config
from core.training.options import TrainConfig


class FromRunError(ValueError):
    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message, self.hint = message, hint


def fine_tune_config(run_dir: Path) -> TrainConfig:
    """The options of a fine-tune of ``run_dir``: its own, from its best.pt; ``FromRunError`` when it has none."""
    run_dir = Path(run_dir)
    try:
        config = load_run_config(run_dir)["spec"].get("config")
        cfg = TrainConfig.from_dict(config if isinstance(config, dict) else {})
    except (UnreadableRun, OSError, ValueError, TypeError) as exc:
        raise FromRunError(tr("run {name} cannot be read: {reason}", name=run_dir.name, reason=exc)) from exc
    best = RunFolder(run_dir).best_weights()
    if best is None:
        raise FromRunError(tr("Run {name} has no best.pt to fine-tune from.", name=run_dir.name),
                           tr("Train it first (or let it finish an epoch), or choose another run."))
    cfg.model, cfg.weights, cfg.name = str(best), "", f"{run_dir.name}-ft"
    return cfg
