"""Terminal output: readable epoch lines from a recorded run; JSON mode always ends with a done event."""

from __future__ import annotations

import io
import json
from pathlib import Path

from cli.render import JsonEvents
from cli.train_render import ConsoleRenderer
from core.job.jobs import fold_outcome, worker_died_words
from core.job.protocol import read_events

RECORDED = Path(__file__).resolve().parents[1] / "fixtures" / "recorded_train_events.jsonl"


def test_console_renders_recorded_run_without_tty():
    out = io.StringIO()
    renderer = ConsoleRenderer(out, is_tty=False)
    events = read_events(RECORDED)
    for ev in events:
        renderer.event(ev)
    text = out.getvalue()
    epochs = [e for e in events if e["type"] == "epoch_end"]
    assert text.count("mAP@0.5 ") == len(epochs) + 1  # one line per epoch, plus the summary
    assert "\r" not in text  # no progress-bar redraws in a log file
    assert "Completed in" in text and "Best weights:" in text


def test_console_draws_progress_bar_on_tty():
    out = io.StringIO()
    renderer = ConsoleRenderer(out, is_tty=True)
    for ev in read_events(RECORDED):
        if ev["type"] in ("epoch_start", "batch"):
            renderer.event(ev)
            break_after = ev["type"] == "batch"
            if break_after:
                break
    assert "\r" in out.getvalue() and "Epoch 1/" in out.getvalue() and "ETA" in out.getvalue()


def test_json_renderer_passes_events_and_closes_a_dead_stream():
    out = io.StringIO()
    renderer = JsonEvents(out)
    renderer.event({"v": 1, "type": "stage", "t": 1.0, "stage": "training"})
    renderer.finish(fold_outcome(None, None, exit_code=-9))
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [x["type"] for x in lines] == ["stage", "error", "done"]
    assert lines[-1]["status"] == "failed" and lines[1]["kind"] == "worker_died" and "-9" in lines[1]["message"]
    assert lines[1]["synthetic"] and lines[-1]["synthetic"]


def test_json_renderer_adds_nothing_when_the_worker_said_how_it_ended():
    out = io.StringIO()
    renderer = JsonEvents(out)
    done = {"v": 1, "type": "done", "t": 2.0, "status": "stopped", "elapsed_s": 1.0}
    renderer.event(done)
    renderer.finish(fold_outcome(done, None, exit_code=0))
    assert [json.loads(x)["type"] for x in out.getvalue().splitlines()] == ["done"]


def test_console_says_how_a_dead_worker_ended_where_the_user_looks():
    out = io.StringIO()
    renderer = ConsoleRenderer(out, is_tty=False)
    renderer.finish(fold_outcome(None, None, exit_code=None))
    message, hint = worker_died_words(None)
    assert out.getvalue() == f"error: {message}\n  → {hint}\n"


def test_a_cpu_run_summary_does_not_speak_of_a_gpu():
    out = io.StringIO()
    renderer = ConsoleRenderer(out, is_tty=False)
    renderer.event({"v": 1, "type": "hello", "t": 1.0, "job": "train", "pid": 1, "versions": {}, "devices": [],
                    "device_type": "cpu"})
    renderer.event({"v": 1, "type": "done", "t": 9.0, "status": "completed", "elapsed_s": 8.0,
                    "efficiency": {"images_per_s": 12.0, "data_wait_share": 0.04, "gpu_util_mean_percent": None}})
    text = out.getvalue()
    assert "12 img/s on the CPU, data wait 4" in text and "GPU busy" not in text
