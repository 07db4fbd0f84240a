"""Fault campaign (not a test): kills, double owners, malformed inputs, a full disk and hostile pickles.

Re-runs the issue-13 campaign against the real CLI and worker (yolov5n, imgsz 64, CPU, tiny demo data)
and prints counts; every figure but the tries should be 0, and the max RSS for any data.yaml under 1 GB.

- kills: N trainings SIGKILLed at a random moment (just after an epoch ends, when yolov5 saves, or at
  a random time); some get a torn last events line as a killed writer leaves it; then each is listed
  (stuck ``running``?), its checkpoints loaded with torch (unloadable?) and resumed (failed?);
- double owners: while a run trains, ``resume`` of it and a second worker started directly on it;
- fuzz: malformed data.yaml files (``dataset check`` and ``train``), facts files (``doctor --facts``),
  damaged run folders (``runs``, ``runs --json``, ``attach``): tracebacks, hangs, max RSS;
- disk full (a small tmpfs, where this process may mount one): training and export on a full disk,
  then resume after space is freed;
- hostile pickles: train / resume / export / the export and predict workers against a .pt that writes
  a marker file when unpickled;
- code: issue 23's files that yolov5 would run as code — model YAMLs, a data.yaml's ``download:``, a run
  folder copied into ``runs/``, terminal escapes (``bench/faults_code.py``);
- values: issue 23's overwritten files, non-finite values and runs that could never finish
  (``bench/faults_values.py``);
- rdzv: the DDP rendezvous — listeners beyond loopback, a hostile state at the name-derived key, meeting
  points from a config file (``bench/faults_rdzv.py``);
- edits, writer, dataset-write: issue 37's label edits over a tampered store, escapes the CLI prints, a JPEG
  yolov5 re-saved in place (``bench/faults_edits.py``).

    python bench/faults.py [--kills 6] [--seed 1] [--skip kills,owners,fuzz,disk,hostile,code,labels,values,rdzv,…] [--device cpu] [--keep]
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bench.faults_code as faults_code  # noqa: E402
from bench import faults_labels  # noqa: E402
import bench.faults_values as faults_values  # noqa: E402
from bench import faults_rdzv  # noqa: E402
from bench import faults_edits  # noqa: E402
from bench import faults_stored, faults_tune  # noqa: E402 - issue 37's stored evaluations and tune
from bench import faults_import  # noqa: E402
from bench.fault_run import cli, measured  # noqa: E402 - the sections reach them through this module too
from bench.fault_corpus import damaged_runs, data_yaml_corpus, facts_corpus  # noqa: E402
from core.run.checkpoint_file import checkpoint_problem  # noqa: E402
from core.demo.dataset import DemoSpec, generate_demo_dataset  # noqa: E402
from core.job.jobs import JobSpec  # noqa: E402
from core.job.launch import worker_env  # noqa: E402
from core.job.protocol import parse_line  # noqa: E402
from core.runs.store import read_run, resume_spec
from core.run.files import EVENTS_FILE
from tests.fixtures.checkpoint_files import write_hostile_checkpoint  # noqa: E402
from tests.worker.tmpfs import small_tmpfs  # noqa: E402

DEVICE = ["cpu"]  # --device: "0" on a GPU machine (bench/gpu_check.sh)


def train_args(data: Path, name: str, epochs: int) -> list[str]:
    return ["train", str(data), "--model", "yolov5n.yaml", "--epochs", str(epochs), "--imgsz", "64", "--batch", "8",
            "--workers", "1", "--device", DEVICE[0], "--name", name]


class Live:
    """A CLI job with ``--json``, its events read as they come."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(argv + ["--json"], cwd=ROOT, env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.events: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self.proc.stderr.read, daemon=True).start()  # type: ignore[union-attr]

    def _read(self) -> None:
        for line in self.proc.stdout:  # type: ignore[union-attr]
            event = parse_line(line.decode("utf-8", "replace")).event
            if event is not None:
                self.events.put(event)

    def wait_for(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 600.0) -> dict[str, Any] | None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                event = self.events.get(timeout=0.5)
            except queue.Empty:
                if self.proc.poll() is not None and self.events.empty():
                    return None
                continue
            self.seen.append(event)
            if predicate(event):
                return event
        return None

    def finish(self, timeout: float = 900.0) -> int:
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return -9


def load_all_checkpoints(paths: list[Path], env: dict[str, str]) -> list[str]:
    """Load each checkpoint with torch in one worker-like process; the ones that fail, with why."""
    script = ("import sys, json\nfrom pathlib import Path\nfrom core.worker import compat\n"
              "paths=[Path(p) for p in json.loads(sys.argv[1])]\n"
              "compat.apply(Path(sys.argv[2]), trusted=[p.parent for p in paths])\nimport torch\nbad=[]\n"
              "for p in paths:\n    try:\n        torch.load(p, map_location='cpu')\n"
              "    except Exception as e:\n        bad.append(f'{p}: {type(e).__name__}: {e}'[:300])\n"
              "print(json.dumps(bad))\n")
    result = subprocess.run([sys.executable, "-c", script, json.dumps([str(p) for p in paths]),
                             str(Path(tempfile.gettempdir()) / "faults-cache")], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=600)
    lines = result.stdout.strip().splitlines()
    return json.loads(lines[-1]) if lines else [f"loader failed: {result.stderr[-500:]}"]


# -- the campaign ---------------------------------------------------------------------------------------

def kills(n: int, data: Path, ws: Path, env: dict[str, str], rng: random.Random) -> dict[str, int]:
    counts = {"kills tried": 0, "stuck running": 0, "unloadable checkpoints": 0, "failed resumes": 0,
              "resumes": 0, "killed before a first checkpoint": 0}
    checkpoints: list[Path] = []
    for i in range(n):
        name = f"k{i}"
        moment = rng.choice(["epoch_end", "checkpoint", "random"])
        job = Live(cli(*train_args(data, name, epochs=2)), env)
        start = job.wait_for(lambda e: e["type"] == "stage" and e.get("stage") == "starting")
        if start is None:
            print(f"  {name}: the worker did not start", file=sys.stderr)
            continue
        if moment == "random":
            time.sleep(rng.uniform(2.0, 25.0))
        else:
            epoch = rng.randrange(2)
            job.wait_for(lambda e: e["type"] == moment and e.get("epoch") == epoch)
            time.sleep(rng.uniform(0.0, 0.3))  # yolov5 saves right after the epoch ends
        try:
            os.kill(start["pid"], signal.SIGKILL)
        except ProcessLookupError:
            pass  # it had finished already
        counts["kills tried"] += 1
        job.finish()
        run = ws / "runs" / name
        if rng.random() < 0.5:
            with open(run / EVENTS_FILE, "a", encoding="utf-8") as handle:
                handle.write('{"v":1,"type":"batch","t":')  # what a writer killed mid-line leaves
        info = read_run(run)
        counts["stuck running"] += info.status == "running"
        last = run / "weights" / "last.pt"
        checkpoints += [p for p in (last, run / "weights" / "best.pt") if p.exists()]
        if not last.exists():
            counts["killed before a first checkpoint"] += 1
            continue
        if not info.can_resume and info.status != "completed":
            counts["unloadable checkpoints"] += checkpoint_problem(last) is not None
            continue
        if info.status == "completed":
            continue
        counts["resumes"] += 1
        resumed = measured(cli("resume", name), env, timeout=900)
        ok = resumed["rc"] == 0 and read_run(run).status == "completed"
        counts["failed resumes"] += not ok
        if not ok:
            print(f"  {name} ({moment}): resume rc {resumed['rc']}: {resumed['err'][-400:]}", file=sys.stderr)
    counts["unloadable checkpoints"] += len(load_all_checkpoints(checkpoints, env)) if checkpoints else 0
    return counts


def double_owners(data: Path, ws: Path, env: dict[str, str]) -> dict[str, int]:
    counts = {"double-owner attempts": 0, "double-owner attempts refused": 0}
    job = Live(cli(*train_args(data, "owner", epochs=40)), env)
    first = job.wait_for(lambda e: e["type"] == "epoch_start")
    run = ws / "runs" / "owner"
    if first is None:
        print("  the owner run did not start", file=sys.stderr)
        return counts
    attempt = measured(cli("resume", "owner"), env)
    counts["double-owner attempts"] += 1
    counts["double-owner attempts refused"] += attempt["rc"] == 2 and "another worker" in attempt["err"]
    spec = resume_spec(run, ws) if (run / "weights" / "last.pt").exists() else None
    if spec is not None:  # a second worker started directly (a second GUI, a script): the lock refuses it
        second = measured(JobSpec.for_run("train", run, spec).argv(), env)
        counts["double-owner attempts"] += 1
        counts["double-owner attempts refused"] += second["rc"] == 1 and "run_busy" in second["out"]
    measured(cli("stop", "owner"), env)
    job.finish()
    return counts


def fuzz(data: Path, ws: Path, work: Path, env: dict[str, str]) -> dict[str, Any]:
    counts: dict[str, Any] = {"fuzz inputs": 0, "tracebacks": 0, "hangs": 0, "max RSS (MB)": 0.0}

    def judge(label: str, argv: list[str], ok: Callable[[dict[str, Any]], bool]) -> None:
        result = measured(argv, env)
        counts["fuzz inputs"] += 1
        counts["tracebacks"] += result["traceback"]
        counts["hangs"] += result["hung"]
        counts["max RSS (MB)"] = max(counts["max RSS (MB)"], result["rss_mb"])
        if result["traceback"] or result["hung"] or not ok(result):
            print(f"  {label}: rc {result['rc']} hung={result['hung']}: {result['err'][-300:]}", file=sys.stderr)

    for name, path in data_yaml_corpus(work / "yaml", data.parent / "images"):
        judge(f"dataset check {name}", cli("dataset", "check", str(path)), lambda r: r["rc"] != 0)
        judge(f"train {name}", cli(*train_args(path, f"fz-{name}", epochs=1)), lambda r: r["rc"] != 0)
    sample = ROOT / "tests" / "fixtures" / "facts" / "cpu-vm.json"
    for name, path in facts_corpus(work / "facts", sample):
        judge(f"doctor --facts {name}", cli("doctor", "--facts", str(path)),
              lambda r: r["rc"] == 2 or (r["rc"] in (0, 1) and "torch-versions" in name))
    template = next(p for p in (ws / "runs").iterdir() if (p / "config.json").is_file())
    for name in damaged_runs(ws, template):
        judge(f"attach {name}", cli("attach", name), lambda r: True)
    judge("runs", cli("runs"), lambda r: r["rc"] == 0)
    judge("runs --json", cli("runs", "--json"), lambda r: r["rc"] == 0 and "unreadable" in r["out"])
    listed = {r["name"]: r["status"] for r in json.loads(measured(cli("runs", "--json"), env)["out"] or "[]")}
    counts["damaged runs listed running"] = sum(s == "running" for n, s in listed.items() if n.startswith("bad-"))
    return counts


def disk_full(data: Path, work: Path, env: dict[str, str]) -> dict[str, Any]:
    counts: dict[str, Any] = {"disk-full trainings": 0, "disk_full reported": 0, "resumed after freeing": 0,
                              "disk-full exports": 0, "export disk_full reported": 0, "partial files left": 0}
    with small_tmpfs(work / "disk", size_mb=96) as disk:
        if disk is None:
            counts["skipped"] = "no tmpfs (needs root on Linux)"
            return counts
        ws = disk / "ws"
        denv = dict(env, YOLOSTUDIO_WORKSPACE=str(ws))
        (ws / "runs").mkdir(parents=True)
        filler = disk / "filler"
        free = shutil.disk_usage(disk).free
        with open(filler, "wb") as handle:
            handle.write(b"\0" * max(0, free - (20 << 20)))  # ~20 MB left: the first saves fit, later ones don't
        counts["disk-full trainings"] += 1
        result = measured(cli(*train_args(data, "full", epochs=6), "--json"), denv, timeout=900)
        events = [e for e in (parse_line(line).event for line in result["out"].splitlines()) if e]
        errors = [e for e in events if e["type"] == "error"]
        reported = bool(errors) and errors[-1].get("kind") == "disk_full" and "needs about" in errors[-1]["message"]
        counts["disk_full reported"] += reported
        if not reported:
            print(f"  disk-full training: rc {result['rc']}, errors {errors[-1:]}", file=sys.stderr)
        filler.unlink()
        if read_run(ws / "runs" / "full").can_resume:
            counts["resumed after freeing"] += measured(cli("resume", "full"), denv, timeout=900)["rc"] == 0
        weights = ws / "runs" / "full" / "weights" / "best.pt"
        if weights.exists():
            free = shutil.disk_usage(disk).free
            with open(filler, "wb") as handle:
                handle.write(b"\0" * max(0, free - (2 << 20)))
            counts["disk-full exports"] += 1
            spec = {"job": "export", "workspace": str(ws), "min_free_bytes": 0, "trusted_weights": [],
                    "options": {"weights": str(weights), "formats": ["onnx"], "imgsz": 64}, "latency_runs": 2,
                    "verify_images": 4}
            export = measured(JobSpec.scratch("export", spec, ws).argv(), denv, timeout=600)
            kinds = [e.get("kind") for e in (parse_line(x).event for x in export["out"].splitlines()) if e
                     and e["type"] == "error"]
            counts["export disk_full reported"] += "disk_full" in kinds and export["rc"] == 1
            if "disk_full" not in kinds or export["rc"] != 1:
                print(f"  disk-full export: rc {export['rc']}, kinds {kinds}: {export['err'][-300:]}", file=sys.stderr)
            counts["partial files left"] += sum(1 for _ in disk.rglob("*partial*"))
            filler.unlink()
    return counts


def hostile(data: Path, ws: Path, work: Path, env: dict[str, str]) -> dict[str, int]:
    marker = work / "EXECUTED"
    pt = write_hostile_checkpoint(work / "hostile" / "yolov5s.pt", marker)
    foreign = work / "elsewhere" / "runs" / "evil"
    template = next(p for p in (ws / "runs").iterdir() if (p / "weights" / "last.pt").is_file())
    shutil.copytree(template, foreign)
    write_hostile_checkpoint(foreign / "weights" / "last.pt", marker)
    config = json.loads((foreign / "config.json").read_text())
    config["spec"].update(workspace=str(foreign.parent.parent), trusted_weights=["/"])
    (foreign / "config.json").write_text(json.dumps(config))
    (foreign / "worker.lock").unlink(missing_ok=True)
    tries = [cli(*train_args(data, "hostile", epochs=1), "--weights", str(pt)),
             cli("resume", str(foreign)),
             cli("export", str(pt), "--format", "onnx")]
    for job in ("export", "predict"):  # the workers' own guard, with no front end in front of it
        spec = ({"job": "export", "workspace": str(ws), "trusted_weights": [], "latency_runs": 1,
                 "options": {"weights": str(pt), "formats": ["onnx"], "imgsz": 64}} if job == "export" else
                {"job": "predict", "workspace": str(ws), "model": str(pt), "images": [], "imgsz": 64,
                 "trusted_weights": []})
        tries.append(JobSpec.scratch(job, spec, ws).argv())
    for argv in tries:
        measured(argv, env, timeout=300)
    return {"hostile pickles": len(tries), "executed": int(marker.exists())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip", default="", help="comma-separated: kills,owners,fuzz,disk,hostile,code,labels,"
                        "values,rdzv,edits,writer,dataset-write")
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    parser.add_argument("--device", default="cpu", help="cpu (default) or a GPU index")
    args = parser.parse_args()
    DEVICE[0] = args.device
    skip = set(filter(None, args.skip.split(",")))
    work = Path(tempfile.mkdtemp(prefix="yolostudio-faults-"))
    ws = work / "ws"
    env = worker_env()
    env.update(YOLOSTUDIO_WORKSPACE=str(ws), YOLOSTUDIO_CONFIG_DIR=str(work / "config"), HOME=str(work / "home"))
    if args.device == "cpu":
        env["CUDA_VISIBLE_DEVICES"] = ""
    data = generate_demo_dataset(work / "data", DemoSpec(n_train=16, n_val=8, image_size=64, seed=3))
    rng = random.Random(args.seed)
    results: dict[str, Any] = {}
    started = time.monotonic()
    try:
        seed = measured(cli(*train_args(data, "seed", epochs=1)), env, timeout=900)  # a finished run to copy from
        if seed["rc"] != 0:
            raise SystemExit(f"the seed training failed: {seed['err'][-2000:]}")
        sections: list[tuple[str, Callable[[], dict[str, Any]]]] = [
            ("kills", lambda: kills(args.kills, data, ws, env, rng)),
            ("owners", lambda: double_owners(data, ws, env)),
            ("fuzz", lambda: fuzz(data, ws, work, env)),
            ("disk", lambda: disk_full(data, work, env)),
            ("hostile", lambda: hostile(data, ws, work, env)),
            ("code", lambda: faults_code.code(data, ws, work, env, sys.modules[__name__])),
            ("labels", lambda: faults_labels.labels(data, work, env, measured, cli)),
            ("values", lambda: faults_values.values(data, ws, work, env, sys.modules[__name__])),
            ("rdzv", lambda: faults_rdzv.campaign(data, work, env)),  # the DDP rendezvous (bench/faults_rdzv.py)
            ("edits", lambda: faults_edits.edits(data, work)),  # issue 37 (bench/faults_edits.py)
            ("writer", lambda: faults_edits.writer(data, work, env, measured, cli, ws)),
            ("dataset-write", lambda: faults_edits.dataset_write(work, env, measured, cli, train_args)),
            # issue 37's stored evaluations and tune: --skip stored,tune (bench/faults_stored.py, faults_tune.py)
            ("stored", lambda: faults_stored.stored(data, ws, work, env, sys.modules[__name__])),
            ("tune", lambda: faults_tune.tune(data, ws, work, env, sys.modules[__name__])),
            ("import", lambda: faults_import.campaign(work, env, measured, cli))]  # issue 37 (bench/faults_import.py)
        for name, section in sections:
            if name in skip:
                continue
            counts = section()
            results.update(counts)
            print(f"[{name}] " + ", ".join(f"{k}: {v:.0f}" if isinstance(v, float) else f"{k}: {v}"
                                           for k, v in counts.items()), flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"fault campaign (seed {args.seed}, {time.monotonic() - started:.0f} s)")
    for key, value in results.items():
        print(f"  {key:40s} {value:.0f}" if isinstance(value, float) else f"  {key:40s} {value}")


if __name__ == "__main__":
    main()
