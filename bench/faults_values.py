"""Fault campaign, issue 23 "user files overwritten" and "runs that can never finish" (``faults.py --skip values``).

Each case runs the real CLI (or a worker started directly) against one fault the campaign found, and is
judged by what the user would see: the exit code, no traceback or "looks like a bug", and that their files
are unchanged. Every case has a deterministic test beside the fix (named after each case below).

- prepare into the dataset's own folder / a non-empty foreign folder / on a full disk
  (``tests/core/test_prepare_target.py``);
- a workspace under ``o'brien`` trains to its end (``tests/e2e/test_apostrophe_path_e2e.py``);
- a NUL in the settings' workspace, ``"size": 1e400`` in the weights manifest, ``inf`` cores in a facts file
  for ``doctor --facts`` and ``wizard --facts``, ``label_smoothing: .nan`` in a config, ``--hyp /etc/passwd``
  (``tests/core/test_file_values.py``); a NaN loss in the worker (``tests/e2e/test_nan_loss_e2e.py``);
- ``worker.lock`` deleted during a run, then a second worker (``tests/core/test_run_owner.py``);
- a killed wizard's scratch folder, ``doctor`` in a read-only workspace, run names ``COM1`` and U+009B
  (``tests/core/test_small_faults.py``).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

from core.job.jobs import JobSpec
from core.runs.store import create_run, load_run_config, resume_spec
from core.training.config import MachineFacts, TrainConfig, validate_config
from tests.worker.tmpfs import small_tmpfs

FACTS = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "facts" / "cpu-vm.json"


def _fingerprint(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and ".cache" not in p.parts}


def _clean(result: dict[str, Any], *codes: int) -> bool:
    """Refused or done as the user would want: one of ``codes``, no traceback, no hang."""
    return result["rc"] in codes and not result["traceback"] and not result["hung"]


def _dataset_copy(data: Path, work: Path, name: str) -> Path:
    """A private copy of the demo dataset (the cases may not touch the campaign's own)."""
    target = work / name
    shutil.copytree(data.parent, target, dirs_exist_ok=True)
    return target / data.name


# -- user files overwritten -------------------------------------------------------------------------------

def prepare_into_dataset(data: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    copy = _dataset_copy(data, work, "own-folder")
    before = _fingerprint(copy.parent)
    result = t.measured(t.cli("dataset", "prepare", str(copy), "--imgsz", "32", "--out", str(copy.parent)), env)
    return _clean(result, 2) and _fingerprint(copy.parent) == before


def prepare_into_foreign_folder(data: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    folder = work / "foreign-out"
    folder.mkdir()
    (folder / "data.yaml").write_text("mine\n")
    (folder / "train.txt").write_text("mine too\n")
    result = t.measured(t.cli("dataset", "prepare", str(data), "--imgsz", "32", "--out", str(folder)), env)
    return _clean(result, 2) and (folder / "data.yaml").read_text() == "mine\n" \
        and (folder / "train.txt").read_text() == "mine too\n"


def prepare_on_full_disk(data: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool | None:
    with small_tmpfs(work / "prep-disk", size_mb=2) as disk:
        if disk is None:
            return None
        filler = disk / "filler"
        with open(filler, "wb") as handle:  # leave 64 kB: a few images fit, the copy does not
            handle.write(b"\0" * max(0, shutil.disk_usage(disk).free - (64 << 10)))
        result = t.measured(t.cli("dataset", "prepare", str(data), "--imgsz", "64", "--format", "png", "--out",
                                  str(disk / "copy")), env)
        left = [p for p in disk.rglob("*") if p.is_file() and p != filler]
        worded = "No space left" in result["err"] and "[Errno 28]" not in result["err"]
        return _clean(result, 2) and worded and not left


# -- hangs, crashes, runs that can never finish ------------------------------------------------------------

def apostrophe_workspace(data: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    ws = work / "o'brien" / "ws"
    result = t.measured(t.cli(*t.train_args(data, "quote", epochs=1)), dict(env, YOLOSTUDIO_WORKSPACE=str(ws)),
                      timeout=900)
    return _clean(result, 0)


def settings_with_nul(data: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    config = work / "nul-config"
    config.mkdir()
    (config / "settings.json").write_text(json.dumps({"settings_version": 2, "workspace": "/tmp/a\0b"}))
    quiet = {k: v for k, v in env.items() if k != "YOLOSTUDIO_WORKSPACE"}
    result = t.measured(t.cli("runs"), dict(quiet, YOLOSTUDIO_CONFIG_DIR=str(config),
                                        XDG_DATA_HOME=str(work / "nul-data")))
    return _clean(result, 0) and "settings.json: workspace" in result["err"]


def manifest_1e400(data: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    ws = work / "manifest-ws"
    (ws / "weights").mkdir(parents=True)
    (ws / "weights" / "yolov5s.pt").write_bytes(b"x")
    (ws / "weights" / "manifest.json").write_text('{"version": 1, "files": {"yolov5s.pt": {"sha256": "ab", '
                                                   '"size": 1e400, "source": "download", "added": 1}}}')
    wenv = dict(env, YOLOSTUDIO_WORKSPACE=str(ws))
    listed = t.measured(t.cli("weights", "list"), wenv)
    removed = t.measured(t.cli("weights", "remove", "yolov5s"), wenv)
    return _clean(listed, 0) and _clean(removed, 0) and not (ws / "weights" / "yolov5s.pt").exists()


def facts_with_inf(data: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    raw = json.loads(FACTS.read_text(encoding="utf-8"))
    raw["system"]["logical_cores"] = math.inf
    raw["system"]["ram_total_gb"] = math.inf
    path = work / "inf-facts.json"
    path.write_text(json.dumps(raw))
    doctor = t.measured(t.cli("doctor", "--facts", str(path)), env)
    wizard = t.measured(t.cli("wizard", str(data), "--facts", str(path)), env)
    return _clean(doctor, 2) and _clean(wizard, 2) and "logical_cores" in doctor["err"] + wizard["err"]


def config_with_nan(data: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    path = work / "nan-config.yaml"
    path.write_text("label_smoothing: .nan\n")
    result = t.measured(t.cli(*t.train_args(data, "nanconfig", epochs=1), "--config", str(path)), env)
    return _clean(result, 2) and "label_smoothing" in result["err"]


def hyp_etc_passwd(data: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    result = t.measured(t.cli(*t.train_args(data, "passwd", epochs=1), "--hyp", "/etc/passwd"), env)
    return _clean(result, 2) and "holds no hyperparameters" in result["err"]


def nan_loss_in_worker(data: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    ws = Path(env["YOLOSTUDIO_WORKSPACE"])
    checked = validate_config(TrainConfig(data=str(data), model="yolov5n.yaml", epochs=2, imgsz=64, batch=8,
                                          workers=1, device=t.DEVICE[0], name="nanloss"), MachineFacts(gpu_count=0),
                              ws)
    run_dir = create_run(ws, checked)
    spec = load_run_config(run_dir)["spec"]
    spec["config"]["label_smoothing"] = math.nan  # past the front ends' check: the worker's own guard
    result = t.measured(JobSpec.for_run("train", run_dir, spec).argv(), env, timeout=900)
    return result["rc"] == 1 and '"kind":"diverged"' in result["out"] and '"status":"failed"' in result["out"]


def lock_file_deleted(data: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    ws = Path(env["YOLOSTUDIO_WORKSPACE"])
    job = t.Live(t.cli(*t.train_args(data, "unlocked", epochs=40)), env)
    run = ws / "runs" / "unlocked"
    try:
        if job.wait_for(lambda e: e["type"] == "checkpoint" and e.get("reason") == "epoch") is None:
            return False
        (run / "worker.lock").unlink()  # a user's clean-up during the run
        second = t.measured(JobSpec.for_run("train", run, resume_spec(run, ws)).argv(), env)
        return second["rc"] == 1 and "run_busy" in second["out"]
    finally:
        t.measured(t.cli("stop", "unlocked"), env)
        job.finish()


def killed_wizard_scratch(data: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    scratch_root = Path(env["YOLOSTUDIO_WORKSPACE"]) / ".cache" / "wizard"
    first = subprocess.Popen(t.cli("wizard", str(data), "--device", t.DEVICE[0]), cwd=t.ROOT, env=env,
                             start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and not list(scratch_root.glob("wizard-*")) and first.poll() is None:
        time.sleep(0.2)
    left = list(scratch_root.glob("wizard-*"))
    os.killpg(first.pid, signal.SIGKILL)  # the CLI and its worker: no finally runs
    first.wait()
    if not left:
        return False
    again = t.measured(t.cli("wizard", str(data), "--device", t.DEVICE[0]), env, timeout=600)
    return _clean(again, 0) and not any(p.exists() for p in left)


def doctor_read_only(data: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool | None:
    with small_tmpfs(work / "ro", size_mb=4) as disk:
        if disk is None:
            return None
        (disk / "ws" / "runs").mkdir(parents=True)
        if subprocess.run(["mount", "-o", "remount,ro", str(disk)]).returncode != 0:
            return None
        result = t.measured(t.cli("doctor", "--json"), dict(env, YOLOSTUDIO_WORKSPACE=str(disk / "ws")),
                            timeout=300)
        try:
            return bool(json.loads(result["out"])["facts"]["probe"]["completed"]) and not result["traceback"]
        except (ValueError, KeyError, TypeError):
            return False


def reserved_run_names(data: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    names = ("COM1", "nul.txt", "x\u009by")
    results = [t.measured(t.cli(*t.train_args(data, name, epochs=1)), env) for name in names]
    return all(_clean(r, 2) and "not a valid folder name" in r["err"] for r in results)


CASES: list[tuple[str, Callable[[Path, Path, dict[str, str], ModuleType], bool | None]]] = [
    ("prepare --out the dataset's folder", prepare_into_dataset),
    ("prepare --out a non-empty folder", prepare_into_foreign_folder),
    ("prepare on a full disk", prepare_on_full_disk),
    ("workspace under o'brien", apostrophe_workspace),
    ("settings workspace with a NUL", settings_with_nul),
    ("weights manifest size 1e400", manifest_1e400),
    ("facts with inf cores/RAM", facts_with_inf),
    ("config label_smoothing .nan", config_with_nan),
    ("hyp /etc/passwd", hyp_etc_passwd),
    ("NaN loss in the worker", nan_loss_in_worker),
    ("worker.lock deleted mid-run", lock_file_deleted),
    ("killed wizard's scratch folder", killed_wizard_scratch),
    ("doctor in a read-only workspace", doctor_read_only),
    ("run names COM1 / U+009B", reserved_run_names),
]


def values(data: Path, ws: Path, work: Path, env: dict[str, str], tools: ModuleType) -> dict[str, Any]:
    """Run every case; counts of tried, failed and skipped (no tmpfs), each failure named on stderr.

    ``tools``: the running ``bench/faults.py`` (its ``measured``, ``Live``, ``cli``, ``train_args`` with the
    campaign's ``--device``), passed in rather than imported, since it imports this module."""
    counts: dict[str, Any] = {"value/file cases": 0, "value/file cases failed": 0, "value/file cases skipped": 0}
    for label, case in CASES:
        try:
            ok = case(data, work, env, tools)
        except Exception as exc:  # noqa: BLE001 - a broken case is a failure to report, not the campaign's end
            ok = False
            print(f"  {label}: {type(exc).__name__}: {exc}", file=sys.stderr)
        if ok is None:
            counts["value/file cases skipped"] += 1
            continue
        counts["value/file cases"] += 1
        counts["value/file cases failed"] += not ok
        if not ok:
            print(f"  {label}: FAILED", file=sys.stderr)
    return counts
