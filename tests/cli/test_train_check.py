"""``yolostudio train`` checks the dataset before it starts a worker: errors exit 2, nothing under runs/."""

from __future__ import annotations

from cli.main import main
from tests.cli.test_trust_verbs import NoWorker
from tests.core.test_dataset_validate import BOX, build


def test_train_refuses_a_dataset_that_would_fail(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("cli.verbs.train.render_job", NoWorker)
    data = build(tmp_path / "d", train={"t1": BOX, "t2": "7 0.5 0.5 0.2 0.2\n"})
    started = len(NoWorker.started)
    args = ["--workspace", str(tmp_path / "ws"), "train", str(data), "--device", "cpu"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "t2.txt:1: Class id 7" in err and "--no-check" in err
    assert not (tmp_path / "ws" / "runs").exists() and len(NoWorker.started) == started
    assert main(args + ["--no-check"]) == 0  # knowingly: the worker starts
    assert len(NoWorker.started) == started + 1


def test_train_starts_on_a_clean_dataset(tmp_path, monkeypatch):
    monkeypatch.setattr("cli.verbs.train.render_job", NoWorker)
    data = build(tmp_path / "d")
    assert main(["--workspace", str(tmp_path / "ws"), "train", str(data), "--device", "cpu"]) == 0
    assert len(list((tmp_path / "ws" / "runs").iterdir())) == 1
