"""``yolostudio runs``: the workspace's runs with status, best mAP, throughput and duration."""

from __future__ import annotations

import argparse
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from cli.common import EXIT_OK
from cli.registry import Verb, register
from cli.columns import cells, pad
from cli.render import Output, shown
from core.i18n import tr
from core.run.progress import format_duration
from core.runs.store import RunInfo, list_runs
from core.run.words import UNREADABLE, status_word
from core.workspace import runs_dir


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help=tr("print the runs as one JSON list"))
    parser.add_argument("--machine", metavar="NAME", default=None, help=tr("the runs on this machine (SSH)"))


def _fmt_map(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def runs_document(runs: list[RunInfo]) -> list[dict[str, Any]]:
    rows = []
    for info in runs:
        row = asdict(info)
        row["best_map"] = info.best_map50  # the headline figure, under a stable name
        rows.append(row)
    return rows


def runs_table(runs: list[RunInfo], workspace: Path) -> str:
    if not runs:
        return tr("No runs yet in {folder}. Start one with: yolostudio train DATA.yaml", folder=runs_dir(workspace))
    header = (tr("name"), tr("status"), tr("epochs"), "mAP@0.5", "mAP@.5:.95", tr("images/s"), tr("GPU busy"),
              tr("data wait"), tr("duration"), tr("started"), tr("path"))
    rows: list[tuple[str, ...]] = [header]
    for info in runs:
        started = time.strftime("%Y-%m-%d %H:%M", time.localtime(info.started)) if info.started else "—"
        ips = "—" if info.images_per_s is None else f"{info.images_per_s:.1f}"
        gpu = "—" if info.gpu_util_mean_percent is None else f"{info.gpu_util_mean_percent:.0f}%"
        wait = "—" if info.data_wait_share is None else f"{100 * info.data_wait_share:.0f}%"
        duration = info.duration_at(time.time())  # live for a run still training
        rows.append((shown(info.name), status_word(info.status), f"{info.epochs_done}/{info.epochs_total}",
                     _fmt_map(info.best_map50), _fmt_map(info.best_map50_95), ips, gpu, wait, format_duration(duration), started, shown(info.path)))
    widths = [max(cells(str(r[i])) for r in rows) for i in range(len(header) - 1)]
    table = "\n".join("  ".join(pad(str(c), w) for c, w in zip(row, widths)) + "  " + str(row[-1]) for row in rows)
    reasons = [tr("{name} is unreadable: {reason}", name=shown(info.name),
                  reason=shown((info.error or {}).get("message", "")))
               for info in runs if info.status == UNREADABLE]
    changed = [f"{shown(info.name)}: {line}" for info in runs
               if (line := info.dataset_change) is not None]
    return "\n".join([table, *changed, *reasons])


def run(args: argparse.Namespace, workspace: Path | None) -> int:
    assert workspace is not None
    if args.machine:
        from cli.remote_runs import remote_runs  # noqa: PLC0415 - only this path needs ssh

        return remote_runs(args, workspace, runs_document, runs_table)
    runs = list_runs(workspace)
    Output(args.json).result(runs_document(runs), lambda: runs_table(runs, workspace))
    return EXIT_OK


register(Verb("runs", tr("list runs with status and best mAP"), add_arguments, run, order=50))
