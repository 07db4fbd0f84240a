#!/usr/bin/env bash
# Remove YOLO Studio as installed by install.sh: exactly the files it recorded in install.json.
# Your workspace (runs, datasets) and settings stay, unless --remove-data (asks first; --yes for scripts).
#
#   bash installer/linux/uninstall.sh [--prefix DIR] [--remove-data [--yes]]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
. "$root/installer/linux/find_python.sh"
find_python
cd "$HOME"
PYTHONPATH="$root" exec "$python" -m installer uninstall --source "$root" "$@"
