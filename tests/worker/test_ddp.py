"""One rank's side of DDP, without processes: torchrun's environment, the nodes' agreement verdict, the loader
clock, the per-batch exchange and naming a lost rank (``core/worker/ddp.py``)."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from core.demo.dataset import DemoSpec, generate_demo_dataset
from core.worker.ddp import LoaderClock, RankExchange, RankInfo, dataset_counts, disagreements, fingerprint
from core.worker.lost_rank import explain_lost_peer, lost_rank_error


def test_rank_info_comes_from_torchruns_environment():
    assert RankInfo.from_env({}) is None
    info = RankInfo.from_env({"RANK": "3", "LOCAL_RANK": "1", "WORLD_SIZE": "4", "LOCAL_WORLD_SIZE": "2",
                              "GROUP_RANK": "1", "GROUP_WORLD_SIZE": "2"})
    assert (info.rank, info.local_rank, info.node_rank, info.nnodes) == (3, 1, 1, 2)
    assert not info.writes_events and info.topology == {"nnodes": 2, "nproc_per_node": 2, "world_size": 4}
    assert RankInfo.from_env({"RANK": "2", "LOCAL_RANK": "0", "WORLD_SIZE": "4", "LOCAL_WORLD_SIZE": "2"}).writes_events


def _print(rank: int, node: int, **changes):
    base = {"rank": rank, "node": node, "host": f"h{node}", "pid": 100 + rank, "data_sha256": "abc",
            "counts": {"train": {"images": 16, "labels": 16}}, "versions": {"yolov5": "7.0.14", "torch": "2.9.0"}}
    return {**base, **changes}


def test_nodes_that_differ_are_named_once_each():
    same = [_print(0, 0), _print(1, 0), _print(2, 1), _print(3, 1)]
    assert disagreements(same) == []
    counts = {"train": {"images": 15, "labels": 15}}
    found = disagreements([_print(0, 0), _print(1, 1, counts=counts), _print(2, 1, counts=counts),
                           _print(3, 2, versions={"yolov5": "7.0.13", "torch": "2.9.0"})])
    assert len(found) == 2
    assert "node 1 (h1)" in found[0] and "15 images" in found[0] and "16 images" in found[0]
    assert "node 2 (h2)" in found[1] and "7.0.13" in found[1]
    assert "different data.yaml" in disagreements([_print(0, 0), _print(1, 1, data_sha256="other")])[0]


def test_the_fingerprint_counts_images_and_labels_as_the_validator_lists_them(tmp_path: Path):
    data = generate_demo_dataset(tmp_path / "d", DemoSpec(n_train=6, n_val=2, image_size=32, seed=1))
    counts = dataset_counts(data)
    assert counts["train"] == {"images": 6, "labels": 6} and counts["val"]["images"] == 2
    info = RankInfo(0, 0, 1, 0, 1, 1)
    mine = fingerprint(info, data, {"yolov5": "7.0.14", "torch": "2.9", "numpy": "2"}, node=0)
    assert mine["pid"] == os.getpid() and mine["versions"] == {"yolov5": "7.0.14", "torch": "2.9"}
    assert len(mine["data_sha256"]) == 64


def test_the_loader_clock_splits_data_wait_from_step():
    now = [0.0]
    clock = LoaderClock(clock=lambda: now[0])

    def batches():
        for wait in (0.5, 0.1):
            now[0] += wait  # the loader delivers after `wait`
            yield wait

    timed = clock.timed(batches())
    next(timed)
    assert clock.take() == (0.5, 0.0)
    now[0] += 2.0  # the step
    next(timed)
    assert clock.take() == pytest.approx((0.1, 2.0))
    now[0] += 1.0
    assert list(timed) == [] and clock.take()[1] == 1.0  # the epoch's last step is counted too


def test_the_loader_clock_wraps_a_loader_in_place():
    class Loader:
        def __iter__(self):
            return iter([1, 2])

    loader = Loader()
    clock = LoaderClock()
    clock.wrap(loader)
    clock.wrap(loader)  # idempotent
    assert list(loader) == [1, 2] and isinstance(loader, Loader) and type(loader).__name__ == "TimedLoader"


def test_the_exchange_agrees_on_a_stop_and_sums_every_ranks_figures():
    rows = [[0.0, 0.1, 0.5], [1.0, 2.0, 0.4]]
    exchange = RankExchange(RankInfo(0, 0, 2, 0, 1, 2), [_print(0, 0), _print(1, 0)], lambda mine: rows)
    assert exchange.at_batch_start(False, 0.1, 0.5)  # rank 1 wants to stop: every rank stops
    rows[1][0] = 0.0
    assert not exchange.at_batch_start(False, 0.1, 0.5)
    window = exchange.take_window()
    assert [(w["rank"], w["batches"]) for w in window] == [(0, 2), (1, 2)]
    assert window[1]["data_wait_s"] == 4.0 and round(window[1]["data_wait_share"], 3) == round(4 / 4.8, 3)
    assert exchange.take_window()[0]["batches"] == 0  # windows add up to every batch


def test_a_lost_rank_is_named_with_its_node_and_pid():
    peers = [{"rank": 0, "node": 0, "host": socket.gethostname(), "pid": os.getpid()},
             {"rank": 1, "node": 0, "host": socket.gethostname(), "pid": 4242}]
    message, hint = explain_lost_peer(peers, "RuntimeError: Connection closed by peer", alive=lambda pid: False)
    assert "rank 1 (node 0" in message and "pid 4242" in message and "Connection closed" in message
    assert "resume" in hint
    error = lost_rank_error(peers, RuntimeError("[gloo] Connection closed by peer"))
    assert getattr(error, "kind", None) == "distributed"
    unrelated = ValueError("a bad label")
    assert lost_rank_error(peers[:1], unrelated) is unrelated


def test_a_yolov5_function_is_recompiled_with_its_fix_in_its_own_file_and_lines(tmp_path: Path):
    """``compat_ddp.enable_ddp``'s mechanism: exact lines replaced, same file and line numbers, refused when the
    code is not the one the fix was written for."""
    import importlib.util
    import traceback

    from core.worker.compat_ddp import patched_function

    source = tmp_path / "fake_train.py"
    source.write_text("X = 1\n\n\ndef main(cuda):\n    if cuda:\n        return 'ddp'\n    raise RuntimeError('here')\n")
    spec = importlib.util.spec_from_file_location("fake_train", source)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fixed = patched_function(module, "main", [("    if cuda:\n", "    if True:\n")])
    assert module.main is fixed and fixed(False) == "ddp"
    assert fixed.__code__.co_filename == str(source) and fixed.__code__.co_firstlineno == 4
    with pytest.raises(RuntimeError, match="not the 7.0.14 code"):
        patched_function(module, "main", [("    if gpu:\n", "    if True:\n")])
    broken = patched_function(module, "main", [("        return 'ddp'\n", "        raise ValueError\n")])
    try:
        broken(True)
    except ValueError:
        assert traceback.extract_tb(__import__("sys").exc_info()[2])[-1].lineno == 6  # the package's own line
