"""The About box: versions, licenses and where the app keeps things.

Versions of torch, CUDA and yolov5 come from the last environment check's facts
(``core.workspace.last_facts_path``, read in the background by ``gui.shell_operations``), never from
importing them: the GUI process does not import torch.
Before the first check the box says so and where to run it. Paths are shown as selectable text, so a
user can paste them into a bug report.
"""

from __future__ import annotations

import platform
from html import escape
from pathlib import Path

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from core import RESOURCES_DIR, __version__
from core.settings import settings_path
from gui.app_log import LOG_FILE
from gui.fonts import CJK_FONT_LICENSE
from gui.shell_operations import read_probed_versions

READING = object()  # the facts file is being read


class AboutDialog(QDialog):
    def __init__(self, workspace: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("About YOLO Studio"))
        self.workspace = workspace
        self.versions_read = False  # the last check's facts arrived (or there were none)
        self.text = QLabel(self._html(workspace, READING), self)
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.text.setOpenExternalLinks(False)
        self.text.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(buttons)
        self.resize(640, self.sizeHint().height())
        read_probed_versions(self, workspace).success(self._show_versions).run()

    def _show_versions(self, probed: dict[str, str] | None) -> None:
        self.text.setText(self._html(self.workspace, probed))
        self.versions_read = True

    def _html(self, workspace: Path, probed: object) -> str:
        unknown = self.tr("not checked yet")
        versions = [(self.tr("YOLO Studio"), __version__), ("Python", platform.python_version()),
                    ("PySide6", pyside_version)]
        if probed is READING:
            versions.append(("PyTorch, CUDA, YOLOv5", self.tr("reading the last environment check…")))
        elif not isinstance(probed, dict):
            versions.append(("PyTorch, CUDA, YOLOv5", self.tr("not checked yet: open the Environment page")))
        else:
            versions += [("PyTorch", probed["torch"] or unknown),
                         ("CUDA", probed["cuda"] or self.tr("none (a CPU build of PyTorch)")),
                         ("YOLOv5", probed["yolov5"] or unknown),
                         (self.tr("NVIDIA driver"), probed["driver"] or self.tr("none found"))]
        paths = [(self.tr("Workspace"), workspace), (self.tr("Settings"), settings_path()),
                 (self.tr("Log"), workspace / LOG_FILE)]
        licenses = [self.tr("YOLO Studio: GNU AGPL-3.0 or later (it embeds yolov5, which is AGPL-3.0)"),
                    self.tr("DejaVu Sans font: the DejaVu fonts license ({file})").format(
                        file=RESOURCES_DIR / "fonts" / "LICENSE_DEJAVU"),
                    self.tr("Noto Sans CJK SC font (a subset): SIL Open Font License 1.1 ({file})").format(
                        file=CJK_FONT_LICENSE)]

        def rows(items: list[tuple[str, object]]) -> str:
            return "".join(f"<tr><td><b>{escape(k)}</b>&nbsp;&nbsp;</td><td>{escape(str(v))}</td></tr>"
                           for k, v in items)

        return (f"<h2>YOLO Studio {escape(__version__)}</h2>"
                f"<p>{escape(self.tr('Train and export YOLOv5 models on your own GPU workstation.'))}</p>"
                f"<h3>{escape(self.tr('Versions'))}</h3><table>{rows(versions)}</table>"
                f"<h3>{escape(self.tr('Licenses'))}</h3><ul>"
                + "".join(f"<li>{escape(item)}</li>" for item in licenses)
                + f"</ul><h3>{escape(self.tr('Where things are'))}</h3><table>{rows(paths)}</table>")
