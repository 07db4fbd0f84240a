"""The Train page's run control: start, resume, follow, replay, stop and the next run — what turns a button
into a run session (``gui.run_session.RunSession``).

A controller the page owns (composition): it is given the options panel (the form it reads and fills) and
the page only as the parent of its dialogs, owns the session and what the next Start needs (a resumable run,
the wizard's hand-over, the prepared copy's check), and tells the page through signals — ``notify`` (a line
for the banner), ``state_changed`` (buttons), ``session_created`` (a run to show), ``launched`` and
``copy_progress``. The rules themselves are core's: a run is created and resumed through the door
(``core.usecases.train``: the same pre-flight as the CLI's),
whether it may resume is ``core.run.folder.RunFolder.can_resume``, which wizard document a run keeps is
``RunFolder.keep_wizard``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from core.dataset.prepare import PrepareResult
from core.i18n import tr_n
from core.remote.fetch import local_folder
from core.remote.machines import Machine
from core.training.config import ValidatedConfig
from core.training.distributed import ENDPOINT_FIELDS
from core.training.options import option_labels
from core.job.jobs import JobOutcome
from core.run.folder import RunFolder
from core.runs.fine_tune import FromRunError, fine_tune_config
from core.runs.store import RunInfo, load_run_config
from core.usecases.remote import RemoteTrainDoor
from core.usecases.train import ResumeDoor, TrainDoor
from core.wizard.prepared_copy import CopyRequest, request_of
from core.wizard.time_fit import HANDOVER_FIELDS, handover_words
from gui import dialogs
from gui.background import BackgroundTask
from gui.operations import show_failure
from gui.job_runner import Launcher
from gui.run_session import RunSession
from gui.run_text import date_time_text
from gui.train import operations
from gui.train.operations import RunEnd
from gui.train.remote_start import RemoteStart
from gui.train.run_viewer import RunViewer
from gui.train.train_options_panel import TrainOptionsPanel

#: ``notify``'s kinds: a plain line, one about the options' problems (hidden once they are fixed), the
#: "Re-attached to run …" line (hidden when that run ends)
PLAIN, PROBLEMS, ATTACHED = "", "problems", "attached"


class TrainRunControl(QObject):
    """Run control for the Train page (see the module's docstring)."""

    notify = Signal(str, str, str)  # level, text, kind (PLAIN, PROBLEMS, ATTACHED)
    state_changed = Signal()  # a run started, stopped, ended or the next Start's state changed: buttons, display
    session_created = Signal(object, Path)  # RunSession, its worker.log: a new run is on screen (shown empty)
    launched = Signal()  # a worker was started for the run on screen
    copy_progress = Signal(str)  # Start's words while the prepared copy is checked
    ended = Signal(object, object, object)  # JobOutcome, run folder, RunEnd: the run on screen's worker ended

    def __init__(self, workspace: Path, options: TrainOptionsPanel, launcher: Launcher,
                 show_train: Callable[[], None], parent: QWidget) -> None:
        super().__init__(parent)
        self.workspace, self.options, self.form, self.launcher = workspace, options, options.form, launcher
        self._show_train, self._window = show_train, parent
        self.session: RunSession | None = None
        self.viewers: list[RunViewer] = []  # finished runs opened while this page trains
        self.resumable_run: Path | None = None
        self.copy_request: CopyRequest | None = None  # the wizard's prepared copy, re-checked at each Start
        self.copy_task: BackgroundTask | None = None  # that check, while it runs (Start waits for it)
        self.wizard_doc: dict[str, Any] | None = None  # handed over by the wizard, kept by the next run it predicts
        self._handover_said = ""  # the banner's words about the hand-over, while they are the banner's
        self.form.changed.connect(self._form_changed_after_wizard)
        self.machine_name = ""  # the Train page's machine choice: '' is this computer
        self.remote_start = RemoteStart(workspace, self)  # a run started on another machine (sync, then launch)
        self.remote_start.progress.connect(self.copy_progress)
        self.remote_start.started.connect(self._remote_started)
        self.remote_start.failed.connect(lambda text: (self._update_buttons(), self._notify("error", text)))
        self.remote_start.cancelled.connect(lambda: (self._update_buttons(), self._notify(
            "info", self.tr("Sending cancelled; nothing was started. The files sent whole are there, verified: the "
                            "next Start sends only the rest."))))
        self.from_run: tuple[Path, str] | None = None  # a fine-tune's parent and its best.pt (``fine_tune``)

    @property
    def active(self) -> bool:
        return self.session is not None and self.session.active

    def _notify(self, level: str, text: str, *, about_problems: bool = False) -> None:
        self.notify.emit(level, text, PROBLEMS if about_problems else PLAIN)

    def _update_buttons(self) -> None:
        self.state_changed.emit()

    @property
    def starting(self) -> bool:
        """Start is under way and not yet a run: the prepared copy is checked, or the dataset is being sent."""
        return self.copy_task is not None or self.remote_start.busy

    def revalidate(self) -> ValidatedConfig:
        return self.options.revalidate()

    # -- run control --------------------------------------------------------------------------------
    def start_run(self) -> bool:
        if self.active:
            self._notify("warning", self.tr(
                "Run {name} is still training: stop it, or wait for it to finish, before starting another.").format(
                name=self.session.name))
            return False
        checked = self.revalidate()
        if not checked.ok or not self.options.ready:
            self._notify("info" if checked.ok and self.options.checking_dataset else "error",
                         self.tr("The dataset is being checked: Start is possible as soon as it passes.")
                         if checked.ok and self.options.checking_dataset else
                         self.tr("Fix the problems listed under the options first."), about_problems=True)
            return False
        trusted = self.options.trusted_weights(checked)
        trusted_model = self.options.trusted_model(checked) if trusted is not None else None
        if trusted is None or trusted_model is None:
            return False
        request = self.copy_request
        if request is not None and request.concerns(str(checked.config.data or ""), self.workspace):
            return self._refresh_copy_then_start(request, checked, trusted, trusted_model)
        return self._start_checked(checked, trusted, trusted_model)

    def _refresh_copy_then_start(self, request: CopyRequest, checked: ValidatedConfig, trusted: tuple[str, ...],
                                 trusted_model: bool) -> bool:
        """Start on the wizard's prepared copy only once ``copy_for_training`` found it up to date. A copy it had
        to refresh (a photo changed after the hand-over) changed the dataset Start checked: the page checks it
        again and says so, and the next Start trains on the fresh copy."""
        if self.copy_task is not None:
            return False

        def done(result: PrepareResult) -> None:
            self.copy_task = None
            self._update_buttons()
            if result.up_to_date:
                self._start_checked(checked, trusted, trusted_model)
                return
            self.options.recheck_dataset()
            self._notify("info", tr_n(
                "The prepared copy of {source} was out of date and has been refreshed ({n} image resized again), "
                "so training did not start on stale pixels. Start again once the dataset check passes.",
                "The prepared copy of {source} was out of date and has been refreshed ({n} images resized again), "
                "so training did not start on stale pixels. Start again once the dataset check passes.",
                result.written, source=request.source))

        def failed(exc: BaseException) -> None:
            self.copy_task = None
            self._update_buttons()
            self._notify("error", self.tr(
                "Training did not start: the prepared copy of {source} cannot be brought up to date ({reason}). "
                "Fix the dataset on the Dataset page, or choose the original data.yaml as the dataset.").format(
                source=request.source, reason=exc))

        def progress(done_images: int, total: int) -> None:
            self.copy_progress.emit(self.tr("Checking the copy {done}/{total}…").format(done=done_images, total=total))

        self.copy_task = operations.refresh_prepared_copy(self._window, request, self.workspace) \
            .success(done).failure(failed).progress(progress).run()
        self._update_buttons()
        return True

    def _start_checked(self, checked: ValidatedConfig, trusted: tuple[str, ...], trusted_model: bool) -> bool:
        if self.machine_name:  # on another machine: the door of ``yolostudio train --machine``
            started = self.remote_start.start(checked.config, self.machine_name,
                                              trust=bool(trusted) or trusted_model)
            self._update_buttons()
            return started
        parent = self.from_run[0] if self.from_run and str(checked.config.model) == self.from_run[1] else None
        door = TrainDoor(checked, self.workspace, trust_weights=bool(trusted), trust_model=trusted_model,
                         wizard=self.wizard_doc,  # the wizard's document, kept with the run when it still predicts it
                         from_run=parent)  # a fine-tune records its parent while the model is still its best.pt
        refused = [p for p in door.preflight() if p.is_error]  # the same pre-flight as yolostudio train's
        if refused:  # a taken port, a changed weights-store file: what only the moment of Start can tell
            self._notify("error", "\n".join(p.text() for p in refused))
            return False
        try:
            door.spec().write()  # the run's spec.json now: a folder that cannot be written is said here
        except (OSError, ValueError) as exc:
            self._notify("error", self.tr(
                "Could not create the run folder: {reason}. Check that the workspace {path} is writable.").format(
                reason=exc, path=self.workspace))
            return False
        run_dir = door.run_dir
        self.from_run = None
        self.wizard_doc = None  # the hand-over is this run's (or, changed since, no run's)
        self._handover_said = ""
        self.options.remember_choices(checked)
        self._launch(run_dir, door, fresh=True)
        return True

    def cancel_start(self) -> None:
        """Cancel sending the dataset to the machine (nothing is started there)."""
        self.remote_start.cancel()

    def _remote_started(self, door: RemoteTrainDoor) -> None:
        """The run trains there: follow its events into the live view (the same stream as ``attach --machine``)."""
        assert door.machine is not None
        self.wizard_doc = None
        self.attach_machine(door.machine, door.run, door)
        self.form.apply_values({"name": door.config.name or "exp"})  # the next run's name, not this one's folder here
        self._notify("info", self.tr(
            "Run {run} trains on {name} (its dataset there: {folder}). It keeps training if the link or this window "
            "goes; yolostudio attach {run} --machine {name} follows it again.").format(run=door.run, name=door.machine.name,
                                                          folder=door.account.get("folder", "")))

    def attach_machine(self, machine: Machine, run: str, door: RemoteTrainDoor | None = None) -> bool:
        """Follow run ``run`` on ``machine`` on this page (started here, or found on the Runs page): its events from
        the first, then live; a dropped link is said and reconnected from the byte read up to."""
        if self.active:
            return False
        self._new_session(local_folder(self.workspace, machine, run))
        self.launched.emit()
        follower = self.session.follow_machine(machine, run, door)
        follower.note.connect(lambda text: self._notify("warning", text))
        follower.restored.connect(lambda offset: self._notify("info", self.tr(
            "The link to {name} is back: reading resumed from byte {offset}, no event missed or repeated.").format(
            name=machine.name, offset=offset)))
        follower.failed.connect(lambda text: self._notify("error", text))
        follower.stop_answer.connect(self._remote_stop_answer)
        self._update_buttons()
        return True

    def _remote_stop_answer(self, asked: bool, reason: str) -> None:
        if not asked and self.session is not None:
            self._notify("error", self.tr("The stop did not reach {name}: {reason}").format(
                name=self.session.machine, reason=reason))
            self.session.stop_refused()
            self._update_buttons()

    def resume_run(self) -> bool:
        run_dir = self.resumable_run
        if self.active or run_dir is None:
            return False
        door = ResumeDoor(run_dir, self.workspace, status_known=True)  # offered only for a resumable run
        try:
            door.preflight()
            if door.grantable is not None and not door.ok:  # copied in, or from before records: asked once
                if not dialogs.confirm_untrusted_weights(self, door.grantable):
                    return False
                door = ResumeDoor(run_dir, self.workspace, trust_weights=True, status_known=True)  # recorded
            refused = [p for p in door.preflight() if p.is_error]
            if refused:
                self._notify("error", self.tr("Cannot resume run {name}: {reason}").format(
                    name=run_dir.name, reason=" ".join(p.text() for p in refused)))
                return False
            door.spec().write()  # the run's spec.json now: a folder that cannot be written is said here
        except (OSError, ValueError, KeyError) as exc:
            self._notify("error", self.tr("Cannot resume run {name}: {reason}").format(
                name=run_dir.name, reason=exc))
            return False
        self._launch(run_dir, door, fresh=False)
        return True

    def _launch(self, run_dir: Path, door: TrainDoor | ResumeDoor, *, fresh: bool) -> None:
        if fresh or self.session is None or self.session.run_dir != run_dir:
            self._new_session(run_dir)
        self.launched.emit()
        self.session.launch(door)
        self._update_buttons()

    def attach(self, info: RunInfo) -> bool:
        """Follow a run that is training without this window (re-attach after a restart)."""
        if self.active:
            return False
        self._new_session(Path(info.path))
        self.session.follow()
        started = date_time_text(info.started or 0)
        self.notify.emit("info", self.tr(
            "Re-attached to run {name}, started {started} — it kept training while YOLO Studio was "
            "closed.").format(name=info.name, started=started), ATTACHED)
        self.options.drop_demo_expectation()  # the run's dataset is on the form: no demo is prepared now
        self._update_buttons()
        return True

    def open_run(self, info: RunInfo) -> bool:
        """Show a run from the Runs page: follow it when it is training, else replay its events."""
        run_dir = Path(info.path)
        if self.session is not None and self.session.run_dir == run_dir and (self.active or info.status != "running"):
            if not self.active:  # shown already (finished): replay again from the start
                return self._replay(info)
            return True
        if self.active:  # viewing is not training: the other run opens in a window of its own
            viewer = RunViewer(run_dir, self.session.name, self._show_train, self._window)
            viewer.show()
            self.viewers.append(viewer)
            viewer.destroyed.connect(lambda _=None, v=viewer: self.viewers.remove(v) if v in self.viewers else None)
            return True
        if info.status == "running":
            return self.attach(info)
        return self._replay(info)

    @staticmethod
    def _run_spec(run_dir: Path) -> dict[str, Any]:
        """The run's worker spec (a few kB of JSON); empty when its config.json cannot be read."""
        try:
            return load_run_config(run_dir).get("spec", {})
        except (OSError, ValueError):
            return {}

    def _replay(self, info: RunInfo) -> bool:
        self._new_session(Path(info.path))
        self.session.follow()
        self._notify("info", self.tr("Replaying run {name} from its events file.").format(name=info.name))
        self._update_buttons()
        return True

    def set_last_run(self, info: RunInfo) -> None:
        """Offer Resume for the newest run when it stopped or failed with a checkpoint."""
        if not self.active and info.can_resume:
            self.resumable_run = Path(info.path)
            self._update_buttons()

    def runs_listed(self, runs: list[RunInfo]) -> None:
        """The workspace's runs as listed now: Resume is offered only for a run that is still there (issue 32: it
        stayed enabled after the run was deleted or renamed, with no run to resume). Its status is the run end's
        to say: a listing read while it still trained must not take Resume away."""
        if self.resumable_run is None:
            return
        if not any(Path(run.path) == self.resumable_run for run in runs):
            self.resumable_run = None
            self._update_buttons()

    def stop_run(self) -> None:
        if self.session is not None:
            self.session.stop()
        self._update_buttons()

    def kill_run(self) -> None:
        if self.active and dialogs.confirm_kill(self._window):
            self.session.kill()

    def detach_run(self) -> None:
        """Leave the active run training in the background (the window is closing)."""
        if self.session is not None:
            self.session.detach()
        self._update_buttons()

    def _new_session(self, run_dir: Path) -> None:
        if self.session is not None:
            self.session.deleteLater()
        self.session = RunSession(run_dir, self, launcher=self.launcher)
        self.session.ended.connect(self._on_ended)
        self.resumable_run = None
        self.session_created.emit(self.session, RunFolder(run_dir).worker_log)
        self._show_run_settings(run_dir)

    def _on_ended(self, outcome: JobOutcome) -> None:
        """The worker ended: its folder is read off the GUI thread (``read_run_end``), then ``ended`` says it."""
        run_dir = self.session.run_dir
        self._update_buttons()
        if self.session.remote is not None:  # its folder is there: ``fetch`` brings it here on request
            machine = self.session.machine
            self._ended(outcome, run_dir, RunEnd())
            self._notify("info", self.tr("Run {run} on {name} ended. Its weights stay there until fetched: "
                                         "yolostudio fetch {run} --machine {name}").format(
                run=self.session.remote.run, name=machine))
            return
        op = operations.read_run_end(self._window, run_dir, outcome.status)
        op.success(lambda end: self._ended(outcome, run_dir, end))
        op.failure(lambda exc: (show_failure(self._window, self.tr("Reading run {name}").format(name=run_dir.name),
                                             exc), self._ended(outcome, run_dir, RunEnd())))
        op.run()

    def _ended(self, outcome: JobOutcome, run_dir: Path, end: RunEnd) -> None:
        if self.session is not None and self.session.run_dir == run_dir and not self.active:  # still on screen
            self.resumable_run = run_dir if end.can_resume else None
        self.ended.emit(outcome, run_dir, end)

    def _show_run_settings(self, run_dir: Path) -> None:
        """The form shows the run on screen: its recorded options (read off the GUI thread), and the run name
        actually used (exp2)."""
        self.form.apply_values({"name": run_dir.name})
        operations.read_run_options(self._window, run_dir) \
            .success(lambda recorded: self._apply_run_settings(run_dir, recorded)).run()

    def _apply_run_settings(self, run_dir: Path, recorded: dict[str, Any]) -> None:
        if self.session is None or self.session.run_dir != run_dir:
            return  # another run is on screen by now
        values = {name: value for name, value in recorded.items() if name in self.form.settable and name != "name"
                  and self.form.editors[name].value() != value}  # only what differs (no section opens for nothing)
        self.form.apply_values(values)
        self.revalidate()

    # -- the next run -------------------------------------------------------------------------------
    def apply_prescriptions(self, prescriptions: list[dict[str, Any]]) -> bool:
        """Option changes (the bottleneck monitor's, the environment checker's) into the form for the next run."""
        return self.options.apply_changes(prescriptions)

    def use_wizard(self, doc: dict[str, Any]) -> bool:
        """The wizard's settings into the form (the user asked for them); its prediction waits for the next run."""
        if self.active:
            self._notify("warning", self.tr("A run is training: the wizard's settings can be used when it ends."))
            return False
        try:  # the copy the recommendation trains on, checked again at each Start (a photo may change meanwhile)
            self.copy_request = request_of(doc, "")
        except ValueError:
            self.copy_request = None  # not a copy request: the config's data is trained as it is
        self.form.apply_values(self._confirmed_endpoints(dict(doc["config"]), self.tr("The wizard's settings")))
        self.wizard_doc = doc
        self.revalidate()
        self._handover_said = handover_words(doc)
        self._notify("info", self._handover_said)  # what it set and the predicted time: never a silent 100 epochs
        return True

    def wizard_changes(self) -> list[str]:
        """The hand-over's options the form no longer holds, as "Epochs 3 (the wizard set 10)"."""
        config = (self.wizard_doc or {}).get("config") or {}
        labels = option_labels()
        return [self.tr("{field} {now} (the wizard set {was})").format(field=labels.get(name, name), now=now,
                                                                        was=config[name])
                for name in HANDOVER_FIELDS if name in config and name in self.form.editors
                and str(now := self.form.editors[name].value()) != str(config[name])]

    def _form_changed_after_wizard(self) -> None:
        """The hand-over banner follows the form (issue 32: "the wizard set 10 epochs" stayed after the user set
        3): it names what changed since, and says the predicted time was for the wizard's own settings."""
        if self.wizard_doc is None or not self._handover_said:
            return
        changes = self.wizard_changes()
        words = self.tr("Changed since the wizard: {changes}. Its predicted time was for its own settings.").format(
            changes="; ".join(changes)) if changes else handover_words(self.wizard_doc)
        if words != self._handover_said:
            self._handover_said = words
            self._notify("info", words)

    def _confirmed_endpoints(self, values: dict[str, Any], source: str) -> dict[str, Any]:
        """``values`` without each meeting point (``core.training.distributed.ENDPOINT_FIELDS``) the user does not confirm
        by name: a document never decides alone where this machine connects."""
        for name in ENDPOINT_FIELDS:
            endpoint = str(values.get(name) or "").strip()
            if endpoint and not dialogs.confirm_endpoint(self._window, endpoint, source):
                values.pop(name)
        return values

    def fine_tune(self, run_dir: Path) -> bool:
        """The labelling loop's Retrain (``yolostudio train --from RUN``): ``run_dir``'s options with its best.pt as
        the model (``core.runs.fine_tune``) into the form, then Start — the run records its parent and dataset
        version. While the dataset is still being checked, Start waits for the user (the banner says so)."""
        if self.active:
            self._notify("warning", self.tr("A run is training: retrain when it ends."))
            return False
        try:
            cfg = fine_tune_config(run_dir)
        except FromRunError as exc:
            self._notify("error", " ".join(t for t in (exc.message, exc.hint) if t))
            return False
        values = {name: value for name, value in cfg.to_dict().items() if name in self.form.settable}
        self.form.apply_values(self._confirmed_endpoints(values, self.tr("Run {name}'s settings").format(
            name=run_dir.name)))
        self.from_run = (Path(run_dir), str(cfg.model))
        self._notify("info", self.tr("Fine-tuning {name} from its best.pt on the dataset as it is now.").format(
            name=run_dir.name))
        return self.start_run()

    def train_more(self, epochs: int) -> bool:
        """Start a new run from the shown run's best.pt on the same dataset, for ``epochs`` more epochs."""
        if self.session is None or self.active:
            return False
        run_dir = self.session.run_dir
        recorded = (self.session.outcome.done.get("best") if self.session.outcome else "") or ""
        best_file = RunFolder(run_dir).best_weights(recorded)  # a renamed run's events name its old path
        best = str(best_file or "")
        if not best:
            self._notify("error", self.tr("Run {name} has no best.pt to continue from.").format(name=run_dir.name))
            return False
        values: dict[str, Any] = {}
        data = self._run_spec(run_dir).get("config", {}).get("data")
        if data:
            values["data"] = data
        values.update(model=best, epochs=epochs, name=f"{run_dir.name}-more")
        self.form.apply_values(values)
        return self.start_run()
