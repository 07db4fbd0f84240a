"""``yolostudio weights list|get|import|remove`` for real: the CLI, the worker process, a release server on
127.0.0.1 (``YOLOSTUDIO_TEST_WEIGHTS_BASE``, honoured for loopback only), and then training's use of the store:
a name resolves to the stored file, a missing one names the command, a file altered after download is refused.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.weights.download import TEST_BASE_ENV
from core.weights.store import WeightsStore
from tests.fixtures.official_checkpoint import save_official_like
from tests.weights_server import ReleaseServer

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def official(tmp_path_factory):
    return save_official_like(tmp_path_factory.mktemp("official") / "yolov5n.pt").read_bytes()


@pytest.fixture
def server(official):
    with ReleaseServer({"yolov5n.pt": official}) as running:
        yield running


def cli(workspace: Path, *args: str, base: str | None = None, stdin: str | None = None,
        timeout: float = 240) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env.update(YOLOSTUDIO_WORKSPACE=str(workspace), PYTHONPATH=str(ROOT))
    env.pop(TEST_BASE_ENV, None)
    if base:
        env[TEST_BASE_ENV] = base
    return subprocess.run([sys.executable, "-m", "cli.main", "weights", *args], cwd=ROOT, env=env, input=stdin,
                          capture_output=True, text=True, timeout=timeout)


def test_get_list_train_resolution_and_altered_file(server, official, tmp_path):
    workspace = tmp_path / "ws"
    got = cli(workspace, "get", "yolov5n", "--json", base=server.base)
    assert got.returncode == 0, got.stderr
    result = json.loads(got.stdout)["weights"][0]
    store = WeightsStore(workspace)
    assert result["status"] == "completed" and Path(result["path"]) == store.path("yolov5n.pt")
    assert store.path("yolov5n.pt").read_bytes() == official and store.verify("yolov5n.pt")
    assert result["facts"]["params"] == 1_872_157

    listed = json.loads(cli(workspace, "list", "--json").stdout)
    row = next(r for r in listed["weights"] if r["file"] == "yolov5n.pt")
    assert row["state"] == "ok" and row["sha256"] == result["sha256"] and row["source"] == "download"

    # train: the bare name is the stored file, checked by the same rules the Train page uses
    from core.training.config import validate_config
    from core.training.options import TrainConfig

    data = tmp_path / "data" / "data.yaml"
    data.parent.mkdir()
    data.write_text("train: images/train\nval: images/val\nnames: [a, b]\n", encoding="utf-8")
    checked = validate_config(TrainConfig(data=str(data), model="yolov5n.yaml", weights="yolov5n.pt"),
                              workspace=workspace)
    assert checked.ok and checked.weights_path == store.path("yolov5n.pt").resolve()

    # altered after download (same size): refused at its next use — train hashes it before it starts (the
    # worker's torch.load guard refuses it too: tests/worker/test_compat.py)
    altered = bytearray(official)
    altered[len(altered) // 2] ^= 0xFF
    store.path("yolov5n.pt").write_bytes(bytes(altered))
    train = subprocess.run(
        [sys.executable, "-m", "cli.main", "train", str(data), "--model", "yolov5n.yaml", "--weights", "yolov5n.pt",
         "--epochs", "1", "--device", "cpu", "--workers", "0"],
        cwd=ROOT, env=dict(os.environ, YOLOSTUDIO_WORKSPACE=str(workspace), PYTHONPATH=str(ROOT)),
        capture_output=True, text=True, timeout=600)
    assert train.returncode != 0
    assert "not the file that was stored" in train.stderr + train.stdout

    removed = cli(workspace, "remove", "yolov5n")
    assert removed.returncode == 0 and store.state("yolov5n.pt") == "absent" and store.entries() == {}


def test_get_prints_progress_and_a_failure_says_what_to_do(server, tmp_path):
    workspace = tmp_path / "ws"
    del server.files["yolov5n.pt"]
    failed = cli(workspace, "get", "yolov5n", base=server.base)
    assert failed.returncode == 1
    assert "404" in failed.stderr and "Import" in failed.stderr
    assert WeightsStore(workspace).state("yolov5n.pt") == "absent"


def test_unknown_names_and_offline_defaults(tmp_path):
    usage = cli(tmp_path / "ws", "get", "yolov9")
    assert usage.returncode == 2 and "yolov5s6" in usage.stderr


def test_import_asks_first(official, tmp_path):
    """Nobody to ask (stdin is not a terminal) and no --yes: nothing is imported. The import itself runs in
    tests/e2e/test_weights_e2e.py, under the network guard."""
    workspace = tmp_path / "ws"
    source = tmp_path / "mine.pt"
    source.write_bytes(official)
    refused = cli(workspace, "import", str(source))
    assert refused.returncode == 2 and "--yes" in refused.stderr
    assert WeightsStore(workspace).state("mine.pt") == "absent" and not WeightsStore(workspace).root.exists()
