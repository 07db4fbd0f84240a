"""The door of a training on another machine (issue 35): its pre-flight here, its ending folded from its events.

The run itself passes the remote's own ``TrainDoor`` (``yolostudio train --config`` there, started detached by
``core.remote.launch``): the option rules on that machine's facts, its trust, its dataset gate. This door checks
what only this side can: the machine is one the user added, the dataset is here to be sent, and nothing asks the
remote to trust a file from this machine (a grant is given where the file is: ``--trust-*`` is refused here, a
checkpoint path of this machine means nothing there). It folds the events streamed back (``Followed``), so the
face shows the ending as for a local run.
"""

from __future__ import annotations

import json
import secrets
import threading
from dataclasses import asdict
from pathlib import Path
from typing import Any, Callable

from core.i18n import tr
from core.remote.machines import Machine, MachineError, get_machine
from core.remote.ssh import failure_words, remote_words, run_remote
from core.remote.sync import sync_dataset
from core.training.options import TrainConfig
from core.usecases.door import Followed, Problem

#: Seconds the remote has to answer ``machine launch`` (it starts the run and returns at once).
LAUNCH_TIMEOUT_S = 120.0


class RemoteStartError(RuntimeError):
    """The run could not be started there; ``message`` and ``hint`` say why and what to do."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(" ".join(p for p in (message, hint) if p))
        self.message, self.hint = message, hint


class RemoteTrainDoor(Followed):
    kind = "train"

    def __init__(self, config: TrainConfig, machine: str, workspace: Path, *, trust_weights: bool = False,
                 trust_model: bool = False) -> None:
        super().__init__()
        self.config, self.machine_name, self.workspace = config, machine, Path(workspace)
        self.trust = trust_weights or trust_model
        self.machine: Machine | None = None
        self.run = f"{config.name or 'exp'}-{secrets.token_hex(3)}"
        self.account: dict[str, Any] = {}  # the sync's account once sent: the folder there, its data.yaml
        self.files = 0  # files in the dataset (sent or already there)

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

    def send(self, *, progress: Callable[[int, int], None] = lambda sent, total: None,
             cancel: threading.Event | None = None) -> dict[str, Any]:
        """Send the dataset (only what changed, ``core.remote.sync``); ``SyncError`` / ``SyncCancelled``."""
        assert self.machine is not None, "preflight() first"
        plan, self.account = sync_dataset(self.machine, Path(self.config.data).expanduser(), progress=progress,
                                          cancel=cancel)
        self.files = len(plan.local)
        return self.account

    def start_there(self) -> None:
        """Start the run detached on the machine (``machine launch`` there), after ``send``. Both faces start it
        here, so a run started from the Train page and from ``train --machine`` is the same run."""
        assert self.machine is not None and self.account, "send() first"
        machine = self.machine
        started = run_remote(machine, remote_words(machine, "machine", "launch", self.run), timeout_s=LAUNCH_TIMEOUT_S,
                             stdin=json.dumps(self.remote_config(self.account["data_yaml"])).encode("utf-8"))
        if started.returncode != 0:
            if started.ssh_failed or started.returncode == 124:
                raise RemoteStartError(*failure_words(machine, started))
            raise RemoteStartError((started.stderr.strip().splitlines() or [tr("exit code {code}",
                                                                               code=started.returncode)])[-1])
