"""``cli.progress_line.ProgressLine``: one in-place line on a terminal, nothing off it, padded by cells."""

from __future__ import annotations

import io

from cli.progress_line import ProgressLine


def test_a_shorter_line_erases_the_longer_one_by_terminal_cells():
    out = io.StringIO()
    line = ProgressLine(out, tty=True)
    line.show("检查 10/20")  # two cells per Chinese character: 10 cells
    line.show("ok")
    assert out.getvalue() == "\r检查 10/20" + "\r" + "ok" + " " * 8


def test_say_erases_the_progress_then_keeps_its_own_line_and_keep_ends_it():
    out = io.StringIO()
    line = ProgressLine(out, tty=True)
    line.show("epoch 1/3")
    line.say("Training")
    line.show("epoch 2/3")
    line.keep()
    line.clear()  # nothing shown any more: nothing written
    assert out.getvalue() == "\repoch 1/3" + "\r" + " " * 9 + "\r" + "Training\n" + "\repoch 2/3" + "\n"


def test_off_a_terminal_only_lines_of_their_own_are_written():
    out = io.StringIO()
    line = ProgressLine(out, tty=False)
    line.show("epoch 1/3")
    line.clear()
    line.say("Training")
    assert out.getvalue() == "Training\n"


def test_a_long_line_is_clipped_so_it_never_wraps():
    out = io.StringIO()
    line = ProgressLine(out, tty=True, width=10)
    line.show("x" * 30)
    assert out.getvalue() == "\r" + "x" * 10 and line.shown == "x" * 10


def test_no_other_cli_module_rewrites_a_line_itself():
    """A carriage return written by a verb is a second progress writer (the dataset import had one)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "cli"
    writers = sorted(str(path.relative_to(root.parent)) for path in root.rglob("*.py")
                     if path.name not in ("progress_line.py", "terminal.py") and any(  # terminal: its writer
                         isinstance(node, ast.Constant) and isinstance(node.value, str) and "\r" in node.value
                         for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))))
    assert writers == []
