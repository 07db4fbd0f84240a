"""The ``tune`` job: a hyperparameter search on Ray Tune, whose trials are this app's own training runs.

Ray Tune does the work a scheduler of our own would: it places trials on slots (``tune.with_resources``: a
GPU per trial, or CPU slots), ASHA ends the poor ones from yolov5's per-epoch fitness, Optuna's TPE proposes
the next (``OptunaSearch``), ``time_budget_s`` ends the search, and ``Tuner.restore`` resumes one that was
interrupted. A trial is ``core/worker/tune_trial.TrainTrial`` (one ``train`` worker, one run folder).

A local Ray instance is started bound to 127.0.0.1 for its node address, without its dashboard and without
usage statistics (``RAY_USAGE_STATS_ENABLED=0``); ``ray_address`` (``--ray-address`` / ``RAY_ADDRESS``) uses a
cluster the user started instead. What Ray's own servers listen on is measured in ``tests/e2e/test_tune_ray.py``.

Events: one ``trial`` event per trial start, epoch and ending (docs/protocol.md); the final ``done`` carries
``trials`` and ``best_trial`` (``yolostudio tune --json`` prints it as ``best``). Results in the tuning folder: ``best_config.json`` (for ``yolostudio train
--config``), ``best_hyp.yaml``, and yolov5's ``hyp_evolve.yaml`` / ``evolve.csv`` written by yolov5's own
``print_mutation``.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from core.atomic import atomic_write_text
from core.i18n import tr
from core.job.protocol import encode_control
from core.tune.ray_temp import make_ray_temp
from core.tune.folder import EXPERIMENT, TuneFolder  # the search folder's layout, and its state's record
from core.tune.space import SearchSpace
from core.worker.job import JobContext, JobError

#: Ray's tries to reach a cluster's GCS (``Node._init_gcs_client`` reads ``RAY_gcs_server_port_wait_time_s``;
#: its default is 20 tries of ~36 s each when nothing answers); the address answered a TCP connect just before.
GCS_CONNECT_TRIES = 3
#: yolov5's evolve.csv result columns (``train.py``'s ``keys`` in its evolve branch), in its order.
EVOLVE_KEYS = ("metrics/precision", "metrics/recall", "metrics/mAP_0.5", "metrics/mAP_0.5:0.95",
               "val/box_loss", "val/obj_loss", "val/cls_loss")


def local_ray_options(cpus: int, gpus: int, temp_dir: Path | None) -> dict[str, Any]:
    """``ray.init`` for a local instance: the node on loopback, no dashboard, this machine's slots only."""
    options: dict[str, Any] = {"_node_ip_address": "127.0.0.1", "include_dashboard": False, "num_cpus": cpus,
                               "num_gpus": gpus, "log_to_driver": False, "configure_logging": False}
    if temp_dir is not None:
        options["_temp_dir"] = str(temp_dir)
    return options


def start_local_ray(spec: dict[str, Any], base: dict[str, Any]) -> Path | None:
    """A local Ray inside the worker's loopback namespace (``core/worker/tune_netns.py``), or a refusal; the
    session folder it made (removed after the search), None when the spec named one."""
    import ray

    from core.worker.tune_netns import REFUSED_KEY, quiet_ray_home, refusal

    if spec.get(REFUSED_KEY):
        raise JobError("environment", *refusal(spec[REFUSED_KEY]))
    # Under TMPDIR where Ray's socket paths fit; owned, so a killed worker's folder is removed later (ray_temp).
    made = None if spec.get("ray_temp") else make_ray_temp()
    temp = made or Path(spec["ray_temp"])
    home = os.environ.get("HOME", "")
    base["home"] = home  # the trials' training runs with the user's home again
    os.environ["HOME"] = str(quiet_ray_home(temp))  # Ray's processes inherit it at start
    try:
        ray.init(**local_ray_options(int(spec["cpus"]), int(spec.get("gpus", 0)), temp))
    finally:
        if home:
            os.environ["HOME"] = home
        else:
            os.environ.pop("HOME", None)
    return made


def connect_cluster(ctx: JobContext, address: str) -> bool:
    """Join the user's cluster; False when a stop came first. After the same reachability check the verb makes
    (the Tune page's plan may be older than the cluster's end), with Ray's own retries bounded (each try takes
    ~36 s). ``ray.init`` waits in C++ for the cluster, where no signal handler runs, so it runs on a thread and
    this one watches for a stop (a Ctrl+C, SIGTERM, the launcher gone): the search then ends at once, and the
    waiting thread with the process."""
    import ray

    from core.tune.address import unreachable_words

    unreachable = unreachable_words(address)
    if unreachable:
        raise JobError("environment", *unreachable)
    os.environ.setdefault("RAY_gcs_server_port_wait_time_s", str(GCS_CONNECT_TRIES))
    failure: list[BaseException] = []

    def connect() -> None:
        try:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
        except BaseException as exc:  # noqa: BLE001 - raised again on the job's thread
            failure.append(exc)

    joining = threading.Thread(target=connect, name="ray-connect", daemon=True)
    joining.start()
    while joining.is_alive():
        joining.join(0.2)
        if ctx.stop_requested:
            return False
    if failure:
        raise JobError("environment", tr("Ray could not join the cluster at {address}: {reason}", address=address,
                                         reason=str(failure[0]).splitlines()[0][:300] if str(failure[0]) else
                                         type(failure[0]).__name__),
                       tr("Check that the cluster runs the same Ray version ({version}) and that its head is up.",
                          version=ray.__version__))
    return True


def stop_on_sigterm(ctx: JobContext, seen: list[int]) -> None:
    """SIGTERM to the search: the first is the protocol's stop (Ray Tune saves the experiment, each trial its
    ``last.pt``; ``--resume`` continues), a second SIGTERM ends the process at once. Only SIGTERMs count: a stop
    from elsewhere that came first (the launcher's end, as when a CLI is terminated) must not turn this one into
    the hard exit."""
    seen.append(signal.SIGTERM)
    if len(seen) > 1:
        raise SystemExit(128 + signal.SIGTERM)
    # On a thread: the stop's ``stage`` event takes the writer's lock, which the interrupted code may hold.
    threading.Thread(target=ctx.control.handle_line, args=(encode_control("stop"), "SIGTERM"), daemon=True).start()


def param_space(space: SearchSpace) -> dict[str, Any]:
    from ray import tune

    out: dict[str, Any] = {b.name: (tune.loguniform if b.log else tune.uniform)(b.low, b.high)
                           for b in space.bounds}
    out.update({name: tune.choice(values) for name, values in space.choices.items()})
    return out


def run_tune(ctx: JobContext) -> str:
    """Search until the budget or the trial count is spent, or a stop; ``completed`` or ``stopped``."""
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"  # offline like the rest: Ray reports usage unless told not to
    spec = ctx.spec
    try:
        import ray
        from ray import tune
        from ray.tune.schedulers import ASHAScheduler
        from ray.tune.search.optuna import OptunaSearch
    except ImportError as exc:
        raise JobError("environment", tr("Ray Tune is not installed: {reason}", reason=exc),
                       tr("Install the tune extra: pip install 'yolo-studio[tune]'")) from exc
    from core.worker.tune_hooks import LIVE, StopOnRequest, TrialBook, TrialEvents
    from core.worker.tune_trial import TrainTrial, stack_versions

    tune_dir, epochs = Path(spec["run_dir"]), int(spec["base"]["config"]["epochs"])
    folder, workspace = TuneFolder(tune_dir), Path(spec["base"]["workspace"])
    base = dict(spec["base"], tune_dir=str(tune_dir), tune_name=tune_dir.name, versions=stack_versions())
    address = spec.get("ray_address") or None
    made_temp: Path | None = None
    sigterms: list[int] = []
    signal.signal(signal.SIGTERM, lambda signum, frame: stop_on_sigterm(ctx, sigterms))
    ctx.emit("stage", stage="preparing", detail=tr("starting Ray"))
    if address:
        if not connect_cluster(ctx, address):
            return "stopped"
    else:
        made_temp = start_local_ray(spec, base)
        signal.signal(signal.SIGTERM, lambda signum, frame: stop_on_sigterm(ctx, sigterms))  # ray.init set its own
    try:
        if ctx.stop_requested:  # asked while Ray started (a Ctrl+C, the launcher gone): nothing to search yet
            return "stopped"
        budget_s = float(spec["time_budget_s"])
        deadline = time.monotonic() + budget_s
        book = LIVE["book"] = TrialBook(ctx.emit, tune_dir.name, Path(spec["runs_root"]), epochs, deadline,
                                        lambda: ctx.stop_requested, tune_dir)
        folder.stop_flag.unlink(missing_ok=True)  # an earlier Stop's: the trials of this run must run
        if spec.get("resume"):
            book.rows.update(earlier_trials(tune_dir))  # the trials that ended before the interruption stay in
        resources = {"cpu": float(spec["cpus_per_trial"]), "gpu": float(spec.get("gpus_per_trial", 0))}
        trainable = tune.with_resources(tune.with_parameters(TrainTrial, base=base), resources)
        experiment = folder.experiment
        run_config = tune.RunConfig(name=EXPERIMENT, storage_path=str(tune_dir), stop=StopOnRequest(), verbose=0,
                                    callbacks=[TrialEvents()],
                                    failure_config=tune.FailureConfig(max_failures=0),
                                    # Each epoch: a trial's checkpoint names its run, so a restore resumes that run.
                                    checkpoint_config=tune.CheckpointConfig(checkpoint_frequency=1))
        if spec.get("resume") and tune.Tuner.can_restore(str(experiment)):
            ctx.emit("stage", stage="resuming", detail=str(experiment))
            tuner = tune.Tuner.restore(str(experiment), trainable, resume_unfinished=True)
        else:
            scheduler = ASHAScheduler(max_t=epochs, grace_period=int(spec.get("grace_period", 1)),
                                      reduction_factor=int(spec.get("reduction_factor", 2)))
            search = OptunaSearch(seed=int(spec.get("seed", 0)))
            tuner = tune.Tuner(trainable, param_space=param_space(SearchSpace.from_dict(spec["space"])),
                               tune_config=tune.TuneConfig(metric="fitness", mode="max", scheduler=scheduler,
                                                           search_alg=search, num_samples=int(spec["trials"]),
                                                           time_budget_s=budget_s, reuse_actors=False),
                               run_config=run_config)
        LIVE["record"] = lambda: folder.record_state(workspace)
        folder.record_state(workspace)  # tuner.pkl, as the Tuner just wrote it (a door checked the restored one)
        ctx.emit("stage", stage="tuning")
        tuner.fit()
    finally:
        LIVE.pop("record", None)
        folder.record_state(workspace)
        ray.shutdown()
        if made_temp is not None:
            shutil.rmtree(made_temp, ignore_errors=True)
    book.close_unfinished()
    folder.stop_flag.unlink(missing_ok=True)
    rows = list(book.rows.values())
    ctx.done_fields.update(write_results(tune_dir, rows, base))
    return "stopped" if ctx.stop_requested else "completed"


def earlier_trials(tune_dir: Path) -> dict[str, dict[str, Any]]:
    """The trials of the search's last ``done`` (before a Stop or a crash), by trial id, as the book keeps them."""
    from core.job.protocol import read_events

    events_file = TuneFolder(tune_dir).events
    events = read_events(events_file) if events_file.is_file() else []
    done = next((e for e in reversed(events) if e.get("type") == "done"), {})
    return {row["trial"]: dict(row, metrics=row.get("metrics") or {}) for row in done.get("trials") or []}


def write_results(tune_dir: Path, rows: list[dict[str, Any]], base: dict[str, Any]) -> dict[str, Any]:
    """The summary (``trials``, ``best``) and the result files: the best config, yolov5's evolve files."""
    trials = [{k: row[k] for k in ("trial", "run", "state", "fitness", "epochs", "config", "reason", "metrics")}
              for row in rows]
    scored = [row for row in rows if row["fitness"] is not None]
    if not scored:
        return {"trials": trials, "best_trial": None}
    best = max(scored, key=lambda row: row["fitness"])
    folder = TuneFolder(tune_dir)
    hyp_file, best_hyp = folder.trial_hyp(best["trial"]), folder.best_hyp
    shutil.copyfile(hyp_file, best_hyp)
    config = dict(base["config"], hyp=str(best_hyp), name=f"{tune_dir.name}-best")
    config.update({k: best["config"][k] for k in ("imgsz", "model", "batch") if k in best["config"]})
    config_file = folder.best_config
    import json

    atomic_write_text(config_file, json.dumps(config, indent=2, ensure_ascii=False) + "\n", backup=False)
    write_evolve_files(tune_dir, scored)
    # ``best_trial``: the protocol's ``best`` is a training's best weights (a path, core/job/event_fields.py); the
    # tune verb's --json names it ``best`` in its last line, as docs/protocol.md says.
    return {"trials": trials, "best_trial": {"run": best["run"], "trial": best["trial"], "fitness": best["fitness"],
                                             "config_file": str(config_file)}}


def write_evolve_files(tune_dir: Path, rows: list[dict[str, Any]]) -> None:
    """``evolve.csv`` / ``hyp_evolve.yaml`` as yolov5's ``--evolve`` writes them, by yolov5's own
    ``print_mutation`` (one generation per trial, from its last epoch's metrics and its hyp file); written in a
    temporary folder and moved in, so a reader never sees half a file."""
    import yaml
    from yolov5.utils.general import print_mutation

    with tempfile.TemporaryDirectory(dir=tune_dir) as scratch:
        for row in rows:
            hyp = yaml.safe_load(TuneFolder(tune_dir).trial_hyp(row["trial"]).read_text(encoding="utf-8"))
            results = tuple(float(row["metrics"].get(key, 0.0)) for key in EVOLVE_KEYS)
            print_mutation(EVOLVE_KEYS, results, hyp, Path(scratch), "")
        for name in ("evolve.csv", "hyp_evolve.yaml"):
            os.replace(Path(scratch) / name, tune_dir / name)
