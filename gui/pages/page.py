"""What the main window knows about a page, and what it shares with every page.

The window never probes a page with ``getattr``: every page is a ``Page`` and answers the same few
questions — may the user leave it now (``can_leave``: unsaved edits ask first), refresh it (F5) — and
receives the app's shared services through ``bind`` (the one runs store, the current dataset, the way a
fix that is a training option reaches the Train form). A page connects to the services in ``on_bound``, never in its
constructor: the window binds each page right after building it. A page used on its own (a test, a tool
window) binds services of its own as soon as the event loop runs, or when it first asks for them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QWidget

from gui.current_work import CurrentWork
from gui.runs_store import RunsStore

#: Puts option values into the Train form for the next run (after the user confirmed; a reason may say where they
#: come from); True when applied.
ApplyToNextRun = Callable[..., bool]
#: Shows a run on the Train page (replays it, or follows it while it trains); True when shown.
OpenRun = Callable[[Any], bool]
#: Hands the wizard's result document (config, reasons, predicted) to the Train page and shows it; True when done.
UseWizard = Callable[[dict[str, Any]], bool]
#: Fine-tunes a run (its folder) on the Train page from its best.pt on the dataset as it is now; True when started
#: or handed over.
FineTune = Callable[[Path], bool]


@dataclass
class AppServices:
    """Shared by every page of one window."""

    runs: RunsStore
    apply_to_next_run: ApplyToNextRun | None = None
    open_run: OpenRun | None = None
    current: CurrentWork = field(default_factory=CurrentWork)  # the dataset every page works on
    use_wizard: UseWizard | None = None
    fine_tune: FineTune | None = None


class Page(QWidget):
    def __init__(self, workspace: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = Path(workspace)
        self._services: AppServices | None = None
        QTimer.singleShot(0, self, self._bind_if_alone)

    def _bind_if_alone(self) -> None:
        if self._services is None:  # no window bound it: a page on its own
            self.bind(AppServices(RunsStore(self.workspace, self)))

    @property
    def services(self) -> AppServices:
        if self._services is None:
            self._bind_if_alone()
        assert self._services is not None
        return self._services

    def bind(self, services: AppServices) -> None:
        """Called once by the window right after building the page."""
        self._services = services
        self.on_bound()

    def on_bound(self) -> None:
        """Connect to the shared services (``self.services``); the default needs none."""

    def can_leave(self) -> bool:
        """True when the user may switch away or close now; may ask (unsaved edits). Default: always."""
        return True

    def work_on_close(self) -> str:
        """What closing the window would cut short, in a sentence ('' when nothing): work this page runs in a
        worker of its own, killed with the window unless it is stopped first. Default: nothing."""
        return ""

    def stop_for_close(self, then: Callable[[], None]) -> None:
        """Stop that work gracefully and call ``then`` once it has ended. Default: nothing to stop."""
        then()

    def refresh(self) -> None:
        """F5: read again what the page shows. Default: nothing to refresh."""
