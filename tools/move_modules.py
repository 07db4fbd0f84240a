"""Rewrite every reference to moved modules: ``python -m tools.move_modules OLD=NEW ...`` (dotted names).

Used for the reshapes of issue 20, one package per commit, after ``git mv``: dotted names (imports, monkeypatch
strings, ``"module:Class"`` in the page catalogue), ``from PKG import MODULE`` forms, and file paths in .py/.md/
.toml files. The lead applies the same map to the other branches when merging (docs/history.md lists it).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUFFIXES = (".py", ".md", ".toml", ".cfg", ".txt", ".sh", ".ps1", ".ts")


def rewrite(text: str, moves: dict[str, str]) -> str:
    for old, new in moves.items():
        text = re.sub(rf"(?<![\w.]){re.escape(old)}(?![\w])", new, text)
        old_path, new_path = old.replace(".", "/"), new.replace(".", "/")
        text = re.sub(rf"(?<![\w/]){re.escape(old_path)}\.py\b", new_path + ".py", text)
        old_pkg, _, old_name = old.rpartition(".")
        new_pkg, _, new_name = new.rpartition(".")

        def from_import(match: re.Match[str]) -> str:
            names = [n.strip() for n in match.group(2).split(",")]
            moved = [n for n in names if n.split(" as ")[0].strip() == old_name]
            if not moved:
                return match.group(0)
            kept = [n for n in names if n not in moved]
            lines = [f"{match.group(1)}from {new_pkg} import {', '.join(m.replace(old_name, new_name, 1) for m in moved)}"]
            if kept:
                lines.insert(0, f"{match.group(1)}from {old_pkg} import {', '.join(kept)}")
            return "\n".join(lines)

        text = re.sub(rf"^([ \t]*)from {re.escape(old_pkg)} import ([\w ,]+)$", from_import, text, flags=re.M)
    return text


def main(argv: list[str]) -> int:
    moves = dict(arg.split("=", 1) for arg in argv)
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    for name in files:
        path = ROOT / name
        if path.suffix not in SUFFIXES or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        new = rewrite(text, moves)
        if new != text:
            path.write_text(new, encoding="utf-8")
            print(name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
