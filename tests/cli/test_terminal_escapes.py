"""Control characters from files and workers are shown escaped, never obeyed: ``dataset check`` (class names,
file names), ``attach`` (event messages from the run's events file), ``runs`` (a run folder's name), and the
one rule itself (core.display_text)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.main import main
from core.display_text import escape_controls, escaped_strings, has_controls
from core.job.protocol import encode, make_event
from core.run.files import EVENTS_FILE
from tests.core.test_dataset_validate import build

HIDE_ERROR = "\x1b[2K\r"  # erase the line, back to its start: what came before on the line is gone
HOSTILE = ["\x1b]0;owned\x07", "\x1b[2K\r", "a\nERROR forged", "\x9b2K", "\u202eevil", "\x00", "\x7f"]


@pytest.mark.parametrize("text", HOSTILE)
def test_every_control_character_becomes_a_visible_escape(text: str) -> None:
    shown = escape_controls(text)
    assert has_controls(text) and not has_controls(shown)
    assert "\\" in shown


def test_plain_text_and_chinese_are_kept() -> None:
    for text in ("train/img_001.png", "类别 猫", "naïve — ok", "tab-free"):
        assert escape_controls(text) == text
    assert escape_controls("a\tb\nc") == "a\\tb\\nc"
    assert escaped_strings({"m": ["\x1b", 1, {"k": "\r"}]}) == {"m": ["\\x1b", 1, {"k": "\\r"}]}


def _no_controls(text: str) -> None:
    stray = [c for c in text if has_controls(c) and c != "\n"]
    assert stray == [], repr(text[:400])


def test_dataset_check_escapes_class_names_and_file_names(tmp_path: Path, capsys) -> None:
    root = tmp_path / "data"
    yaml_text = (f"path: {root}\ntrain: images/train\nval: images/val\n"
                 "names: [\"cat\\e[2K\\r\", \"dog\\e]0;title\\a\"]\n")  # YAML's own escapes: ESC, CR, BEL
    train = {"t1": "0 0.5 0.5 0.2 0.2\n", f"bad{HIDE_ERROR}x": "0 0.5 abc 0.2 0.2\n", "t2": "1 .5 .5 .1 .1\n"}
    data = build(root, train=train, yaml_text=yaml_text)
    assert main(["--workspace", str(tmp_path / "ws"), "dataset", "check", str(data)]) == 1
    out = capsys.readouterr().out
    _no_controls(out)
    assert "cat\\x1b[2K\\r" in out and "dog\\x1b]0;title\\x07" in out
    assert "bad\\x1b[2K\\rx.txt:1" in out  # the label-value ERROR line is still there, with its file


def test_attach_escapes_event_messages_from_the_events_file(tmp_path: Path, capsys) -> None:
    run_dir = tmp_path / "ws" / "runs" / "exp"
    run_dir.mkdir(parents=True)
    (run_dir / "config.json").write_text('{"spec": {}}')
    with open(run_dir / EVENTS_FILE, "w") as handle:
        handle.write(encode(make_event("stage", stage="starting", pid=1, create_time=1.0)))
        handle.write(encode(make_event("error", kind="dataset", message="real ERROR" + HIDE_ERROR + "all fine",
                                       hint="\x1b]8;;http://x\x07click\x1b]8;;\x07")))
        handle.write(encode(make_event("warning", code="w", message="line\nforged line")))
        handle.write(encode(make_event("done", status="failed", elapsed_s=1.0)))
    main(["--workspace", str(tmp_path / "ws"), "attach", "exp"])
    captured = capsys.readouterr()
    _no_controls(captured.out + captured.err)
    text = captured.out + captured.err
    assert "real ERROR\\x1b[2K\\rall fine" in text and "line\\nforged line" in text
    assert "\\x1b]8;;http://x\\x07click" in text


def test_runs_escapes_a_run_folder_name(tmp_path: Path, capsys) -> None:
    run_dir = tmp_path / "ws" / "runs" / ("exp" + HIDE_ERROR + "ok")
    run_dir.mkdir(parents=True)
    (run_dir / "config.json").write_text('{"spec": {}}')
    assert main(["--workspace", str(tmp_path / "ws"), "runs"]) == 0
    out = capsys.readouterr().out
    _no_controls(out)
    assert "exp\\x1b[2K\\rok" in out


FORGED = "\x1b[2K\rall fine\nERROR forged"  # erases the line, then forges one of its own


def _no_forged_line(text: str) -> None:
    _no_controls(text)
    assert not any(line.startswith("ERROR forged") for line in text.splitlines()), text


def test_dataset_import_escapes_a_coco_category_name(tmp_path: Path, capsys) -> None:
    from tests.import_samples import picture, write_coco

    src = tmp_path / "coco"
    picture(src / "images" / "a.jpg", (64, 64), [("x", 4, 4, 30, 30)], seed=5)
    write_coco(src / "annotations.json", [{"id": 1, "file_name": "a.jpg", "width": 64, "height": 64}],
               [{"id": 1, "image_id": 1, "category_id": 7, "bbox": [4, 4, 26, 26]}],
               [{"id": 7, "name": "cat" + FORGED}])
    code = main(["--workspace", str(tmp_path / "ws"), "dataset", "import", str(src), "--out", str(tmp_path / "o")])
    captured = capsys.readouterr()
    assert code in (0, 1), captured.err
    _no_forged_line(captured.out + captured.err)
    assert "cat\\x1b[2K\\rall fine\\nERROR forged" in captured.out


def test_evaluate_escapes_image_paths_in_its_error_list_and_a_workers_detail(tmp_path: Path, capsys) -> None:
    import argparse

    from cli.terminal import guarded
    from cli.verbs.evaluate import EvaluateRenderer, _show

    result = {"weights": "/r/best.pt", "split": "val", "images": 1, "instances": 1, "names": {"0": "cat"},
              "metrics": {}, "per_class": [], "confusion": {}, "error_conf": 0.3, "error_counts": {"missed": 1},
              "errors": [{"image": f"/d/images/a{FORGED}.jpg", "kind": "missed", "class": "cat", "label": 0,
                          "prediction": None, "label_class": 0, "predicted_class": None, "confidence": None}],
              "store": "/r/evaluations/k/result.json"}
    with guarded():
        renderer = EvaluateRenderer(False)
        renderer.event({"type": "stage", "stage": "evaluating", "detail": "validating" + FORGED})
        _show(argparse.Namespace(export_list="", json=False), renderer, result)
    out = capsys.readouterr().out
    _no_forged_line(out)
    assert "validating\\x1b[2K\\rall fine\\nERROR forged" in out
    assert "a\\x1b[2K\\rall fine\\nERROR forged.jpg" in out


def test_tune_escapes_a_trials_reason_and_the_best_run(capsys) -> None:
    from cli.terminal import guarded
    from cli.verbs.tune import TuneConsole

    with guarded():
        console = TuneConsole(False)
        console.event({"type": "trial", "trial": 2, "state": "errored", "epochs": 0, "reason": "died" + FORGED})
        console.event({"type": "done", "status": "completed", "best_trial": {
            "run": "tune_1" + FORGED, "fitness": 0.5, "config_file": "/w/tune/best.yaml"}})
    captured = capsys.readouterr()
    _no_forged_line(captured.out + captured.err)
    assert "died\\x1b[2K\\rall fine\\nERROR forged" in captured.out
    assert "tune_1\\x1b[2K\\rall fine\\nERROR forged" in captured.out + captured.err


def test_evaluate_list_escapes_a_stored_results_values(tmp_path: Path, capsys) -> None:
    import json

    run_dir = tmp_path / "ws" / "runs" / "exp"
    (run_dir / "weights").mkdir(parents=True)
    (run_dir / "weights" / "best.pt").write_bytes(b"not loaded by --list")
    (run_dir / "config.json").write_text('{"spec": {}}')
    (run_dir / "evaluations" / "k").mkdir(parents=True)
    (run_dir / "evaluations" / "k" / "result.json").write_text(json.dumps(
        {"created": 1.0, "split": "val" + FORGED, "images": 1, "metrics": {}}))
    assert main(["--workspace", str(tmp_path / "ws"), "evaluate", "exp", "--list"]) == 0
    out = capsys.readouterr().out
    _no_forged_line(out)
    assert "val\\x1b[2K\\rall fine\\nERROR forged" in out
