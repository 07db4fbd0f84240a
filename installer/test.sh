#!/usr/bin/env bash
# Install the app and its test tools into .venv, then run the whole test suite (no GPU, no network needed).
set -euo pipefail
cd "$(dirname "$0")/.."
bash installer/setup_env.sh test
bash installer/test_packages.sh  # openssh-server for the SSH tests (root + apt; else they skip, saying why)
export QT_QPA_PLATFORM=offscreen
# Two processes, a test file whole on one (its module fixtures built once); `-n 0` runs in this process.
# The slowest tests are listed at the end, so a CI log shows where the time goes; CPU seconds per file (what a
# shared or busy machine cannot blur): PYTHONPATH=bench TEST_CPU_LOG=F ... -p suite_cpu, then bench/suite_cpu.py F.
# The heaviest e2e files are split so that no one file holds a process long after the other has finished.
exec .venv/bin/python -m pytest -n "${YOLOSTUDIO_TEST_PROCESSES:-2}" --dist loadfile --durations=20 "$@"
