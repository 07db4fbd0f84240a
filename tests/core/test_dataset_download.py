"""A data.yaml's ``download:`` is code to yolov5 (``check_dataset`` runs it): ``dataset check`` reports each
form as ``yaml-download`` on its line, with words that say yolov5 would run it and YOLO Studio does not; the
report itself runs nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.main import main
from core.dataset.findings import CODES
from tests.core.test_dataset_validate import build, codes

FORMS = {
    "python": ("open({marker!r}, 'w').write('ran')", "Python"),
    "bash": ("bash -c 'touch {marker}'", "shell"),
    "url": ("http://127.0.0.1:9/dataset.zip", "URL"),
}


@pytest.mark.parametrize("form", sorted(FORMS))
def test_each_download_form_is_a_finding_and_never_runs(tmp_path: Path, form: str, capsys) -> None:
    marker = tmp_path / "EXECUTED"
    script, kind = FORMS[form]
    root = tmp_path / "data"
    yaml_text = (f"path: {root}\ntrain: images/train\nval: [images/val, images/missing]\nnames: [a, b]\n"
                 f"download: \"{script.format(marker=str(marker))}\"\n")
    data = build(root, yaml_text=yaml_text)
    found = codes(data)
    hit = found["yaml-download"][0]
    assert hit.line == 5 and hit.severity == CODES["yaml-download"] and kind in hit.message
    assert "YOLO Studio does not" in hit.message
    assert main(["--workspace", str(tmp_path / "ws"), "dataset", "check", str(data)]) == 1  # the missing entry
    out = capsys.readouterr().out
    assert "yolov5 would run this script" in out and "data.yaml:5" in out, out
    assert not marker.exists()


def test_no_download_no_finding(tmp_path: Path) -> None:
    assert "yaml-download" not in codes(build(tmp_path / "data"))
