"""The door of a training on another machine (issue 35): its pre-flight here, its ending folded from its events.

The run itself passes the remote's own ``TrainDoor`` (``yolostudio train --config`` there, started detached by
``core.remote.launch``): the option rules on that machine's facts, its trust, its dataset gate. This door checks
what only this side can: the machine is one the user added, the dataset is here to be sent, and nothing asks the
remote to trust a file from this machine (a grant is given where the file is: ``--trust-*`` is refused here, a
checkpoint path of this machine means nothing there). It folds the events streamed back (``Followed``), so the
face shows the ending as for a local run.
"""

from __future__ import annotations

import secrets
from dataclasses import asdict
from pathlib import Path
from typing import Any

from core.i18n import tr
from core.remote.machines import Machine, MachineError, get_machine
from core.training.options import TrainConfig
from core.usecases.door import Followed, Problem


class RemoteTrainDoor(Followed):
    kind = "train"

    def __init__(self, config: TrainConfig, machine: str, workspace: Path, *, trust_weights: bool = False,
                 trust_model: bool = False) -> None:
        super().__init__()
        self.config, self.machine_name, self.workspace = config, machine, Path(workspace)
        self.trust = trust_weights or trust_model
        self.machine: Machine | None = None
        self.run = f"{config.name or 'exp'}-{secrets.token_hex(3)}"

    def check(self) -> list[Problem]:
        found: list[Problem] = []
        try:
            self.machine = get_machine(self.workspace, self.machine_name)
        except MachineError as exc:
            return [Problem(str(exc))]
        if not self.config.data or not Path(self.config.data).expanduser().is_file():
            found.append(Problem(tr("The dataset {data} is not on this machine: it is sent from here.",
                                    data=self.config.data or "—"),
                                 tr("give the data.yaml of a dataset on this machine")))
        if self.trust:
            found.append(Problem(tr("--trust-weights and --trust-model are not sent to another machine."),
                                 tr("grant it there: 'yolostudio weights import FILE' on {name}",
                                    name=self.machine_name)))
        for name in ("model", "weights", "hyp"):
            value = str(getattr(self.config, name, "") or "")
            if "/" in value or "\\" in value:
                found.append(Problem(tr("{value} is a file of this machine; {name} cannot read it.", value=value,
                                        name=self.machine_name),
                                     tr("use a checkpoint of {name}'s weights store (a name such as yolov5s.pt)",
                                        name=self.machine_name)))
        return found

    def remote_config(self, data_yaml: str) -> dict[str, Any]:
        """The options the remote trains with: these, its copy of the dataset, this run's name."""
        return dict(asdict(self.config), data=data_yaml, name=self.run)
