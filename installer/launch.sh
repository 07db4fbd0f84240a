#!/usr/bin/env bash
# Install what is missing, then open YOLO Studio with the embedded demo dataset ready to train.
set -euo pipefail
cd "$(dirname "$0")/.."
bash installer/setup_env.sh
exec .venv/bin/yolostudio gui "$@"
