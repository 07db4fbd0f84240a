"""``yolostudio label auto`` with the shared run's real weights: a worker killed mid-queue leaves the queue
consistent, the same command predicts only what is left; ``label queue``/``label accept`` ``--json`` on the
result; nothing enters the dataset before accept."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
from pathlib import Path

import pytest

from core.demo.dataset import DemoSpec, generate_demo_dataset
from core.labelling.records import PENDING, TO_REVIEW
from core.labelling.store import QueueFolder, open_queue, read_lines
from tests.e2e.conftest import Cli, assert_offline, by_type, run_cli

pytestmark = pytest.mark.e2e

NEW = DemoSpec(n_train=8, n_val=2, image_size=64, seed=21)


def _tree(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_killed_auto_label_resumes_and_only_accept_writes_the_dataset(completed_run, tmp_path: Path) -> None:
    ws = completed_run.copy_workspace(tmp_path)
    env = {**completed_run.env, "YOLOSTUDIO_WORKSPACE": str(ws)}
    images = generate_demo_dataset(tmp_path / "new", NEW).parent / "images" / "train"
    data = Path(generate_demo_dataset(tmp_path / "target", DemoSpec(n_train=4, n_val=2, image_size=64, seed=2)))
    before = _tree(data.parent)
    release = tmp_path / "release-predict"
    args = ["label", "auto", "e2e", "--images", str(images), "--name", "q", "--conf", "0.05"]

    held = Cli(args, {**env, "YOLOSTUDIO_TEST_HOLD_PREDICT": f"4:{release}"})  # the 4th image waits
    hello = held.wait_for(lambda e: e["type"] == "hello")
    held.wait_for(lambda e: e["type"] == "label_progress" and e["index"] == 3)
    os.kill(hello["pid"], signal.SIGKILL)  # the real worker, in the middle of the queue
    assert held.finish() != 0

    queue = open_queue(ws, "q")
    states = [queue.items[i].state for i in queue.header.images]
    assert states == [TO_REVIEW] * 3 + [PENDING] * 5
    assert _tree(data.parent) == before

    again = Cli(args, env)
    assert again.finish() == 0
    progress = by_type(again.events, "label_progress")
    assert [e["index"] for e in progress] == [4, 5, 6, 7, 8]  # only what was left
    assert [e["image"] for e in progress] == queue.header.images[3:]
    predicted = [d["id"] for d in read_lines(QueueFolder.of(ws, "q").proposals) if d.get("kind") == "image"]
    assert sorted(predicted) == sorted(queue.header.images)  # each image once
    assert {i.state for i in open_queue(ws, "q").items.values()} == {TO_REVIEW}
    assert _tree(data.parent) == before  # proposals are in the queue only

    listed = run_cli(["label", "queue", "q", "--json"], env)
    assert listed.returncode == 0, listed.stderr
    doc = json.loads(listed.stdout)
    assert doc["counts"]["to-review"] == 8 and len(doc["images"]) == 8
    assert [i["uncertainty"] for i in doc["images"]] == sorted((i["uncertainty"] for i in doc["images"]), reverse=True)

    accepted = run_cli(["label", "accept", "q", "--into", str(data), "--conf", "0.05", "--json"], env)
    assert accepted.returncode in (0, 1), accepted.stderr
    report = json.loads(accepted.stdout)
    assert report["split"] == "train" and report["dataset"] == str(data)
    for added in report["added"]:
        assert Path(added["image"]).is_file() and Path(added["label"]).is_file()
    assert len(report["added"]) + len(report["skipped"]) == 8
    assert_offline(completed_run.net_audit)


def test_train_from_fine_tunes_from_the_parents_best_and_records_what_changed(completed_run, tmp_path: Path) -> None:
    ws = completed_run.copy_workspace(tmp_path)
    env = {**completed_run.env, "YOLOSTUDIO_WORKSPACE": str(ws)}
    data = Path(shutil.copytree(completed_run.data.parent, tmp_path / "tiny")) / "data.yaml"  # times kept
    data.write_text(data.read_text().replace(str(completed_run.data.parent), str(data.parent)))
    extra = generate_demo_dataset(tmp_path / "extra", DemoSpec(n_train=2, n_val=1, image_size=64, seed=9)).parent
    for image in sorted((extra / "images" / "train").iterdir()):
        shutil.copy2(image, data.parent / "images" / "train" / f"new_{image.name}")
        shutil.copy2(extra / "labels" / "train" / f"{image.stem}.txt",
                     data.parent / "labels" / "train" / f"new_{image.stem}.txt")
    label = sorted((data.parent / "labels" / "train").glob("train_*.txt"))[0]
    label.write_text("0 0.5 0.5 0.25 0.25\n")

    cli = Cli(["train", str(data), "--from", "e2e", "--epochs", "1", "--noplots"], env)
    assert cli.finish() == 0, cli.stderr()[-3000:]
    child = ws / "runs" / "e2e-ft"
    spec = json.loads((child / "config.json").read_text())["spec"]
    parent_best = str((ws / "runs" / "e2e" / "weights" / "best.pt").resolve())
    assert spec["resolved"]["weights"] == parent_best and spec["from_run"] == str((ws / "runs" / "e2e").resolve())
    transferred = [e["message"] for e in by_type(cli.events, "log") if "Transferred" in e.get("message", "")]
    assert transferred and parent_best in transferred[0]  # yolov5 itself says where it started from
    assert json.loads((child / "dataset_version.json").read_text())["since"] == {
        "run": "e2e", "added_images": 2, "removed_images": 0, "edited_labels": 1}
    listed = run_cli(["runs"], env)
    assert "e2e-ft: +2 images, 1 label edited since e2e" in listed.stdout
    assert_offline(completed_run.net_audit)
