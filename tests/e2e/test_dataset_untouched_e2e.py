"""Training never changes the user's dataset (issue 37, data loss): import → train → evaluate → held-out (k-fold)
evaluate, through the real CLI and workers, on a source holding a JPEG named ``.png`` with bytes after its end
marker — the file yolov5 "restored and saved" in place, through the importer's hard link into the source. Two
guards now stand in the way, each tested here: the importer decides "JPEG" by the decoded bytes and copies such a
file instead of linking it, and the workers never let yolov5 re-save a dataset file (compat fix 13) — so neither
the source nor the dataset's own copy changes. The sha256 of every source and dataset file is the same at the
end; the only files added are yolov5's label caches.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from tests.e2e.conftest import run_cli, train_args
from tests.e2e.test_import_e2e import labelimg_export
from tests.import_samples import write_voc

pytestmark = pytest.mark.e2e


def sums(*roots: Path) -> dict[str, str]:
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for root in roots for p in sorted(root.rglob("*"))
            if p.is_file()}


def test_import_train_evaluate_and_held_out_change_no_file_of_the_users(e2e_env, net_audit, tmp_path):
    src = labelimg_export(tmp_path / "labelimg export")
    trailer = write_voc(src / "day 1", "trailer.png", (64, 64), [("helmet", 8, 8, 40, 40)], seed=91)
    trailer.write_bytes(trailer.read_bytes() + b"camera trailer")  # a JPEG by its bytes, not by its name
    out = tmp_path / "dataset"
    imported = run_cli(["dataset", "import", str(src), "--out", str(out), "--merge-variants", "--seed", "1"],
                       e2e_env)
    assert imported.returncode == 0, imported.stderr[-3000:]
    assert "hard-linked" in imported.stdout
    [copied] = [p for p in out.rglob("*.png") if p.read_bytes().endswith(b"camera trailer")]
    assert copied.stat().st_ino != trailer.stat().st_ino  # a JPEG by its bytes, with a trailer: copied, not linked
    before = sums(src, out)

    trained = run_cli(train_args(out / "data.yaml", name="kept", epochs=1, batch=4), e2e_env)
    assert trained.returncode == 0, trained.stderr[-3000:]
    evaluated = run_cli(["evaluate", "kept", "--json"], e2e_env, timeout=600)
    assert evaluated.returncode == 0, evaluated.stderr[-3000:]
    held_out = run_cli(["evaluate", "kept", "--split", "train", "--kfold", "2", "--kfold-epochs", "1", "--json"],
                       e2e_env, timeout=900)
    assert held_out.returncode == 0, held_out.stderr[-3000:]
    assert json.loads(held_out.stdout)["predictions"] == "kfold"

    after = sums(src, out)
    assert {path: after.get(path) for path in before} == before  # no file changed, none removed
    assert all(path.endswith(".cache") for path in set(after) - set(before)), sorted(set(after) - set(before))
    check = run_cli(["dataset", "check", str(out / "data.yaml")], e2e_env)
    assert "keeps your file as it is" in check.stdout  # the check says what yolov5 would have "restored"
