"""How sure is the mAP: a bootstrap over images ("mAP 0.62 ± 0.08 on 40 images").

Images are drawn with replacement and the mAP recomputed on each draw with yolov5's own ``ap_per_class``
(passed in as ``metric``: this module stays free of yolov5); the interval is the 2.5th–97.5th percentile of
the draws and ``±`` half its width. Resampling whole images, not boxes, keeps each image's boxes together —
the images are what the val set samples.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Callable

import numpy as np

from core.i18n import tr

#: One image's statistics as yolov5's val.py collects them: (correct (N, 10) bool, conf (N,), predicted class
#: (N,), label classes (L,)).
ImageStats = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
#: (tp, conf, pred_cls, target_cls) -> (mAP@0.5, mAP@0.5:0.95) over the pooled statistics.
Metric = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray], tuple[float, float]]

#: Draws [design: 200 puts the 95 % percentiles within about ±0.01 of their limit for val sets of 20–5000 images].
DRAWS = 200
#: Fewer images than this and the interval is called too wide to trust [design].
SMALL_VAL_IMAGES = 100


@dataclass(frozen=True)
class Interval:
    value: float
    low: float
    high: float
    images: int
    draws: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def to_json(self) -> dict[str, float | int]:
        return {**asdict(self), "half_width": self.half_width}


def pooled(stats: list[ImageStats]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The images' statistics concatenated, as val.py does before ``ap_per_class``."""
    if not stats:
        return np.zeros((0, 10), bool), np.zeros(0), np.zeros(0), np.zeros(0)
    return tuple(np.concatenate([s[k] for s in stats], 0) for k in range(4))  # type: ignore[return-value]


def bootstrap_map(stats: list[ImageStats], metric: Metric, *, draws: int = DRAWS, seed: int = 0,
                  which: int = 1) -> Interval:
    """The interval of mAP (``which`` 1: mAP@0.5:0.95, 0: mAP@0.5) over ``draws`` resamplings of the images."""
    value = float(metric(*pooled(stats))[which]) if stats else 0.0
    if len(stats) < 2:
        return Interval(value, value, value, len(stats), 0)
    rng = np.random.default_rng(seed)
    values = []
    for _ in range(draws):
        sample = [stats[i] for i in rng.integers(0, len(stats), len(stats))]
        tp = pooled(sample)
        values.append(float(metric(*tp)[which]) if tp[1].size and tp[3].size else 0.0)
    low, high = np.percentile(values, [2.5, 97.5])
    return Interval(value, float(low), float(high), len(stats), draws)


#: The mAP the interval is of by default (``bootstrap_map``'s ``which=1``), named wherever a figure is shown.
DEFAULT_LABEL = "mAP@0.5:0.95"


def estimable(interval: Interval) -> bool:
    """Whether the draws say how sure the number is: "± 0.00" from no draws, or from draws that all gave the
    same two-decimal figure (a tiny set, a model that found nothing), claims a certainty nobody measured."""
    return interval.draws > 0 and round(interval.half_width, 2) > 0


def interval_words(interval: Interval, label: str = DEFAULT_LABEL, *, held_out: bool = False) -> str:
    """"mAP@0.5:0.95 0.62 ± 0.08 on 40 images" — with a warning when the val set is small (``held_out``: the
    images are the train split's, predicted by k-fold models; a small set is said as such); without "± 0.00"
    where the spread cannot be estimated (issue 32)."""
    if not estimable(interval):
        return tr("{metric} {value} on {images} images: too few images or detections to estimate how far other "
                  "images would move it", metric=label, value=f"{interval.value:.2f}", images=interval.images)
    text = tr("{metric} {value} ± {pm} on {images} images", metric=label, value=f"{interval.value:.2f}",
              pm=f"{interval.half_width:.2f}", images=interval.images)
    if interval.images < SMALL_VAL_IMAGES:
        text += " " + (tr("(few images: the number can move this much with other images)") if held_out else
                       tr("(a small val set: the number can move this much with other images)"))
    return text
