"""The Environment page with injected facts (summary, list, details, copy fix, save/open) and a replayed probe."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QGuiApplication

from core.environment.facts import EnvironmentFacts, NvmlFacts, save_facts
from core.job.jobs import JobSpec
from core.job.protocol import encode, make_event
from gui.environment import environment_page
from gui.environment.environment_page import EnvironmentPage
from tests.core.environment_builders import cpu_machine, healthy_gpu_machine
from tests.waits import TIMEOUT_MS


def cpu_build_on_gpu_machine() -> EnvironmentFacts:
    facts = healthy_gpu_machine()
    facts.torch.version, facts.torch.cuda, facts.torch.cuda_available = "2.14.1+cpu", None, False
    facts.torch.devices, facts.torch.device_count, facts.torch.arch_list = [], 0, []
    return facts


@pytest.fixture
def make_page(qtbot, tmp_path):
    def make(**kwargs) -> EnvironmentPage:
        page = EnvironmentPage(tmp_path / "ws", **kwargs)
        qtbot.addWidget(page)
        return page

    return make


def test_error_facts_summary_rows_and_copy_fix(make_page, qtbot):
    page = make_page(facts=cpu_build_on_gpu_machine())
    assert page.summary.level == "error"
    assert page.summary.plain_text.startswith("Training would not use the GPU — here is why: PyTorch is a CPU-only")
    rows = page.row_texts()
    assert rows[0].startswith("Error · PyTorch is a CPU-only build")
    assert any(r.startswith("OK · ") for r in rows)
    assert not page.list.item(0).icon().isNull()  # status is icon + words, never colour alone
    assert page.details.finding.code == "torch-cpu-build"
    assert "torch-cpu-build" in page.details.browser.toPlainText()
    assert "download.pytorch.org/whl/cu130" in page.details.browser.toPlainText()
    assert page.details.copy_button.isEnabled()
    qtbot.mouseClick(page.details.copy_button, environment_page.Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == page.details.finding.fix
    assert "whl/cu130" in QGuiApplication.clipboard().text()
    assert page.banner.text.startswith("Copied: ")


def test_ready_summary_and_passed_checks(make_page):
    page = make_page(facts=healthy_gpu_machine())
    assert (page.summary.level, page.summary.plain_text) == (
        "ok", "Ready to train on NVIDIA GeForce RTX 4090 (24 GB) with CUDA 13.0")
    assert page.row_texts()[0].startswith("OK · ")
    assert page.details.finding is None and "Passed" in page.details.browser.toPlainText()
    assert not page.details.copy_button.isEnabled()


def test_passed_checks_show_what_was_measured(make_page):
    """An OK row says what its check looked at, from the facts the check judged — not only "Passed"."""
    page = make_page(facts=healthy_gpu_machine())
    rows = page.row_texts()
    assert "OK · Python version — Python 3.11.9" in rows
    assert "OK · PyTorch CUDA build — PyTorch 2.14.1+cu130, built for CUDA 13.0" in rows
    assert "OK · CPUs for the data loader — 32 of 32 cores usable; the loader starts 8 workers" in rows
    ram = next(r for r in rows if r.startswith("OK · RAM for the dataset cache — "))
    assert "1000 images" in ram and "58.0 GB available" in ram
    disk = next(r for r in rows if r.startswith("OK · Disk speed and space — "))
    assert "workspace: 3000 images/s (900 MB/s), 400 GB free" in disk
    assert not any(r == "OK · Python version" for r in rows)
    page.list.setCurrentRow(rows.index("OK · Python version — Python 3.11.9"))
    assert "Passed. Measured: Python 3.11.9." in page.details.browser.toPlainText()
    assert "nothing to fix" not in page.details.browser.toPlainText()


def test_cpu_machine_says_cpu_and_why(make_page):
    page = make_page(facts=cpu_machine())
    assert page.summary.level == "info"
    assert page.summary.plain_text.startswith("Training would run on the CPU — here is why")
    assert any("does not apply" in r for r in page.row_texts())


def test_checks_that_could_not_run_say_not_checked_and_why(make_page):
    facts = healthy_gpu_machine()
    facts.nvml = NvmlFacts(available=False, error="LibraryNotFound", error_message="NVML Shared Library Not Found")
    page = make_page(facts=facts)
    row = next(r for r in page.row_texts() if r.startswith("GPU busy, throttling, PCIe"))
    assert "not checked" in row and "NVML Shared Library Not Found" in row
    assert not any(r.startswith("OK · GPU busy") or r.startswith("OK · Driver vs") for r in page.row_texts())


def test_apply_setting_goes_to_the_applier(make_page, qtbot):
    applied = []
    facts = healthy_gpu_machine()
    facts.dataset.cache_ram_gb = 500.0
    page = make_page(facts=facts, applier=lambda setting: applied.append(setting) or True)
    assert page.details.finding.code == "ram-low"
    assert page.details.apply_button.isVisibleTo(page)
    page.details.apply_button.click()
    assert applied == [{"cache": "disk"}]


def test_apply_hidden_without_an_applier(make_page):
    facts = healthy_gpu_machine()
    facts.dataset.cache_ram_gb = 500.0
    page = make_page(facts=facts)
    assert not page.details.apply_button.isVisibleTo(page)


def test_save_report_abbreviates_home(make_page, qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", "/home/ann")
    out = tmp_path / "report.json"
    monkeypatch.setattr(environment_page, "ask_save_path", lambda parent, suggested: str(out))
    page = make_page(facts=cpu_build_on_gpu_machine())
    assert page.save_report()
    qtbot.waitUntil(lambda: page.banner.text.startswith("Report saved to"), timeout=TIMEOUT_MS)  # written off the GUI thread
    report = json.loads(out.read_text(encoding="utf-8"))
    assert {"facts", "findings"} <= set(report)
    assert report["findings"][0]["id"] == "torch-cpu-build"
    assert report["facts"]["disks"][0]["path"] == "~/ws"
    assert "/home/ann" not in out.read_text(encoding="utf-8")
    assert any(c["key"] == "python" and c["measured"] == "Python 3.11.9" for c in report["checks"])


def test_open_facts_explains_what_a_facts_file_is_and_how_to_make_one(make_page):
    tip = make_page(facts=cpu_build_on_gpu_machine()).load_button.toolTip()
    assert "yolostudio doctor --save-facts" in tip and "what the check read" in tip


def test_open_facts_file_and_a_broken_one(make_page, qtbot, tmp_path, monkeypatch):
    page = make_page(facts=healthy_gpu_machine())
    good, bad = tmp_path / "colleague.json", tmp_path / "broken.json"
    save_facts(cpu_build_on_gpu_machine(), good)
    bad.write_text("{nope", encoding="utf-8")
    monkeypatch.setattr(environment_page, "ask_open_path", lambda parent: str(bad))
    assert page.open_facts()  # read off the GUI thread
    qtbot.waitUntil(lambda: page.banner.level == "error", timeout=TIMEOUT_MS)
    assert "broken.json" in page.banner.text and page.source == ""
    monkeypatch.setattr(environment_page, "ask_open_path", lambda parent: str(good))
    with qtbot.waitSignal(page.checked, timeout=TIMEOUT_MS):
        assert page.open_facts()
    assert page.summary.plain_text.startswith("colleague.json: ") and page.summary.level == "error"


def _fake_probe(tmp_path: Path, facts: EnvironmentFacts, *, hang: bool = False):
    lines = [make_event("stage", stage="starting", job="probe", pid=1, create_time=0.0, python="", started=0.0)]
    for i, step in enumerate(("system", "nvml", "disks", "torch", "cuda")):  # a GPU machine: CUDA is a phase
        lines.append(make_event("probe_step", step=step, index=min(i, 3), count=4))
        if hang and step == "cuda":
            break
        lines.append(make_event("facts", facts=facts.to_dict(), final=step == "cuda"))
    if not hang:
        lines.append(make_event("done", status="completed", elapsed_s=1.0))
    script = tmp_path / "probe.py"
    tail = "time.sleep(600)" if hang else ""
    script.write_text(f"import sys, time\nsys.stdout.write({''.join(encode(e) for e in lines)!r})\n"
                      f"sys.stdout.flush()\n{tail}\n", encoding="utf-8")
    seen: list[Path] = []
    specs: list[dict] = []

    def launcher(job: JobSpec):
        assert job.job == "probe" and job.path is not None
        seen.append(job.path)
        specs.append(json.loads(job.path.read_text(encoding="utf-8")))
        return [sys.executable, "-S", str(script)], dict(os.environ)

    launcher.specs = specs
    return launcher, seen


def test_recheck_runs_the_probe_and_shows_its_facts(make_page, qtbot, tmp_path):
    launcher, seen = _fake_probe(tmp_path, cpu_build_on_gpu_machine())
    page = make_page(launcher=launcher)
    assert page.summary.plain_text == "Not checked yet."
    with qtbot.waitSignal(page.checked, timeout=TIMEOUT_MS):
        assert page.recheck()
        assert page.busy and page.progress_bar.isVisibleTo(page) and not page.recheck_button.isEnabled()
        assert page.summary.plain_text == "Checking this machine…"  # not "Not checked yet" while it runs
    assert page.facts.probe.completed and page.summary.level == "error"
    assert page.row_texts()[0].startswith("Error · PyTorch is a CPU-only build")
    assert not page.progress_bar.isVisibleTo(page) and page.recheck_button.isEnabled()
    assert seen and not seen[0].exists()  # the spec file is cleaned up


def test_hung_probe_is_killed_and_reported(make_page, qtbot, tmp_path):
    launcher, _ = _fake_probe(tmp_path, healthy_gpu_machine(), hang=True)
    page = make_page(launcher=launcher, timeout_s=8.0)  # time for the stand-in to start on a busy machine
    with qtbot.waitSignal(page.checked, timeout=TIMEOUT_MS):
        page.recheck()
    assert page.facts.probe.timed_out and page.facts.probe.hung_at == "cuda"
    assert page.row_texts()[0].startswith("Error · The environment check hung")
    assert page.summary.level == "error"


def test_the_check_judges_the_apps_current_dataset_and_again_when_it_changes(make_page, qtbot, tmp_path):
    """"RAM for the dataset cache" needs a dataset: the probe gets the one the Train page has (``current``)."""
    data = tmp_path / "data" / "data.yaml"
    data.parent.mkdir()
    data.write_text("path: .\ntrain: images\nval: images\nnames: [a]\n", encoding="utf-8")
    launcher, _ = _fake_probe(tmp_path, healthy_gpu_machine())
    page = make_page(launcher=launcher)
    with qtbot.waitSignal(page.checked, timeout=TIMEOUT_MS):
        assert page.recheck()
    assert "data" not in launcher.specs[0]  # no dataset chosen anywhere yet
    other = tmp_path / "other.yaml"
    other.write_text(data.read_text(encoding="utf-8"), encoding="utf-8")
    page.show()
    with qtbot.waitSignal(page.checked, timeout=TIMEOUT_MS):
        page.services.current.set_dataset(other)  # chosen on the Train or Dataset page: checked again
    assert launcher.specs[1]["data"] == str(other.resolve())
    page.hide()
    page.services.current.set_dataset(data)
    assert len(launcher.specs) == 2  # hidden: checked when shown
    with qtbot.waitSignal(page.checked, timeout=TIMEOUT_MS):
        page.show()
    assert launcher.specs[2]["data"] == str(data.resolve())


def test_the_cuda_step_is_shown_as_part_of_the_torch_step(make_page, qtbot, tmp_path):
    launcher, _ = _fake_probe(tmp_path, healthy_gpu_machine())
    page = make_page(launcher=launcher)
    labels: list[str] = []
    page._probe.event.connect(lambda event: labels.append(page.progress_label.text()))
    with qtbot.waitSignal(page.checked, timeout=TIMEOUT_MS):
        page.recheck()
    steps = [t for t in labels if "(step" in t]
    assert steps[-1] == "Testing CUDA on each GPU… (step 4 of 4)" and steps[0].endswith("(step 1 of 4)")
