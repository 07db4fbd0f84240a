"""The weights store and what trusts it: manifest records, the trust rule, name resolution, the start choice."""

from __future__ import annotations

import json
import time

from pathlib import Path

import pytest

from core.training.config import validate_config
from core.training.options import TrainConfig
from core.trust import needs_trust, stored_verdict
from core.weights.catalog import CATALOG, find_checkpoint
from core.weights.choice import WeightsNotHere, recommend_start, resolve_named
from core.weights.store import StoredFile, WeightsStore, iter_stored, sha256_of, valid_store_name


def put(store: WeightsStore, name: str, data: bytes, source: str = "download") -> None:
    """Store ``data`` under ``name`` the way the weights job does: a partial file, hashed, then added."""
    part = store.partial_path(name)
    part.parent.mkdir(parents=True, exist_ok=True)
    part.write_bytes(data)
    store.add(part, StoredFile(name, sha256_of(part), len(data), source, time.time()))


@pytest.fixture
def store(tmp_path):
    return WeightsStore(tmp_path / "ws")


def test_added_file_is_recorded_and_verified(store):
    put(store, "yolov5s.pt", b"weights" * 100)
    assert store.state("yolov5s.pt") == "ok" and store.verify("yolov5s.pt")
    record = json.loads(store.manifest_path.read_text())["files"]["yolov5s.pt"]
    assert record["size"] == 700 and len(record["sha256"]) == 64 and record["source"] == "download"
    assert not store.partial_path("yolov5s.pt").exists()


def test_changed_bytes_same_size_fail_only_the_full_check(store):
    put(store, "yolov5s.pt", b"a" * 100)
    store.path("yolov5s.pt").write_bytes(b"b" * 100)
    assert store.state("yolov5s.pt") == "ok"  # the cheap look cannot see it ...
    assert not store.verify("yolov5s.pt")  # ... the hash does


def test_states(store):
    put(store, "yolov5s.pt", b"a" * 100)
    store.path("yolov5m.pt").write_bytes(b"stray")  # not recorded
    store.path("yolov5s.pt").write_bytes(b"a" * 99)
    listed = {name: state for name, _record, state in iter_stored(store)}
    assert listed == {"yolov5s.pt": "changed", "yolov5m.pt": "unlisted"}
    assert store.state("yolov5x.pt") == "absent"


def test_remove_forgets_then_deletes(store):
    put(store, "yolov5s.pt", b"a" * 100)
    assert store.remove("yolov5s.pt")
    assert store.state("yolov5s.pt") == "absent" and store.entries() == {}
    assert not store.remove("yolov5s.pt")


def test_corrupt_manifest_trusts_nothing_and_says_why(store):
    put(store, "yolov5s.pt", b"a" * 100)
    store.manifest_path.write_text("{not json")
    assert store.state("yolov5s.pt") == "unlisted"
    assert "could not be read" in store.manifest_problem
    assert needs_trust(store.path("yolov5s.pt"), store.root.parent)


def test_a_dead_holders_lock_file_is_no_lock(store):
    """What a killed holder leaves is a file without a kernel lock: free at once, nothing to take over."""
    lock = store.root / ".manifest.lock"
    lock.parent.mkdir(parents=True)
    lock.write_text(json.dumps({"pid": 999_999_999, "create_time": 1.0}))
    put(store, "yolov5s.pt", b"a")
    assert store.state("yolov5s.pt") == "ok" and lock.read_bytes() == b""  # released: no holder named


HOLDER = """
import sys
from core.kernel_lock import KernelLock
with KernelLock(sys.argv[1]):
    print("held", flush=True)
    sys.stdin.readline()
"""


def test_the_lock_is_the_kernels_another_process_holds_it_until_it_dies(store):
    """Two processes can never both hold it (the old lock file's "holder dead, take it over" could be won by
    two at once); the holder is named; a SIGKILLed holder's lock is free with no takeover at all."""
    import subprocess
    import sys

    from core.weights.store import StoreError

    lock = store.root / ".locks" / "yolov5s.pt.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(lock)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parents[2])
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(StoreError) as busy:
            with store.download_lock("yolov5s.pt"):
                pass
        assert f"pid {holder.pid}" in busy.value.message
    finally:
        holder.kill()
        holder.wait()
    with store.download_lock("yolov5s.pt"):  # the kernel released it with the process
        assert lock.is_file()


def test_a_live_download_lock_refuses_a_second_download(store):
    from core.weights.store import StoreError

    with store.download_lock("yolov5s.pt"):
        with pytest.raises(StoreError) as busy:
            with store.download_lock("yolov5s.pt"):
                pass
    assert "in use" in busy.value.message
    with store.download_lock("yolov5s.pt"):  # released
        pass


@pytest.mark.parametrize("name,ok", [("yolov5s.pt", True), ("my model.pt", True), ("../x.pt", False),
                                     (".partial.pt", False), ("x.pth", False), ("a/b.pt", False), ("", False)])
def test_store_names(name, ok):
    assert valid_store_name(name) is ok


# -- the trust rule ------------------------------------------------------------------------------------
def test_store_files_are_trusted_while_they_hash_to_the_record(store):
    workspace = store.root.parent
    put(store, "yolov5s.pt", b"a" * 100)
    path = store.path("yolov5s.pt")
    assert not needs_trust(path, workspace)
    assert stored_verdict(path, workspace) is True
    path.write_bytes(b"b" * 100)  # altered after download: same size, other bytes
    assert stored_verdict(path, workspace) is False  # the worker refuses it at its next use
    assert stored_verdict(workspace / "runs" / "x.pt", workspace) is None  # not a store question


def test_unlisted_or_nested_store_files_need_trust(store):
    workspace = store.root.parent
    store.root.mkdir(parents=True)
    (store.root / "stray.pt").write_bytes(b"x")
    (store.partial_dir).mkdir()
    (store.partial_dir / "yolov5s.pt").write_bytes(b"x")
    assert needs_trust(store.root / "stray.pt", workspace)
    assert needs_trust(store.partial_dir / "yolov5s.pt", workspace)  # a partial file is never trusted
    assert stored_verdict(store.root / "stray.pt", workspace) is False


# -- names: the catalog, the store, train -----------------------------------------------------------------
def test_catalog_names():
    assert [c.name for c in CATALOG] == ["yolov5n", "yolov5s", "yolov5m", "yolov5l", "yolov5x",
                                         "yolov5n6", "yolov5s6", "yolov5m6", "yolov5l6", "yolov5x6"]
    assert all(c.url.startswith("https://github.com/ultralytics/yolov5/releases/download/v7.0/") for c in CATALOG)
    assert all(c.sha256 is None and c.size_bytes is None for c in CATALOG)  # none published (see catalog.py)
    for text in ("yolov5s", "yolov5s.pt", "yolov5s.yaml", "YOLOv5s.pt"):
        assert find_checkpoint(text).name == "yolov5s"
    for text in ("runs/x/yolov5s.pt", "yolov5s7.pt", "best.pt", ""):
        assert find_checkpoint(text) is None
    assert find_checkpoint("yolov5s6.pt").detect_layers == 4 and find_checkpoint("yolov5s").detect_layers == 3


def test_named_checkpoint_resolves_from_the_store(store, tmp_path, monkeypatch):
    workspace = store.root.parent
    monkeypatch.chdir(tmp_path)
    with pytest.raises(WeightsNotHere) as missing:
        resolve_named("yolov5s.pt", workspace)
    assert "yolostudio weights get yolov5s" in missing.value.hint
    put(store, "yolov5s.pt", b"a" * 10)
    assert resolve_named("yolov5s.pt", workspace) == store.path("yolov5s.pt")
    assert resolve_named("best.pt", workspace) is None  # not a catalog name: a path
    (tmp_path / "yolov5m.pt").write_bytes(b"mine")
    assert resolve_named("yolov5m.pt", workspace) is None  # the user's own file where they named it


def test_train_model_name_missing_names_the_get_command(store, tmp_path, monkeypatch):
    from core.demo.dataset import ensure_demo_dataset

    monkeypatch.chdir(tmp_path)
    workspace = store.root.parent
    data = str(ensure_demo_dataset(workspace))
    checked = validate_config(TrainConfig(data=data, model="yolov5s.pt"), workspace=workspace)
    assert not checked.ok and "yolostudio weights get yolov5s" in checked.errors[0].fix
    put(store, "yolov5s.pt", b"a" * 10)
    checked = validate_config(TrainConfig(data=data, model="yolov5s.pt"), workspace=workspace)
    assert checked.ok and checked.weights_path == store.path("yolov5s.pt").resolve()
    checked = validate_config(TrainConfig(data=data, model="yolov5s.yaml", weights="yolov5s.pt"),
                              workspace=workspace)
    assert checked.ok and checked.weights_path == store.path("yolov5s.pt").resolve() and checked.cfg_path


def test_recommend_start(store):
    workspace = store.root.parent
    absent = recommend_start("yolov5s.yaml", workspace)
    assert absent.weights is None and absent.can_get and absent.checkpoint.name == "yolov5s"
    assert "No pretrained weights on this machine: training from scratch needs many more epochs" in absent.reason
    put(store, "yolov5s.pt", b"a" * 10)
    present = recommend_start("yolov5s.yaml", workspace)
    assert present.weights == store.path("yolov5s.pt") and "Fine-tuning from yolov5s.pt" in present.reason
    store.path("yolov5s.pt").write_bytes(b"a" * 11)
    changed = recommend_start("yolov5s.yaml", workspace)
    assert changed.weights is None and changed.state == "changed" and "not the file" in changed.reason
    custom = recommend_start("my-net.yaml", workspace)
    assert custom.weights is None and custom.checkpoint is None and "from scratch" in custom.reason
    assert recommend_start("runs/exp/weights/best.pt", workspace).checkpoint is None
