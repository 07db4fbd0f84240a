"""``yolostudio predict --slice``: a bare ``--slice`` is 640-pixel tiles; a tile size or overlap out of range is a
usage error (exit 2) naming the value, before any worker starts."""

from __future__ import annotations

import argparse

from cli.main import main
from cli.verbs.predict import add_arguments


def test_a_bare_slice_is_the_default_tile_and_none_is_off():
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert parser.parse_args(["m.onnx", "a.jpg", "--slice"]).slice == 640
    assert parser.parse_args(["m.onnx", "a.jpg", "--slice", "1024", "--slice-overlap", "0.3"]).slice == 1024
    assert parser.parse_args(["m.onnx", "a.jpg"]).slice == 0


def test_a_tile_size_or_overlap_out_of_range_is_a_usage_error(tmp_path, capsys):
    model, image = tmp_path / "m.onnx", tmp_path / "a.jpg"
    model.write_bytes(b"onnx")
    image.write_bytes(b"jpg")
    ws = str(tmp_path / "ws")
    assert main(["--workspace", ws, "predict", str(model), str(image), "--slice", "16"]) == 2
    assert "The tile size 16 is not between 64 and 8192 pixels." in capsys.readouterr().err
    assert main(["--workspace", ws, "predict", str(model), str(image), "--slice", "--slice-overlap", "0.95"]) == 2
    assert "The tile overlap 0.95 is not between 0 and 0.9." in capsys.readouterr().err
