"""``StepFailed``: an install step that could not be done, with the reason a person can act on."""

from __future__ import annotations


class StepFailed(Exception):
    def __init__(self, step: str, reason: str) -> None:
        super().__init__(reason)
        self.step = step
        self.reason = reason
