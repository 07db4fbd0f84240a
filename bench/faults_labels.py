"""The fault campaign's label cases (issue 23): a label that is a FIFO, one linked to /dev/zero, a 200 MB
label — each must be a finding from ``dataset check`` and pass ``dataset prepare`` by, in seconds, within
~100 MB, never a hang or a traceback. Registered in ``bench/faults.py`` as the ``labels`` section."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, Callable

Measured = Callable[..., dict[str, Any]]
RSS_LIMIT_MB = 50 + 100  # the CLI itself peaked at ~50 MB on the demo dataset; a label case may add ~100


def _case(data: Path, work: Path, name: str, plant: Callable[[Path], None]) -> Path:
    copy = work / "labels" / name
    shutil.copytree(data.parent, copy)
    [first] = sorted((copy / "labels" / "train").glob("*.txt"))[:1]
    first.unlink()
    plant(first)
    yaml_file = copy / data.name
    yaml_file.write_text(yaml_file.read_text().replace(str(data.parent), str(copy)))
    return yaml_file


def _sparse(path: Path) -> None:
    with open(path, "wb") as handle:
        handle.truncate(200_000_000)


def labels(data: Path, work: Path, env: dict[str, str], measured: Measured,
           cli: Callable[..., list[str]]) -> dict[str, Any]:
    counts: dict[str, Any] = {"label cases": 0, "label hangs": 0, "label tracebacks": 0, "label misses": 0,
                              "label max RSS (MB)": 0.0}
    cases: list[tuple[str, Callable[[Path], None], str]] = [("huge", _sparse, "label-too-large")]
    if os.name == "posix":
        cases += [("fifo", os.mkfifo, "label-not-a-file"),
                  ("dev-zero", lambda p: p.symlink_to("/dev/zero"), "label-not-a-file")]
    for name, plant, code in cases:
        yaml_file = _case(data, work, name, plant)
        for verb, argv, ok in (
                ("check", cli("dataset", "check", str(yaml_file), "--json"), lambda r: code in r["out"]),
                ("prepare", cli("dataset", "prepare", str(yaml_file), "--out", str(work / "labels" / f"{name}-out"),
                                "--imgsz", "64"), lambda r: r["rc"] in (0, 1))):
            result = measured(argv, env, timeout=120)
            counts["label cases"] += 1
            counts["label hangs"] += result["hung"]
            counts["label tracebacks"] += result["traceback"]
            counts["label max RSS (MB)"] = max(counts["label max RSS (MB)"], result["rss_mb"])
            if result["hung"] or result["traceback"] or not ok(result) or result["rss_mb"] > RSS_LIMIT_MB:
                counts["label misses"] += 1
                print(f"  label {name} {verb}: rc {result['rc']} hung={result['hung']} rss={result['rss_mb']:.0f}: "
                      f"{(result['err'] or result['out'])[-300:]}")
    return counts
