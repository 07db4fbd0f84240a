"""The ``dataset_import`` worker job, run as the Dataset page runs it (a real worker process): the preview
writes nothing, the write reports progress and its validator verdict, a bad source is a named error."""

from __future__ import annotations

from cli.jobs import run_job
from core.dataset.importers.plan import ImportOptions, options_from_json, options_to_json
from core.usecases.jobs import DatasetImportDoor
from tests.import_samples import write_voc


def test_preview_then_write_in_a_worker(tmp_path):
    src = tmp_path / "src"
    for i in range(3):
        write_voc(src, f"{i}.jpg", (64, 48), [("cat", 4, 4, 40, 40)])
    workspace = tmp_path / "ws"
    spec = {"workspace": str(workspace), "source": str(src), "options": options_to_json(ImportOptions()),
            "mode": "preview"}
    events: list[dict] = []
    outcome = run_job(DatasetImportDoor(spec, workspace), events.append, 120)
    assert outcome.status == "completed", outcome
    report = events[-1]["report"]
    assert report["images"] == 3 and report["classes"] == {"cat": 3}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["src", "ws"]

    events.clear()
    spec.update(mode="write", out=str(tmp_path / "out"))
    outcome = run_job(DatasetImportDoor(spec, workspace), events.append, 120)
    assert outcome.status == "completed", outcome
    phases = [e["phase"] for e in events if e["type"] == "import_progress"]
    assert phases[0] == "reading" and "writing" in phases and phases[-1] == "checking"
    report = events[-1]["report"]
    assert report["check"]["ok"] and (tmp_path / "out" / "data.yaml").is_file()


def test_a_source_that_is_not_a_dataset_is_a_dataset_error(tmp_path):
    (tmp_path / "empty").mkdir()
    spec = {"workspace": str(tmp_path / "ws"), "source": str(tmp_path / "empty"), "mode": "preview"}
    events: list[dict] = []
    outcome = run_job(DatasetImportDoor(spec, tmp_path / "ws"), events.append, 120)
    [error] = [e for e in events if e["type"] == "error"]
    assert outcome.status == "failed" and error["kind"] == "dataset" and "no VOC" in error["message"]


def test_options_survive_the_spec_file():
    options = ImportOptions(fmt="coco", ratios=(0.7, 0.2, 0.1), seed=9, merge_variants=True, link="copy")
    options.classes.rename["Person"] = "person"
    options.classes.drop.add("bike")
    options.convert.segments = True
    assert options_from_json(options_to_json(options)) == options
