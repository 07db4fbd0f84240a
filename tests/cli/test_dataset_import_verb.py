"""``yolostudio dataset import`` in-process: class options, usage errors named with their value (exit 2, no
traceback), the human report's sections, and --json's document."""

from __future__ import annotations

import json

import pytest

from cli.main import main
from tests.import_samples import write_voc


@pytest.fixture
def export(tmp_path):
    src = tmp_path / "src"
    for i in range(4):
        write_voc(src, f"{i}.jpg", (64, 64), [("person", 4, 4, 30, 30), ("bike", 34, 34, 60, 60),
                                               ("car", 2, 40, 20, 60)])
    return src


def test_keep_only_rename_and_drop(tmp_path, export, capsys):
    out = tmp_path / "out"
    code = main(["dataset", "import", str(export), "--out", str(out), "--classes", "rider,bike",
                 "--rename", "person=rider", "--drop", "car", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["names"] == ["rider", "bike"]
    assert report["out_classes"] == {"rider": 4, "bike": 4} and report["dropped"] == {"car": 4}
    assert "names: [rider, bike]" in (out / "data.yaml").read_text()
    assert all(line.split()[0] in ("0", "1") for p in out.glob("labels/*/*.txt") for line in p.read_text().splitlines())


@pytest.mark.parametrize("flags, words", [
    (["--split", "0.8;0.2"], "--split 0.8;0.2: give two or three shares"),
    (["--split", "0,1"], "--split 0,1: give two or three shares"),
    (["--rename", "person"], "--rename person: write OLD=NEW"),
    (["--format", "voc", "--out", "{src}/inside"], "inside the source"),
])
def test_usage_errors_name_the_value(tmp_path, export, capsys, flags, words):
    flags = [f.format(src=export) for f in flags]
    args = ["dataset", "import", str(export)] + (["--out", str(tmp_path / "o")] if "--out" not in flags else [])
    assert main(args + flags) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err
    assert not (tmp_path / "o").exists()


def test_human_report_lists_losses_by_reason(tmp_path, capsys):
    src = tmp_path / "src"
    write_voc(src, "a.jpg", (64, 64), [("cat", 4, 4, 4, 30), ("cat", 80, 80, 90, 90), ("cat", 4, 4, 30, 30)])
    assert main(["dataset", "import", str(src), "--out", str(tmp_path / "out"), "--split", "1,0"]) == 0
    text = capsys.readouterr().out
    assert "Not converted (2):" in text and "zero_size (1)" in text and "outside_image (1)" in text
    assert "object 2 (cat): the box lies outside the image" in text
    assert "Dataset check: OK" in text and "train 1 · val 0 · test 0" in text
