"""A real tiny CPU training with ``--noval`` ("Validate only at the end"): yolov5 7.0.14 alone crashes with
``UnboundLocalError: map50s`` after the first epoch that skips validation; with the compat fix
(``core/worker/compat_noval.py``) both epochs finish, and the final epoch's validation metrics are there."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import Cli, by_type, train_args

pytestmark = pytest.mark.e2e


def test_noval_trains_two_epochs_and_validates_the_last(tiny_data, e2e_env):
    cli = Cli(train_args(tiny_data, name="noval", epochs=2, extra=("--noval",)), e2e_env)
    assert cli.finish() == 0, (cli.stderr(), by_type(cli.events, "error"))
    done = cli.events[-1]
    assert done["type"] == "done" and done["status"] == "completed", done
    ends = by_type(cli.events, "epoch_end")
    assert [e["epoch"] for e in ends] == [0, 1], ends
    final = ends[-1]["metrics"]
    for key in ("metrics/precision", "metrics/recall", "metrics/mAP_0.5", "metrics/mAP_0.5:0.95", "val/box_loss"):
        assert isinstance(final.get(key), float), (key, final)
    assert set(done["final_metrics"]) >= {"precision", "recall", "map50", "map50_95"}, done
