"""The Label page: the labelling loop in the app — auto-label with a run, review the queue, add to a dataset,
retrain — and hand labelling of a folder, all in the one box editor.

Every step goes through what ``yolostudio label`` uses: the auto-label is ``AutoLabelDoor`` run by the page's
``JobRunner`` (progress from ``label_progress``, Cancel = the protocol's stop; running it again continues: the
door predicts only what has no proposals); the queue is read and ordered off the GUI thread (least certain
first, its reason on each row); a decision is one line in the queue (``core.boxedit.queue_session``), never
a dataset file; "Add reviewed to dataset" is ``core.labelling.accept.accept_into`` (a missing class refuses
before any write; the dataset check judges what was added); Retrain is the Train page's fine-tune
(``AppServices.fine_tune``: ``TrainDoor(from_run=…)`` through its runner and checks).

Keys, as the editor's: D / A (→ / ←) write the image's decision when changed and move on; Enter accepts the
image (its proposals confirmed) and moves on; Delete rejects the selected box, or the image when no box is
selected; Space accepts the selected box; R rejects the proposals left.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QFileDialog, QLabel, QSplitter, QVBoxLayout, QWidget

from core.boxedit.review import ReviewRow
from core.dataset.files import label_path_for
from core.i18n import tr, tr_n
from core.job.jobs import JobOutcome
from core.labelling.accept import AcceptRefused, AcceptReport
from core.labelling.records import ADDED, IMAGE_REJECTED, PENDING, REVIEWED, UNREADABLE, ImageItem
from core.labelling.store import QueueError
from core.runs.store import RunInfo
from gui import dialogs
from gui.job_runner import JobRunner, Launcher, default_launcher
from gui.label import operations as loop_ops
from gui.label.loop_bar import LoopBar
from gui.labelling import operations
from gui.labelling.box_editor import BoxEditor
from gui.labelling.editor_dialog import keys_hint
from gui.labelling.image_cache import oriented_size
from gui.labelling.review_list import ReviewList
from gui.pages.page import Page
from gui.widgets.banner import Banner
from gui.widgets.page_header import PageHeader


def ask_folder(parent: QWidget, title: str = "") -> str:
    """The folder dialog ("" when cancelled); tests answer it."""
    return QFileDialog.getExistingDirectory(parent, title or QCoreApplication.translate("LabelPage",
                                                                                        "Images to label"))


def ask_data_yaml(parent: QWidget) -> str:
    """The data.yaml dialog ("" when cancelled); tests answer it."""
    return QFileDialog.getOpenFileName(parent, QCoreApplication.translate("LabelPage", "The dataset to add to"),
                                       "", "data.yaml (*.yaml *.yml)")[0]


class LabelPage(Page):
    def __init__(self, workspace: Path, parent: QWidget | None = None, *,
                 launcher: Launcher = default_launcher) -> None:
        super().__init__(workspace, parent)
        self.folder = ""
        self.names: list[str] = []
        self.images_dir = ""
        self.data_yaml = ""
        self.autolabel_queue = ""  # the queue the auto-label on the runner fills
        self.opened: loop_ops.OpenedQueue | None = None  # the queue on screen (None: a folder, or nothing)
        self.header = PageHeader(
            self.tr("Label"),
            self.tr("Let a trained run propose boxes for new images, review them least certain first, add what you "
                    "accept to a dataset and retrain."), (), self)
        self.bar = LoopBar(self)
        self.banner = Banner(self)
        self.list = ReviewList(self)
        self.editor = BoxEditor(self)
        self.hint = QLabel(keys_hint() + " · " + self.tr("Delete with no box selected: reject the image"), self,
                           wordWrap=True)
        self.runner = JobRunner(self, launcher=launcher)
        split = QSplitter(self)
        split.addWidget(self.list)
        split.addWidget(self.editor)
        split.setStretchFactor(1, 3)
        split.setSizes([340, 900])
        layout = QVBoxLayout(self)
        layout.addWidget(self.header)
        layout.addWidget(self.bar)
        layout.addWidget(self.banner)
        layout.addWidget(split, 1)
        layout.addWidget(self.hint)
        b = self.bar
        b.folder_button.clicked.connect(self.choose)
        b.images_button.clicked.connect(self.choose_images)
        b.auto_button.clicked.connect(self.start_autolabel)
        b.cancel_button.clicked.connect(self.cancel_autolabel)
        b.queue_box.activated.connect(lambda _i: self.open_queue(b.queue_box.currentText()))
        b.accept_button.clicked.connect(self.editor.accept)
        b.reject_button.clicked.connect(self.reject_image)
        b.data_button.clicked.connect(self.choose_dataset)
        b.add_button.clicked.connect(self.add_reviewed)
        b.retrain_button.clicked.connect(self.retrain)
        self.list.clicked.connect(lambda index: self.open_row(index.row()))
        self.editor.next_requested.connect(lambda: self.step(1))
        self.editor.previous_requested.connect(lambda: self.step(-1))
        self.editor.accepted.connect(self._accepted)
        self.editor.saved.connect(self._saved)
        self.editor.failed.connect(lambda words: self.banner.show_message("error", words))
        self.list.loaded.connect(self._loaded)
        self.runner.event.connect(self._job_event)
        self.runner.ended.connect(self._job_ended)

    # -- the app's runs, dataset and queues ----------------------------------------------------------------
    def on_bound(self) -> None:
        """Class names and the dataset to add to from the current dataset (the Dataset page's); the runs from the
        shared store; the workspace's queues."""
        self.services.current.dataset_changed.connect(self._dataset)
        if self.services.current.dataset:
            self._dataset(self.services.current.dataset)
        self.services.runs.changed.connect(self._runs)
        self._runs(self.services.runs.runs)
        self.services.runs.ensure_loaded()
        self.refresh_queues()

    def refresh(self) -> None:
        self.services.runs.reload()
        self.refresh_queues()

    def _runs(self, runs: list[RunInfo]) -> None:
        box = self.bar.run_box
        chosen = box.currentData()
        box.clear()
        for run in runs:
            if run.best_weights:
                box.addItem(run.name, run.path)
        if chosen:
            box.setCurrentIndex(max(0, box.findData(chosen)))
        self._buttons()

    def refresh_queues(self, then_open: str = "") -> None:
        def listed(names: list[str]) -> None:
            box = self.bar.queue_box
            shown = then_open or box.currentText()
            box.clear()
            box.addItems(names)
            if shown in names:
                box.setCurrentText(shown)
            if then_open:
                self.open_queue(then_open)

        loop_ops.queue_names(self, self.workspace).success(listed).run()

    def _dataset(self, path: str) -> None:
        operations.class_names(self, path).success(self._names).failure(lambda _exc: self._names([])).run()
        if path and not self.data_yaml:
            self.set_dataset(path)

    def _names(self, names: list[str]) -> None:
        if self.opened is None:  # a queue's editor numbers the model's classes
            self.names = names
            self.editor.set_names(names)

    def set_dataset(self, path: str) -> None:
        """The data.yaml the reviewed images go into; its splits fill the split box (train first)."""
        self.data_yaml = path
        self.bar.data_label.setText(path)
        self.bar.data_label.setToolTip(path)

        def splits(names: list[str]) -> None:
            self.bar.split_box.clear()
            self.bar.split_box.addItems(names)
            if "train" in names:
                self.bar.split_box.setCurrentText("train")
            self._buttons()

        loop_ops.splits_of(self, path).success(splits).run()

    def choose_dataset(self) -> None:
        path = ask_data_yaml(self)
        if path:
            self.set_dataset(path)

    # -- auto-label ---------------------------------------------------------------------------------------
    def choose_images(self) -> None:
        folder = ask_folder(self, self.tr("New images to auto-label"))
        if folder:
            self.images_dir = folder
            self.bar.images_label.setText(folder)
            self.bar.images_label.setToolTip(folder)
            self._buttons()

    def start_autolabel(self, trust_weights: bool = False) -> None:
        run_dir = self.bar.run_box.currentData()
        if self.runner.active or not run_dir or not self.images_dir:
            return
        self.bar.auto_button.setEnabled(False)
        loop_ops.plan_autolabel(self, Path(run_dir), Path(self.images_dir), self.workspace, self.bar.conf.value(),
                                trust_weights).success(self._planned) \
            .failure(lambda exc: self._not_started(str(exc) or type(exc).__name__)).run()

    def _not_started(self, words: str) -> None:
        self.banner.show_message("error", words)
        self._buttons()

    def _planned(self, door) -> None:  # noqa: ANN001 - an AutoLabelDoor, pre-flighted
        refused = [p for p in door.preflight() if p.is_error]
        if refused:
            askable = door.grants.askable
            if not door.trust_weights and askable and len(askable) == len(refused) and \
                    dialogs.confirm_untrusted_weights(self, askable[0][1]):
                self.start_autolabel(trust_weights=True)  # the door records the grant
                return
            self._not_started("\n".join(p.text() for p in refused))
            return
        self.autolabel_queue = door.queue_name
        try:
            self.runner.start(door)
        except OSError as exc:
            self._not_started(self.tr("Could not start the auto-label: {reason}").format(reason=exc))
            return
        self.bar.progress.setRange(0, 0)
        self.bar.progress.show()
        self.banner.show_message("info", tr_n("Queue {name}: {n} image to predict with {weights}",
                                              "Queue {name}: {n} images to predict with {weights}", door.to_predict,
                                              name=door.queue_name, weights=door.weights))
        self._buttons()

    def cancel_autolabel(self) -> None:
        if self.runner.stop():
            self.bar.cancel_button.setEnabled(False)
            self.banner.show_message("info", self.tr("Stopping after the current image; Auto-label again continues."))

    def _job_event(self, event: dict) -> None:
        if event.get("type") == "label_progress":
            self.bar.progress.setRange(0, int(event.get("count") or 0))
            self.bar.progress.setValue(int(event.get("index") or 0))
            self.bar.progress.setToolTip(str(event.get("image", "")))

    def _job_ended(self, outcome: JobOutcome) -> None:
        self.bar.progress.hide()
        name = self.autolabel_queue
        if outcome.status == "completed":
            self.banner.show_message("info", self.tr("Queue {name} is ready: review it, least certain first.").format(
                name=name))
        elif outcome.status == "stopped":
            self.banner.show_message("info", self.tr("Stopped. Auto-label again predicts the images left."))
        else:
            self.banner.show_message("error", " ".join(t for t in (outcome.message, outcome.hint) if t)
                                     or self.tr("The auto-label failed."))
        self._buttons()
        if name:
            self.refresh_queues(then_open=name)

    # -- a queue ------------------------------------------------------------------------------------------
    def open_queue(self, name: str) -> None:
        if not name:
            return
        self._leave_image()
        loop_ops.read_queue(self, self.workspace, name).success(self._queue_read) \
            .failure(lambda exc: self.banner.show_message(
                "error", exc.message if isinstance(exc, QueueError) else str(exc))).run()

    def _queue_read(self, opened: loop_ops.OpenedQueue) -> None:
        self.opened, self.folder = opened, ""
        self.names = loop_ops.class_names_of(opened.queue)
        self.editor.set_names(self.names)
        self.bar.queue_box.setCurrentText(opened.queue.name)
        self.list.show_rows(opened.rows)  # the first image opens when they are in (``_loaded``)
        self._buttons()

    @property
    def queue_item(self) -> ImageItem | None:
        """The queue image on screen (None in folder mode)."""
        row = self.list.currentIndex().row()
        if self.opened is None or not 0 <= row < len(self.opened.items):
            return None
        return self.opened.items[row]

    def _update_row(self, item: ImageItem) -> None:
        if self.opened is None or item not in self.opened.items:
            return
        row = self.opened.items.index(item)
        self.list.model_.rows[row] = loop_ops.row_of(item)
        index = self.list.model_.index(row)
        self.list.model_.dataChanged.emit(index, index)
        self._buttons()

    def _saved(self, edit: object) -> None:
        if isinstance(edit, ImageItem):
            self._update_row(edit)

    def _accepted(self) -> None:
        """Enter: the image's proposals confirmed (the editor wrote them if they changed); an image still to
        review (or rejected before) becomes reviewed as shown (a right or empty image is a decision too); then the
        next."""
        session = self.editor.session
        if loop_ops.reviewing(session) and (self.queue_item is not None and self.queue_item.state != REVIEWED):
            loop_ops.decide(self, session, REVIEWED).success(lambda item: (self._update_row(item),
                                                                          self.step(1, save=False))).run()
            return
        self.step(1, save=False)

    def reject_image(self) -> None:
        session = self.editor.session
        if loop_ops.reviewing(session):
            loop_ops.decide(self, session, IMAGE_REJECTED).success(
                lambda item: (self._update_row(item), self.step(1, save=False))).run()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        """Delete reaches the page when the editor has no box selected: the image is rejected."""
        if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and loop_ops.reviewing(self.editor.session):
            self.reject_image()
            return
        super().keyPressEvent(event)

    def add_reviewed(self) -> None:
        opened = self.opened
        if opened is None or not self.data_yaml:
            return
        ids = [i.id for i in opened.items if i.state == REVIEWED]
        if not ids:
            self.banner.show_message("info", self.tr("No reviewed image to add: accept images first (Enter)."))
            return
        self.bar.add_button.setEnabled(False)
        loop_ops.accept(self, self.workspace, opened.queue, Path(self.data_yaml), self.bar.split_box.currentText(),
                        ids).success(self._added).failure(self._add_failed).run()

    def _added(self, report: AcceptReport) -> None:
        lines = [tr_n("Added {n} image to {split} of {data}.", "Added {n} images to {split} of {data}.",
                      len(report.added), split=report.split, data=report.dataset)]
        lines += [self.tr("Skipped {id}: {why}").format(id=i, why=why) for i, why in report.skipped]
        lines += [f"{f.where}: {f.message}" for f in report.findings]
        errors = any(f.severity == "error" for f in report.findings)
        self.banner.show_message("error" if errors else "info", "\n".join(lines))
        if self.opened is not None:
            self.open_queue(self.opened.queue.name)

    def _add_failed(self, exc: BaseException) -> None:
        if isinstance(exc, AcceptRefused):
            self.banner.show_message("error", " ".join(t for t in (exc.message, exc.hint) if t))
        else:
            self.banner.show_message("error", tr("Could not write into the dataset: {reason}",
                                                 reason=str(exc) or type(exc).__name__))
        self._buttons()

    def retrain(self) -> None:
        """Fine-tune the queue's run (else the chosen run) on the Train page: ``TrainDoor(from_run=…)``."""
        run_dir = self.opened.queue.header.run_dir if self.opened is not None else self.bar.run_box.currentData()
        if not run_dir:
            return
        fine_tune = self.services.fine_tune
        if fine_tune is None:
            self.banner.show_message("info", self.tr("Open the app's window to retrain (the Train page runs it)."))
            return
        fine_tune(Path(run_dir))

    # -- a folder labelled by hand ------------------------------------------------------------------------
    def choose(self) -> None:
        folder = ask_folder(self)
        if folder:
            self.open_folder(folder)

    def open_folder(self, folder: str) -> None:
        self._leave_image()
        self.opened, self.folder = None, folder
        operations.class_names(self, self.services.current.dataset).success(self._names).run() \
            if self.services.current.dataset else self._names([])
        self.list.load_op(operations.folder_review(self.list, folder))
        self._buttons()

    # -- the list and the editor --------------------------------------------------------------------------
    def _loaded(self, n: int) -> None:
        if n:
            self.open_row(0)
        elif self.opened is None:
            self.banner.show_message("info", self.tr("{folder} holds no images yolov5 reads.").format(
                folder=self.folder))

    @property
    def rows(self) -> list[ReviewRow]:
        return self.list.model_.rows

    def open_row(self, index: int) -> None:
        if not 0 <= index < len(self.rows):
            return
        self.list.setCurrentIndex(self.list.model_.index(index))
        if self.opened is not None:
            self._open_queue_image(self.opened.items[index])
            return
        image = self.rows[index].image
        width, height = oriented_size(image)
        if not width:
            self.banner.show_message("error", self.tr("{image} cannot be read as an image.").format(image=image))
            return
        operations.open_session(self, Path(label_path_for(image)), width, height) \
            .success(lambda session, image=image, index=index: self._opened(index, image, session)) \
            .failure(lambda exc: self.banner.show_message("error", str(exc) or type(exc).__name__)).run()

    def _open_queue_image(self, item: ImageItem) -> None:
        assert self.opened is not None
        if item.state in (PENDING, UNREADABLE, ADDED):
            self.editor.clear()
            words = {PENDING: self.tr("{id} is not predicted yet: Auto-label again continues the queue."),
                     UNREADABLE: self.tr("{id} could not be read: {why}"),
                     ADDED: self.tr("{id} is in the dataset already: {where}")}[item.state]
            self.banner.show_message("info", words.format(id=item.id, why=item.problem, where=item.added_as))
            self._buttons()
            return
        self.banner.hide()
        session = loop_ops.queue_session(self.opened.queue, item.id, self.names)
        self._opened(self.opened.items.index(item), item.path, session)

    def _opened(self, index: int, image: str, session) -> None:  # noqa: ANN001 - an EditSession
        if self.list.currentIndex().row() != index:
            return  # moved on meanwhile
        self.editor.show_image(image, session, self.names)
        self.editor.prefetch([r.image for r in self.rows[index + 1:index + 2]])
        self.editor.setFocus()
        self._buttons()

    def step(self, by: int, save: bool = True) -> None:
        """Write this image's boxes (or queue decision) when changed, then the next / previous image of the list."""
        target = self.list.currentIndex().row() + by
        if save:
            self.editor.save(lambda: self.open_row(target))
        else:
            self.open_row(target)

    def _leave_image(self) -> None:
        if self.editor.session is not None and self.editor.session.dirty:
            self.editor.save()

    def _buttons(self) -> None:
        b, running = self.bar, self.runner.active
        b.auto_button.setEnabled(not running and bool(b.run_box.currentData()) and bool(self.images_dir))
        b.cancel_button.setEnabled(running and not self.runner.stopping)
        reviewing = loop_ops.reviewing(self.editor.session)
        b.accept_button.setEnabled(self.editor.session is not None)
        b.reject_button.setEnabled(reviewing)
        reviewed = self.opened is not None and self.opened.queue.counts()[REVIEWED] > 0
        b.add_button.setEnabled(reviewed and bool(self.data_yaml) and bool(b.split_box.currentText()))
        b.retrain_button.setEnabled(self.opened is not None or bool(b.run_box.currentData()))

    def can_leave(self) -> bool:
        self._leave_image()
        return True
