"""The writer rule: nothing in cli/ reaches the terminal around the one writer (``cli/terminal.py``).

``cli.main`` runs every verb with ``sys.stdout``/``sys.stderr`` behind ``TerminalText`` and ``Output`` writes
through it, so a ``print`` anywhere in a verb is cleaned. What would go around it is read here from the source
(as ``tests/test_gui_operations_rule.py`` reads gui/): the interpreter's original streams, a stream's binary
``buffer``, a file descriptor written directly, the terminal device opened, ``sys.stdout``/``sys.stderr`` bound
before ``main`` runs (a default argument, a module- or class-level name), and a child process started without
its output piped (it would write to the terminal itself). A behaviour test holds ``main`` to installing it.
"""

from __future__ import annotations

import ast
import io
import sys
from pathlib import Path

import pytest

from cli.main import main
from cli.terminal import TerminalText, clean, guarded, redraw

ROOT = Path(__file__).resolve().parents[2]
WRITER = ROOT / "cli" / "terminal.py"
BYPASSES = {("sys", "__stdout__"), ("sys", "__stderr__"), ("os", "write"), ("os", "fdopen"), ("os", "system"),
            ("sys", "__displayhook__")}
PROCESS_STARTS = {"Popen", "run", "call", "check_call", "check_output"}


def _is_std_stream(node: ast.AST) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr in ("stdout", "stderr")
            and isinstance(node.value, ast.Name) and node.value.id == "sys")


def violations(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    where = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                (node.value.id, node.attr) in BYPASSES:
            found.append(f"{where}:{node.lineno}: {node.value.id}.{node.attr}")
        if isinstance(node, ast.Attribute) and node.attr == "buffer" and _is_std_stream(node.value):
            found.append(f"{where}:{node.lineno}: a standard stream's binary buffer")
        if isinstance(node, ast.Constant) and node.value in ("/dev/tty", "CON", "CONOUT$"):
            found.append(f"{where}:{node.lineno}: the terminal device opened")
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for default in [*node.args.defaults, *node.args.kw_defaults]:
                if default is not None and any(_is_std_stream(n) for n in ast.walk(default)):
                    found.append(f"{where}:{node.lineno}: sys.stdout/stderr bound as a default, before main")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in PROCESS_STARTS and isinstance(node.func.value, ast.Name) and \
                node.func.value.id == "subprocess":
            given = {kw.arg for kw in node.keywords}
            if not {"stdout", "stderr"} <= given and "capture_output" not in given:
                found.append(f"{where}:{node.lineno}: a child process writing to the terminal itself")
    for statement in tree.body:  # module level, and class bodies: evaluated at import, before main
        bodies = statement.body if isinstance(statement, ast.ClassDef) else [statement]
        for item in bodies:
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            if any(_is_std_stream(n) for n in ast.walk(item)):
                found.append(f"{where}:{item.lineno}: sys.stdout/stderr bound at import, before main")
    return found


def test_no_cli_module_writes_around_the_writer():
    modules = sorted((ROOT / "cli").rglob("*.py"))
    assert len(modules) > 20
    found = [v for path in modules if path != WRITER for v in violations(path)]
    assert found == [], "\n".join(found)


def test_the_rule_sees_each_way_around(tmp_path):
    """Each bypass, written as a verb would, is caught (a rule that catches nothing proves nothing)."""
    sample = tmp_path / "sample_verb.py"
    sample.write_text(
        "import os, subprocess, sys\n"
        "LOG = sys.stderr\n"
        "def a(out=sys.stdout):\n"
        "    sys.__stdout__.write('x')\n"
        "    sys.stdout.buffer.write(b'x')\n"
        "    os.write(1, b'x')\n"
        "    open('/dev/tty', 'w')\n"
        "    subprocess.run(['ls'])\n", encoding="utf-8")
    found = violations(sample)
    assert len(found) == 7, found


def test_main_runs_every_verb_behind_the_writer(capsys, monkeypatch, tmp_path):
    seen = {}

    def verb_run(args, workspace):
        seen["out"], seen["err"] = sys.stdout, sys.stderr
        print("raw \x1b]0;owned\x07 \x9b2K 类别 \u202eevil")  # a print that forgot cli.render.shown
        return 0

    from cli import main as cli_main
    from cli.registry import Verb

    monkeypatch.setattr(cli_main, "verb_named", lambda name: Verb("runs", "", lambda parser: None, verb_run))
    assert main(["--workspace", str(tmp_path / "ws"), "runs"]) == 0
    assert isinstance(seen["out"], TerminalText) and isinstance(seen["err"], TerminalText)
    assert not isinstance(sys.stdout, TerminalText)  # put back after the verb
    out = capsys.readouterr().out
    assert out == "raw \\x1b]0;owned\\x07 \\u009b2K 类别 \\u202eevil\n"


def test_json_stays_valid_json_with_the_same_values():
    import json

    doc = {"name": "cat\x1b[2K\r\u0085\u202e类", "n": 1}
    buffer = io.StringIO()
    with_writer = TerminalText(buffer)
    print(json.dumps(doc, ensure_ascii=False), file=with_writer)
    assert json.loads(buffer.getvalue()) == doc
    assert all(c == "\n" or ord(c) >= 0x20 and not 0x7f <= ord(c) <= 0x9f for c in buffer.getvalue())


def test_the_progress_lines_carriage_return_is_the_writers_own():
    buffer = io.StringIO()
    stream = TerminalText(buffer)
    redraw(stream, "50% \x1b[2K")
    stream.write("\rforged")
    assert buffer.getvalue() == "\r50% \\x1b[2K\\rforged"


@pytest.mark.parametrize("text", ["train/图像_001.png", "naïve — ok", "a\nb"])
def test_plain_text_chinese_and_newlines_are_kept(text):
    assert clean(text) == text


def test_guarded_puts_the_streams_back_after_an_error():
    before = sys.stdout, sys.stderr
    with pytest.raises(SystemExit):
        with guarded():
            raise SystemExit(2)
    assert (sys.stdout, sys.stderr) == before
