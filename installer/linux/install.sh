#!/usr/bin/env bash
# Install YOLO Studio for this user, with the PyTorch build that fits this machine's NVIDIA driver and GPUs,
# and add it to the applications menu. Re-run to upgrade in place, or to continue an interrupted install.
#
#   bash installer/linux/install.sh                 # install (a few minutes; asks nothing)
#   bash installer/linux/install.sh --dry-run       # show the plan, change nothing (--json: as one object)
#   bash installer/linux/install.sh --dry-run --facts FACTS.json   # plan for a machine from its saved facts
#   options: --cpu | --cuda cu132|cu130|cu126   --desktop (icon on the desktop too)   --prefix DIR
#            --torch-index URL (a mirror of PyTorch's wheel index)
#
# This script only finds Python; every decision is made (and tested) in installer/ (python -m installer).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
. "$root/installer/linux/find_python.sh"

action=install
args=()
for arg in "$@"; do
    case "$arg" in
        --dry-run) action=plan ;;
        -h|--help) sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) args+=("$arg") ;;
    esac
done
find_python
YOLOSTUDIO_INSTALL_RETRY="bash $(printf '%q ' "$root/installer/linux/install.sh" "$@")"
export YOLOSTUDIO_INSTALL_RETRY
cd "$HOME"
PYTHONPATH="$root" exec "$python" -m installer "$action" --source "$root" ${args[@]+"${args[@]}"}
