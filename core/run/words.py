"""A run's status and stage in words: one vocabulary for the CLI (``yolostudio runs``/``attach``/``train``) and
the GUI (Runs table, Train page), so the same run is described the same way from either face.

The ids (``completed``, ``training``…) are the protocol's (``docs/protocol.md``) and stay English in
``--json``; these are the words people read. A status has two forms: the lower-case word a sentence or a
CLI table uses (``stopped``) and the title a column or a heading shows (``Stopped``).
"""

from __future__ import annotations

from core.i18n import N_, tr

#: The status of a run folder whose files cannot be read (``RunInfo.error`` says why); never resumable.
UNREADABLE = "unreadable"

_STATUS_WORDS = {"running": N_("running"), "completed": N_("completed"), "stopped": N_("stopped"),
                 "failed": N_("failed"), UNREADABLE: N_("unreadable")}
_STATUS_TITLES = {"running": N_("Running"), "completed": N_("Completed"), "stopped": N_("Stopped"),
                  "failed": N_("Failed"), UNREADABLE: N_("Unreadable")}
#: What a worker is doing, by the ``stage`` event's id (``core/worker/train_job.py`` emits them).
_STAGE_WORDS = {
    "starting": N_("Starting the training process…"),
    "preparing": N_("Checking the dataset and building the model…"),
    "ready": N_("Dataset and model ready"),
    "starting_trainer": N_("Starting the trainer…"),
    "training": N_("Training"),
    "validating": N_("Validating the epoch…"),
    "validated": N_("Training"),
    "stopping": N_("Stopping: finishing the current batch and saving a checkpoint…"),
    "saving": N_("Saving checkpoints…"),
    "finished": N_("Finishing: validating the best weights…"),
}


def status_word(status: str) -> str:
    """A run's status for a sentence or a CLI table (``stopped``); an unknown id is shown as it is."""
    return tr(_STATUS_WORDS[status]) if status in _STATUS_WORDS else status


def status_title(status: str) -> str:
    """A run's status for a column or a heading (``Stopped``); an unknown id is shown as it is."""
    return tr(_STATUS_TITLES[status]) if status in _STATUS_TITLES else status


def stage_word(stage: str) -> str | None:
    """What a worker in ``stage`` is doing, or None for a stage id this vocabulary does not know."""
    return tr(_STAGE_WORDS[stage]) if stage in _STAGE_WORDS else None
