"""``yolostudio dataset import`` as a user types it, on a LabelImg-style VOC export with the usual traps, and
then ``yolostudio train`` on what it wrote: the "one step to a dataset that trains" of issue 22."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.conftest import Cli, run_cli, train_args
from tests.import_samples import labelme_doc, picture, rect_shape, write_voc


def labelimg_export(root: Path) -> Path:
    for i in range(12):
        boxes = [("helmet", 4 + i, 6, 30 + i, 34)] + ([("Vest", 36, 30, 60, 60)] if i % 3 == 0 else [])
        write_voc(root / ("day 1" if i < 6 else "夜间"), f"{i % 6:03d}.jpg", (64, 64), boxes,
                  orientation=6 if i == 4 else 1)
    write_voc(root / "day 1", "edge.jpg", (64, 64), [("vest", 50, 50, 90, 90)])  # outside: clipped
    picture(root / "day 1" / "empty.jpg", (64, 64), [], seed=77)  # a background
    return root


def test_import_then_train_as_a_user_types_it(e2e_env, net_audit, tmp_path):
    src = labelimg_export(tmp_path / "labelimg export")
    out = tmp_path / "dataset"
    result = run_cli(["dataset", "import", str(src), "--out", str(out), "--merge-variants", "--seed", "1"], e2e_env)
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert "Imported (voc)" in text and "Dataset check: OK" in text and f"yolostudio train {out / 'data.yaml'}" in text
    assert "'Vest' / 'vest'" in text  # spelled two ways, reported …
    report = json.loads((out / "import_report.json").read_text(encoding="utf-8"))
    assert report["names"] == ["helmet", "Vest"]  # … and merged into the commonest spelling
    assert report["counts"]["clipped"] == 1 and report["counts"]["background"] == 1
    assert report["counts"]["exif_rotated"] == 1
    assert report["splits"]["val"] >= 1 and report["split_classes"]["val"].get("Vest", 0) >= 1
    assert sum(report["splits"].values()) == 14

    again = run_cli(["dataset", "import", str(src), "--out", str(out)], e2e_env)
    assert again.returncode == 2 and "not empty" in again.stderr and "Traceback" not in again.stderr

    cli = Cli(train_args(out / "data.yaml", epochs=1, batch=4), e2e_env)
    assert cli.finish() == 0, cli.stderr()
    assert cli.events[-1]["status"] == "completed"


def test_labelme_dry_run_lists_what_it_cannot_convert_and_writes_nothing(e2e_env, tmp_path):
    src = tmp_path / "labelme"
    src.mkdir()
    picture(src / "a.jpg", (80, 60), [], seed=4)
    shapes = [rect_shape("cat", 5, 5, 40, 40), {"label": "tail", "points": [[1, 1], [9, 9]], "shape_type": "line"}]
    (src / "a.json").write_text(json.dumps(labelme_doc("a.jpg", (80, 60), shapes)), encoding="utf-8")
    result = run_cli(["dataset", "import", str(src), "--out", str(tmp_path / "out"), "--dry-run", "--json"], e2e_env)
    assert result.returncode == 0, result.stderr
    preview = json.loads(result.stdout)
    assert preview["format"] == "labelme" and preview["classes"] == {"cat": 1}
    [lost] = preview["skipped"]
    assert lost["reason"] == "unsupported_shape" and "line" in lost["message"] and lost["file"].endswith("a.json")
    assert not (tmp_path / "out").exists()
