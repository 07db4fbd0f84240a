"""The main window: navigation rail, one page per feature, the machine-at-a-glance status bar.

Thin on purpose: it arranges pages, remembers its geometry, re-attaches to a run that kept training
while the app was closed, and decides what closing means while a run is active (stop it, keep it
training in the background, or cancel). Each page owns its own feature; the window knows a page only
through ``gui.pages.page.Page`` (may it be left, refresh) and hands every page the same ``AppServices``
(the one runs store, the way a fix reaches the Train form, the way a run is opened).

Pages are built the first time they are opened (issue 15: the window paints before anything slow):
until then the stack holds a light stand-in that says "Loading…", and the catalogue row is all the
window knows. The Train page, the one on screen at start, is built right after the first paint, and the
runs are listed then too (``when_painted``); ``train_page`` builds it at once for whoever asks earlier.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable

from PySide6.QtCore import QCoreApplication, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QIcon, QKeySequence, QPaintEvent, QShortcut
from PySide6.QtWidgets import (QApplication, QDialog, QHBoxLayout, QLabel, QListWidgetItem, QMainWindow,
                               QProgressDialog, QStackedWidget, QVBoxLayout, QWidget)

from core.job.jobs import JobOutcome
from gui import dialogs, first_run
from gui.guide_router import GuideRouter
from gui.current_work import CurrentWork
from gui.pages.catalog import PAGES, TRAIN, page_index
from gui.pages.page import AppServices, Page
from gui.pages.placeholder_page import PlaceholderPage
from gui.runs_store import RunsStore
from gui.shell_operations import read_settings
from gui.theme import apply_theme
from gui.status_bar import MachineStatusBar
from gui.window_settings import window_settings
from gui.widgets.nav_rail import NavigationRail
from gui.screen_fit import clamp_to_screen, fit_to_screen

TRAIN_INDEX = page_index(TRAIN)
STOP_TIMEOUT_S = 60

if TYPE_CHECKING:
    from core.runs.store import RunInfo
    from gui.job_runner import Launcher
    from gui.runs.machine_runs import RemoteRun
    from gui.train.train_page import TrainPage
    from gui.settings.settings_dialog import SettingsDialog


class PendingPage(QWidget):
    """Stands in the stack for a page not opened yet; shown for the moment its page is being built."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        label = QLabel(self.tr("Loading {page}…").format(page=title), self)
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        label.setEnabled(False)
        QVBoxLayout(self).addWidget(label)


class MainWindow(QMainWindow):
    def __init__(self, workspace: Path, *, launcher: Launcher | None = None, prepare_demo: bool = True,
                 check_runs: bool = True, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.setWindowTitle(self.tr("YOLO Studio"))
        self.runs_store = RunsStore(workspace, self)  # the app's one list of runs, shared by the pages
        self.services = AppServices(self.runs_store, self._apply_to_next_run, self.open_run, CurrentWork(self))
        self.services.current.show_requested.connect(lambda key: self.show_page(page_index(key)))
        self.services.use_wizard = self._use_wizard
        self.services.fine_tune = self._fine_tune
        self._train_options = {"launcher": launcher, "prepare_demo": prepare_demo}
        self._built: dict[int, Page] = {}  # index -> the page, once built
        self._painted = False
        self._after_paint: list[Callable[[], None]] = []
        self.rail = NavigationRail(self)
        self.rail.setIconSize(QSize(22, 22))
        self.rail.setFixedWidth(150)
        self.rail.setSpacing(2)
        self.pages = QStackedWidget(self)
        style = QApplication.style()  # not self.style(): see gui.widgets.levels.level_icon
        for index, spec in enumerate(PAGES):
            title = QCoreApplication.translate("MainWindow", spec.title)
            explanation = QCoreApplication.translate("MainWindow", spec.explanation)
            page: QWidget
            if spec.page is None:
                page = self._built[index] = PlaceholderPage(workspace, title, explanation, self)
                page.bind(self.services)
            else:
                page = PendingPage(title, self)  # built when first opened (``page``)
            self._add_page(title, style.standardIcon(spec.icon), page, explanation, enabled=spec.page is not None)
        self.pages.setCurrentIndex(TRAIN_INDEX)  # before the rail follows: no page is built for a switch
        self.rail.currentRowChanged.connect(self._on_rail_changed)
        self.rail.setCurrentRow(TRAIN_INDEX)

        central = QWidget(self)
        layout = QHBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.rail)
        layout.addWidget(self.pages, 1)
        self.setCentralWidget(central)
        self.machine_bar = MachineStatusBar(self, start=False)
        self.when_painted(self.machine_bar.start)
        self.setStatusBar(self.machine_bar)
        self._closing_after_stop = False
        self._page_stopping = False  # a page's work is stopping so that the window can close
        self._deciding_close = False  # the close-while-training setting is being read
        self._detached_to_close = False  # the run was left training: the next close goes through
        self._stop_dialog: QProgressDialog | None = None
        self._stop_timer = QTimer(self, singleShot=True, interval=STOP_TIMEOUT_S * 1000, timeout=self._stop_timed_out)
        self._install_shortcuts()
        self._build_menus()
        self.guide_router = GuideRouter(self)  # the first-run guide and the pages its steps open
        self.when_painted(lambda: self.page(TRAIN_INDEX))  # the Train page right after the first paint
        self._restore_geometry()
        if check_runs:  # the first listing also finds a run that kept training while the app was closed
            self.runs_store.changed.connect(self._on_runs_listed)
            self.when_painted(self.runs_store.ensure_loaded)  # read in the background, after the first paint

    def _add_page(self, title: str, icon: QIcon, page: QWidget, explanation: str, *, enabled: bool = False) -> None:
        item = QListWidgetItem(icon, title if enabled else self.tr("{title}\nComing soon").format(title=title))
        item.setToolTip(explanation if enabled else self.tr("Coming soon: {what}").format(what=explanation))
        if not enabled:
            item.setFlags(item.flags() & ~(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable))
        self.rail.add_row(item)
        self.pages.addWidget(page)

    def _install_shortcuts(self) -> None:
        for index in range(self.pages.count()):
            QShortcut(QKeySequence(f"Ctrl+{index + 1}"), self, lambda index=index: self.show_page(index))
        QShortcut(QKeySequence(QKeySequence.StandardKey.Refresh), self, self._refresh_page)

    def _build_menus(self) -> None:
        def action(menu: object, text: str, slot: object, shortcut: str | None = None) -> QAction:
            item = menu.addAction(text)  # type: ignore[attr-defined]
            item.triggered.connect(slot)
            if shortcut:
                item.setShortcut(QKeySequence(shortcut))
            return item

        file_menu = self.menuBar().addMenu(self.tr("&File"))
        action(file_menu, self.tr("&Settings…"), self.open_settings, "Ctrl+,")
        file_menu.addSeparator()
        action(file_menu, self.tr("&Quit"), self.close, "Ctrl+Q")
        help_menu = self.menuBar().addMenu(self.tr("&Help"))
        action(help_menu, self.tr("&Getting started"), self.show_guide)
        action(help_menu, self.tr("&About YOLO Studio"), self.open_about)

    # -- shell: settings, about, the first-run guide --------------------------------------------------
    def open_settings(self) -> SettingsDialog:
        from gui.settings.settings_dialog import SettingsDialog  # noqa: PLC0415 - on demand, not at start-up

        dialog = SettingsDialog(self, workspace=self.workspace)
        dialog.theme_changed.connect(lambda theme: apply_theme(QApplication.instance(), theme))
        dialog.open()
        return dialog

    def open_about(self) -> QDialog:
        from gui.about_dialog import AboutDialog  # noqa: PLC0415 - it reads the facts module: not at start-up

        dialog = AboutDialog(self.workspace, self)
        dialog.open()
        return dialog

    def show_guide(self) -> first_run.FirstRunGuide:
        """The first-run guide under the pages (Help ▸ Getting started, or the first start)."""
        return self.guide_router.show()

    @property
    def guide(self) -> first_run.FirstRunGuide | None:
        return self.guide_router.guide

    def when_painted(self, call: Callable[[], None]) -> None:
        """Run ``call`` once the window is on screen (start-up paints before anything slow is built)."""
        if self._painted:
            call()
        else:
            self._after_paint.append(call)

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            for call in self._after_paint:
                QTimer.singleShot(0, self, call)
            self._after_paint.clear()

    def _apply_to_next_run(self, setting: dict, reason: str = "") -> bool:
        """A fix that is a training option: into the Train form (the user confirms), then show it."""
        prescriptions = [{"field": key, "value": value, "reason": reason or self.tr("from the environment check")}
                         for key, value in setting.items()]
        if self.train_page.control.apply_prescriptions(prescriptions):
            self.show_page(TRAIN_INDEX)
            return True
        return False

    def _use_wizard(self, doc: dict) -> bool:
        """The wizard's settings go to the Train form, and the Train page comes up to start the run."""
        if self.train_page.control.use_wizard(doc):
            self.show_page(TRAIN_INDEX)
            return True
        return False

    def _fine_tune(self, run_dir: Path) -> bool:
        """The Label page's Retrain: the Train page fine-tunes the run (its runner, its checks) and comes up."""
        self.show_page(TRAIN_INDEX)
        return self.train_page.control.fine_tune(Path(run_dir))

    def show_page(self, index: int) -> bool:
        item = self.rail.item(index)
        if item is None or not item.flags() & Qt.ItemFlag.ItemIsEnabled:
            if item is not None:
                self.machine_bar.showMessage(item.toolTip(), 5000)
            return False
        self.rail.setCurrentRow(index)
        return True

    def page(self, index: int) -> Page:
        """The page at ``index`` of the catalogue, built (and bound) now if it was never opened."""
        built = self._built.get(index)
        if built is not None:
            return built
        pending = self.pages.widget(index)
        if self.pages.currentIndex() == index:  # opened from the rail: its "Loading…" is on screen
            pending.repaint()
        page = self._build_train_page() if index == TRAIN_INDEX else PAGES[index].build(self.workspace, self)
        self._built[index] = page
        page.bind(self.services)
        if hasattr(page, "dataset_saved"):  # the Dataset page: its saves make the Train page's check stale
            page.dataset_saved.connect(self._on_dataset_saved)
        current = self.pages.currentWidget()
        self.pages.insertWidget(index, page)
        self.pages.removeWidget(pending)
        pending.deleteLater()
        if current is pending:
            self.pages.setCurrentIndex(index)
        return page

    def _build_train_page(self) -> TrainPage:
        from gui.train.train_page import TrainPage  # noqa: PLC0415 - after the first paint (start-up)

        options = {k: v for k, v in self._train_options.items() if v is not None}  # None: the default launcher
        page = TrainPage(self.workspace, self, **options)
        page.summary_changed.connect(self.machine_bar.set_run_summary)
        page.run_ended.connect(self._on_run_ended)
        page.run_ended.connect(lambda outcome: self.runs_store.reload())
        return page

    def _on_dataset_saved(self, path: Path) -> None:
        if TRAIN_INDEX in self._built:  # a Train page built later checks its dataset when built
            self.train_page.on_dataset_saved(path)

    @property
    def train_page(self) -> TrainPage:
        """The Train page (built on first use: right after the first paint, or when something needs it)."""
        return self.page(TRAIN_INDEX)  # type: ignore[return-value]

    def page_for(self, key: str) -> Page | None:
        """The page of the catalogue row ``key`` (built now if need be); None for a placeholder row."""
        index = page_index(key)
        return None if PAGES[index].page is None else self.page(index)

    def built_pages(self) -> list[Page]:
        """The pages opened so far (the others have nothing to keep and nothing to refresh)."""
        return [self._built[i] for i in sorted(self._built)]

    @property
    def runs_page(self) -> Page | None:
        return self.page_for("runs")

    def _on_rail_changed(self, row: int) -> None:
        """Switch pages, unless the page on screen has something to keep (it asks the user)."""
        current = self.pages.currentIndex()
        if row == current or row < 0:
            return
        if self.page(current).can_leave():
            self.pages.setCurrentIndex(row)
            self.page(row)  # the first visit builds it, with "Loading…" on screen meanwhile
            return
        self.rail.blockSignals(True)  # the rail follows the page that stayed
        self.rail.setCurrentRow(current)
        self.rail.blockSignals(False)

    def _refresh_page(self) -> None:
        self.page(self.pages.currentIndex()).refresh()

    def open_run(self, info: RunInfo | RemoteRun) -> bool:
        """From the Runs page: show the Train page, replaying (or following) the run there — over ssh for a run on
        another machine (``RemoteRun``)."""
        from gui.runs.machine_runs import RemoteRun  # noqa: PLC0415 - the Runs page's, built by then

        self.rail.setCurrentRow(TRAIN_INDEX)
        if isinstance(info, RemoteRun):
            return self.train_page.control.attach_machine(info.machine, info.name)
        return self.train_page.control.open_run(info)

    # -- re-attach ----------------------------------------------------------------------------------
    def _on_runs_listed(self, runs: list[RunInfo]) -> None:
        """The first listing only: follow a run still training, else offer to resume the newest."""
        self.runs_store.changed.disconnect(self._on_runs_listed)
        running = [run for run in runs if run.status == "running"]
        if not runs:  # a first start (no runs, the guide never dismissed): the guide, once, after the first paint
            read_settings(self).success(lambda settings: None if settings.guide_done else self.when_painted(
                self.guide_router.start)).run()
        if running:
            self.train_page.control.attach(running[0])
        elif runs:
            self.train_page.control.set_last_run(runs[0])

    # -- closing ------------------------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        current = self.pages.currentIndex()  # the page on screen asks first, then the others opened
        order = [current, *(i for i in sorted(self._built) if i != current)]
        if not all(self.page(i).can_leave() for i in order):
            event.ignore()
            return
        busy = next((self._built[i] for i in order if i in self._built and self._built[i].work_on_close()), None)
        if busy is not None:  # a page's own worker (a prediction): stopped gracefully first, or the close waits
            event.ignore()
            if self._page_stopping:  # closed again while it stops: the second request kills it
                if dialogs.ask_yes(self, self.tr("Still stopping"), self.tr("Kill it and close now? Its outputs may "
                                                                            "be unusable."), warning=True):
                    busy.stop_for_close(self._page_stopped)
            elif dialogs.ask_yes(self, self.tr("Stop and close?"), busy.work_on_close() + "\n\n"
                                 + self.tr("Stop it and close YOLO Studio?"), default_yes=True):
                self._page_stopping = True
                busy.stop_for_close(self._page_stopped)
            return
        if TRAIN_INDEX in self._built and self.train_page.active and not self._detached_to_close:
            event.ignore()
            if self._stop_dialog is None and not self._deciding_close:  # not already stopping or asking
                self._deciding_close = True  # the settings say whether to ask: read off the GUI thread
                read_settings(self).success(lambda settings: self._close_while_training(settings.close_with_run)) \
                    .failure(lambda exc: self._close_while_training("ask")).run()
            return
        self._save_geometry()
        self.machine_bar.shutdown()
        event.accept()

    def _page_stopped(self) -> None:
        self._page_stopping = False
        self.close()

    def _close_while_training(self, setting: str) -> None:
        """Closing while the Train page's run is active: stop it, keep it training, or stay (the user chose)."""
        self._deciding_close = False
        if not (TRAIN_INDEX in self._built and self.train_page.active):
            self.close()  # it ended meanwhile
            return
        choice = {"stop": dialogs.CLOSE_STOP, "keep": dialogs.CLOSE_KEEP}.get(setting) \
            or dialogs.ask_close_while_training(self, self.train_page.session.name)
        if choice == dialogs.CLOSE_CANCEL:
            return
        if choice == dialogs.CLOSE_STOP:
            self._stop_then_close()
            return
        self.train_page.control.detach_run()
        self._detached_to_close = True
        self.close()

    def _stop_then_close(self) -> None:
        self._closing_after_stop = True
        self.train_page.control.stop_run()
        dialog = QProgressDialog(self.tr("Stopping the run: finishing the current batch and saving a checkpoint…"),
                                 self.tr("Kill now"), 0, 0, self)
        dialog.setWindowTitle(self.tr("Stopping"))
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setMinimumDuration(0)
        dialog.canceled.connect(self._kill_while_closing)
        dialog.show()
        self._stop_dialog = dialog
        self._stop_timer.start()

    def _kill_while_closing(self) -> None:
        if self.train_page.active and dialogs.confirm_kill(self):
            self.train_page.session.kill()
        elif self.train_page.active and self._stop_dialog is not None:
            self._stop_dialog.reset()
            self._stop_dialog.show()

    def _stop_timed_out(self) -> None:
        if not self.train_page.active:
            return
        if dialogs.ask_kill_after_timeout(self, STOP_TIMEOUT_S):
            self.train_page.session.kill()
        else:
            self._stop_timer.start()

    def _on_run_ended(self, outcome: JobOutcome) -> None:
        if not self._closing_after_stop:
            return
        self._stop_timer.stop()
        if self._stop_dialog is not None:
            self._stop_dialog.canceled.disconnect(self._kill_while_closing)
            self._stop_dialog.close()
            self._stop_dialog.deleteLater()
            self._stop_dialog = None
        QTimer.singleShot(0, self.close)

    # -- geometry -----------------------------------------------------------------------------------
    def _restore_geometry(self) -> None:
        settings = window_settings()
        geometry = settings.value("main_window/geometry")
        if geometry is None or not self.restoreGeometry(geometry):
            fit_to_screen(self, 1360, 860)
        else:
            clamp_to_screen(self)  # saved on a larger monitor: never off screen here

    def _save_geometry(self) -> None:
        settings = window_settings()
        settings.setValue("main_window/geometry", self.saveGeometry())
        settings.sync()
