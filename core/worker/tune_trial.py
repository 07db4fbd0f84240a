"""One tuning trial: this app's own training job, in its own run folder, reported to Ray Tune per epoch.

Ray Tune places a ``TrainTrial`` (a class trainable) on a slot; ``setup`` checks the node; the first ``step`` writes the trial's hyperparameters
over the base hyp file, checks the options as ``yolostudio train`` does (``core.training.config.validate_config``),
creates an ordinary run (``core.runs.store.create_run``) tagged with the tuning run (``spec["tune"]``) and starts
the ``train`` worker on it — so each trial can be opened, compared, resumed and exported like any run.
``step`` reads the worker's events up to the next ``epoch_end`` and returns yolov5's own fitness of that epoch
(the number ASHA compares); the last epoch returns ``done``. A worker that ends ``failed`` (out of memory, a
NaN loss, a broken file) raises its own words: Ray ends *that* trial with the reason, never the search.
Ray's checkpoint of a trial is its run's name (the run holds ``last.pt``): a restored search resumes each
unfinished trial's own run.
When ASHA ends a trial early, Ray calls ``cleanup``: the worker gets the protocol's stop line and saves a
resumable ``last.pt`` (``done: stopped``), as a Stop on the Train page does. A Stop of the whole search cannot
wait for that (Ray kills busy actors after 5 s): the trial watches the search's stop flag in ``step`` and passes
the stop line itself, then waits there for Ray to end it, its run ended ``stopped`` (``core.tune.stopping``).
"""

from __future__ import annotations

import queue
import subprocess
import threading
from pathlib import Path
from typing import Any

from ray import tune

from core.tune.folder import TuneFolder
from core.atomic import atomic_write_text
from core.i18n import tr
from core.job.jobs import LAUNCHER_BOUND_KEY, JobSpec, JobTracker
from core.environment.machine import quick_machine_facts
from core.job.protocol import LineDecoder, encode_control
from core.run.folder import RunFolder
from core.runs.store import create_run, load_run_config, resume_spec, write_run_config
from core.training.config import validate_config
from core.training.options import TrainConfig
from core.workspace import runs_dir

from core.tune.stopping import STOP_WAIT_S  # the longest a trial's worker may take to save and end

#: How often a trial waiting for its worker's next event looks at the search's stop flag.
STOP_POLL_S = 0.5
#: yolov5's hyperparameter file keys the app's settings search (imgsz/model/batch are training options).
OPTION_KEYS = ("imgsz", "model", "batch")


def trial_run_name(tune_name: str, trial_id: str) -> str:
    """The run folder of a trial: the tuning run's name and Ray's trial id (the driver finds it by it)."""
    return f"{tune_name}-{trial_id}"


def trial_hyp(base_hyp: Path, searched: dict[str, Any]) -> dict[str, Any]:
    """The base hyp file with the trial's values over it (the keys not searched keep the file's values)."""
    import yaml

    hyp = yaml.safe_load(base_hyp.read_text(encoding="utf-8")) or {}
    hyp.update({k: float(v) for k, v in searched.items() if k not in OPTION_KEYS})
    return hyp


def stack_versions() -> dict[str, str]:
    """The versions every node must share (as the DDP path checks): this app, yolov5 and torch."""
    from importlib.metadata import PackageNotFoundError, version

    from core import __version__

    found = {"yolo-studio": __version__}
    for package in ("yolov5", "torch"):
        try:
            found[package] = version(package)
        except PackageNotFoundError:
            found[package] = "missing"
    return found


def node_mismatch(base: dict[str, Any]) -> str:
    """Why this node cannot run the search's trials (another version, no dataset), naming it; "" when it can."""
    import socket

    node = socket.gethostname()
    mine = stack_versions()
    for package, wanted in base.get("versions", {}).items():
        if mine.get(package) != wanted:
            return tr("Node {node}: {package} {here} differs from {wanted} on the machine that started the "
                      "search; install the same version on every node.", node=node, package=package,
                      here=mine.get(package), wanted=wanted)
    data = Path(base["config"].get("data", ""))
    if not data.is_file():
        return tr("Node {node}: the dataset {data} is not there; every node needs it at the same path.",
                  node=node, data=data)
    return ""


def earlier_run(workspace: Path, tune_name: str, trial_id: str) -> Path | None:
    """The run this trial started before the search was interrupted (its name, and its spec's ``tune`` tag)."""
    run_dir = runs_dir(workspace) / trial_run_name(tune_name, trial_id)
    try:
        tag = load_run_config(run_dir)["spec"].get("tune") or {}
    except (OSError, ValueError, KeyError):
        return None
    return run_dir if tag.get("run") == tune_name and tag.get("trial") == trial_id else None


class TrainTrial(tune.Trainable):
    """A Ray Tune trainable whose steps are the epochs of one app training run."""

    def setup(self, config: dict[str, Any], base: dict[str, Any]) -> None:  # type: ignore[override]
        self.proc: subprocess.Popen[bytes] | None = None
        self.events: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.tracker = JobTracker()
        self.last: dict[str, Any] = {}
        node_problem = node_mismatch(base)
        if node_problem:
            raise RuntimeError(node_problem)
        self.base, self.config = base, config
        self.run_dir: Path | None = None  # a restored trial's run (``load_checkpoint``) resumes instead
        self.stop_flag = TuneFolder(Path(base["tune_dir"])).stop_flag
        self.stop_sent = False  # the search's Stop was passed to the worker

    def _start(self) -> None:
        """The trial's training worker: a new run, or the interrupted run of a restored trial resumed."""
        import yaml

        base, config = self.base, self.config
        workspace, tune_dir = Path(base["workspace"]), Path(base["tune_dir"])
        if self.run_dir is None:  # a restored search: the trial's own run, by its name, when it was started
            self.run_dir = earlier_run(workspace, base["tune_name"], self.trial_id)
        if self.run_dir is not None and RunFolder(self.run_dir).last_pt.is_file():
            spec = resume_spec(self.run_dir, workspace, trusted_weights=tuple(base.get("trusted_weights", ())))
        else:
            hyp_file = TuneFolder(tune_dir).trial_hyp(self.trial_id)
            hyp_file.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(hyp_file, yaml.safe_dump(trial_hyp(Path(base["hyp_path"]), config), sort_keys=False),
                              backup=False)
            values = dict(base["config"], hyp=str(hyp_file), name=trial_run_name(base["tune_name"], self.trial_id))
            values.update({k: config[k] for k in OPTION_KEYS if k in config})
            checked = validate_config(TrainConfig.from_dict(values), quick_machine_facts(), workspace)
            if not checked.ok:
                raise RuntimeError("; ".join(p.message for p in checked.errors))
            self.run_dir = create_run(workspace, checked, trusted_weights=tuple(base.get("trusted_weights", ())))
            spec = load_run_config(self.run_dir)["spec"]
            spec["tune"] = {"run": base["tune_name"], "trial": self.trial_id, "config": dict(config)}
            write_run_config(self.run_dir, spec)
        # The trial's training ends with its actor (stdin's EOF is a stop): a killed search leaves none behind.
        job = JobSpec.for_run("train", self.run_dir, dict(spec, **{LAUNCHER_BOUND_KEY: True}))
        job.write()
        env = job.env()
        if base.get("home"):
            env["HOME"] = base["home"]  # Ray's processes run with a home of their own (tune_netns.quiet_ray_home)
        self.proc = subprocess.Popen(job.argv(), env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, start_new_session=True)
        threading.Thread(target=self._read, name="trial-events", daemon=True).start()

    def save_checkpoint(self, checkpoint_dir: str) -> dict[str, Any]:
        """Ray's checkpoint of a trial is the name of its run: the run folder holds the real one (last.pt)."""
        return {"run": str(self.run_dir or ""), "last": dict(self.last)}

    def load_checkpoint(self, checkpoint: dict[str, Any]) -> None:
        """A restored search: this trial continues its own run from its ``last.pt``."""
        if checkpoint.get("run"):
            self.run_dir = Path(checkpoint["run"])
            self.last = dict(checkpoint.get("last") or {})

    def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        decoder = LineDecoder()
        while chunk := self.proc.stdout.read1(65536):
            for decoded in decoder.feed(chunk):
                if decoded.event is not None:
                    self.events.put(decoded.event)
        for decoded in decoder.flush():
            if decoded.event is not None:
                self.events.put(decoded.event)
        self.events.put(None)

    def step(self) -> dict[str, Any]:
        """The next epoch's fitness; the last one (or yolov5's own early stop) carries ``done``."""
        if self.proc is None:
            if self.stop_flag.exists():  # the search is stopping: no new run to start
                self._wait_for_the_end()
            self._start()
        while True:
            try:
                event = self.events.get(timeout=STOP_POLL_S)
            except queue.Empty:
                self._pass_search_stop()
                continue
            if self.stop_sent and (event is None or event["type"] == "done"):
                self._wait_for_the_end()  # stopped and saved; a result now would count as the trial's end
            if event is None:
                return self._ended()
            self.tracker.feed(event)
            if event["type"] == "epoch_end":
                self.last = {"fitness": float(event["fitness"]), "epoch": int(event["epoch"]) + 1,
                             "epochs": int(event["epochs"]), "run": str(self.run_dir),
                             "metrics": dict(event.get("metrics", {}))}
                if self.last["epoch"] < self.last["epochs"]:
                    return dict(self.last)
            elif event["type"] == "done":
                return self._ended()

    def _pass_search_stop(self) -> None:
        """The search is stopping (its flag): the worker gets the stop line once, saves ``last.pt`` and ends."""
        proc = self.proc
        if self.stop_sent or proc is None or proc.poll() is not None or not self.stop_flag.exists():
            return
        self.stop_sent = True
        try:
            assert proc.stdin is not None
            proc.stdin.write(encode_control("stop").encode("utf-8"))
            proc.stdin.flush()
        except (OSError, ValueError):
            pass  # it has ended already: its events say how

    def _wait_for_the_end(self) -> None:
        """Report nothing more: Ray's interrupt ends this actor (the trial stays unfinished, so a restore resumes
        its run)."""
        threading.Event().wait()

    def _ended(self) -> dict[str, Any]:
        exit_code = self.proc.wait() if self.proc is not None else None
        outcome = self.tracker.outcome(exit_code=exit_code)
        if outcome.status != "completed" or not self.last:
            raise RuntimeError(outcome.message or tr("The training ended {status} before its first epoch.",
                                                     status=outcome.status))
        return dict(self.last, done=True, finished=True)  # "finished": Ray also marks a stopped trial done

    def cleanup(self) -> None:
        """Ended early (ASHA, a Stop, the budget): the worker saves a resumable checkpoint and ends."""
        proc = self.proc
        if proc is None or proc.poll() is not None:
            return
        try:
            assert proc.stdin is not None
            proc.stdin.write(encode_control("stop").encode("utf-8"))
            proc.stdin.flush()
            proc.wait(timeout=STOP_WAIT_S)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            proc.kill()
