"""The run index folds each events file once and then only what was appended; listings equal a fresh read."""

from __future__ import annotations

import shutil
from pathlib import Path

from core.job.protocol import encode, make_event, read_events
from core.runs.index import RunIndex
from core.runs.store import create_run, list_runs
from core.runs.status import fold_events
from core.run.files import EVENTS_FILE
from core.training.config import MachineFacts, TrainConfig, validate_config

RECORDED = Path(__file__).resolve().parents[1] / "fixtures" / "recorded_train_events.jsonl"


def make_run(tmp_path: Path, name: str) -> Path:
    data = tmp_path / "data.yaml"
    data.write_text("path: .\ntrain: a\nval: a\nnames: [x]\n")
    return create_run(tmp_path / "ws", validate_config(TrainConfig(data=str(data), name=name, device="cpu"),
                                                       MachineFacts(0)))


def test_listing_equals_a_fresh_read_and_a_second_listing_reads_nothing(tmp_path):
    for name in ("a", "b"):
        shutil.copyfile(RECORDED, make_run(tmp_path, name) / EVENTS_FILE)
    index = RunIndex()
    assert index.list_runs(tmp_path / "ws") == list_runs(tmp_path / "ws")
    first = index.reads
    assert first == 2 * RECORDED.stat().st_size
    assert index.list_runs(tmp_path / "ws") == list_runs(tmp_path / "ws")
    assert index.reads == first  # nothing changed: nothing read


def test_a_growing_file_is_read_from_where_it_stopped(tmp_path):
    run = make_run(tmp_path, "live")
    lines = RECORDED.read_bytes().splitlines(keepends=True)
    half = len(lines) // 2
    events = run / EVENTS_FILE
    events.write_bytes(b"".join(lines[:half]) + lines[half][:10])  # a line being written
    index = RunIndex()
    index.summary(run)
    assert index.reads == len(b"".join(lines[:half]))  # the partial line waits
    with open(events, "ab") as handle:
        handle.write(lines[half][10:] + b"".join(lines[half + 1:]))
    before = index.reads
    summary = index.summary(run)
    assert index.reads - before == len(b"".join(lines[half:]))  # only the appended bytes
    full = fold_events(read_events(RECORDED))
    assert (summary.best, summary.epochs_done, summary.segment.done, summary.duration_s) == \
           (full.best, full.epochs_done, full.segment.done, full.duration_s)


def test_a_replaced_or_shorter_file_is_folded_again(tmp_path):
    run = make_run(tmp_path, "r")
    shutil.copyfile(RECORDED, run / EVENTS_FILE)
    index = RunIndex()
    assert index.summary(run).segment.done is not None
    (run / EVENTS_FILE).write_text(encode(make_event("stage", stage="starting", pid=1, create_time=1.0)))
    assert index.summary(run).segment.done is None and index.summary(run).epochs_done == 0


def test_runs_that_are_gone_are_forgotten(tmp_path):
    run = make_run(tmp_path, "gone")
    shutil.copyfile(RECORDED, run / EVENTS_FILE)
    index = RunIndex()
    index.list_runs(tmp_path / "ws")
    shutil.rmtree(run)
    assert index.list_runs(tmp_path / "ws") == [] and not index._entries


def test_the_types_the_index_does_not_decode_change_nothing_but_the_last_time():
    """FOLDED_TYPES must list every type fold_events reads, or the index would list runs wrongly."""
    from core.job.protocol import EVENT_TYPES
    from core.runs.status import FOLDED_TYPES, RunSummary

    for kind in sorted(set(EVENT_TYPES) - FOLDED_TYPES):
        event = make_event(kind, t=5.0, epoch=3, epochs=9, status="completed", stage="starting", pid=7,
                           path="/x.pt", best_path="/b.pt", reason="epoch", metrics={"metrics/mAP_0.5": 1.0},
                           fitness=1.0, elapsed_s=1.0, kind="x", message="m")
        assert fold_events([event]) == RunSummary(last_t=5.0), kind
