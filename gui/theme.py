"""Light, dark or the system's colours: the one place the app's palette is chosen (``Settings.theme``).

Fusion draws every widget from the palette, so a theme is a palette: "system" keeps the one Qt read from
the platform (Fusion follows the desktop's light/dark scheme), "light" is Fusion's standard palette, and
"dark" is a dark palette with the same roles. Plots follow the palette on their own (``QEvent.PaletteChange``).
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

_system_palette: QPalette | None = None


def dark_palette() -> QPalette:
    palette = QPalette()
    roles = QPalette.ColorRole
    colours = {roles.Window: "#2b2d31", roles.WindowText: "#e6e6e6", roles.Base: "#1f2023",
               roles.AlternateBase: "#2f3136", roles.ToolTipBase: "#3a3c42", roles.ToolTipText: "#f0f0f0",
               roles.PlaceholderText: "#8a8d93", roles.Text: "#e6e6e6", roles.Button: "#33353a",
               roles.ButtonText: "#e6e6e6", roles.BrightText: "#ff6b6b", roles.Link: "#6cb4ff",
               roles.Highlight: "#3d7bd9", roles.HighlightedText: "#ffffff", roles.Light: "#45474d",
               roles.Midlight: "#3a3c41", roles.Mid: "#2a2b2f", roles.Dark: "#1a1b1e", roles.Shadow: "#000000"}
    for role, colour in colours.items():
        palette.setColor(role, QColor(colour))
    disabled = QPalette.ColorGroup.Disabled
    for role in (roles.WindowText, roles.Text, roles.ButtonText):
        palette.setColor(disabled, role, QColor("#7c7f85"))
    return palette


def apply_theme(app: QApplication, theme: str) -> None:
    """Set ``theme`` ("system", "light" or "dark") on the running app; the change shows at once."""
    global _system_palette
    if _system_palette is None:
        _system_palette = QPalette(app.palette())
    if theme == "dark":
        app.setPalette(dark_palette())
    elif theme == "light":
        app.setPalette(app.style().standardPalette())
    else:
        app.setPalette(_system_palette)
