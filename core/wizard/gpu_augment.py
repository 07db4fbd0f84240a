"""Whether the wizard turns ``--gpu-augment`` on: by measurement, the loader's supply against the model's demand.

The wizard measures how many images/s yolov5's loader supplies with each worker count (augmenting in its
workers, as stock yolov5 does) and how many the device consumes. When even the best data path and worker count
leave the GPU waiting (supply below demand), augmenting on the device removes most of the workers' CPU time per
image: ``bench/gpu_augment.py`` measured the loader's CPU time per image at 1/3.9 of stock's on a 640 prepared
copy (docs/performance.md), so the loader then supplies about ``LOADER_GAIN`` times as many images. On a CPU
the augmentation would run on the very cores that train and feed the model, so it is never chosen there.
"""

from __future__ import annotations

from core.i18n import tr
from core.wizard.inputs import Hardware
from core.wizard.rules import Reason

#: Loader supply with ``--gpu-augment on`` over stock's, per worker (bench/gpu_augment.py: 7.45 vs 1.89 ms of CPU
#: per image on a 640 prepared copy, 3.9×); 3.5 is the issue's goal, the figure the prediction may count on.
LOADER_GAIN = 3.5


def choose_gpu_augment(hw: Hardware, supply: float, demand: float) -> tuple[Reason, float]:
    """(the reason, the loader supply per rank the prediction may count on) for the chosen data path, whose
    measured ``supply`` (images/s per rank at the chosen workers, stock augmentation) feeds a model that
    consumes ``demand``."""
    evidence = tr("loader {supply:.0f} img/s with yolov5's augmentation; the model consumes {demand:.0f} img/s",
                  supply=supply, demand=demand)
    if not hw.gpus:
        return Reason("off", tr("On the CPU the augmentation would run on the same cores as the model and the "
                                "loader: nothing to gain."), evidence, "measure"), supply
    if demand <= 0 or supply >= demand:
        return Reason("off", tr("The loader already feeds the GPU with yolov5's own augmentation in its "
                                "workers."), evidence, "measure"), supply
    return Reason("on", tr("The loader supplies fewer images than the GPU trains: augmenting each batch on the GPU "
                           "leaves the workers only decoding, about {gain:.1f}× the supply.", gain=LOADER_GAIN),
                  evidence, "measure", estimated=True), min(demand, supply * LOADER_GAIN)
