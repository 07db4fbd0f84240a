"""``yolostudio label``: the door's refusals (trust from provenance, no best.pt, a busy or foreign queue) before any
worker; ``queue`` and ``accept`` in --json and in both languages, without a worker (the queue is written here as
the worker writes it; the real worker is ``tests/e2e/test_label_e2e.py``'s)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from cli.main import main
from core import i18n
from core.kernel_lock import KernelLock
from core.labelling.plan import plan_queue, write_plan
from core.labelling.store import QueueFolder, append
from core.usecases.label import AutoLabelDoor
from tests.fixtures.checkpoint_files import write_hostile_checkpoint
from tests.fixtures.evaluable_run import evaluable_run


class NoWorker:
    def __new__(cls, *args, **kwargs):  # type: ignore[misc]
        raise AssertionError("a worker was started")


def _new_images(root: Path, n: int = 3) -> Path:
    root.mkdir(parents=True)
    for i in range(n):
        Image.new("RGB", (40, 30), (60 * i, 80, 90)).save(root / f"n{i}.jpg")
    return root


def _filled_queue(tmp_path: Path) -> tuple[Path, Path]:
    """A run, a dataset (cat, emu) and queue q with the worker's lines for three images."""
    run, data = evaluable_run(tmp_path, train=2, val=1)
    ws = tmp_path / "ws"
    plan = plan_queue(ws, run, run / "weights" / "best.pt", _new_images(tmp_path / "new"), name="q")
    write_plan(plan)
    append(plan.folder.proposals, {"kind": "model", "names": {"0": "cat", "1": "emu"}})
    for image_id, boxes in (("n0.jpg", [[2, 2, 20, 20, 0.9, 0]]), ("n1.jpg", [[2, 2, 20, 20, 0.3, 1]]),
                            ("n2.jpg", [])):
        append(plan.folder.proposals, {"kind": "image", "id": image_id, "width": 40, "height": 30,
                                       "boxes": boxes})
    return ws, data


def test_a_copied_runs_weights_are_refused_without_the_users_word(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setattr("cli.verbs.label.render_job", NoWorker)
    marker = tmp_path / "EXECUTED"
    run = tmp_path / "ws" / "runs" / "copied"
    write_hostile_checkpoint(run / "weights" / "best.pt", marker)
    images = _new_images(tmp_path / "new")
    code = main(["--workspace", str(tmp_path / "ws"), "label", "auto", "copied", "--images", str(images)])
    assert code == 2 and not marker.exists()
    assert "best.pt" in capsys.readouterr().err
    assert not (tmp_path / "ws" / "labelling" / "copied-new").exists()  # refused before the queue is made
    door = AutoLabelDoor(run, images, tmp_path / "ws", trust_weights=True)
    assert door.ok and door.spec().spec["trusted_weights"]  # the user's word, now


def test_the_doors_refusals(tmp_path) -> None:
    run, _ = evaluable_run(tmp_path, train=1, val=1)
    ws, images = tmp_path / "ws", _new_images(tmp_path / "new")
    assert AutoLabelDoor(run, images, ws).ok
    assert not AutoLabelDoor(run, images, ws, conf=1.5).ok
    assert not AutoLabelDoor(run, tmp_path / "nowhere", ws).ok
    assert not AutoLabelDoor(run, images, ws, name="../up").ok
    (run / "weights" / "best.pt").unlink()
    [problem] = AutoLabelDoor(run, images, ws).preflight()
    assert "best.pt" in problem.message


def test_a_queue_being_filled_is_refused(tmp_path) -> None:
    run, _ = evaluable_run(tmp_path, train=1, val=1)
    ws, images = tmp_path / "ws", _new_images(tmp_path / "new")
    door = AutoLabelDoor(run, images, ws, name="q")
    door.spec()  # the header is written
    with KernelLock(QueueFolder.of(ws, "q").lock):
        [problem] = AutoLabelDoor(run, images, ws, name="q").preflight()
    assert "pid" in problem.message
    again = AutoLabelDoor(run, images, ws, name="q")
    assert again.ok and again.to_predict == 3  # nothing predicted yet: all three are still to do


def test_queue_and_accept_json(tmp_path, capsys) -> None:
    ws, data = _filled_queue(tmp_path)
    assert main(["--workspace", str(ws), "label", "queue", "--json"]) == 0
    [listed] = json.loads(capsys.readouterr().out)
    assert listed["name"] == "q" and listed["counts"]["to-review"] == 3
    assert main(["--workspace", str(ws), "label", "queue", "q", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [i["id"] for i in doc["images"]] == ["n1.jpg", "n2.jpg", "n0.jpg"]  # least certain first
    assert doc["images"][0]["reason"] == "near-threshold" and doc["images"][0]["boxes"][0]["class"] == "emu"
    assert main(["--workspace", str(ws), "label", "accept", "q", "--into", str(data), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [a["id"] for a in report["added"]] == ["n1.jpg", "n0.jpg"] and report["skipped"][0]["id"] == "n2.jpg"
    assert (data.parent / "labels" / "train" / "q" / "n1.txt").read_text().startswith("1 ")
    assert main(["--workspace", str(ws), "label", "queue", "nope", "--json"]) == 2


@pytest.mark.parametrize("language, words", [("en", ("to review", "Added 2 images")),
                                             ("zh_CN", ("待审核", "张图片"))])
def test_human_output_in_both_languages(tmp_path, capsys, language, words) -> None:
    ws, data = _filled_queue(tmp_path)
    i18n.set_language(language)
    try:
        assert main(["--workspace", str(ws), "label", "queue", "q"]) == 0
        listing = capsys.readouterr().out
        assert main(["--workspace", str(ws), "label", "accept", "q", "--into", str(data)]) == 0
        accepted = capsys.readouterr().out
        assert main(["--workspace", str(ws), "label", "accept", "q", "--into", str(data), "--conf", "2"]) == 2
        refused = capsys.readouterr().err
    finally:
        i18n.set_catalogue(None)
    assert words[0] in listing and words[1] in accepted
    assert ("不是有效的置信度" if language == "zh_CN" else "not a confidence") in refused


def test_an_export_of_the_run_may_predict_instead_of_best_pt(tmp_path) -> None:
    run, _ = evaluable_run(tmp_path, train=1, val=1)
    ws, images = tmp_path / "ws", _new_images(tmp_path / "new")
    onnx = run / "exports" / "onnx" / "best.onnx"
    onnx.parent.mkdir(parents=True)
    onnx.write_bytes(b"onnx")
    door = AutoLabelDoor(run, images, ws, model=onnx)
    assert door.ok and door.spec().spec["model"] == str(onnx.resolve())
    (tmp_path / "notes.txt").write_text("x")
    [problem] = AutoLabelDoor(run, images, ws, model=tmp_path / "notes.txt").preflight()
    assert "notes.txt" in problem.message
