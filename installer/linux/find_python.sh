# Sourced by install.sh and uninstall.sh: sets $python to a Python 3.10+ interpreter, or explains and exits.
# $PYTHON, when set, is the only candidate; otherwise the newest python3.X on PATH that PyTorch supports.
find_python() {
    local candidates found=""
    if [ -n "${PYTHON:-}" ]; then candidates="$PYTHON"; else candidates="python3.15 python3.14 python3.13 python3.12 python3.11 python3.10 python3"; fi
    for candidate in $candidates; do
        command -v "$candidate" >/dev/null 2>&1 || continue
        if "$candidate" -c 'import sys; sys.exit(not (3, 10) <= sys.version_info[:2])' 2>/dev/null; then
            python="$(command -v "$candidate")"
            return 0
        fi
        found="$found $candidate ($("$candidate" --version 2>&1 | head -n 1 || true))"
    done
    echo "YOLO Studio needs Python 3.10 or newer; found:${found:- none}." >&2
    echo "Install it (Debian/Ubuntu: sudo apt install python3 python3-venv; Fedora: sudo dnf install python3)," >&2
    echo "then run this again, or name one: PYTHON=/path/to/python3.12 bash $0" >&2
    exit 1
}
