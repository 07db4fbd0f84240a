"""The worker records every checkpoint it writes under the workspace's runs (core.run.provenance, through
``compat.save_checkpoint``) and refuses to unpickle one it did not write there — a run folder copied in
from elsewhere — until the user confirms it; the grant is recorded by the door (``core.usecases.grants``), never
by the worker, which only obeys it. One fresh interpreter."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.fixtures.checkpoint_files import write_hostile_checkpoint

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import sys
from pathlib import Path
ws, marker = Path(sys.argv[1]), Path(sys.argv[2])
from core.run import provenance
from core.trust import needs_trust, trusted_roots
from core.worker import compat
compat.apply(ws / ".cache", trusted=trusted_roots(ws), workspace=ws)
import torch
own = ws / "runs" / "exp" / "weights" / "last.pt"
torch.save({"epoch": 3}, own)
print("own recorded:", provenance.verified(ws, own.resolve()), flush=True)
print("own loads:", torch.load(own)["epoch"] == 3, flush=True)
print("own needs trust:", needs_trust(own, ws), flush=True)
foreign = ws / "runs" / "colleague" / "weights" / "last.pt"
try:
    torch.load(foreign)
    print("foreign loaded", flush=True)
except compat.UntrustedCheckpointError as exc:
    print("foreign refused:", "no record of writing it" in str(exc), flush=True)
print("ran before confirmation:", marker.exists(), flush=True)
compat.set_trusted_roots(trusted_roots(ws, [foreign.parent]), ws)
try:
    torch.load(foreign)
except Exception:
    pass
print("confirmed ran it:", marker.exists(), flush=True)
print("the worker recorded it:", not needs_trust(foreign, ws), flush=True)
from core.usecases.grants import record_grants
record_grants(ws, [foreign.parent])
print("recorded once confirmed:", not needs_trust(foreign, ws), flush=True)
"""


def test_the_worker_records_its_checkpoints_and_refuses_a_copied_run(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    marker = tmp_path / "EXECUTED"
    write_hostile_checkpoint(ws / "runs" / "colleague" / "weights" / "last.pt", marker)
    result = subprocess.run([sys.executable, "-c", SCRIPT, str(ws), str(marker)], cwd=ROOT, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    out = result.stdout
    for line in ("own recorded: True", "own loads: True", "own needs trust: False", "foreign refused: True",
                 "ran before confirmation: False", "confirmed ran it: True", "the worker recorded it: False",
                 "recorded once confirmed: True"):
        assert line in out, out
