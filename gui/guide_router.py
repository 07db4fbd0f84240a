"""What the first-run guide's buttons do in the window: each step opens the page that owns it.

The guide (``gui/first_run.py``) only says what the user chose; this router turns that into the
window's pages — the environment check (its verdict goes back into step 1), the demo dataset on the
Train form, a data.yaml opened on the Dataset page, the wizard page when its catalogue row is filled in
(else the Train form's options), and Start. It also remembers that the guide was dismissed
(``Settings.guide_done``), so it opens by itself only once. A step is ticked when its result is real: the
demo when it is on the Train form, the wizard when its settings were applied (``WizardPage.applied``) or a
run started with them — never when a page was merely opened.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject, Qt

from gui import first_run
from gui.pages.catalog import PAGES, TRAIN, page_index
from gui.shell_operations import update_settings

if TYPE_CHECKING:
    from PySide6.QtWidgets import QDockWidget

    from core.settings import Settings
    from gui.pages.page import Page


class GuideWindow(Protocol):
    """What the router asks of the main window (``gui.main_window.MainWindow``, which owns the router: a
    protocol here, so the two modules do not import each other)."""

    @property
    def train_page(self) -> Any: ...

    def show_page(self, index: int) -> bool: ...

    def page_for(self, key: str) -> Page | None: ...

    def addDockWidget(self, area: Qt.DockWidgetArea, dock: QDockWidget) -> None: ...  # noqa: N802 - Qt's name


class GuideRouter(QObject):
    def __init__(self, window: GuideWindow) -> None:
        super().__init__(window)
        self.window = window
        self.guide: first_run.FirstRunGuide | None = None
        self._waits_for_check = False
        self._waits_for_demo = False
        self._waits_for_wizard = False

    def show(self) -> first_run.FirstRunGuide:
        if self.guide is None:
            wizard = next((spec for spec in PAGES if spec.key == "wizard"), None)
            self.guide = first_run.FirstRunGuide(has_wizard=wizard is not None and wizard.page is not None,
                                                 parent=self.window)
            self.guide.action_requested.connect(self._on_action)
            self.guide.dismissed.connect(self._on_dismissed)
            self.window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.guide)
        self.guide.show()
        self.guide.raise_()
        return self.guide

    def start(self) -> None:
        """The first start: the guide, with the machine's verdict as its first step."""
        self.show()
        self.check()

    def _on_action(self, action: str) -> None:
        window, guide = self.window, self.guide
        assert guide is not None
        train = page_index(TRAIN)
        if action == first_run.CHECK:
            window.show_page(page_index("environment"))
            self.check()
        elif action == first_run.DEMO:
            window.show_page(train)
            options = window.train_page.options
            if not self._waits_for_demo:  # ticked when the demo is really on the form, not when asked for
                self._waits_for_demo = True
                options.dataset_chosen.connect(self._on_dataset_chosen)
            guide.data.set_status(self.tr("Preparing the demo dataset… (the Train form shows its progress)"))
            options.prepare_demo_dataset()
        elif action in (first_run.OPEN_YAML, first_run.FROM_FOLDERS):
            dataset = window.page_for("dataset")
            window.show_page(page_index("dataset"))
            if action == first_run.OPEN_YAML:
                dataset.choose_and_open()  # type: ignore[union-attr]
                path = getattr(dataset, "path", None)
                if path is not None:
                    window.train_page.options.form.set_data_path(str(path))
                    guide.data_ready(str(path))
            else:
                dataset.new_from_folders()  # type: ignore[union-attr]
                guide.data.set_status(self.tr("Make the data.yaml on the Dataset page; the Train form takes it "
                                              "from there."))
        elif action == first_run.TUNE:
            wizard = next((i for i, spec in enumerate(PAGES) if spec.key == "wizard" and spec.page), None)
            if wizard is None:  # no wizard here: reviewing the Train form's options is the step
                window.show_page(train)
                guide.tune.set_done(self.tr("The options are on the Train form."))
                return
            window.show_page(wizard)
            page = window.page_for("wizard")
            if page is not None and not self._waits_for_wizard:  # ticked when its recommendation is applied
                self._waits_for_wizard = True
                page.applied.connect(self._on_wizard_applied)  # type: ignore[attr-defined]
            if not guide.tune.done:
                guide.tune.set_status(self.tr("The wizard is open: its “Train with these settings” completes this "
                                              "step."))
        elif action == first_run.TRAIN:
            window.show_page(train)
            if window.train_page.control.start_run():
                guide.train.set_done(self.tr("Training. Watch it on the Train page."))
                if getattr(window.train_page.wizard_prediction, "doc", None) is not None:  # with the wizard's settings
                    guide.tune.set_done(self.tr("The run trains with the wizard's settings."))
            else:
                guide.train.set_status(self.tr("Not started: the Train form lists what to fix first."))

    def _on_dataset_chosen(self, _path: str) -> None:
        if self.guide is not None and self.window.train_page.options.form.is_demo():
            self.window.train_page.options.dataset_chosen.disconnect(self._on_dataset_chosen)
            self._waits_for_demo = False
            self.guide.data.set_done(self.tr("The demo dataset is on the Train form."))

    def _on_wizard_applied(self, _doc: dict) -> None:
        if self.guide is not None:
            self.guide.tune.set_done(self.tr("The wizard's settings are on the Train form."))

    def check(self) -> None:
        """Run the environment check (in its worker process) and put its verdict into step 1."""
        environment = self.window.page_for("environment")
        if environment is None or self.guide is None:
            return
        if not self._waits_for_check:
            self._waits_for_check = True
            environment.checked.connect(self._on_checked)  # type: ignore[attr-defined]
        if not environment.busy:  # type: ignore[attr-defined]
            environment.recheck()  # type: ignore[attr-defined]
        self.guide.check.set_status(self.tr("Checking this machine… (the Environment page shows each step)"))

    def _on_checked(self, evaluation: object) -> None:
        environment = self.window.page_for("environment")
        environment.checked.disconnect(self._on_checked)  # type: ignore[union-attr]
        self._waits_for_check = False
        if self.guide is not None and environment.facts is not None:  # type: ignore[union-attr]
            from core.environment.report import summarize  # noqa: PLC0415 - the rules load with the page

            _level, text = summarize(environment.facts, evaluation)  # type: ignore[union-attr, arg-type]
            self.guide.show_check_result(text)

    def _on_dismissed(self) -> None:
        def mark_done(settings: Settings) -> bool:
            changed, settings.guide_done = not settings.guide_done, True
            return changed

        # A failure to save is said in the status bar (the default path): the guide comes again next time.
        update_settings(self, mark_done).run()
