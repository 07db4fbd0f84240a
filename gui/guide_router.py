"""What the first-run guide's buttons do in the window: each step opens the page that owns it.

The guide (``gui/first_run.py``) only says what the user chose; this router turns that into the
window's pages — the environment check (its verdict goes back into step 1), the demo dataset on the
Train form, a data.yaml opened on the Dataset page, the wizard page when its catalogue row is filled in
(else the Train form's options), and Start. It also remembers that the guide was dismissed
(``Settings.guide_done``), so it opens by itself only once.
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
            window.train_page.options.prepare_demo_dataset()
            guide.data.set_done(self.tr("The demo dataset is on the Train form."))
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
            wizard = next((i for i, spec in enumerate(PAGES) if spec.key == "wizard" and spec.page), train)
            window.show_page(wizard)
            guide.tune.set_done(self.tr("Done."))
        elif action == first_run.TRAIN:
            window.show_page(train)
            if window.train_page.start_run():
                guide.train.set_done(self.tr("Training. Watch it on the Train page."))
            else:
                guide.train.set_status(self.tr("Not started: the Train form lists what to fix first."))

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
