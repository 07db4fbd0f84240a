"""The one rule for which checkpoints need the user's trust, as a table; the worker's guard agrees with it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from core.trust import confirmed_entry, needs_trust, trusted_roots
from core.worker import compat
from tests.fixtures.checkpoint_files import record_as_own, write_checkpoint_file

#: (case, path under the test folder, confirmed paths, recorded by whose worker, needs trust)
TABLE = [
    ("a run's best.pt, recorded by this workspace's worker", "ws/runs/exp/weights/best.pt", (), "ws", False),
    ("a run's last.pt, deeper, recorded", "ws/runs/exp/weights/sub/last.pt", (), "ws", False),
    ("a .pth in the runs, recorded", "ws/runs/exp/w.pth", (), "ws", False),
    ("a run folder copied into runs (no record)", "ws/runs/colleague/weights/best.pt", (), None, True),
    ("a copied run whose record another workspace made", "ws/runs/colleague/weights/best.pt", (), "other-ws", True),
    ("a copied run, confirmed", "ws/runs/colleague/weights/best.pt", ("ws/runs/colleague/weights",), None, False),
    ("downloaded weights", "Downloads/yolov5s.pt", (), None, True),
    ("downloaded weights, confirmed", "Downloads/yolov5s.pt", ("Downloads/yolov5s.pt",), None, False),
    ("another file beside a confirmed one", "Downloads/other.pt", ("Downloads/yolov5s.pt",), None, True),
    ("upper-case suffix", "Downloads/MODEL.PT", (), None, True),
    ("a .pth checkpoint", "Downloads/model.pth", (), None, True),
    ("the workspace itself, outside runs", "ws/model.pt", (), None, True),
    ("a sibling folder named like runs", "ws/runs2/exp/weights/best.pt", (), None, True),
    ("escaping runs with ..", "ws/runs/../evil.pt", (), None, True),
    ("another workspace's run", "other-ws/runs/exp/weights/best.pt", (), "other-ws", True),
    ("a run folder outside the workspace (resume)", "elsewhere/exp/weights/last.pt", (), None, True),
    ("a model YAML is not a pickle", "Downloads/yolov5s.yaml", (), None, False),
]


@pytest.mark.parametrize("case,path,confirmed,recorder,expected", TABLE, ids=[row[0] for row in TABLE])
def test_trust_table(tmp_path, case, path, confirmed, recorder, expected):
    workspace = tmp_path / "ws"
    target = tmp_path / path
    write_checkpoint_file(target)
    if recorder:
        record_as_own(tmp_path / recorder, target)
    roots = [tmp_path / c for c in confirmed]
    assert needs_trust(target, workspace, roots) is expected
    if target.suffix.lower() in (".pt", ".pth"):  # the worker's torch.load guard gives the same answer
        compat.set_trusted_roots(trusted_roots(workspace, roots), workspace)
        try:
            trusted = compat.is_trusted(target)
        except compat.UntrustedCheckpointError:
            trusted = False
        finally:
            compat.set_trusted_roots([])
        assert trusted is not expected


def test_a_recorded_checkpoint_changed_on_disk_is_foreign_to_the_worker(tmp_path):
    """The front ends' check is cheap (the record's seal, size and mtime); the worker hashes the bytes."""
    workspace = tmp_path / "ws"
    target = record_as_own(workspace, write_checkpoint_file(workspace / "runs" / "exp" / "weights" / "last.pt"))
    stat = target.stat()
    data = bytearray(target.read_bytes())
    data[10] ^= 0xFF  # same size, mtime put back: only the bytes tell
    target.write_bytes(bytes(data))
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert not needs_trust(target, workspace)
    compat.set_trusted_roots(trusted_roots(workspace), workspace)
    try:
        with pytest.raises(compat.UntrustedCheckpointError, match="not the file YOLO Studio recorded"):
            compat.is_trusted(target)
    finally:
        compat.set_trusted_roots([])


def test_the_secret_is_private_and_outside_every_run(tmp_path):
    from core.run.provenance import key_path, workspace_key

    workspace = tmp_path / "ws"
    key = workspace_key(workspace, create=True)
    assert key is not None and len(key) == 32 and workspace_key(workspace) == key  # made once
    path = key_path(workspace)
    assert (path.stat().st_mode & 0o777) == 0o600 and "runs" not in path.relative_to(workspace).parts
    assert list(path.parent.glob("*.tmp")) == []


def test_a_forged_record_does_not_verify(tmp_path):
    """A record copied from another workspace, or edited to match the file, fails its seal."""
    import json

    from core.run.provenance import RECORD_FILE

    workspace = tmp_path / "ws"
    target = write_checkpoint_file(workspace / "runs" / "exp" / "weights" / "best.pt")
    record_as_own(tmp_path / "colleague-ws", target)  # their key, their record, copied along with the run
    assert needs_trust(target, workspace)
    record = json.loads((target.parent / RECORD_FILE).read_text())
    record["files"]["best.pt"][0]["seal"] = "0" * 64
    (target.parent / RECORD_FILE).write_text(json.dumps(record))
    assert needs_trust(target, workspace)  # an edited seal is no seal
    record_as_own(workspace, workspace / "runs" / "exp" / "weights" / "best.pt")
    assert not needs_trust(target, workspace)  # recorded by this workspace: its own now


@pytest.mark.skipif(os.name != "posix", reason="symlinks")
def test_links_are_judged_by_where_they_lead(tmp_path):
    workspace = tmp_path / "ws"
    (workspace / "runs" / "exp").mkdir(parents=True)
    outside = tmp_path / "evil.pt"
    outside.write_bytes(b"x")
    link_in_runs = workspace / "runs" / "exp" / "best.pt"
    link_in_runs.symlink_to(outside)
    assert needs_trust(link_in_runs, workspace)  # the bytes come from outside
    own = record_as_own(workspace, write_checkpoint_file(workspace / "runs" / "exp" / "last.pt"))
    link_outside = tmp_path / "shortcut.pt"
    link_outside.symlink_to(own)
    assert not needs_trust(link_outside, workspace)  # the app's own file, reached by a link


def test_a_confirmed_entry_is_the_resolved_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert confirmed_entry("w.pt") == str(tmp_path.resolve() / "w.pt")
    assert not needs_trust("w.pt", tmp_path / "ws", [confirmed_entry("w.pt")])
