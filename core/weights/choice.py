"""Which weights the next training starts from: the one rule for the Train page, the wizard and the CLI.

``recommend_start(model_yaml, workspace)`` prefers fine-tuning from the matching official checkpoint when
it is in the weights store (COCO-pretrained weights reach a useful mAP on a few hundred custom images in
tens of epochs; from scratch needs hundreds), offers to get it when it is not, and otherwise keeps the YAML —
each time with the reason in words. ``resolve_named(text, workspace)`` is how a bare checkpoint name
(``--model yolov5s.pt``, ``--weights yolov5s.pt``) finds its file in the store; a missing one is an error
that names ``yolostudio weights get`` — never a download.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from core.i18n import tr
from core.weights.catalog import Checkpoint, find_checkpoint
from core.weights.store import WeightsStore


class WeightsNotHere(LookupError):
    """A checkpoint named from the catalog that is not in the store (or not usable there)."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


@dataclass(frozen=True)
class StartChoice:
    """What the next run should start from, and why."""

    weights: Path | None  # the stored checkpoint to fine-tune from; None = train from the YAML
    reason: str
    checkpoint: Checkpoint | None = None  # the official checkpoint matching the model (offer it when absent)
    state: str = ""  # the checkpoint's store state (core.weights.store.STATES), "" when none matches

    @property
    def can_get(self) -> bool:
        """The matching checkpoint exists but is not usable here yet: offer to get it."""
        return self.checkpoint is not None and self.weights is None


def get_command(checkpoint: Checkpoint) -> str:
    return f"yolostudio weights get {checkpoint.name}"


def recommend_start(model_yaml: str, workspace: Path) -> StartChoice:
    """Fine-tune from the matching stored checkpoint when there is one; otherwise the YAML, with the reason."""
    checkpoint = find_checkpoint(model_yaml) if not model_yaml.strip().endswith(".pt") else None
    if checkpoint is None:
        if model_yaml.strip().endswith(".pt"):
            return StartChoice(None, tr("The model is a checkpoint: training starts from its weights."))
        return StartChoice(None, tr("No official pretrained checkpoint matches {model}: training from scratch, "
                                    "which needs many more epochs.", model=model_yaml or "?"))
    store = WeightsStore(workspace)
    state = store.state(checkpoint.file_name)
    if state == "ok":
        return StartChoice(store.path(checkpoint.file_name),
                           tr("Fine-tuning from {file} (COCO-pretrained, on this machine): a few hundred images "
                              "reach a useful mAP in tens of epochs, where training from scratch needs hundreds.",
                              file=checkpoint.file_name), checkpoint, state)
    if state in ("changed", "unlisted"):
        return StartChoice(None, tr("{file} in the weights store is not the file that was stored, so it is not "
                                    "used: training from scratch needs many more epochs. Remove it and get it "
                                    "again.", file=checkpoint.file_name), checkpoint, state)
    return StartChoice(None, tr("No pretrained weights on this machine: training from scratch needs many more "
                                "epochs. Get {file} ({size}) to fine-tune instead.", file=checkpoint.file_name,
                                size=checkpoint.size_text()), checkpoint, state)


def resolve_named(text: str, workspace: Path | None) -> Path | None:
    """The store's file for a bare catalog checkpoint name (``yolov5s.pt``); None when ``text`` is not one
    (a path, or a file that exists where it is named — the user's own). Raises ``WeightsNotHere``."""
    text = text.strip()
    checkpoint = find_checkpoint(text) if text.endswith(".pt") else None
    if checkpoint is None or Path(text).expanduser().is_file():
        return None
    if workspace is not None:
        store = WeightsStore(workspace)
        state = store.state(checkpoint.file_name)
        if state == "ok":
            return store.path(checkpoint.file_name)
        if state in ("changed", "unlisted"):
            raise WeightsNotHere(
                tr("{file} in the weights store is not the file that was stored (its size or record differs).",
                   file=checkpoint.file_name),
                tr("Remove it and get it again: yolostudio weights remove {name} && {command}",
                   name=checkpoint.name, command=get_command(checkpoint)))
    raise WeightsNotHere(
        tr("{file} is not on this machine. YOLO Studio downloads nothing without being asked.",
           file=checkpoint.file_name),
        tr("Get it with: {command} (or Weights… on the Train page); or give the path of a copy you have.",
           command=get_command(checkpoint)))
