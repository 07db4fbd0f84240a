"""The verb registry: every verb module registers itself, in help order; adding a verb is adding a module."""

from __future__ import annotations

import sys
from types import SimpleNamespace

import pytest

from cli import registry
from cli.main import build_parser, main

VERBS = ["train", "tune", "resume", "attach", "stop", "fetch", "runs", "demo", "dataset", "wizard", "doctor", "machine", "weights", "evaluate", "export", "predict", "report", "gui"]


def test_every_verb_module_is_registered_in_help_order():
    assert [v.name for v in registry.load_verbs()] == VERBS
    help_text = build_parser().format_help()
    assert all(name in help_text for name in VERBS)


def test_a_new_module_in_the_package_is_a_new_verb(tmp_path, monkeypatch, capsys):
    package = tmp_path / "extra_verbs"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "hello.py").write_text(
        "from cli.registry import Verb, register\n"
        "def add_arguments(p):\n    p.add_argument('--who', default='world')\n"
        "def run(args, workspace):\n    print('hello', args.who, workspace is not None)\n    return 0\n"
        "register(Verb('hello', 'say hello', add_arguments, run, order=1))\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "_VERBS", {})
    names = [v.name for v in registry.load_verbs("extra_verbs")]
    assert names == ["hello"]
    monkeypatch.setattr("cli.main.load_verbs", lambda: registry.load_verbs("extra_verbs"))
    assert main(["--workspace", str(tmp_path / "ws"), "hello", "--who", "you"]) == 0
    assert capsys.readouterr().out.strip() == "hello you True"
    sys.modules.pop("extra_verbs.hello", None)
    sys.modules.pop("extra_verbs", None)


def test_two_verbs_with_one_name_are_refused(monkeypatch):
    monkeypatch.setattr(registry, "_VERBS", {})
    registry.register(registry.Verb("same", "one", lambda p: None, lambda a, w: 0))
    with pytest.raises(ValueError, match="same"):
        registry.register(registry.Verb("same", "two", lambda p: None, lambda a, w: 1))


def test_no_verb_opens_the_desktop_app(monkeypatch, tmp_path):
    calls = []
    app = SimpleNamespace(main=lambda argv: calls.append(argv) or 0)
    monkeypatch.setattr("cli.verbs.gui.importlib", SimpleNamespace(import_module={"gui.app": app}.__getitem__))
    assert main(["--workspace", str(tmp_path)]) == 0
    assert main([]) == 0
    assert calls == [["--workspace", str(tmp_path)], []]


def test_a_command_imports_only_the_verb_it_names(tmp_path):
    """Every CLI start paid for every verb's imports (~0.55 s CPU; `runs` alone 0.17 s)."""
    import subprocess
    from pathlib import Path

    script = ("import sys\nfrom cli.main import main\ncode = main(sys.argv[1:])\n"
              "print(sorted(m for m in sys.modules if m.startswith('cli.verbs.')), code)")
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", script, "--workspace", str(tmp_path), "runs", "--json"], cwd=root,
                         capture_output=True, text=True, timeout=120)
    assert out.stdout.strip().splitlines()[-1] == "['cli.verbs.runs'] 0", out.stderr
    wrong = subprocess.run([sys.executable, "-c", script, "trian"], cwd=root, capture_output=True, text=True,
                           timeout=120)
    assert wrong.returncode == 2 and "invalid choice: 'trian'" in wrong.stderr and "train" in wrong.stderr
