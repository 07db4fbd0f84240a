"""Which epoch of a run is "the best": yolov5's own rule, in one place.

yolov5 keeps ``best.pt`` from the epoch with the highest *fitness*, a weighted sum of the validation
metrics (``utils/metrics.fitness``: 0.1 x mAP@0.5 + 0.9 x mAP@0.5:0.95; precision and recall weigh 0).
Every figure the app calls "best" — the Train page's headline, the Runs page's columns, ``yolostudio
runs`` — is that epoch's metrics, so they agree with each other and with the ``best.pt`` a user exports.
Reporting each metric's own maximum instead would mix epochs: a mAP@0.5 that no saved weights have.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

MAP50 = "metrics/mAP_0.5"
MAP50_95 = "metrics/mAP_0.5:0.95"
#: yolov5 7.0's ``fitness`` weights ([P, R, mAP@0.5, mAP@0.5:0.95] = [0, 0, 0.1, 0.9]).
FITNESS_WEIGHTS: Mapping[str, float] = {MAP50: 0.1, MAP50_95: 0.9}


def fitness(metrics: Mapping[str, Any]) -> float | None:
    """yolov5's fitness of one epoch's metrics; None when a weighted metric is missing."""
    total = 0.0
    for key, weight in FITNESS_WEIGHTS.items():
        value = metrics.get(key)
        if not isinstance(value, (int, float)):
            return None
        total += weight * float(value)
    return total


@dataclass(frozen=True)
class BestEpoch:
    """The best epoch so far (0-based) with its fitness and all its validation metrics."""

    epoch: int
    fitness: float
    metrics: dict[str, float] = field(default_factory=dict)

    @property
    def map50(self) -> float | None:
        return self.metrics.get(MAP50)

    @property
    def map50_95(self) -> float | None:
        return self.metrics.get(MAP50_95)


def epoch_candidate(epoch: int, metrics: Mapping[str, Any], reported_fitness: Any = None) -> BestEpoch | None:
    """One epoch as a candidate: the fitness the trainer reported, else computed from its metrics."""
    clean = {k: float(v) for k, v in metrics.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
    fit = float(reported_fitness) if isinstance(reported_fitness, (int, float)) else fitness(clean)
    return None if fit is None else BestEpoch(int(epoch), fit, clean)


def update_best(best: BestEpoch | None, candidate: BestEpoch | None) -> BestEpoch | None:
    """The better of the two; a tie goes to the later epoch, as yolov5 overwrites ``best.pt`` on a tie."""
    if candidate is None:
        return best
    if best is None or candidate.fitness >= best.fitness:
        return candidate
    return best


def best_from_event(best: BestEpoch | None, event: Mapping[str, Any]) -> BestEpoch | None:
    """Fold one ``epoch_end`` event into the best so far (other events leave it as it is)."""
    if event.get("type") != "epoch_end" or not isinstance(event.get("epoch"), int):
        return best
    return update_best(best, epoch_candidate(event["epoch"], event.get("metrics") or {}, event.get("fitness")))


def best_epoch(events: Iterable[Mapping[str, Any]]) -> BestEpoch | None:
    """The best epoch of a whole event stream (live, replayed or recorded)."""
    best: BestEpoch | None = None
    for event in events:
        best = best_from_event(best, event)
    return best
