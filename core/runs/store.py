"""Runs in a workspace: creating their folders, reading them, listing, renaming, resuming, stopping.

A run is ``<workspace>/runs/<name>/``: yolov5's own output (``weights/``, ``results.csv``, plots) plus
``config.json`` (what the user asked for, and the worker spec) and ``events.jsonl`` (everything the
worker said). Status is *derived*, never stored: the last ``done`` event says how a worker ended; with
no ``done``, a worker whose process is still alive (same pid *and* start time, so a recycled pid can't
fool us) is running, and one that is gone died without a word: ``failed``, never "running" forever.
A resumed run appends to the same events file; each worker start (``stage: starting``) opens a segment.
The fold of the events and the status rule are ``core/runs/status.py``'s.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

from core import __version__
from core.atomic import atomic_write_text
from core.dataset.data_yaml import pin_dataset_root
from core.job.jobs import RUN_SPEC_FILE, JobSpec, fold_outcome
from core.i18n import tr
from core.job.protocol import append_line, encode_control, iter_events, open_lines_for_append
from core.run.dataset_version import change_words, read_version
from core.run.owner import worker_alive
from core.run.folder import CONTROL_FILE, RunFolder
from core.run.words import UNREADABLE
from core.runs.status import RunSummary, derive_status, fold_events
from core.run.files import (CONFIG_FILE, EVENTS_FILE, UnreadableRun, check_events_file, folder_mtime,
                            load_config_document, read_config, results_csv_best)
from core.training.config import (ValidatedConfig, build_worker_spec, build_yolov5_command, command_line,
                               valid_run_name)

@dataclass
class RunInfo:
    name: str
    path: str
    status: str
    dataset: str = ""
    model: str = ""
    epochs_done: int = 0
    epochs_total: int = 0
    best_map50: float | None = None
    best_map50_95: float | None = None
    best_epoch: int | None = None
    started: float | None = None
    ended: float | None = None
    elapsed_s: float | None = None
    pid: int | None = None
    best_weights: str = ""
    last_weights: str = ""
    error: dict[str, Any] | None = None
    can_resume: bool = False
    last_event_t: float | None = None
    images_per_s: float | None = None
    gpu_util_mean_percent: float | None = None
    data_wait_share: float | None = None
    epoch_time_mean_s: float | None = None
    duration_s: float | None = None  # summed over every worker start (a resumed run has several)
    running_since: float | None = None  # while running: when the current worker start began
    #: How the run was launched: machines and training processes per machine (1 and 1: one worker process).
    topology: dict[str, int] = field(default_factory=lambda: {"nnodes": 1, "nproc_per_node": 1})
    #: The dataset version it trained on (``core.run.dataset_version``: fingerprint, counts, changes since the
    #: run it fine-tuned); None when not recorded.
    dataset_version: dict[str, Any] | None = None

    @property
    def dataset_change(self) -> str | None:
        """"+8 images, 3 labels edited since exp3" for a fine-tuned run (no I/O: a page may call it)."""
        return change_words(self.dataset_version)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def duration_at(self, now: float) -> float | None:
        """Wall time so far: the ended starts, plus the current one up to ``now`` while it runs (live)."""
        ended = self.duration_s if self.duration_s is not None else self.elapsed_s
        if self.status == "running" and self.running_since is not None:
            return (self.duration_s or 0.0) + max(0.0, now - self.running_since)
        return ended


def unique_run_dir(runs_root: Path, name: str) -> Path:
    """Create and return a new run folder: ``name``, else ``name2``, ``name3``… (yolov5's convention); a
    taken ``exp2`` goes on to ``exp3``.

    ``mkdir`` without ``exist_ok`` makes the claim atomic: two launches can't get the same folder, and an
    existing run is never overwritten.
    """
    runs_root.mkdir(parents=True, exist_ok=True)
    numbered = re.fullmatch(r"(.*\D)(\d+)", name)
    stem, first = (numbered.group(1), int(numbered.group(2))) if numbered else (name, 1)
    # A name that already ends in its number (the form prefilled "exp2") goes on to "exp3", never "exp22".
    for n in range(first, first + 10_000):
        candidate = runs_root / (name if n == first else f"{stem}{n}")
        try:
            candidate.mkdir()
        except FileExistsError:
            continue
        return candidate
    raise RuntimeError(f"no free run name for {name!r} in {runs_root}")


def create_run(workspace: Path, checked: ValidatedConfig, *, trusted_weights: tuple[str, ...] = (),
               trusted_model: bool = False, wizard: dict[str, Any] | None = None,
               from_run: Path | None = None) -> Path:
    """Make the run folder and its ``config.json``; returns the folder (the worker spec is inside). A run
    started with the wizard's document (``wizard``) keeps it when its options are still the predicted ones
    (``RunFolder.keep_wizard``), from either face. ``from_run``: the run it fine-tunes (``train --from``),
    recorded as ``spec.from_run`` (its dataset version is compared with that run's)."""
    from core.workspace import runs_dir

    run_dir = unique_run_dir(runs_dir(workspace), checked.config.name)
    checked.config.name = run_dir.name
    spec = build_worker_spec(checked, run_dir, workspace, trusted_weights=trusted_weights,
                             trusted_model=trusted_model)
    if checked.data_path is not None:
        spec["resolved"]["data"] = str(pin_dataset_root(checked.data_path, run_dir))
    if from_run is not None:
        spec["from_run"] = str(Path(from_run).resolve())
    write_run_config(run_dir, spec)
    if wizard is not None:
        RunFolder(run_dir).keep_wizard(wizard, checked.config.to_dict())
    return run_dir


def read_log_tail(path: Path, max_bytes: int = 4096, lines: int = 8) -> list[str]:
    """The last lines of a (possibly huge) log file such as ``worker.log``, reading only its end."""
    try:
        with open(path, "rb") as handle:
            handle.seek(0, 2)
            handle.seek(max(0, handle.tell() - max_bytes))
            text = handle.read().decode("utf-8", errors="replace")
    except OSError:
        return []
    return [line for line in text.splitlines() if line.strip()][-lines:]


def write_run_config(run_dir: Path, spec: dict[str, Any]) -> None:
    document = {
        "app_version": __version__,
        "created": time.time(),
        "spec": spec,
        "yolov5_command": command_line(build_yolov5_command(spec)),
    }
    atomic_write_text(run_dir / CONFIG_FILE, json.dumps(document, indent=2, ensure_ascii=False) + "\n", backup=False)


def load_run_config(run_dir: Path) -> dict[str, Any]:
    """The run's ``config.json`` (an object with an object ``spec``); ``UnreadableRun`` (a ValueError) if not."""
    return load_config_document(run_dir)


def spec_path(run_dir: Path) -> Path:
    return run_dir / RUN_SPEC_FILE


def write_spec(run_dir: Path, spec: dict[str, Any]) -> Path:
    return JobSpec.for_run("train", run_dir, spec).write()


def resume_checkpoint_problem(run_dir: Path, spec: dict[str, Any] | None = None) -> str | None:
    """Why this machine cannot resume ``run_dir``, or None when it can (``RunFolder.resume_problem``); reads
    the spec from ``config.json`` when not given."""
    spec = spec if spec is not None else load_run_config(run_dir)["spec"]
    return RunFolder(run_dir).resume_problem(spec)


def resume_spec(run_dir: Path, workspace: Path, *, trusted_weights: tuple[str, ...] = (),
                trusted_model: bool = False) -> dict[str, Any]:
    """The worker spec that resumes a stopped or failed run from its checkpoint, in ``workspace``.

    Trust is decided now, by this workspace (``core.trust``), never by what the run's ``config.json``
    says: a folder from elsewhere could name any workspace or list any file as trusted. So the spec's
    workspace is this one and its confirmed checkpoints are only ``trusted_weights`` (what the user
    confirmed just now: a run folder outside this workspace's runs), and its model definition is trusted
    only when ``trusted_model`` (the user confirmed it just now; else it must pass the strict check).
    """
    spec = dict(load_run_config(run_dir)["spec"])
    last = RunFolder(run_dir).last_pt
    problem = resume_checkpoint_problem(run_dir, spec)
    if problem is not None:
        raise FileNotFoundError(tr("{path}: no checkpoint to resume from ({problem}).", path=last, problem=problem))
    spec["resume"] = True
    spec["run_dir"] = str(run_dir)
    spec["workspace"] = str(workspace)
    spec["trusted_weights"] = list(trusted_weights)
    spec["trusted_model"] = bool(trusted_model)
    return spec


def read_run(run_dir: Path, *, now: float | None = None,
             alive: Callable[[int | None, float | None], bool] = worker_alive,
             summary: RunSummary | None = None) -> RunInfo:
    """What a run folder says now. ``summary``: its events already folded (``core.runs.index`` caches them).

    A run whose files cannot be read is ``unreadable`` with the reason as its error; it never raises for
    what is in the folder, so one damaged run can't hide the others."""
    try:
        return _read_run(Path(run_dir), now=time.time() if now is None else now, alive=alive, summary=summary)
    except UnreadableRun as exc:
        return unreadable_run(Path(run_dir), str(exc))


def unreadable_run(run_dir: Path, reason: str) -> RunInfo:
    return RunInfo(name=run_dir.name, path=str(run_dir), status=UNREADABLE,
                   error={"kind": UNREADABLE, "message": reason,
                          "hint": tr("The run's files were damaged (a killed process, a full disk or an edit). Its "
                                     "weights, if any, are still in its weights folder.")})


def _read_run(run_dir: Path, *, now: float, alive: Callable[[int | None, float | None], bool],
              summary: RunSummary | None) -> RunInfo:
    config = read_config(run_dir)
    if summary is None:
        try:
            summary = fold_events(iter_events(check_events_file(run_dir)))
        except OSError as exc:
            raise UnreadableRun(tr("{file} cannot be read: {reason}", file=EVENTS_FILE,
                                   reason=exc.strerror or exc)) from exc
    status = derive_status(summary, folder_mtime=folder_mtime(run_dir), now=now, alive=alive, run_dir=run_dir)
    best = summary.best or results_csv_best(run_dir)
    done = summary.segment.done or {}
    eff = summary.efficiency or {}
    folder = RunFolder(run_dir)
    last = folder.last_weights(summary.last_weights)
    best_pt = folder.best_weights(summary.best_weights)
    error = _error_words(summary.segment.error)
    if status == "failed" and error is None and summary.segment.done is None:
        error = fold_outcome(None, None).error()  # its worker is gone without a word
        epochs = summary.epochs_total or config.epochs
        if error is not None and epochs and summary.epochs_done >= epochs:
            error = dict(error, hint=tr(
                "All {epochs} epochs had finished when its worker ended: Resume completes it, marking it completed "
                "with the weights it has (the final validation of best.pt does not run again).", epochs=epochs))
    return RunInfo(
        name=run_dir.name,
        path=str(run_dir),
        status=status,
        dataset=config.data,
        model=config.model,
        epochs_done=summary.epochs_done,
        epochs_total=summary.epochs_total or config.epochs,
        best_map50=best.map50 if best else None,
        best_map50_95=best.map50_95 if best else None,
        best_epoch=best.epoch if best else None,
        started=summary.started or config.created,
        ended=done.get("t"),
        elapsed_s=done.get("elapsed_s"),
        pid=summary.segment.pid,
        best_weights=str(best_pt or ""),
        last_weights=str(last or ""),
        error=error,
        can_resume=folder.can_resume(status, config.spec),
        last_event_t=summary.last_t,
        images_per_s=eff.get("images_per_s"),
        gpu_util_mean_percent=eff.get("gpu_util_mean_percent"),
        data_wait_share=eff.get("data_wait_share"),
        epoch_time_mean_s=eff.get("epoch_time_mean_s"),
        duration_s=summary.duration_s or None,
        running_since=summary.segment.started if status == "running" else None,
        topology=run_topology(config.spec),
        dataset_version=read_version(run_dir),
    )


def _error_words(error: dict[str, Any] | None) -> dict[str, Any] | None:
    """What a run's record says of its failure: the error event's words, not the whole event."""
    return None if error is None else {k: error.get(k) for k in ("kind", "message", "hint")}


def run_topology(spec: Any) -> dict[str, int]:
    """``nnodes`` and ``nproc_per_node`` of a run, from the spec it was launched with (1 and 1 when it has none,
    or when a damaged file says something else than whole numbers)."""
    topology = spec.get("topology") if isinstance(spec, dict) else None
    topology = topology if isinstance(topology, dict) else {}

    def count(key: str) -> int:
        value = topology.get(key)
        return value if type(value) is int and value >= 1 else 1

    return {"nnodes": count("nnodes"), "nproc_per_node": count("nproc_per_node")}


def list_runs(workspace: Path, summaries: Callable[[Path], RunSummary] | None = None) -> list[RunInfo]:
    """Every run in the workspace, newest first; folders that aren't runs are skipped.

    ``summaries`` gives a run folder's folded events (``core.runs.index.RunIndex.summary`` keeps them between
    listings); without it every events file is read again."""
    from core.workspace import runs_dir

    root = runs_dir(workspace)
    if not root.is_dir():
        return []
    runs = [_listed_run(d, summaries) for d in root.iterdir() if d.is_dir() and (d / CONFIG_FILE).exists()]
    return sorted(runs, key=lambda r: r.started or 0.0, reverse=True)


def _listed_run(run_dir: Path, summaries: Callable[[Path], RunSummary] | None) -> RunInfo:
    try:
        return read_run(run_dir, summary=summaries(run_dir) if summaries else None)
    except (UnreadableRun, OSError) as exc:  # the index could not read its events file
        return unreadable_run(run_dir, str(exc))


def kill_run(pid: int | None, create_time: float | None) -> bool:
    """Hard-stop a worker by pid, only if it is still the same process; True when a kill was sent.

    The run loses the batch in flight; its last checkpoint stays. Used for runs this process did not start
    (a re-attached GUI, the CLI), where there is no process handle to kill.
    """
    if not worker_alive(pid, create_time):
        return False  # gone, or the pid is now another program's: never kill that
    import psutil

    try:
        psutil.Process(pid).kill()
    except psutil.Error:
        return False  # gone meanwhile
    return True


def rename_run(run_dir: Path, new_name: str) -> Path:
    """Rename a run that is not running; the paths recorded inside it follow, so it still resumes.

    yolov5 resumes from the absolute ``save_dir`` in ``opt.yaml``, and the worker spec names the run
    folder: both are rewritten (atomically) along with the folder's name.
    """
    import yaml

    if not valid_run_name(new_name):
        raise ValueError(f"{new_name!r} is not a valid folder name")
    if read_run(run_dir).status == "running":
        raise RuntimeError(f"run {run_dir.name} is running; stop it before renaming")
    target = run_dir.parent / new_name
    if target.exists():
        raise FileExistsError(f"a run named {new_name} already exists")
    run_dir.rename(target)
    config_path = target / CONFIG_FILE
    if config_path.exists():
        config = load_run_config(target)
        spec = config.setdefault("spec", {})
        spec["run_dir"] = str(target)
        spec.setdefault("config", {})["name"] = new_name
        config["yolov5_command"] = command_line(build_yolov5_command(spec))
        atomic_write_text(config_path, json.dumps(config, indent=2, ensure_ascii=False) + "\n", backup=False)
        if spec_path(target).exists():
            write_spec(target, spec)
    opt_yaml = RunFolder(target).opt_yaml
    if opt_yaml.exists():
        opt = yaml.safe_load(opt_yaml.read_text(encoding="utf-8")) or {}
        opt.update(save_dir=str(target), name=new_name, project=str(target.parent))
        atomic_write_text(opt_yaml, yaml.safe_dump(opt, sort_keys=False), backup=False)
    return target


def request_stop(run_dir: Path) -> None:
    """Ask a run's worker to stop gracefully through its control file (works for re-attached runs)."""
    with open_lines_for_append(run_dir / CONTROL_FILE) as handle:
        append_line(handle, encode_control("stop").encode("utf-8"))
