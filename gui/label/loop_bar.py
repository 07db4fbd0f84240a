"""The Label page's two rows of controls for the labelling loop (issue 33): auto-label (a run, a folder of new
images, a confidence; progress and Cancel) and review (a queue, per-image Accept / Reject, the dataset and split
to add the reviewed images to, Retrain). Widgets only: the page wires them (``gui.label.label_page``)."""

from __future__ import annotations

from PySide6.QtWidgets import (QComboBox, QDoubleSpinBox, QHBoxLayout, QLabel, QProgressBar, QPushButton,
                               QSizePolicy, QVBoxLayout, QWidget)

from core.usecases.label import DEFAULT_CONF


class LoopBar(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # auto-label
        self.run_box = QComboBox(self, minimumContentsLength=10)
        self.run_box.setToolTip(self.tr("The run whose best weights propose the boxes"))
        self.images_button = QPushButton(self.tr("New images…"), self)
        self.images_label = QLabel(self.tr("No folder chosen."), self)
        self.conf = QDoubleSpinBox(self, decimals=2, minimum=0.01, maximum=1.0, singleStep=0.05, value=DEFAULT_CONF)
        self.conf.setToolTip(self.tr("Confidence at which a box is proposed"))
        self.auto_button = QPushButton(self.tr("Auto-label"), self)
        self.auto_button.setToolTip(self.tr("Predict the images not predicted yet into a review queue (never "
                                            "into a dataset); run again to continue after a stop"))
        self.cancel_button = QPushButton(self.tr("Cancel"), self, enabled=False)
        self.progress = QProgressBar(self, minimumWidth=150, maximumWidth=220, format="%v/%m")
        self.progress.hide()
        top = QHBoxLayout()
        top.addWidget(QLabel(self.tr("Auto-label with"), self))
        top.addWidget(self.run_box)
        top.addWidget(self.images_button)
        top.addWidget(self.images_label, 1)
        top.addWidget(QLabel(self.tr("Confidence"), self))
        top.addWidget(self.conf)
        top.addWidget(self.auto_button)
        top.addWidget(self.cancel_button)
        top.addWidget(self.progress)
        # review
        self.queue_box = QComboBox(self, minimumContentsLength=12)
        self.queue_box.setToolTip(self.tr("The review queues of this workspace"))
        self.folder_button = QPushButton(self.tr("Label a folder…"), self)
        self.folder_button.setToolTip(self.tr("Label a folder of images by hand (its label files are edited)"))
        self.accept_button = QPushButton(self.tr("Accept image (Enter)"), self, enabled=False)
        self.reject_button = QPushButton(self.tr("Reject image (Delete)"), self, enabled=False)
        self.data_button = QPushButton(self.tr("Dataset…"), self)
        self.data_label = QLabel(self.tr("No dataset chosen."), self)
        self.split_box = QComboBox(self)
        self.add_button = QPushButton(self.tr("Add reviewed to dataset"), self, enabled=False)
        self.add_button.setToolTip(self.tr("Write the reviewed images and their accepted boxes into the dataset's "
                                           "split; rejected ones never go in"))
        self.retrain_button = QPushButton(self.tr("Retrain"), self, enabled=False)
        self.retrain_button.setToolTip(self.tr("Fine-tune the queue's run from its best.pt on the dataset as it "
                                               "is now (yolostudio train --from RUN)"))
        for path_label in (self.images_label, self.data_label):  # a long path shrinks, never widens the page
            path_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            path_label.setMinimumWidth(80)
        bottom = QHBoxLayout()
        bottom.addWidget(QLabel(self.tr("Review"), self))
        bottom.addWidget(self.queue_box)
        bottom.addWidget(self.folder_button)
        bottom.addWidget(self.accept_button)
        bottom.addWidget(self.reject_button)
        bottom.addSpacing(12)
        bottom.addWidget(self.data_button)
        bottom.addWidget(self.data_label, 1)
        bottom.addWidget(self.split_box)
        bottom.addWidget(self.add_button)
        bottom.addWidget(self.retrain_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addLayout(bottom)
