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
