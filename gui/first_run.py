"""The first-run guide: from "just installed" to a training run, in four steps a newcomer can skip.

Shown once, at the first start (no settings file yet, no runs), as a strip under the pages so the user
follows it while the pages do the work: 1. the environment check's verdict, 2. data (the demo dataset, a
data.yaml of their own, or one made from folders), 3. the wizard where it exists (else the Train form's
options), 4. train. Every step can be skipped; closing the panel marks the guide done
(``Settings.guide_done``) and only the Help menu opens it again. The guide owns no feature: it asks the
window (``action_requested``) and the window routes to the page that owns it; a step is ticked only when
its result is real (the router says so), never when its page is merely opened.

A step keeps its shape when it is done (its choices stay, Skip stays in place, disabled), and the panel
grows to what its steps say (``fit_height``) instead of hiding their buttons behind a scrollbar.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import (QDockWidget, QGroupBox, QHBoxLayout, QLabel, QMainWindow, QPushButton, QScrollArea,
                               QVBoxLayout, QWidget)

#: The actions the guide can ask for; the window maps each to a page.
CHECK, DEMO, OPEN_YAML, FROM_FOLDERS, TUNE, TRAIN = "check", "demo", "open-yaml", "from-folders", "tune", "train"


#: The most of the window's height the guide takes when it grows: the pages keep the rest.
MAX_HEIGHT_SHARE = 0.5


class GuideStep(QGroupBox):
    """One numbered step: what it is for, its buttons, a Skip link, and a tick once done or skipped."""

    changed = Signal()  # its words changed: the panel may need more height

    def __init__(self, title: str, text: str, parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        self.text = QLabel(text, self)
        self.text.setWordWrap(True)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.status.hide()
        self.buttons = QVBoxLayout()  # one choice a row: a narrow panel, and Chinese or English alike fit
        self.skip = QPushButton(self.tr("Skip"), self)
        self.skip.setFlat(True)
        self.skip.clicked.connect(lambda: self.set_done(self.tr("Skipped.")))
        actions = QHBoxLayout()  # the choices on the left, Skip at the right of the last one: a low strip
        actions.addLayout(self.buttons)
        actions.addStretch(1)
        actions.addWidget(self.skip, 0, Qt.AlignmentFlag.AlignBottom)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(self.status)
        layout.addStretch(1)
        layout.addLayout(actions)
        self.done = False

    def add_button(self, text: str, slot: object) -> QPushButton:
        button = QPushButton(text, self)
        button.clicked.connect(slot)
        self.buttons.addWidget(button, 0, Qt.AlignmentFlag.AlignLeft)
        return button

    def set_status(self, text: str) -> None:
        self.status.setText(text)
        self.status.setVisible(bool(text))
        self.changed.emit()

    def set_done(self, text: str) -> None:
        """Ticked with what was done; the step keeps its buttons and its Skip (disabled) where they were."""
        self.done = True
        self.setTitle("✓ " + self.title().removeprefix("✓ "))
        self.skip.setEnabled(False)
        self.skip.setToolTip(self.tr("This step is done."))
        self.set_status(text)


class FirstRunGuide(QDockWidget):
    action_requested = Signal(str)  # one of the action names above
    dismissed = Signal()  # closed by the user: do not show it again

    def __init__(self, *, has_wizard: bool, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Getting started"), parent)
        self.setObjectName("first-run-guide")
        self.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetClosable)
        intro = QLabel(self.tr("Four steps from a fresh install to a trained model. Each step opens the page "
                               "that does it; skip any you don't need."), self)
        intro.setWordWrap(True)
        self.check = GuideStep(self.tr("1. Check this machine"),
                               self.tr("Is PyTorch using the GPU, and is the driver new enough? The check says "
                                       "what to fix."), self)
        self.check.add_button(self.tr("Check now"), lambda: self.action_requested.emit(CHECK))
        self.data = GuideStep(self.tr("2. Choose the data"),
                              self.tr("Start with the built-in demo dataset (trains in minutes on any machine), "
                                      "or use your own images and labels."), self)
        self.data.add_button(self.tr("Use the demo dataset"), lambda: self._data_chosen(DEMO))
        self.data.add_button(self.tr("Open a data.yaml…"), lambda: self._data_chosen(OPEN_YAML))
        self.data.add_button(self.tr("Create from folders…"), lambda: self._data_chosen(FROM_FOLDERS))
        self.tune = GuideStep(self.tr("3. Fit the training to this machine"),
                              self.tr("The wizard measures this machine and recommends batch size, image size "
                                      "and data-loading workers.") if has_wizard else
                              self.tr("Review the options on the Train form: model, epochs, image size and "
                                      "batch size. Every option explains itself in its tooltip."), self)
        self.tune.add_button(self.tr("Open the wizard") if has_wizard else self.tr("Review the options"),
                             lambda: self._step_done(self.tune, TUNE))
        self.train = GuideStep(self.tr("4. Train"),
                               self.tr("Start the run and watch losses, mAP and the GPU's load. A stopped run can "
                                       "be resumed; closing the window can keep it training."), self)
        self.train.add_button(self.tr("Start training"), lambda: self._step_done(self.train, TRAIN))
        body = QWidget(self)
        layout = QVBoxLayout(body)
        top = QHBoxLayout()
        top.addWidget(intro, 1)
        close = QPushButton(self.tr("Close the guide"), body)
        close.setToolTip(self.tr("It will not open again by itself; Help ▸ Getting started brings it back."))
        close.clicked.connect(self.close)
        self.fold_button = QPushButton(self.tr("Hide the steps"), body, checkable=True)
        self.fold_button.setToolTip(self.tr("Keep the guide to this line and give the pages its room; the steps "
                                            "come back with “Show the steps”."))
        self.fold_button.toggled.connect(self.fold)
        top.addWidget(self.fold_button, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(close, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(top)
        self.steps_box = QWidget(body)
        row = QHBoxLayout(self.steps_box)  # the steps side by side under the pages: the pages keep their full width
        row.setContentsMargins(0, 0, 0, 0)
        for step in self.steps:
            row.addWidget(step, 1)
        layout.addWidget(self.steps_box)
        scroll = QScrollArea(self)
        scroll.setObjectName("guide-scroll")
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(body)
        self.setWidget(scroll)
        self._body = body
        for step in self.steps:
            step.changed.connect(lambda: QTimer.singleShot(0, self, self.fit_height))  # once the layout has run

    @property
    def steps(self) -> list[GuideStep]:
        return [self.check, self.data, self.tune, self.train]

    def needed_height(self) -> int:
        """The panel's height that shows every step whole at its present width (title bar and frames included)."""
        scroll = self.widget()
        assert isinstance(scroll, QScrollArea)
        layout = self._body.layout()
        width = scroll.viewport().width()
        body = layout.totalHeightForWidth(width) if layout.hasHeightForWidth() else self._body.sizeHint().height()
        return max(body + (self.height() - scroll.viewport().height()), self.minimumSizeHint().height())

    def fit_height(self) -> None:
        """Grow the docked panel to what its steps now say (up to ``MAX_HEIGHT_SHARE`` of the window)."""
        window = self.parentWidget()
        if not isinstance(window, QMainWindow) or self.isFloating() or not self.isVisible():
            return
        need = min(self.needed_height(), int(window.height() * MAX_HEIGHT_SHARE))
        if need > self.height():
            window.resizeDocks([self], [need], Qt.Orientation.Vertical)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        """Opened (first start, Help ▸ Getting started): tall enough for its buttons once laid out."""
        super().showEvent(event)
        QTimer.singleShot(0, self, self.fit_height)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        """A narrower window wraps the steps' words onto more lines: the panel grows to keep its buttons."""
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            QTimer.singleShot(0, self, self.fit_height)

    def fold(self, folded: bool) -> None:
        """Fold the guide to its top line (a short screen: the page's own form needs the room) or unfold it."""
        if self.fold_button.isChecked() != folded:
            self.fold_button.setChecked(folded)  # toggled again: this runs once more with the state set
            return
        self.steps_box.setVisible(not folded)
        self.fold_button.setText(self.tr("Show the steps") if folded else self.tr("Hide the steps"))
        window = self.parentWidget()
        if folded and isinstance(window, QMainWindow) and not self.isFloating():
            QTimer.singleShot(0, self, lambda: window.resizeDocks([self], [self.needed_height()],
                                                                   Qt.Orientation.Vertical))
        else:
            QTimer.singleShot(0, self, self.fit_height)

    def _data_chosen(self, action: str) -> None:
        self.action_requested.emit(action)

    def _step_done(self, step: GuideStep, action: str) -> None:
        self.action_requested.emit(action)

    def show_check_result(self, text: str) -> None:
        """The environment check's verdict, in the step that asked for it."""
        self.check.set_done(text)

    def data_ready(self, path: str) -> None:
        self.data.set_done(self.tr("Dataset: {path}").format(path=path))

    def closeEvent(self, event: object) -> None:
        self.dismissed.emit()
        super().closeEvent(event)  # type: ignore[arg-type]
