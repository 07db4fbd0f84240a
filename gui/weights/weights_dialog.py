"""The "Pretrained weights" dialog: the official YOLOv5 v7.0 checkpoints, which are on this machine, Get / Import / Remove.

One table row per checkpoint (``core.weights.words.weights_rows``: the same rows as ``yolostudio weights
list``): size, COCO mAP, what it is for, and its state here. **Get** asks first — it is the app's only
network use — then runs the ``weights_get`` worker job through the GUI's one job path (``JobRunner``):
speed and ETA while it arrives, Cancel (the partial file stays; Get again resumes), then the load check in
the worker. **Import…** asks whether the user trusts the file (a .pt is a pickle) before the
``weights_import`` job copies, checks and hashes it. **Remove** asks, then deletes. ``changed`` tells the
Train page to look again at what the next run should start from. Open it with ``get="yolov5s"`` to start
that download at once (the Train page's and the wizard's "Get yolov5s.pt…").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QDialog, QDialogButtonBox, QFileDialog, QHBoxLayout, QHeaderView,
                               QLabel, QProgressBar, QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout,
                               QWidget)

from core.job.jobs import JobOutcome
from core.usecases.jobs import WeightsGetDoor, WeightsImportDoor
from core.weights.catalog import OFFICIAL_BASE, find_checkpoint
from core.weights.words import progress_text, row_state_text, size_of
from gui import dialogs
from gui.weights.operations import StoreRows, read_store_rows, remove_checkpoint, stored_state
from gui.job_runner import JobRunner, Launcher, default_launcher
from gui.widgets.banner import Banner
from gui.screen_fit import fit_to_screen

COLUMNS = (QT_TRANSLATE_NOOP("WeightsDialog", "Name"), QT_TRANSLATE_NOOP("WeightsDialog", "Size"), "mAP",
           QT_TRANSLATE_NOOP("WeightsDialog", "On this machine"), QT_TRANSLATE_NOOP("WeightsDialog", "What it is for"))


def _tr(text: str) -> str:
    return QCoreApplication.translate("WeightsDialog", text)


def ask_import_path(parent: QWidget) -> str:
    path, _ = QFileDialog.getOpenFileName(parent, _tr("Import a checkpoint"), str(Path.home()),
                                          _tr("PyTorch checkpoints (*.pt)"))
    return path


class WeightsDialog(QDialog):
    changed = Signal()  # a checkpoint arrived or went
    rows_shown = Signal()  # the table shows the store as last read (``reload`` reads it in the background)

    def __init__(self, workspace: Path, parent: QWidget | None = None, *, launcher: Launcher = default_launcher,
                 select: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Pretrained weights"))
        self.workspace = Path(workspace)
        self.rows: list[dict[str, Any]] = []
        self.status: str | None = None  # the last job's done status
        self._job_name = ""
        self._busy = False  # from the start of a job until its ``ended``
        self._reading = 0  # the newest reload's number: an older reading that arrives late is not shown
        self._worker = JobRunner(self, launcher=launcher)
        self._worker.event.connect(self._on_event)
        self._worker.ended.connect(self._on_ended)

        intro = QLabel(self.tr(
            "The official YOLOv5 v7.0 checkpoints, pretrained on COCO (80 classes). Fine-tuning from one reaches "
            "a useful mAP on a few hundred images in tens of epochs; training from scratch needs hundreds. "
            "YOLO Studio downloads only when you click Get, from {base}.").format(base=OFFICIAL_BASE), self)
        intro.setWordWrap(True)
        intro.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.banner = Banner(self)
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setHorizontalHeaderLabels([self.tr(c) for c in COLUMNS])
        self.table.horizontalHeaderItem(2).setToolTip(self.tr("COCO val2017 mAP@0.5:0.95 (YOLOv5 v7.0 README)"))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.setWordWrap(False)  # one line a row; the purpose's full text is its tooltip
        header = self.table.horizontalHeader()
        for column in range(len(COLUMNS) - 1):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(len(COLUMNS) - 1, QHeaderView.ResizeMode.Stretch)
        self.table.setAccessibleName(self.tr("Checkpoints"))
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.table.itemDoubleClicked.connect(lambda item: self.get_selected())
        self.progress_label = QLabel(self, wordWrap=True)
        self.progress_bar = QProgressBar(self, maximum=1000, textVisible=False)
        self.get_button = QPushButton(self.tr("&Get…"), self, clicked=self.get_selected)
        self.get_button.setToolTip(self.tr("Download the selected checkpoint from the official release (asks first)"))
        self.import_button = QPushButton(self.tr("&Import…"), self, clicked=self.import_file)
        self.import_button.setToolTip(self.tr("Add a .pt you downloaded elsewhere (asks whether you trust it)"))
        self.remove_button = QPushButton(self.tr("&Remove"), self, clicked=self.remove_selected)
        self.cancel_button = QPushButton(self.tr("&Cancel download"), self, clicked=self.cancel)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.buttons.rejected.connect(self.reject)

        actions = QHBoxLayout()
        for button in (self.get_button, self.import_button, self.remove_button, self.cancel_button):
            actions.addWidget(button)
        actions.addStretch(1)
        actions.addWidget(self.buttons)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.banner)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.progress_label)
        layout.addWidget(self.progress_bar)
        layout.addLayout(actions)
        fit_to_screen(self, 900, 520)
        self.reload(select)
        self._show_running(False)

    # -- the table ------------------------------------------------------------------------------------
    def reload(self, select: str = "") -> None:
        """Read the store again in the background (a manifest and a few stats: no file is hashed); the table
        follows, then ``rows_shown``."""
        keep = select or self.selected_file()
        self._reading += 1
        reading = self._reading
        read_store_rows(self, self.workspace).success(lambda read: self._show_rows(read, keep, reading)).run()

    def _show_rows(self, read: StoreRows, keep: str, reading: int) -> None:
        if reading != self._reading:
            return  # a newer reading is on its way
        self.rows = read.rows
        self.table.setRowCount(len(self.rows))
        for index, row in enumerate(self.rows):
            map_text = f"{row['map50_95']:.1f}" if row.get("map50_95") is not None else "—"
            cells = (row["name"], size_of(row), map_text, row_state_text(row), row["purpose"])
            for column, text in enumerate(cells):
                item = QTableWidgetItem(str(text))
                if column == 4:
                    item.setToolTip(str(text))
                if column == 3 and row["state"] == "ok":
                    item.setText("✓ " + item.text())
                    item.setToolTip(row.get("path") or "")
                self.table.setItem(index, column, item)
        if read.manifest_problem:
            self.banner.show_message("warning", read.manifest_problem)
        wanted = find_checkpoint(keep) if keep else None
        target = wanted.file_name if wanted else keep
        index = next((i for i, row in enumerate(self.rows) if row["file"] == target), 0 if self.rows else -1)
        if index >= 0:
            self.table.selectRow(index)
        self._update_buttons()
        self.rows_shown.emit()

    def selected_row(self) -> dict[str, Any] | None:
        rows = self.table.selectionModel().selectedRows()
        return self.rows[rows[0].row()] if rows else None

    def selected_file(self) -> str:
        row = self.selected_row()
        return row["file"] if row else ""

    def _update_buttons(self) -> None:
        row = self.selected_row()
        running = self.running
        self.get_button.setEnabled(not running and row is not None and row["official"] and row["state"] != "ok")
        self.remove_button.setEnabled(not running and row is not None and row["state"] != "absent")
        self.import_button.setEnabled(not running)

    # -- running a job --------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._busy

    def _show_running(self, running: bool) -> None:
        self.progress_bar.setVisible(running)
        self.progress_label.setVisible(running or bool(self.progress_label.text()))
        self.cancel_button.setVisible(running and self._job_name == "weights_get")
        self.buttons.setEnabled(not running)
        self._update_buttons()

    def _start(self, job: str, spec: dict[str, Any], what: str) -> None:
        self._job_name, self._busy = job, True
        self.status = None
        self.banner.hide()
        self.progress_bar.setRange(0, 0)
        self.progress_label.setText(what)
        self._show_running(True)
        # an import starts only after the dialog's confirm (import_file): the user's grant
        door = WeightsGetDoor(spec, self.workspace) if job == "weights_get" else WeightsImportDoor(
            spec, self.workspace, granted=True)
        self._worker.start(door)

    def get_selected(self) -> None:
        row = self.selected_row()
        if row is None or not row["official"] or row["state"] == "ok" or self.running:
            return
        self.get(row["name"])

    def offer(self, select: str, get: str = "") -> None:
        """Open on ``select``'s row (a model or checkpoint name); with ``get``, ask to download that one at once
        (the Train form's and the wizard's "Get yolov5s.pt…")."""
        self.reload(get or select)
        self.open()
        if get:
            self.get(get)

    def get(self, name: str) -> bool:
        """Ask, then download ``name`` (``yolov5s``); False when the user said no."""
        checkpoint = find_checkpoint(name)
        if checkpoint is None or self.running:
            return False
        if not dialogs.confirm_download(self, checkpoint.file_name, checkpoint.size_text(), checkpoint.url):
            return False
        self.reload(checkpoint.file_name)
        self._start("weights_get", {"name": checkpoint.name},
                    self.tr("Connecting to {host}…").format(host="github.com"))
        return True

    def import_file(self) -> None:
        if self.running:
            return
        path = ask_import_path(self)
        if not path:
            return
        source = Path(path)
        if not dialogs.confirm_untrusted_weights(self, source):
            return
        name = source.name if source.name.endswith(".pt") else f"{source.stem}.pt"
        stored_state(self, self.workspace, name).success(
            lambda state: self._import_if_absent(source, name, state)).run()

    def _import_if_absent(self, source: Path, name: str, state: str) -> None:
        if self.running:
            return
        if state != "absent":
            self.banner.show_message("warning", self.tr(
                "{name} is already in the weights store. Remove it first, or rename the file you import.").format(
                name=name))
            return
        self._start("weights_import", {"source": str(source.resolve()), "name": name},
                    self.tr("Copying {path}…").format(path=source))

    def remove_selected(self) -> None:
        row = self.selected_row()
        if row is None or row["state"] == "absent" or self.running:
            return
        if not dialogs.ask_yes(self, self.tr("Remove {name}?").format(name=row["file"]), self.tr(
                "Delete {path} from the weights store? Runs that were trained from it keep their own weights; "
                "a later training that names it needs it again.").format(path=row["path"])):
            return
        name = row["file"]

        def refused(exc: BaseException) -> None:
            self.banner.show_message("error", self.tr("Could not remove {name}: {reason}").format(
                name=name, reason=getattr(exc, "message", exc)))

        remove_checkpoint(self, self.workspace, name).success(lambda removed: self._removed()).failure(refused).run()

    def _removed(self) -> None:
        self.progress_label.setText("")
        self.reload()
        self._show_running(False)
        self.changed.emit()

    def cancel(self) -> None:
        if self.running and self._worker.stop():
            self.progress_label.setText(self.tr("Cancelling…"))

    def _on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "download":
            received, total = int(event.get("received") or 0), event.get("total")
            if total:
                self.progress_bar.setRange(0, 1000)
                self.progress_bar.setValue(int(1000 * received / total))
            self.progress_label.setText(self.tr("Downloading {name}: {progress}").format(
                name=event.get("name", ""), progress=progress_text(received, total, event.get("speed_bps"),
                                                                   event.get("eta_s"))))
        elif kind == "stage" and event.get("stage") == "verifying":
            self.progress_bar.setRange(0, 0)
            self.cancel_button.setVisible(False)  # the load check is short; the file is complete
            self.progress_label.setText(self.tr("Checking {name}: loading it as a YOLOv5 checkpoint…").format(
                name=event.get("detail", "")))
        elif kind == "log" and event.get("level") == "warning":  # a retry: the next try resumes
            self.progress_bar.setRange(0, 0)
            self.progress_label.setText(str(event.get("message", "")))

    def _on_ended(self, outcome: JobOutcome) -> None:
        self._busy = False
        self.status = outcome.status
        done = outcome.done or {}
        name = str(done.get("name") or "")
        if outcome.status == "completed":
            self.progress_label.setText(self.tr("{name} is on this machine: {path}").format(
                name=name, path=done.get("path", "")))
        elif outcome.status == "stopped":
            self.progress_label.setText(self.tr("Cancelled. The part already downloaded is kept: Get resumes it."))
        else:
            self.progress_label.setText("")
            self.banner.show_message("error", "\n".join(p for p in (outcome.message, outcome.hint) if p))
        self._show_running(False)
        self.reload(name)
        if outcome.status == "completed":
            self.changed.emit()

    # -- closing --------------------------------------------------------------------------------------
    def reject(self) -> None:
        """Escape and Close wait for a running job: cancel the download first (it resumes later)."""
        if self.running:
            self.banner.show_message("warning", self.tr(
                "A checkpoint is still arriving: cancel the download first (Get resumes it later)."))
            return
        super().reject()

    def closeEvent(self, event: Any) -> None:
        if self.running:
            event.ignore()
            self.reject()
            return
        super().closeEvent(event)
