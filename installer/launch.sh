#!/usr/bin/env bash
# Install what is missing, then open YOLO Studio with the embedded demo dataset ready to train.
set -euo pipefail
cd "$(dirname "$0")/.."
bash installer/setup_env.sh
# The window's X11 libraries (Linux): the missing ones and the one apt/dnf command, in words, instead of Qt's
# "Could not load the Qt platform plugin xcb" (core/install/qt_libraries.py).
.venv/bin/python -m core.install.qt_libraries || exit 1
exec .venv/bin/yolostudio gui "$@"
