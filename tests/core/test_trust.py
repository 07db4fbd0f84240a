"""The one rule for which checkpoints need the user's trust, as a table; the worker's own guard (compat.is_trusted) agrees."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from core.trust import confirmed_entry, needs_trust, trusted_roots

#: (case, path under the test folder, confirmed paths, needs trust)
TABLE = [
    ("a run's best.pt", "ws/runs/exp/weights/best.pt", (), False),
    ("a run's last.pt, deeper", "ws/runs/exp/weights/sub/last.pt", (), False),
    ("a .pth in the runs", "ws/runs/exp/w.pth", (), False),
    ("downloaded weights", "Downloads/yolov5s.pt", (), True),
    ("downloaded weights, confirmed", "Downloads/yolov5s.pt", ("Downloads/yolov5s.pt",), False),
    ("another file beside a confirmed one", "Downloads/other.pt", ("Downloads/yolov5s.pt",), True),
    ("upper-case suffix", "Downloads/MODEL.PT", (), True),
    ("a .pth checkpoint", "Downloads/model.pth", (), True),
    ("the workspace itself, outside runs", "ws/model.pt", (), True),
    ("a sibling folder named like runs", "ws/runs2/exp/weights/best.pt", (), True),
    ("escaping runs with ..", "ws/runs/../evil.pt", (), True),
    ("another workspace's run", "other-ws/runs/exp/weights/best.pt", (), True),
    ("a run folder outside the workspace (resume)", "elsewhere/exp/weights/last.pt", (), True),
    ("a model YAML is not a pickle", "Downloads/yolov5s.yaml", (), False),
]


@pytest.fixture
def worker_guard():
    """The worker's own ``torch.load`` guard (``core.worker.compat.is_trusted``), set up as a worker sets it
    (``core/worker/__main__.py``: ``compat.apply(…, trusted=trusted_roots(…), workspace=…)``)."""
    from core.worker import compat

    yield compat
    compat.set_trusted_roots([], None)


@pytest.mark.parametrize("case,path,confirmed,expected", TABLE, ids=[row[0] for row in TABLE])
def test_trust_table(tmp_path, case, path, confirmed, expected, worker_guard):
    workspace = tmp_path / "ws"
    target = tmp_path / path
    assert needs_trust(target, workspace, [tmp_path / c for c in confirmed]) is expected
    if target.suffix.lower() in (".pt", ".pth"):  # the worker's torch.load guard: same roots, same answer
        worker_guard.set_trusted_roots(trusted_roots(workspace, [str(tmp_path / c) for c in confirmed]), workspace)
        assert worker_guard.is_trusted(target) is not expected
        assert worker_guard.is_trusted(str(target)) is not expected


@pytest.mark.skipif(os.name != "posix", reason="symlinks")
def test_links_are_judged_by_where_they_lead(tmp_path):
    workspace = tmp_path / "ws"
    (workspace / "runs" / "exp").mkdir(parents=True)
    outside = tmp_path / "evil.pt"
    outside.write_bytes(b"x")
    link_in_runs = workspace / "runs" / "exp" / "best.pt"
    link_in_runs.symlink_to(outside)
    assert needs_trust(link_in_runs, workspace)  # the bytes come from outside
    own = workspace / "runs" / "exp" / "last.pt"
    own.write_bytes(b"x")
    link_outside = tmp_path / "shortcut.pt"
    link_outside.symlink_to(own)
    assert not needs_trust(link_outside, workspace)  # the app's own file, reached by a link


def test_a_confirmed_entry_is_the_resolved_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert confirmed_entry("w.pt") == str(tmp_path.resolve() / "w.pt")
    assert not needs_trust("w.pt", tmp_path / "ws", [confirmed_entry("w.pt")])
