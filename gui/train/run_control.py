"""The Train page's run control: start, resume, follow, replay, stop and the next run — the part of
``TrainPage`` that turns a button into a run session (``gui.run_session.RunSession``).

A mixin of ``TrainPage`` (it uses the page's widgets and session); split out so the page module stays about
its layout and its display, and each stays short. The rules themselves are core's: a run is created and
resumed through the door (``core.usecases.train``: the same pre-flight as the CLI's), whether it may resume is
``core.run.folder.RunFolder.can_resume``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.dataset.prepare import PrepareResult
from core.i18n import tr_n
from core.training.config import ValidatedConfig
from core.training.distributed import ENDPOINT_FIELDS
from core.job.jobs import JobSpec
from core.run.folder import RunFolder
from core.runs.store import RunInfo, load_run_config
from core.usecases.train import ResumeDoor, TrainDoor
from core.wizard.prepared_copy import CopyRequest, request_of
from core.wizard.time_fit import handover_words
from gui import dialogs
from gui.run_session import RunSession
from gui.run_text import date_time_text
from gui.train import operations
from gui.train.run_viewer import RunViewer


class TrainRunControl:
    """Run control for ``TrainPage`` (see the module's docstring); every attribute used is the page's."""

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
            self.start_button.setText(self.tr("Checking the copy {done}/{total}…").format(done=done_images, total=total))

        self.copy_task = operations.refresh_prepared_copy(self, request, self.workspace) \
            .success(done).failure(failed).progress(progress).run()
        self._update_buttons()
        return True

    def _start_checked(self, checked: ValidatedConfig, trusted: tuple[str, ...], trusted_model: bool) -> bool:
        door = TrainDoor(checked, self.workspace, trust_weights=bool(trusted), trust_model=trusted_model)
        refused = [p for p in door.preflight() if p.is_error]  # the same pre-flight as yolostudio train's
        if refused:  # a taken port, a changed weights-store file: what only the moment of Start can tell
            self._notify("error", "\n".join(p.text() for p in refused))
            return False
        try:
            job = door.spec()
            job.write()
        except (OSError, ValueError) as exc:
            self._notify("error", self.tr(
                "Could not create the run folder: {reason}. Check that the workspace {path} is writable.").format(
                reason=exc, path=self.workspace))
            return False
        run_dir = door.run_dir
        self.options.remember_choices(checked)
        self._launch(run_dir, job, fresh=True)
        self.wizard_prediction.attach_run(run_dir, checked.config.to_dict())
        return True

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
            job = door.spec()
            job.write()
        except (OSError, ValueError, KeyError) as exc:
            self._notify("error", self.tr("Cannot resume run {name}: {reason}").format(
                name=run_dir.name, reason=exc))
            return False
        self._launch(run_dir, job, fresh=False)
        return True

    def _launch(self, run_dir: Path, job: JobSpec, *, fresh: bool) -> None:
        if fresh or self.session is None or self.session.run_dir != run_dir:
            self._new_session(run_dir)
        self.status_panel.clear()
        self.banner.hide()
        self._problems_banner = False
        self.session.launch(job)
        self._dirty = True
        self._update_buttons()

    def attach(self, info: RunInfo) -> bool:
        """Follow a run that is training without this window (re-attach after a restart)."""
        if self.active:
            return False
        self._new_session(Path(info.path))
        self.session.follow()
        started = date_time_text(info.started or 0)
        self._notify("info", self.tr(
            "Re-attached to run {name}, started {started} — it kept training while YOLO Studio was "
            "closed.").format(name=info.name, started=started))
        self._attached_banner = True
        self.options.drop_demo_expectation()  # the run's dataset is on the form: no demo is prepared now
        self._dirty = True
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
            viewer = RunViewer(run_dir, self.session.name, self.services.current.show_train, self)
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
        self._dirty = True
        self._update_buttons()
        return True

    def set_last_run(self, info: RunInfo) -> None:
        """Offer Resume for the newest run when it stopped or failed with a checkpoint."""
        if not self.active and info.can_resume:
            self.resumable_run = Path(info.path)
            self._update_buttons()

    def stop_run(self) -> None:
        if self.session is not None and self.session.stop():
            self._dirty = True
        self._update_buttons()

    def kill_run(self) -> None:
        if self.active and dialogs.confirm_kill(self):
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
        self._show_run_settings(run_dir)
        self.session.event.connect(self._on_event)
        self.session.text.connect(self.log_view.add)
        self.session.ended.connect(self._on_ended)
        self.resumable_run = None
        self.plots.clear()
        self.system_plots.clear()
        self.diagnosis.clear()
        self.val_images.clear()
        self.log_view.clear()
        self.log_view.set_log_file(RunFolder(run_dir).worker_log)
        self.status_panel.clear()
        self.wizard_prediction.load(run_dir)

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
        self.wizard_prediction.set_pending(doc)
        self.revalidate()
        self._notify("info", handover_words(doc))  # what it set and the predicted time: never a silent 100 epochs
        return True

    def _confirmed_endpoints(self, values: dict[str, Any], source: str) -> dict[str, Any]:
        """``values`` without each meeting point (``core.training.distributed.ENDPOINT_FIELDS``) the user does not confirm
        by name: a document never decides alone where this machine connects."""
        for name in ENDPOINT_FIELDS:
            endpoint = str(values.get(name) or "").strip()
            if endpoint and not dialogs.confirm_endpoint(self, endpoint, source):
                values.pop(name)
        return values

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
