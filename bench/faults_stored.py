"""Fault campaign, issue 37 "stored evaluations" (``faults.py --skip stored``): each case the real CLI (and the
real evaluate worker) against one fault, judged by what the user sees — exit code, no traceback, no hang.

- a FIFO named ``result.json``: ``evaluate --list`` / ``--list --json``, and ``evaluate`` at its key
  (``tests/core/test_stored_evaluations_faults.py``);
- a stored ``images: "lots"`` / ``created: "yesterday"``: ``evaluate``, ``--list`` and Compare's reader (same file);
- a run copied in from another workspace ("in your runs"), a ``best.pt`` changed in place (the worker's refusal
  exits 2), the workspace key deleted (the refusal says a new key was made) (``tests/cli/test_evaluate_trust_words.py``);
- a model YAML with ``anchors: "lots"`` (``tests/core/test_model_yaml_check.py``).

``run_cases`` is also the tune section's runner (``bench/faults_tune.py``).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

from core.evaluation.request import plan_run_evaluation
from core.run.provenance import key_path, workspace_key

Case = Callable[[Path, Path, Path, dict[str, str], ModuleType], "bool | None"]


def _clean(result: dict[str, Any], *codes: int, words: str = "") -> bool:
    ok = result["rc"] in codes and not result["traceback"] and not result["hung"] and words in " ".join(
        (result["err"] + result["out"]).split())
    if not ok:
        print(f"    rc {result['rc']} hung={result['hung']}: {(result['err'] or result['out'])[-400:]}", file=sys.stderr)
    return ok


def _folder(ws: Path) -> Path:
    return plan_run_evaluation(ws / "runs" / "seed", ws).plan.folder


def fifo_in_the_listing(data: Path, ws: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool | None:
    if not hasattr(os, "mkfifo"):
        return None
    folder = ws / "runs" / "seed" / "evaluations" / "fifo0000"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "result.json")
    try:
        return all(_clean(t.measured(t.cli("evaluate", "seed", *extra), env, timeout=60), 0)
                   for extra in (["--list"], ["--list", "--json"]))
    finally:
        shutil.rmtree(folder)


def fifo_at_the_key(data: Path, ws: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool | None:
    if not hasattr(os, "mkfifo"):
        return None
    folder = _folder(ws)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "result.json").unlink(missing_ok=True)
    os.mkfifo(folder / "result.json")
    result = t.measured(t.cli("evaluate", "seed", "--device", t.DEVICE[0]), env, timeout=600)
    return _clean(result, 0) and (folder / "result.json").is_file()  # evaluated again, stored as a file


def _damaged(key: str, value: Any) -> Case:
    def case(data: Path, ws: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
        from core.evaluation.stored_result import StoredEvaluationError
        from core.run_compare import gather
        from core.runs.store import read_run

        stored = _folder(ws) / "result.json"
        if not stored.is_file():
            t.measured(t.cli("evaluate", "seed", "--device", t.DEVICE[0]), env, timeout=600)
        original = stored.read_text()
        stored.write_text(json.dumps({**json.loads(original), key: value}))
        try:
            ok = all(_clean(t.measured(t.cli("evaluate", "seed", *extra), env, timeout=60), 2, words=key)
                     for extra in ([], ["--list"], ["--list", "--json"]))
            try:
                gather([read_run(ws / "runs" / "seed")])
                ok = False
            except StoredEvaluationError as refused:
                ok = ok and str(stored) in str(refused)
            return ok
        finally:
            stored.write_text(original)
    return case


def copied_from_another_workspace(data: Path, ws: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    other = work / "stored-ws2"
    shutil.copytree(ws / "runs" / "seed", other / "runs" / "seed")
    result = t.measured(t.cli("evaluate", "seed"), dict(env, YOLOSTUDIO_WORKSPACE=str(other)), timeout=60)
    return _clean(result, 2, words="is in your runs") and "outside your runs" not in result["err"]


def best_pt_changed_in_place(data: Path, ws: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    run = ws / "runs" / "tampered"
    shutil.copytree(ws / "runs" / "seed", run)  # same key, same names and mtimes: sealed as the seed's
    shutil.rmtree(run / "evaluations", ignore_errors=True)
    (run / "worker.lock").unlink(missing_ok=True)
    best = run / "weights" / "best.pt"
    stat = best.stat()
    raw = bytearray(best.read_bytes())
    raw[-100] ^= 0xFF  # one byte, same size
    best.write_bytes(bytes(raw))
    os.utime(best, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    result = t.measured(t.cli("evaluate", "tampered", "--device", t.DEVICE[0]), env, timeout=600)
    return _clean(result, 2, words="not the file YOLO Studio recorded writing there")


def workspace_key_deleted(data: Path, ws: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    private = work / "stored-ws3"
    shutil.copytree(ws / "runs" / "seed", private / "runs" / "seed")
    recorded = (private / "runs" / "seed" / "weights" / "provenance.json").stat().st_mtime
    workspace_key(private, create=True)  # a new key: the one the run was recorded with is gone
    os.utime(key_path(private), (recorded + 60, recorded + 60))
    result = t.measured(t.cli("evaluate", "seed"), dict(env, YOLOSTUDIO_WORKSPACE=str(private)), timeout=60)
    return _clean(result, 2, words="made anew")


def anchors_a_string(data: Path, ws: Path, work: Path, env: dict[str, str], t: ModuleType) -> bool:
    import yaml

    from core.model_catalog import yolov5_package_dir

    doc = yaml.safe_load((yolov5_package_dir() / "models" / "yolov5n.yaml").read_text())
    doc["anchors"] = "lots"
    model = work / "anchors-lots.yaml"
    model.write_text(yaml.safe_dump(doc))
    argv = t.train_args(data, "anchors-lots", epochs=1)
    argv[argv.index("yolov5n.yaml")] = str(model)
    result = t.measured(t.cli(*argv), env, timeout=120)
    return _clean(result, 2, words="anchors: 'lots'") and not (ws / "runs" / "anchors-lots").exists()


CASES: list[tuple[str, Case]] = [
    ("FIFO result.json: evaluate --list", fifo_in_the_listing),
    ("FIFO result.json at the key: evaluate", fifo_at_the_key),
    ("stored images: \"lots\"", _damaged("images", "lots")),
    ("stored created: \"yesterday\"", _damaged("created", "yesterday")),
    ("run copied from another workspace", copied_from_another_workspace),
    ("best.pt changed in place", best_pt_changed_in_place),
    ("workspace key deleted", workspace_key_deleted),
    ("model YAML anchors: \"lots\"", anchors_a_string),
]


def run_cases(cases: list[tuple[str, Case]], noun: str, data: Path, ws: Path, work: Path, env: dict[str, str],
              tools: ModuleType) -> dict[str, Any]:
    """Each case once: counts of tried, failed and skipped, each failure named on stderr. ``tools``: the running
    ``bench/faults.py`` (``measured``, ``cli``, ``train_args``, ``DEVICE``), passed in since it imports this."""
    counts: dict[str, Any] = {f"{noun} cases": 0, f"{noun} cases failed": 0, f"{noun} cases skipped": 0}
    for label, case in cases:
        try:
            ok = case(data, ws, work, env, tools)
        except Exception as exc:  # noqa: BLE001 - a broken case is a failure to report, not the campaign's end
            ok = False
            print(f"  {label}: {type(exc).__name__}: {exc}", file=sys.stderr)
        if ok is None:
            counts[f"{noun} cases skipped"] += 1
            continue
        counts[f"{noun} cases"] += 1
        counts[f"{noun} cases failed"] += not ok
        print(f"  {label}: {'ok' if ok else 'FAILED'}", file=sys.stderr)
    return counts


def stored(data: Path, ws: Path, work: Path, env: dict[str, str], tools: ModuleType) -> dict[str, Any]:
    return run_cases(CASES, "stored-evaluation", data, ws, work, env, tools)
