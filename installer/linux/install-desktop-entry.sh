#!/usr/bin/env bash
# Add YOLO Studio to the desktop's application menu (and, with --desktop, an icon on the desktop), so it
# starts with a double-click. The entry runs installer/launch.sh, which installs what is missing first.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
apps="${XDG_DATA_HOME:-$HOME/.local/share}/applications"
mkdir -p "$apps"
entry="$apps/yolo-studio.desktop"
cat > "$entry" <<DESKTOP
[Desktop Entry]
Type=Application
Name=YOLO Studio
Name[zh_CN]=YOLO Studio 训练工作室
Comment=Train and export YOLOv5 models on this GPU workstation
Comment[zh_CN]=在本机 GPU 上训练并导出 YOLOv5 模型
Exec=bash "$root/installer/launch.sh"
Icon=$root/resources/icons/yolo-studio.svg
Terminal=false
Categories=Development;Science;
StartupWMClass=YOLO Studio
DESKTOP
chmod +x "$entry"
if [ "${1:-}" = "--desktop" ] && [ -d "$(xdg-user-dir DESKTOP 2>/dev/null || echo "$HOME/Desktop")" ]; then
    desk="$(xdg-user-dir DESKTOP 2>/dev/null || echo "$HOME/Desktop")"
    cp "$entry" "$desk/" && chmod +x "$desk/yolo-studio.desktop"
    command -v gio >/dev/null && gio set "$desk/yolo-studio.desktop" metadata::trusted true 2>/dev/null || true
fi
command -v update-desktop-database >/dev/null && update-desktop-database "$apps" 2>/dev/null || true
echo "Installed $entry"
