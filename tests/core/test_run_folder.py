"""``core.run.folder.RunFolder``: the layout, recorded paths re-based after a rename, and the one resume rule."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.job.protocol import encode, make_event
from core.run.folder import RunFolder, machine_of
from core.runs.store import create_run, read_run, rename_run, resume_spec
from core.run.files import EVENTS_FILE
from core.training.config import MachineFacts, TrainConfig, validate_config
from tests.fixtures.checkpoint_files import write_checkpoint_file


def stopped_run(tmp_path: Path, *, node_rank: int = 0, with_last: bool = True) -> Path:
    """A stopped run whose events name its weights by the folder's path at the time (as the worker writes)."""
    data = tmp_path / "data.yaml"
    data.write_text("train: a\nval: b\nnames: [x]\n", encoding="utf-8")
    run = create_run(tmp_path / "ws", validate_config(TrainConfig(data=str(data), device="cpu"), MachineFacts(0)))
    if node_rank:
        config = json.loads((run / "config.json").read_text(encoding="utf-8"))
        config["spec"]["topology"] = {"nnodes": 2, "nproc_per_node": 1, "node_rank": node_rank}
        (run / "config.json").write_text(json.dumps(config), encoding="utf-8")
    folder = RunFolder(run)
    write_checkpoint_file(folder.best_pt)
    if with_last:
        write_checkpoint_file(folder.last_pt)
    with open(folder.events, "w", encoding="utf-8") as handle:
        handle.write(encode(make_event("stage", stage="starting", pid=1, create_time=1.0)))
        handle.write(encode(make_event("checkpoint", path=str(folder.last_pt), epoch=0, reason="epoch",
                                       best_path=str(folder.best_pt))))
        handle.write(encode(make_event("done", status="stopped", elapsed_s=1.0, best=str(folder.best_pt),
                                       last=str(folder.last_pt))))
    return run


def test_the_layout_is_yolov5s_and_the_apps(tmp_path):
    folder = RunFolder(tmp_path / "exp")
    assert folder.last_pt == tmp_path / "exp" / "weights" / "last.pt"
    assert folder.best_pt == tmp_path / "exp" / "weights" / "best.pt"
    assert (folder.config.name, folder.spec.name, folder.events.name) == ("config.json", "spec.json", EVENTS_FILE)
    assert (folder.worker_log.name, folder.opt_yaml.name, folder.evaluations.name) == (
        "worker.log", "opt.yaml", "evaluations")


def test_a_recorded_checkpoint_is_rebased_onto_the_folder_as_it_is_now(tmp_path):
    folder = RunFolder(tmp_path / "new-name")
    assert folder.rebase("/elsewhere/old-name/weights/epoch3.pt") == folder.weights / "epoch3.pt"
    assert folder.rebase("/data/model.pt") == Path("/data/model.pt")  # not a run's checkpoint: unchanged
    assert folder.best_weights("/elsewhere/old-name/weights/best.pt") is None  # nothing on disk: no dead path
    write_checkpoint_file(folder.best_pt)
    assert folder.best_weights("/elsewhere/old-name/weights/best.pt") == folder.best_pt
    assert folder.best_weights() == folder.best_pt and folder.last_weights() is None


def test_a_renamed_run_still_names_its_weights_and_resumes(tmp_path):
    run = stopped_run(tmp_path)
    before = read_run(run)
    assert before.best_weights == str(run / "weights" / "best.pt") and before.can_resume
    target = rename_run(run, "renamed")
    after = read_run(target)
    assert after.best_weights == str(target / "weights" / "best.pt")  # the events still say the old folder
    assert after.last_weights == str(target / "weights" / "last.pt") and after.can_resume
    assert resume_spec(target, tmp_path / "ws")["run_dir"] == str(target)


@pytest.mark.parametrize("node_rank, resumable", [(0, False), (1, True)])
def test_only_machine_0_needs_its_own_last_pt(tmp_path, node_rank, resumable):
    run = stopped_run(tmp_path, node_rank=node_rank, with_last=False)
    spec = json.loads((run / "config.json").read_text(encoding="utf-8"))["spec"]
    folder = RunFolder(run)
    assert (folder.resume_problem(spec) is None) is resumable
    assert folder.can_resume("stopped", spec) is resumable and read_run(run).can_resume is resumable
    assert not folder.can_resume("completed", spec) and not folder.can_resume("running", spec)


@pytest.mark.parametrize("spec, machine", [({}, 0), ({"topology": {"node_rank": 2}}, 2), (None, 0),
                                           ({"topology": {"node_rank": "x"}}, 0), ({"topology": []}, 0)])
def test_the_machine_number_of_a_damaged_spec_is_0(spec, machine):
    assert machine_of(spec) == machine
