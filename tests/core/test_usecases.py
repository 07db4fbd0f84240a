"""Every worker job kind has a door (core/usecases): a new job added to ``core.worker``'s JOBS without one fails
here, so it cannot be started by a face without the door's pre-flight."""

from __future__ import annotations

import ast
from pathlib import Path

import core.usecases as usecases
from core.usecases.door import Door, Problem, Refused

ROOT = Path(__file__).resolve().parents[2]


def worker_job_kinds(main: Path = ROOT / "core" / "worker" / "__main__.py") -> list[str]:
    """The keys of ``JOBS`` as the worker's entry lists them (read from its source: no torch imported here)."""
    for node in ast.walk(ast.parse(main.read_text(encoding="utf-8"))):
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "JOBS":
            return [key.value for key in node.value.keys]
    raise AssertionError("JOBS not found")


def kinds_without_a_door(kinds: list[str]) -> list[str]:
    return [kind for kind in kinds if not usecases.doors_of(kind)]


def test_every_worker_job_kind_has_a_door():
    kinds = worker_job_kinds()
    assert {"train", "evaluate", "evaluate_kfold", "tune", "export", "predict"} <= set(kinds)
    assert kinds_without_a_door(kinds) == []


def test_a_planted_job_kind_without_a_door_is_found(tmp_path):
    main = tmp_path / "__main__.py"
    source = (ROOT / "core" / "worker" / "__main__.py").read_text(encoding="utf-8")
    main.write_text(source.replace('JOBS: dict[str, Job] = {',
                                   'JOBS: dict[str, Job] = {\n    "relabel": Job("core.worker.relabel:run"),'))
    assert kinds_without_a_door(worker_job_kinds(main)) == ["relabel"]


def test_a_door_refuses_to_hand_out_a_job_while_its_preflight_found_an_error():
    class Refusing(Door):
        kind = "train"

        def check(self) -> list[Problem]:
            return [Problem("no", "because"), Problem("careful", severity="warning")]

    door = Refusing()
    assert not door.ok and len(door.preflight()) == 2
    try:
        door.spec()
    except Refused as refused:
        assert [p.message for p in refused.problems] == ["no"]
    else:
        raise AssertionError("spec() handed out a job its pre-flight refused")


def test_an_import_into_the_weights_store_needs_the_users_grant(tmp_path):
    from core.usecases.jobs import WeightsImportDoor

    spec = {"source": str(tmp_path / "x.pt"), "name": "x.pt"}
    refused = WeightsImportDoor(spec, tmp_path)
    assert not refused.ok and "x.pt" in refused.preflight()[0].message
    job = WeightsImportDoor(spec, tmp_path, granted=True).spec()
    assert job.job == "weights_import" and job.spec["workspace"] == str(tmp_path)
