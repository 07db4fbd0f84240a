"""An evaluation of a run judges the run folder's best weights, else its latest (``core.run.folder.RunFolder``)."""

from __future__ import annotations

from core.evaluation.plan import run_weights


def test_best_then_last_then_none(tmp_path):
    run = tmp_path / "runs" / "exp"
    (run / "weights").mkdir(parents=True)
    assert run_weights(run) is None
    (run / "weights" / "last.pt").write_bytes(b"last")
    assert run_weights(run) == run / "weights" / "last.pt"
    (run / "weights" / "best.pt").write_bytes(b"best")
    assert run_weights(run) == run / "weights" / "best.pt"
