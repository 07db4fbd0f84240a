"""The Train form's "Run on several machines" section: its options, and what to run on the other machines.

The options themselves are rows the form adds (``core.training.options``, ``section="cluster"``); this section
adds above them the warning that the rendezvous belongs on a trusted network (PyTorch's own guidance), and
below them the exact ``yolostudio train`` command of every other machine (``core.training.distributed``, with the run's
random ``--rdzv-id``), a button that copies them, and one that saves a Slurm batch script. The commands follow
the form as it changes.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (QFileDialog, QFormLayout, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton,
                               QVBoxLayout, QWidget)

from core.atomic import atomic_write_text
from core.training.distributed import other_node_commands, slurm_script
from core.training.options import TrainConfig
from gui.widgets.disclosure import disclosure_button


class SeveralMachinesSection(QWidget):
    """A collapsible section: ``form`` takes the option rows; ``show_config`` refreshes the commands."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.body = QWidget(self)
        self.toggle = disclosure_button(self, self.tr("R&un on several machines"), self.body, tooltip=self.tr(
            "Train one run on several GPUs or machines with PyTorch's DDP: this machine starts its share, the others "
            "run the command shown here."))
        self.form = QFormLayout()
        self.form.setContentsMargins(0, 0, 0, 0)
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        # PyTorch's own guidance (SECURITY.md, "Using distributed features"): its stores have no authentication.
        self.trust_note = QLabel(self.tr(
            "Several machines meet through PyTorch's rendezvous, which has no password and no encryption: anyone "
            "who can reach its port can join the run or run code on these machines. Use it only on a network you "
            "trust (a private cluster network or a VPN), never one open to others. The run id below is random, "
            "but it is not a password."), self.body)
        self.trust_note.setWordWrap(True)
        self.commands_label = QLabel(self.tr("On the other machines, run:"), self.body)
        self.commands = QPlainTextEdit(self.body, readOnly=True)
        self.commands.setMaximumHeight(90)
        self.copy_button = QPushButton(self.tr("Copy commands"), self.body, clicked=self.copy_commands)
        self.slurm_button = QPushButton(self.tr("Save Slurm script…"), self.body, clicked=self.save_slurm)
        self.slurm_button.setToolTip(self.tr("A batch script for a Slurm cluster: one task per machine (srun), each "
                                             "running this training with its own machine rank."))
        buttons = QHBoxLayout()
        buttons.addWidget(self.copy_button)
        buttons.addWidget(self.slurm_button)
        buttons.addStretch(1)
        body = QVBoxLayout(self.body)
        body.setContentsMargins(16, 0, 0, 0)
        body.addWidget(self.trust_note)
        body.addLayout(self.form)
        body.addWidget(self.commands_label)
        body.addWidget(self.commands)
        body.addLayout(buttons)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.toggle)
        layout.addWidget(self.body)
        self._config = TrainConfig()

    def show_config(self, config: TrainConfig) -> None:
        """Follow the form: the other machines' commands (none for one machine)."""
        self._config = config
        commands = other_node_commands(config)
        self.commands.setPlainText("\n".join(self.tr("# machine {rank}\n{command}").format(rank=rank, command=command)
                                             for rank, command in commands)
                                   or self.tr("One machine: set Machines to 2 or more to get the command for each of "
                                              "the others."))
        self.copy_button.setEnabled(bool(commands))
        self.slurm_button.setEnabled(config.nnodes > 1)

    def copy_commands(self) -> None:
        QGuiApplication.clipboard().setText("\n".join(command for _rank, command in other_node_commands(self._config)))

    def save_slurm(self, path: str | None = None) -> Path | None:
        """Write the Slurm script (asks where unless ``path`` is given); returns the file written."""
        if path is None:
            path, _filter = QFileDialog.getSaveFileName(self, self.tr("Save Slurm script"),
                                                        f"{self._config.name or 'yolostudio'}.sbatch",
                                                        self.tr("Slurm batch scripts (*.sbatch *.sh)"))
        if not path:
            return None
        atomic_write_text(Path(path), slurm_script(self._config))
        return Path(path)
