"""The Dataset page's check: every image and label judged in the background, the answer shown in three tabs.

``core.dataset.validate`` runs as an operation (``operations.check_dataset``: progress, ETA, Cancel; it
spawns its own processes); the findings fill the Problems list, the statistics and the gallery, and the
banner says in one line whether yolov5 would train on it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from core.dataset.scan import ScanCancelled
from core.dataset.validate import Report
from core.dataset.yaml_doc import parse_text
from core.findings import has_errors
from core.workspace import app_cache_dir
from gui.dataset import operations

if TYPE_CHECKING:
    from gui.dataset.dataset_page import DatasetPage


def flagged_images(report: Report) -> dict[str, list[str]]:
    """Images that findings name besides their own per-image ones (duplicates, leaks, missing labels)."""
    flagged: dict[str, list[str]] = {}
    for f in report.findings:
        if Path(f.file).suffix.lower() not in (".txt", ".yaml", ".yml", ""):
            flagged.setdefault(f.file, []).append(f.code)
    return flagged


class DatasetChecking:
    """Mixed into ``DatasetPage``: Check (F5), Cancel, and showing the report."""

    def check(self: "DatasetPage") -> None:
        if self.path is None or self.checking:
            return
        self.yaml_editor.commit()
        doc = parse_text(self.text, str(self.path))
        self.progress_row.start(self.tr("Checking images and labels…"))
        self._task = operations.check_dataset(self, self.path, doc, app_cache_dir(self.workspace) / "dataset-check") \
            .progress(self.progress_row.update_counts).success(self._checked).failure(self._check_failed).run()
        self._update_state()

    def cancel_check(self: "DatasetPage") -> None:
        if self._task is not None:
            self._task.cancel()

    def _checked(self: "DatasetPage", report: Report) -> None:
        self._task = None
        self.progress_row.hide()
        self.report = report
        counts = report.stats.get("findings", {})
        scan = report.stats.get("scan", {})
        summary = self.tr("Errors: {e} · warnings: {w} · notes: {i} — {files} files checked in {s} s "
                          "({cached} unchanged since the last check)").format(
            e=counts.get("error", 0), w=counts.get("warning", 0), i=counts.get("info", 0),
            files=scan.get("files", 0), s=scan.get("seconds", 0), cached=scan.get("from_cache", 0))
        self.findings.set_findings(report.findings, report.yaml_file, summary)
        self.stats.show_stats(report.stats)
        self.gallery.set_records(report.images, report.names, flagged_images(report))
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
        self.banner.show_message(level, f"{made}\n{verdict}" if made else verdict)
        self._update_state()

    def _check_failed(self: "DatasetPage", exc: BaseException) -> None:
        self._task = None
        self.progress_row.hide()
        if isinstance(exc, ScanCancelled):
            self.banner.show_message("info", self.tr("Check cancelled. Files checked so far are remembered."))
        else:
            self.banner.show_message("error", self.tr("The check failed: {reason}").format(reason=exc))
        self._update_state()
