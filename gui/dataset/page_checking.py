"""The Dataset page's check: every image and label judged in the background, the answer shown in three tabs.

``DatasetChecking`` is a controller the page owns: it reads the document it is given (``DocumentEditing``),
runs ``core.dataset.validate`` as an operation (``operations.check_dataset``: progress, ETA, Cancel; it
spawns its own processes) and fills the three views it drives — the Problems list, the statistics and the
gallery. The verdict (whether yolov5 would train on it) goes to the page as ``message``; ``changed`` says
Check's state may differ.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from core.dataset.scan import ScanCancelled
from core.dataset.validate import Report
from core.dataset.yaml_doc import parse_text
from core.findings import has_errors
from core.workspace import app_cache_dir
from gui.background import BackgroundTask
from gui.dataset import operations
from gui.dataset.dataset_findings import FindingsView
from gui.dataset.dataset_gallery import DatasetGallery
from gui.dataset.dataset_stats import DatasetStats
from gui.dataset.page_editing import DocumentEditing
from gui.widgets.progress_row import ProgressRow


def flagged_images(report: Report) -> dict[str, list[str]]:
    """Images that findings name besides their own per-image ones (duplicates, leaks, missing labels)."""
    flagged: dict[str, list[str]] = {}
    for f in report.findings:
        if Path(f.file).suffix.lower() not in (".txt", ".yaml", ".yml", ""):
            flagged.setdefault(f.file, []).append(f.code)
    return flagged


class DatasetChecking(QObject):
    """Check (F5), Cancel, and showing the report (see the module's docstring)."""

    changed = Signal()  # a check started or ended
    message = Signal(str, str)  # level, text: the verdict, or why the check did not finish

    def __init__(self, workspace: Path, document: DocumentEditing, progress_row: ProgressRow,
                 findings: FindingsView, stats: DatasetStats, gallery: DatasetGallery, parent: QWidget) -> None:
        super().__init__(parent)
        self._workspace, self._document, self._window = workspace, document, parent
        self._progress_row, self._findings, self._stats, self._gallery = progress_row, findings, stats, gallery
        self.report: Report | None = None
        self.made_message = ""  # what a new dataset's maker said: shown with the first check's verdict
        self._task: BackgroundTask | None = None
        progress_row.cancel_requested.connect(self.cancel)

    @property
    def checking(self) -> bool:
        return self._task is not None

    def check(self) -> None:
        path = self._document.path
        if path is None or self.checking:
            return
        self._document.commit()
        doc = parse_text(self._document.text, str(path))
        self._progress_row.start(self.tr("Checking images and labels…"))
        self._task = operations.check_dataset(self._window, path, doc,
                                              app_cache_dir(self._workspace) / "dataset-check") \
            .progress(self._progress_row.update_counts).success(self._checked).failure(self._check_failed).run()
        self.changed.emit()

    def forget(self) -> None:
        """The report no longer holds (another file, a fix written): the next look checks again."""
        self.report = None

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()

    def _checked(self, report: Report) -> None:
        self._task = None
        self._progress_row.hide()
        self.report = report
        counts = report.stats.get("findings", {})
        scan = report.stats.get("scan", {})
        summary = self.tr("Errors: {e} · warnings: {w} · notes: {i} — {files} files checked in {s} s "
                          "({cached} unchanged since the last check)").format(
            e=counts.get("error", 0), w=counts.get("warning", 0), i=counts.get("info", 0),
            files=scan.get("files", 0), s=scan.get("seconds", 0), cached=scan.get("from_cache", 0))
        self._findings.set_findings(report.findings, report.yaml_file, summary)
        self._stats.show_stats(report.stats)
        self._gallery.set_records(report.images, report.names, flagged_images(report))
        if has_errors(report.findings):
            level, verdict = "error", self.tr(
                "Errors found ({e}): yolov5 would drop images or stop. See the Problems list.").format(
                e=counts.get("error", 0))
        elif counts.get("warning"):
            level, verdict = "warning", self.tr(
                "No errors; warnings worth a look ({w}) in the Problems list.").format(w=counts["warning"])
        else:
            level, verdict = "ok", self.tr("No problems found: the dataset is ready to train.")
        made, self.made_message = self.made_message, ""  # a new dataset: what its maker did, then the verdict
        self.message.emit(level, f"{made}\n{verdict}" if made else verdict)
        self.changed.emit()

    def _check_failed(self, exc: BaseException) -> None:
        self._task = None
        self._progress_row.hide()
        if isinstance(exc, ScanCancelled):
            self.message.emit("info", self.tr("Check cancelled. Files checked so far are remembered."))
        else:
            self.message.emit("error", self.tr("The check failed: {reason}").format(reason=exc))
        self.changed.emit()
