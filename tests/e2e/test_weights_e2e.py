"""The weights store offline, end to end: ``weights import`` (the user said yes), ``weights list``, a training
run that fine-tunes from the stored ``yolov5n.pt`` by its bare name, and ``weights remove`` — every verb but
``weights get`` under the network guard, which records any Internet socket or DNS lookup.

The checkpoint is shaped like the official release file (``tests/fixtures/official_checkpoint.py``: yolov5's
``strip_optimizer`` layout, FP16, the ``models.yolo`` module path), so the worker's trust guard, yolov5's
own ``torch.load`` and its weight transfer meet what a real download stores.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.weights.store import WeightsStore
from tests.e2e.conftest import Cli, assert_offline, run_cli, train_args
from tests.fixtures.official_checkpoint import save_official_like

pytestmark = pytest.mark.e2e


def test_import_list_fine_tune_and_remove_offline(tiny_data, e2e_env, net_audit, tmp_path):
    (tmp_path / "Downloads").mkdir()
    downloaded = save_official_like(tmp_path / "Downloads" / "yolov5n.pt")
    workspace = Path(e2e_env["YOLOSTUDIO_WORKSPACE"])
    store = WeightsStore(workspace)

    imported = run_cli(["weights", "import", str(downloaded), "--yes", "--json"], e2e_env)
    assert imported.returncode == 0, imported.stderr
    result = json.loads(imported.stdout)
    assert result["status"] == "completed" and Path(result["path"]) == store.path("yolov5n.pt")
    assert result["facts"]["params"] == 1_872_157 and result["facts"]["classes"] == 80
    record = store.entry("yolov5n.pt")
    assert record is not None and record.source == "import" and record.origin == str(downloaded.resolve())

    listed = json.loads(run_cli(["weights", "list", "--json"], e2e_env).stdout)
    row = next(r for r in listed["weights"] if r["file"] == "yolov5n.pt")
    assert row["state"] == "ok" and row["sha256"] == record.sha256 and row["official"]

    # Fine-tuning from the store by its bare name: no trust question, the worker's guard hashes it first.
    cli = Cli(train_args(tiny_data, name="finetune", epochs=1, batch=16, extra=("--weights", "yolov5n.pt")),
              e2e_env)
    assert cli.finish() == 0, cli.stderr()
    assert cli.events[-1]["type"] == "done" and cli.events[-1]["status"] == "completed"
    run_dir = workspace / "runs" / "finetune"
    spec = json.loads((run_dir / "spec.json").read_text(encoding="utf-8"))
    assert Path(spec["resolved"]["weights"]) == store.path("yolov5n.pt").resolve()
    assert spec["trusted_weights"] == []  # trusted as a store file, not as a confirmed one
    transferred = [e["message"] for e in cli.events if e["type"] == "log" and "Transferred" in e["message"]]
    assert transferred and "yolov5n.pt" in transferred[0]  # yolov5 took the pretrained weights (its own line)

    removed = run_cli(["weights", "remove", "yolov5n"], e2e_env)
    assert removed.returncode == 0 and store.state("yolov5n.pt") == "absent"
    assert_offline(net_audit)
