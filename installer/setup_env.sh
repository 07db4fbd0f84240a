#!/usr/bin/env bash
# Create or update the app's virtual environment in .venv (idempotent, fast when nothing changed).
#   bash installer/setup_env.sh          # the app
#   bash installer/setup_env.sh test     # the app + test tools
# Everything comes from PyPI (torch 2.14.1 / torchvision 0.29.1, yolov5 7.0.14, PySide6, ...); nothing is
# downloaded later at run time.
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-}"
python="${PYTHON:-python3}"

if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
    echo "YOLO Studio needs Python 3.10 or newer; found: $("$python" --version 2>&1 || echo none)." >&2
    echo "Install it (e.g. 'sudo apt install python3.11 python3.11-venv') and run again, or set PYTHON=/path/to/python3." >&2
    exit 1
fi
if [ ! -x .venv/bin/python ]; then
    echo "Creating .venv with $("$python" --version) ..."
    "$python" -m venv .venv || { echo "Could not create a venv: install python3-venv (Debian/Ubuntu: sudo apt install python3-venv)." >&2; exit 1; }
fi

spec="."
[ "$extras" = "test" ] && spec=".[test]"
stamp=".venv/.yolostudio-installed-$( (cat pyproject.toml; echo "$spec") | sha256sum | cut -c1-16)"
if [ ! -f "$stamp" ]; then
    echo "Installing YOLO Studio and its dependencies into .venv (first time: a few minutes, ~6 GB) ..."
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -e "$spec"
    rm -f .venv/.yolostudio-installed-*
    touch "$stamp"
fi

# The window's X11 libraries are checked by launch.sh (core/install/qt_libraries.py), not here: tests need none.
