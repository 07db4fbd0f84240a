"""``yolostudio doctor --repair``: asks (or --yes), runs the real repair worker job against a fake pip with
progress on stderr, re-checks; refuses with the reason; never combined with --facts or --json."""

from __future__ import annotations

import sys

import pytest

import cli.repair
import cli.verbs.doctor
from cli.main import main
from cli.jobs import render_job
from cli.render import EventRenderer
from core.install.repair import RuntimeFacts
from core.job.jobs import JobOutcome
from core.usecases.door import Door
from tests.core.environment_builders import healthy_gpu_machine
from tests.fixtures.pip_swap import with_fake_pip
from tests.gui.test_environment_page import cpu_build_on_gpu_machine

VENV = RuntimeFacts(python=sys.executable, os="Linux", in_venv=True, site_packages="/venv/site-packages",
                    writable=True, pip_version="26.3")


@pytest.fixture
def machine(monkeypatch):
    """A GPU machine with a CPU-only torch until the repair ran, a healthy one after."""
    state = {"repaired": False, "pip_env": {}}

    def gather(args, workspace):
        return (healthy_gpu_machine() if state["repaired"] else cpu_build_on_gpu_machine()), []

    def runner(door: Door, renderer: EventRenderer) -> JobOutcome:
        job = door.spec()
        assert job.job == "repair"
        state["command"] = job.spec["argv"]
        with_fake_pip(job.spec)  # the same arguments, a fake pip (the dry runs too)
        for key, value in state["pip_env"].items():
            monkeypatch.setenv(key, value)
        outcome = render_job(renderer, door)
        state["repaired"] = outcome.status == "completed"
        return outcome

    monkeypatch.setattr(cli.verbs.doctor, "_gather", gather)
    monkeypatch.setattr(cli.repair, "runtime_facts", lambda: VENV)
    monkeypatch.setattr(cli.repair, "run_worker", runner)
    return state


def test_repair_with_yes_installs_then_rechecks(machine, capsys):
    assert main(["doctor", "--repair", "--yes"]) == 0  # the re-check finds no error any more
    captured = capsys.readouterr()
    assert f"{sys.executable} -m pip install --progress-bar=raw torch==2.14.1+cu130" in captured.err
    assert "Downloading torch-2.14.1+cu130" in captured.err and "Checking this machine again" in captured.err
    assert captured.out.count("Ready to train") == 1  # the second report
    assert machine["command"][4:6] == ["--progress-bar=raw", "torch==2.14.1+cu130"]


def test_repair_asks_first(machine, capsys, monkeypatch):
    monkeypatch.setattr("builtins.input", lambda prompt: "n")
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    assert main(["doctor", "--repair"]) == 1  # still the CPU build's error
    assert "Nothing was changed" in capsys.readouterr().err and not machine["repaired"]


def test_repair_without_a_terminal_needs_yes(machine, capsys, monkeypatch):
    monkeypatch.setattr(sys.stdin, "isatty", lambda: False)
    assert main(["doctor", "--repair"]) == 2
    assert "add --yes" in capsys.readouterr().err


def test_failed_pip_says_why_and_where_the_log_is(machine, capsys):
    machine["pip_env"] = {"FAKE_PIP_FAIL": "download"}
    assert main(["doctor", "--repair", "--yes"]) == 1
    err = capsys.readouterr().err
    assert "The repair failed" in err and "Read timed out" in err and "worker.log" in err


def test_refusal_is_explained(machine, capsys, monkeypatch):
    monkeypatch.setattr(cli.repair, "runtime_facts", lambda: RuntimeFacts("/usr/bin/python3", "Linux", False,
                                                                           "/usr/lib/python3/dist-packages", False))
    assert main(["doctor", "--repair", "--yes"]) == 1
    err = capsys.readouterr().err
    assert "Not repaired" in err and "system's Python" in err and "/usr/bin/python3 -m pip install" in err


@pytest.mark.parametrize("extra", [["--json"], ["--facts", "x.json"]])
def test_repair_is_for_this_machine_and_a_person(extra, capsys):
    assert main(["doctor", "--repair", *extra]) == 2
    assert "--repair" in capsys.readouterr().err


def test_a_build_the_index_does_not_serve_is_replaced_with_the_reason(machine, capsys):
    """The index is asked first (pip's dry run): cu130 missing there, cu132 missing too, cu126 fits the RTX 4090 and
    the 580 driver and is installed, with a note saying why."""
    machine["pip_env"] = {"FAKE_PIP_SERVES": "cu126,cpu"}
    assert main(["doctor", "--repair", "--yes"]) == 0
    err = capsys.readouterr().err
    assert "note: cu130 is not served by https://download.pytorch.org/whl/cu130" in err
    assert "cu126 also fits this machine and is installed instead" in err
    assert "Downloading torch-2.14.1+cu126" in err


def test_nothing_served_changes_nothing(machine, capsys):
    machine["pip_env"] = {"FAKE_PIP_SERVES": "cpu"}
    assert main(["doctor", "--repair", "--yes"]) == 1
    err = capsys.readouterr().err
    assert "serves none of the PyTorch builds that fit this machine (cu130, cu132, cu126)" in err
    assert "Nothing was changed" in err and not machine["repaired"]
