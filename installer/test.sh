#!/usr/bin/env bash
# Install the app and its test tools into .venv, then run the whole test suite (no GPU, no network needed).
set -euo pipefail
cd "$(dirname "$0")/.."
bash installer/setup_env.sh test
export QT_QPA_PLATFORM=offscreen
exec .venv/bin/python -m pytest "$@"
