"""The Train form is built from the options' one description: a row, label, tooltip and editor per option."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from core.environment.machine import MachineFacts
from core.training.options import TrainConfig, option_labels, train_options
from gui.train.train_form import TrainForm
from tests.core.test_train_options import other_value

OPTIONS = train_options()


def make_form(qtbot, tmp_path) -> TrainForm:
    form = TrainForm(tmp_path / "ws", tmp_path / "ws" / "demo" / "data.yaml")
    qtbot.addWidget(form)
    form.set_machine_facts(MachineFacts(gpu_count=1, gpu_names=("RTX",)))
    return form


def test_a_row_per_option_with_its_label_and_help(qtbot, tmp_path):
    form = make_form(qtbot, tmp_path)
    assert list(form.editors) == [o.name for o in OPTIONS]
    labels = {label.buddy(): label for label in form.findChildren(QLabel) if label.buddy() is not None}
    for opt in OPTIONS:
        editor = form.editors[opt.name]
        label = labels[editor.focus]
        assert label.text().replace("&", "") == f"{option_labels()[opt.name]}:"
        assert editor.focus.toolTip() == opt.help == label.toolTip()
        assert form.advanced.isAncestorOf(editor.focus) is opt.advanced, opt.name


def test_mnemonics_are_unique_and_every_basic_option_has_one(qtbot, tmp_path):
    form = make_form(qtbot, tmp_path)
    labels = [label for label in form.findChildren(QLabel) if label.buddy() is not None]
    keys = [label.text().split("&")[1][0].lower() for label in labels if "&" in label.text()]
    assert len(keys) == len(set(keys)) and "a" not in keys  # Alt+A: Advanced options
    basic = {form.editors[o.name].focus for o in OPTIONS if not o.advanced and not o.section}
    assert all("&" in label.text() for label in labels if label.buddy() in basic)


def test_every_option_can_be_set_by_name_and_reads_back(qtbot, tmp_path):
    """The prescriptions' and settings' apply path covers every option (it used to drop most of them)."""
    form = make_form(qtbot, tmp_path)
    values = {o.name: other_value(o) for o in OPTIONS if o.widget not in ("model", "weights")}
    values["device"] = "0"
    form.show()
    qtbot.waitExposed(form)
    assert not form.advanced.isVisible()
    assert form.apply_values(values) == list(values)
    config = form.config()
    for name, value in values.items():
        assert getattr(config, name) == value, name
        assert form.field_text(name)
    assert form.advanced.isVisible()  # an advanced change opens the section
    assert form.advanced_button.isChecked()
    assert form.field_text("batch") == "17" and form.apply_values({"batch": -1}) and form.field_text("batch") == "auto"
    assert form.apply_values({"cache": "gpu"}) == []  # not a choice: left as it was


def test_the_form_starts_the_run_the_cli_starts_for_the_same_inputs(qtbot, tmp_path):
    """One set of defaults: the form on a fresh start and ``yolostudio train DATA`` describe the same run."""
    import argparse

    from core.training.options import add_train_arguments, config_from_args

    form = make_form(qtbot, tmp_path)
    form.set_data_path(str(tmp_path / "d.yaml"))
    parser = argparse.ArgumentParser()
    add_train_arguments(parser)
    cli = config_from_args(parser.parse_args([str(tmp_path / "d.yaml")]))
    assert form.config() == cli == TrainConfig(data=str(tmp_path / "d.yaml"))


def test_the_advanced_section_opens_and_closes(qtbot, tmp_path):
    form = make_form(qtbot, tmp_path)
    form.show()
    assert not form.advanced.isVisible()
    form.advanced_button.click()
    assert form.advanced.isVisible()
    form.advanced_button.click()
    assert not form.advanced.isVisible()


def test_choosing_a_dataset_changes_other_values_only_with_a_word_next_to_them(qtbot, tmp_path):
    form = make_form(qtbot, tmp_path)
    form.spin("epochs").setValue(30)  # the user's own choice: kept
    form.forget_choice("epochs")
    form.set_data_path(str(tmp_path / "ws" / "demo" / "data.yaml"))
    assert form.spin("imgsz").value() == 128 and "demo dataset" in form.notes["imgsz"].text()
    assert "was 640" in form.notes["imgsz"].text() and not form.notes["imgsz"].isHidden()
    assert form.notes["epochs"].isHidden()  # 30 already: nothing changed, nothing to say
    form.spin("epochs").setValue(7)  # chosen by the user from now on
    form.set_data_path(str(tmp_path / "mine.yaml"))
    assert form.spin("epochs").value() == 7 and form.notes["epochs"].isHidden()
    assert form.spin("imgsz").value() == 640 and "yolov5's default" in form.notes["imgsz"].text()
    form.spin("imgsz").setValue(320)
    assert form.notes["imgsz"].isHidden()


def test_several_machines_section_shows_each_other_machines_command_and_saves_a_slurm_script(qtbot, tmp_path):
    from PySide6.QtGui import QGuiApplication

    form = make_form(qtbot, tmp_path)
    machines = form.machines
    assert all(machines.body.isAncestorOf(form.editors[o.name].focus) for o in OPTIONS if o.section == "cluster")
    assert not machines.copy_button.isEnabled()  # one machine: nothing to run elsewhere
    form.apply_values({"data": "/d/data.yaml", "nnodes": 3, "rdzv_endpoint": "10.0.0.1:29400", "batch": 32})
    assert machines.toggle.isChecked() and machines.body.isVisibleTo(form)
    text = machines.commands.toPlainText()
    assert "# machine 1" in text and "--node-rank 2" in text and "--rdzv-endpoint 10.0.0.1:29400" in text
    machines.copy_button.click()
    assert QGuiApplication.clipboard().text().count("yolostudio train /d/data.yaml") == 2
    script = machines.save_slurm(str(tmp_path / "run.sbatch"))
    assert "#SBATCH --nodes=3" in script.read_text() and "srun" in script.read_text()


def test_machine_0_of_several_gets_a_random_run_id_that_the_other_machines_commands_carry(qtbot, tmp_path):
    form = make_form(qtbot, tmp_path)
    assert "trust" in form.machines.trust_note.text()  # PyTorch's guidance: a trusted network only
    form.apply_values({"data": "/d/data.yaml", "nnodes": 2, "rdzv_endpoint": "10.0.0.1:29400", "name": "exp"})
    run_id = form.config().rdzv_id
    assert len(run_id) == 32 and int(run_id, 16) >= 0 and "exp" not in run_id  # hex, not the run name
    assert f"--rdzv-id {run_id}" in form.machines.commands.toPlainText()
    form.apply_values({"epochs": 7})
    assert form.config().rdzv_id == run_id  # kept while the form changes: the commands shown stay valid
    other = make_form(qtbot, tmp_path)
    other.apply_values({"data": "/d/data.yaml", "nnodes": 2, "rdzv_endpoint": "10.0.0.1:29400", "name": "exp"})
    assert other.config().rdzv_id != run_id  # unguessable: a fresh one per run
    joining = make_form(qtbot, tmp_path)
    joining.apply_values({"nnodes": 2, "node_rank": 1, "rdzv_endpoint": "10.0.0.1:29400"})
    assert joining.config().rdzv_id == ""  # a joining machine is given machine 0's, never makes its own


def test_several_gpus_are_offered_as_one_device_choice(qtbot, tmp_path):
    form = make_form(qtbot, tmp_path)
    form.set_machine_facts(MachineFacts(gpu_count=3, gpu_names=("A", "B", "C")))
    combo = form.device_combo
    assert [combo.itemData(i) for i in range(combo.count())][-2:] == ["0,1", "0,1,2"]
    assert form.editors["device"].set_value("0,1,2") and form.config().device == "0,1,2"
