"""The pages of the main window, in the order a newcomer walks them, and what each one is.

One row per feature: its title, icon, one-line explanation, and the page class that builds it as
``"module:Class"`` (a ``gui.pages.page.Page``, constructed as ``Class(workspace, parent)``), or None while
the feature is not built yet — the window then shows a disabled placeholder that says what the page will do. A feature plugs in
by filling in its row; the main window needs no edit.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtWidgets import QStyle, QWidget

from gui.pages.page import Page

TRAIN = "train"


@dataclass(frozen=True)
class PageSpec:
    key: str
    title: str  # source text; the window translates it in the "MainWindow" context
    icon: QStyle.StandardPixmap
    explanation: str
    page: str | None  # "module:Class", or None for a placeholder

    def build(self, workspace: Path, parent: QWidget) -> Page:
        assert self.page is not None
        module, _, name = self.page.partition(":")
        page = getattr(importlib.import_module(module), name)(workspace, parent)
        assert isinstance(page, Page), f"{self.page} must be a gui.pages.page.Page"
        return page


SP = QStyle.StandardPixmap
PAGES: tuple[PageSpec, ...] = (
    PageSpec("environment", QT_TRANSLATE_NOOP("MainWindow", "Environment"), SP.SP_ComputerIcon,
             QT_TRANSLATE_NOOP("MainWindow", "Checks the GPU driver, CUDA and PyTorch, and says what to fix so "
                                             "training can use the GPU."),
             "gui.environment.environment_page:EnvironmentPage"),
    PageSpec("dataset", QT_TRANSLATE_NOOP("MainWindow", "Dataset"), SP.SP_DirIcon,
             QT_TRANSLATE_NOOP("MainWindow", "Opens or creates a data.yaml, checks images and labels, and shows "
                                             "class statistics."), "gui.dataset.dataset_page:DatasetPage"),
    PageSpec("wizard", QT_TRANSLATE_NOOP("MainWindow", "Wizard"), SP.SP_FileDialogContentsView,
             QT_TRANSLATE_NOOP("MainWindow", "Recommends batch size, image size and workers for this machine, "
                                             "measured, with reasons."), "gui.wizard.wizard_page:WizardPage"),
    PageSpec(TRAIN, QT_TRANSLATE_NOOP("MainWindow", "Train"), SP.SP_MediaPlay,
             QT_TRANSLATE_NOOP("MainWindow", "Train a model and watch it learn."), "gui.train.train_page:TrainPage"),
    PageSpec("tune", QT_TRANSLATE_NOOP("MainWindow", "Tune"), SP.SP_FileDialogListView,
             QT_TRANSLATE_NOOP("MainWindow", "Searches for better training settings on Ray Tune: many short trials "
                                             "side by side, the poor ones stopped early."),
             "gui.tune.tune_page:TunePage"),
    PageSpec("runs", QT_TRANSLATE_NOOP("MainWindow", "Runs"), SP.SP_FileDialogDetailedView,
             QT_TRANSLATE_NOOP("MainWindow", "Lists every run with its status and results, to compare, resume or "
                                             "clean up."), "gui.runs.runs_page:RunsPage"),
    PageSpec("label", QT_TRANSLATE_NOOP("MainWindow", "Label"), SP.SP_FileDialogNewFolder,
             QT_TRANSLATE_NOOP("MainWindow", "Draws and fixes boxes image by image, keyboard first, the images that "
                                             "most need a person first."), "gui.label.label_page:LabelPage"),
    PageSpec("export", QT_TRANSLATE_NOOP("MainWindow", "Export"), SP.SP_DialogSaveButton,
             QT_TRANSLATE_NOOP("MainWindow", "Exports trained weights to ONNX, TensorRT and TorchScript, and "
                                             "checks the result against PyTorch."),
             "gui.export.export_page:ExportPage"),
    PageSpec("predict", QT_TRANSLATE_NOOP("MainWindow", "Predict"), SP.SP_MediaSeekForward,
             QT_TRANSLATE_NOOP("MainWindow", "Runs a trained model on images, folders, videos, cameras and streams, "
                                             "and shows what it finds live."), "gui.predict.predict_page:PredictPage"),
    PageSpec("machines", QT_TRANSLATE_NOOP("MainWindow", "Machines"), SP.SP_DriveNetIcon,
             QT_TRANSLATE_NOOP("MainWindow", "Servers reached by SSH: add one (its host key shown for you to accept), "
                                             "check it with the doctor there."),
             "gui.machines.machines_page:MachinesPage"),
)


def page_index(key: str) -> int:
    return next(i for i, spec in enumerate(PAGES) if spec.key == key)
