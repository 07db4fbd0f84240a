"""Issue 37's import faults through ``yolostudio dataset import``: files no tool writes exit 2 with one
sentence naming the file and the value (never a traceback), the output is never inside the source however
it is spelled, links out of the source are left out, and a JPEG is linked or copied by what it is."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from cli.main import main
from tests.fixtures.import_faults import CASES, voc_with
from tests.import_samples import labelme_doc, picture, rect_shape, write_voc


@pytest.fixture(autouse=True)
def pillow_unpatched(monkeypatch):
    """Pillow's own ``Image.open``: a test that imported yolov5 earlier in this process left ultralytics' patch
    on it (``ultralytics/utils/patches.py``: an undecodable file makes it try to install pi-heif). The CLI and
    the import worker never import yolov5, so they meet Pillow's own."""
    from PIL import Image  # noqa: PLC0415

    patches = sys.modules.get("ultralytics.utils.patches")
    if patches is not None and hasattr(patches, "_image_open"):
        monkeypatch.setattr(Image, "open", patches._image_open)

@pytest.mark.parametrize("case", sorted(CASES))
def test_values_no_tool_writes_exit_2_naming_file_and_value(tmp_path, capsys, case):
    plant, value = CASES[case]
    src = tmp_path / "src"
    src.mkdir()
    bad = plant(src)
    assert main(["dataset", "import", str(src), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and str(bad) in err and value in err, err
    assert not (tmp_path / "out").exists()


def test_nan_corner_is_dropped_and_reported(tmp_path, capsys):
    src = tmp_path / "src"
    voc_with(src, **{"<xmin>4</xmin>": "<xmin>nan</xmin>"})
    write_voc(src, "b.jpg", (64, 48), [("bolt", 4, 4, 30, 30)])
    assert main(["dataset", "import", str(src), "--out", str(tmp_path / "out"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["boxes"] == 1 and report["skipped_by_reason"] == {"no_geometry": 1}
    assert "nan" in report["skipped"][0]["message"]
    assert all("nan" not in p.read_text() for p in (tmp_path / "out").glob("labels/*/*.txt"))


def test_no_convertible_image_is_said_in_words(tmp_path, capsys):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.jpg").write_bytes(b"not a picture")
    (src / "a.xml").write_text("<annotation><filename>a.jpg</filename></annotation>")
    assert main(["dataset", "import", str(src), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "no image could be converted" in err and "Errno" not in err and "import_report.json" not in err


def test_out_under_a_file_is_said_in_words(tmp_path, capsys):
    src = tmp_path / "src"
    voc_with(src)
    (tmp_path / "afile").write_text("x")
    assert main(["dataset", "import", str(src), "--out", str(tmp_path / "afile" / "new")]) == 2
    err = capsys.readouterr().err
    assert "is a file, not a folder" in err and "Errno" not in err


@pytest.mark.parametrize("spelling", ["dotdot", "link"])
def test_out_inside_the_source_is_refused_however_it_is_spelled(tmp_path, capsys, spelling):
    src = tmp_path / "src"
    voc_with(src)
    (tmp_path / "sibling").mkdir()
    if spelling == "dotdot":
        out = tmp_path / "sibling" / ".." / "src" / "new"
    else:
        (tmp_path / "to_src").symlink_to(src)
        out = tmp_path / "to_src" / "new"
    assert main(["dataset", "import", str(src), "--out", str(out)]) == 2
    assert "inside the source" in capsys.readouterr().err
    assert sorted(p.name for p in src.iterdir()) == ["a.jpg", "a.xml"]


@pytest.mark.parametrize("mode", ["--link", "--copy"])
def test_a_link_out_of_the_source_is_left_out_and_reported(tmp_path, capsys, mode):
    src = tmp_path / "src"
    voc_with(src)
    secret = tmp_path / "private" / "secret.jpg"
    picture(secret, (64, 48), [], seed=9)
    (src / "b.jpg").symlink_to(secret)
    (src / "folder_link").symlink_to(secret.parent)
    assert main(["dataset", "import", str(src), "--out", str(tmp_path / "out"), mode, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["images"] == 1
    outside = sorted(s["file"].rsplit("/", 1)[-1] for s in report["skipped"] if s["reason"] == "outside_source")
    assert outside == ["b.jpg", "folder_link"]
    secret_bytes = secret.read_bytes()
    assert all(p.read_bytes() != secret_bytes for p in (tmp_path / "out").rglob("*.jpg"))


def test_a_jpeg_named_png_with_bytes_after_its_end_is_copied_not_linked(tmp_path, capsys):
    src = tmp_path / "src"
    write_voc(src, "a.png", (64, 48), [("bolt", 4, 4, 30, 30)])  # JPEG bytes under a .png name
    (src / "a.png").write_bytes((src / "a.png").read_bytes() + b"trailing")
    write_voc(src, "b.jpg", (64, 48), [("bolt", 4, 4, 30, 30)])
    assert main(["dataset", "import", str(src), "--out", str(tmp_path / "out"), "--json", "--split", "1,0"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["linked"] == 1 and report["copied"] == 1
    assert not os.path.samefile(src / "a.png", tmp_path / "out" / "images" / "train" / "a.png")
    assert os.path.samefile(src / "b.jpg", tmp_path / "out" / "images" / "train" / "b.jpg")


def test_labelme_embedded_picture_named_like_a_text_file_gets_its_decoded_suffix(tmp_path, capsys):
    src = tmp_path / "src"
    src.mkdir()
    data = picture(None, (64, 48), [], seed=4, fmt="PNG")
    (src / "notes.txt").write_text("my notes")
    doc = labelme_doc("notes.txt", (64, 48), [rect_shape("bolt", 4, 4, 30, 30)], data)
    (src / "a.json").write_text(json.dumps(doc))
    assert main(["dataset", "import", str(src), "--out", str(tmp_path / "out"), "--split", "1,0"]) == 0
    assert sorted(p.name for p in (tmp_path / "out" / "images" / "train").iterdir()) == ["notes.png"]


def test_an_undecodable_embedded_picture_is_named_by_its_json(tmp_path, capsys):
    src = tmp_path / "src"
    write_voc(src, "ok.jpg", (64, 48), [("bolt", 4, 4, 30, 30)])
    doc = labelme_doc("gone.jpg", (64, 48), [rect_shape("bolt", 4, 4, 30, 30)], b"not an image")
    (src / "b.json").write_text(json.dumps(doc))
    assert main(["dataset", "import", str(src), "--format", "labelme", "--out", str(tmp_path / "o"), "--dry-run",
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    [lost] = [s for s in report["skipped"] if s["reason"] == "unreadable_image"]
    assert lost["file"].endswith("b.json") and "BytesIO" not in lost["message"]


def test_a_killed_import_leaves_nothing_after_the_next_one(tmp_path):
    """A writer SIGKILLed mid-write leaves ``.out.importing-PID``; the next import into that parent removes it."""
    src = tmp_path / "src"
    for i in range(3):
        write_voc(src, f"{i}.jpg", (64, 48), [("bolt", 4, 4, 30, 30)])
    child = subprocess.Popen([sys.executable, "-c", "import os, pathlib, signal, sys; "
                              "t = pathlib.Path(sys.argv[1]) / f'.out.importing-{os.getpid()}'; "
                              "(t / 'images' / 'train').mkdir(parents=True); os.kill(os.getpid(), signal.SIGKILL)",
                              str(tmp_path)])
    assert child.wait() == -signal.SIGKILL
    [leftover] = tmp_path.glob(".out.importing-*")
    mine = tmp_path / f".other.importing-{os.getpid()}"  # a live import (this process) is left alone
    mine.mkdir()
    assert main(["dataset", "import", str(src), "--out", str(tmp_path / "next")]) == 0
    assert not leftover.exists() and mine.exists()


def test_sigterm_while_writing_cancels_and_leaves_no_temporary_folder(tmp_path, capsys, monkeypatch):
    """The signal arrives for real (to this process) while the writer writes its first label file."""
    from core.dataset.importers import writer  # noqa: PLC0415

    src = tmp_path / "src"
    for i in range(3):
        write_voc(src, f"{i}.jpg", (64, 48), [("bolt", 4, 4, 30, 30)])
    real_label_text = writer.label_text

    def label_text_then_sigterm(rows):
        os.kill(os.getpid(), signal.SIGTERM)
        return real_label_text(rows)

    monkeypatch.setattr(writer, "label_text", label_text_then_sigterm)
    before = signal.getsignal(signal.SIGTERM)
    assert main(["dataset", "import", str(src), "--out", str(tmp_path / "out")]) == 2
    assert "Cancelled; nothing was written" in capsys.readouterr().err
    assert not list(tmp_path.glob(".*importing*")) and not (tmp_path / "out").exists()
    assert signal.getsignal(signal.SIGTERM) == before


def test_a_yolo_label_linked_out_of_the_source_is_not_read(tmp_path, capsys):
    src = tmp_path / "src"
    picture(src / "images" / "a.jpg", (64, 48), [], seed=3)
    (src / "labels").mkdir()
    secret = tmp_path / "private" / "rows.txt"
    secret.parent.mkdir()
    secret.write_text("0 0.5 0.5 0.2 0.2\n")
    (src / "labels" / "a.txt").symlink_to(secret)
    picture(src / "images" / "b.jpg", (64, 48), [], seed=4)
    (src / "labels" / "b.txt").write_text("0 0.3 0.3 0.2 0.2\n")
    (src / "classes.txt").write_text("bolt\n")
    assert main(["dataset", "import", str(src), "--out", str(tmp_path / "out"), "--json", "--split", "1,0"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["boxes"] == 1 and [s["reason"] for s in report["skipped"]] == ["outside_source"]
