"""``yolostudio doctor``: --json, --facts, --save-facts and the exit codes (0 no errors, 1 errors, 2 usage)."""

from __future__ import annotations

import json

import pytest

from cli.main import main
from cli.verbs.doctor import render_table
from core.environment.facts import load_facts, save_facts
from core.environment.rules import evaluate
from tests.core.environment_builders import healthy_gpu_machine


def _doctor(*args: str) -> int:
    return main(["doctor", *args])


@pytest.fixture
def healthy_file(tmp_path):
    path = tmp_path / "healthy.json"
    save_facts(healthy_gpu_machine(), path)
    return path


@pytest.fixture
def cpu_build_file(tmp_path):
    facts = healthy_gpu_machine()
    facts.torch.version, facts.torch.cuda, facts.torch.cuda_available, facts.torch.devices = "2.14.1+cpu", None, False, []
    facts.torch.device_count, facts.torch.arch_list = 0, []
    path = tmp_path / "cpu_build.json"
    save_facts(facts, path)
    return path


def test_facts_file_healthy_exit_0(healthy_file, capsys):
    assert _doctor("--facts", str(healthy_file)) == 0
    out = capsys.readouterr().out
    assert "Ready to train on NVIDIA GeForce RTX 4090 (24 GB) with CUDA 13.0" in out


def test_facts_file_with_error_exit_1_and_json(cpu_build_file, capsys):
    assert _doctor("--facts", str(cpu_build_file), "--json") == 1
    report = json.loads(capsys.readouterr().out)
    assert set(report) >= {"facts", "findings"}
    finding = next(f for f in report["findings"] if f["id"] == "torch-cpu-build")
    assert set(finding) >= {"id", "severity", "title", "detail", "evidence", "fix"}
    assert finding["severity"] == "error" and "whl/cu130" in finding["fix"]
    assert report["facts"]["nvml"]["driver_version"] == "580.82.07"


def test_context_options_change_the_judgement(healthy_file, capsys, tmp_path):
    facts, _ = load_facts(healthy_file)
    facts.system.shm_total_gb = 0.5
    path = tmp_path / "shm.json"
    save_facts(facts, path)
    assert _doctor("--facts", str(path), "--json", "--workers", "1", "--batch", "4") == 0
    assert "shm-too-small" not in [f["id"] for f in json.loads(capsys.readouterr().out)["findings"]]
    assert _doctor("--facts", str(path), "--json", "--workers", "16", "--batch", "64") == 0  # a warning outside containers
    assert "shm-too-small" in [f["id"] for f in json.loads(capsys.readouterr().out)["findings"]]


@pytest.mark.parametrize("content, message", [("{broken", "not a JSON facts file"), ("", "not a JSON facts file")])
def test_malformed_facts_file_exit_2(tmp_path, capsys, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    assert _doctor("--facts", str(path)) == 2
    err = capsys.readouterr().err
    assert message in err and "bad.json" in err


def test_missing_facts_file_exit_2(tmp_path, capsys):
    assert _doctor("--facts", str(tmp_path / "nope.json")) == 2
    assert "nope.json" in capsys.readouterr().err


def test_newer_and_incomplete_facts_still_judged(tmp_path, capsys):
    raw = healthy_gpu_machine().to_dict()
    raw["version"] = 99
    del raw["torch"]
    path = tmp_path / "newer.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    assert _doctor("--facts", str(path), "--json") == 0
    report = json.loads(capsys.readouterr().out)
    assert any("newer" in n for n in report["notes"]) and "torch: missing" in report["notes"]
    statuses = {c["key"]: c["status"] for c in report["checks"]}
    assert statuses["torch"] == "not-checked" and statuses["shm"] == "ok"


@pytest.mark.parametrize("args", [["--workers", "many"], ["--bogus"], ["--facts", "x.json", "--data", "d.yaml"],
                                  ["--data", "/no/such/data.yaml"], ["--batch", "0"]])
def test_usage_errors_exit_2(args):
    try:
        code = _doctor(*args)
    except SystemExit as exc:  # argparse's own usage errors
        code = exc.code
    assert code == 2


def test_real_probe_json_and_save_facts(tmp_path, capsys):
    saved = tmp_path / "mine.json"
    code = main(["--workspace", str(tmp_path / "ws"), "doctor", "--json", "--save-facts", str(saved),
                 "--timeout", "300"])
    report = json.loads(capsys.readouterr().out)
    errors = [f["id"] for f in report["findings"] if f["severity"] == "error"]
    assert code == (1 if errors else 0)
    assert report["facts"]["probe"]["completed"] is True
    facts, notes = load_facts(saved)
    assert notes == [] and facts.torch.installed is True
    assert facts.to_dict() == report["facts"]


def test_table_names_each_finding_with_its_fix():
    facts = healthy_gpu_machine()
    facts.torch.version, facts.torch.cuda, facts.torch.cuda_available, facts.torch.devices = "2.14.1+cpu", None, False, []
    table = render_table(facts, evaluate(facts))
    assert "[torch-cpu-build]" in table and "fix: " in table and "ERROR" in table


def test_table_says_not_checked_and_why_for_checks_that_could_not_run():
    from core.environment.facts import NvmlFacts

    facts = healthy_gpu_machine()
    facts.nvml = NvmlFacts(available=False, error="LibraryNotFound", error_message="NVML Shared Library Not Found")
    table = render_table(facts, evaluate(facts))
    line = next(ln for ln in table.splitlines() if "GPU busy, throttling, PCIe" in ln)
    assert "not checked" in line and "NVML Shared Library Not Found" in line and "OK" not in line


def test_facts_files_of_other_machines_through_the_verb(tmp_path, capsys):
    """An AMD GPU with a ROCm build (exit 0, what it is, NVIDIA's checks not applying) and a driver updated without a
    reboot (exit 1, the reboot), judged from their facts files as ``doctor --facts`` reads them (issue 31)."""
    from tests.core.test_environment_machines import driver_mismatch, rocm_desktop

    for machine, code, words, absent in ((rocm_desktop, 0, ("AMD GPU through ROCm", "with ROCm (HIP 6.4"),
                                          ("libnvidia-ml", "nvidia-smi lists")),
                                         (driver_mismatch, 1, ("sudo reboot", "570.133.07", "580.82.07"),
                                          ("Run nvidia-smi", "install its driver"))):
        facts = healthy_gpu_machine()
        machine(facts)
        path = tmp_path / f"{machine.__name__}.json"
        save_facts(facts, path)
        assert _doctor("--facts", str(path)) == code
        out = capsys.readouterr().out
        assert all(w in out for w in words) and not any(w in out for w in absent), out
