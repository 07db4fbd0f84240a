"""Environment page "Repair…": shown only when another PyTorch build fixes a finding here; the dialog shows
the exact command, runs the real repair worker job against a fake pip (progress, log, failure, refusal,
a training run in the way), and the page re-checks and offers a restart."""

from __future__ import annotations


import pytest

from core.environment.facts import save_facts
from core.environment.rules import evaluate
from core.install.repair import RuntimeFacts, plan_repair
from core.job.jobs import JobSpec
from core.job.launch import worker_env
from gui.environment import environment_page
from gui.environment import operations as environment_operations
from gui.environment.environment_page import EnvironmentPage
from gui.environment.repair_dialog import RepairDialog
from tests.core.environment_builders import healthy_gpu_machine
from tests.fixtures.pip_swap import with_fake_pip
from tests.gui.test_environment_page import cpu_build_on_gpu_machine
from tests.waits import TIMEOUT_MS

VENV = RuntimeFacts(python="/home/ann/.local/share/yolo-studio/venv/bin/python", os="Linux", in_venv=True,
                    site_packages="/home/ann/.local/share/yolo-studio/venv/lib/python3.11/site-packages",
                    writable=True, pip_version="26.3")


def fake_pip_launcher(**env: str):
    """The real repair worker job, with the plan's pip swapped for the fake one (same arguments)."""
    def launch(job: JobSpec):
        assert job.job == "repair"
        with_fake_pip(job.spec)  # the same arguments, a fake pip (the dry runs too)
        job.write()
        return job.argv(), job.env(dict(worker_env(), **env))
    return launch


def make_dialog(qtbot, tmp_path, runtime=VENV, busy=None, **env) -> RepairDialog:
    facts = cpu_build_on_gpu_machine()
    plan = plan_repair(facts, evaluate(facts).ids(), runtime)
    dialog = RepairDialog(plan, tmp_path / "ws", launcher=fake_pip_launcher(**env),
                          busy_check=lambda ws: list(busy or []))
    qtbot.addWidget(dialog)
    return dialog


def test_repair_button_only_for_this_machine_and_a_repairable_finding(qtbot, tmp_path, monkeypatch):
    page = EnvironmentPage(tmp_path / "ws", facts=cpu_build_on_gpu_machine())
    qtbot.addWidget(page)
    assert not page.repair_button.isHidden()
    page.show_facts(healthy_gpu_machine())
    assert page.repair_button.isHidden()
    save_facts(cpu_build_on_gpu_machine(), tmp_path / "colleague.json")
    monkeypatch.setattr(environment_page, "ask_open_path", lambda parent: str(tmp_path / "colleague.json"))
    page.open_facts()
    assert page.repair_button.isHidden()  # another machine's facts: nothing here to repair


def test_dialog_shows_the_exact_command_then_installs_with_progress(qtbot, tmp_path):
    dialog = make_dialog(qtbot, tmp_path)
    assert dialog.command.toPlainText() == (
        "/home/ann/.local/share/yolo-studio/venv/bin/python -m pip install --progress-bar=raw "
        "torch==2.14.1+cu130 torchvision==0.29.1+cu130 --index-url https://download.pytorch.org/whl/cu130")
    assert "cu130" in dialog.headline.text() and "580.82.07" in dialog.reason.text()
    labels = []
    dialog.progress_label.setText = lambda text, original=dialog.progress_label.setText: (labels.append(text),
                                                                                          original(text))[1]
    with qtbot.waitSignal(dialog.repaired, timeout=TIMEOUT_MS):
        dialog.install_button.click()
    assert dialog.status == "completed"
    assert any(text.startswith("Downloading torch-2.14.1+cu130") for text in labels)
    assert any(text.startswith("Installing") for text in labels)
    dialog.log.flush()
    assert "Successfully installed torch-2.14.1+cu130" in dialog.log.text.toPlainText()
    assert "is installed" in dialog.progress_label.text() and dialog.install_button.isHidden()


def test_a_build_the_index_does_not_serve_is_replaced_and_the_dialog_says_so(qtbot, tmp_path):
    """The job asks the index first (pip's dry run): cu130 and cu132 are not served, cu126 fits and is installed;
    the dialog names the build really installed and keeps the reason on screen."""
    dialog = make_dialog(qtbot, tmp_path, FAKE_PIP_SERVES="cu126,cpu")
    with qtbot.waitSignal(dialog.repaired, timeout=TIMEOUT_MS):
        dialog.install_button.click()
    assert dialog.status == "completed"
    assert "2.14.1+cu126" in dialog.progress_label.text()
    assert "cu130 is not served" in dialog.banner.text and "Repaired" in dialog.banner.text
    assert "torch==2.14.1+cu126" in dialog.command.toPlainText()  # the command that ran


def test_failed_install_shows_pips_error_and_can_be_retried(qtbot, tmp_path):
    dialog = make_dialog(qtbot, tmp_path, FAKE_PIP_FAIL="install")
    dialog.install_button.click()
    qtbot.waitUntil(lambda: dialog.status == "failed", timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: not dialog.running, timeout=TIMEOUT_MS)
    assert "No space left on device" in dialog.banner.text and "worker.log" in dialog.banner.text
    assert dialog.install_button.isEnabled() and dialog.install_button.text() == "Try again"


def test_refusal_disables_install_but_shows_the_command(qtbot, tmp_path):
    system = RuntimeFacts("/usr/bin/python3", "Linux", False, "/usr/lib/python3/dist-packages", False, "23.0")
    dialog = make_dialog(qtbot, tmp_path, runtime=system)
    assert not dialog.install_button.isEnabled()
    assert "system's Python" in dialog.banner.text
    assert dialog.command.toPlainText().startswith("/usr/bin/python3 -m pip install") and dialog.copy_button.isEnabled()


def test_training_in_the_way_is_refused_before_pip_starts(qtbot, tmp_path):
    dialog = make_dialog(qtbot, tmp_path, busy=["exp3"])
    dialog.install_button.click()
    qtbot.waitUntil(lambda: "exp3" in dialog.banner.text, timeout=TIMEOUT_MS)
    assert dialog._worker.job is None and not dialog.running and dialog.install_button.isEnabled()


def test_page_rechecks_after_a_repair_and_offers_a_restart(qtbot, tmp_path, monkeypatch):
    page = EnvironmentPage(tmp_path / "ws", facts=cpu_build_on_gpu_machine())
    qtbot.addWidget(page)
    monkeypatch.setattr(environment_operations, "runtime_facts", lambda: VENV)
    asked = []
    monkeypatch.setattr(environment_page, "ask_restart", lambda parent: asked.append(True) or False)
    monkeypatch.setattr(page, "recheck", lambda: page.show_facts(healthy_gpu_machine()))
    assert page.open_repair()  # planned off the GUI thread, then the dialog opens
    qtbot.waitUntil(lambda: page.repair_dialog is not None, timeout=TIMEOUT_MS)
    dialog = page.repair_dialog
    assert dialog.plan.ok
    dialog.repaired.emit()
    assert asked == [True] and page.repair_button.isHidden()
    dialog.close()
