"""The receiving end of a dataset sync (core/remote/files.py): verified by hash, nothing outside the folder."""

from __future__ import annotations

import hashlib
import io
import json
import tarfile

import pytest

from core.remote.files import MANIFEST, folder_hashes, receive


def _stream(files: dict[str, bytes], promised: dict[str, str] | None = None, delete=()) -> io.BytesIO:
    buffer = io.BytesIO()
    manifest = {"files": promised or {k: hashlib.sha256(v).hexdigest() for k, v in files.items()},
                "delete": list(delete), "data_yaml": {"train": "images", "val": "images", "names": ["a"]}}
    with tarfile.open(fileobj=buffer, mode="w|") as tar:
        for name, data in [(MANIFEST, json.dumps(manifest).encode()), *files.items()]:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    buffer.seek(0)
    return buffer


def test_a_file_whose_bytes_do_not_match_its_hash_does_not_replace_the_old_one(tmp_path):
    (tmp_path / "a.txt").write_bytes(b"old")
    account = receive(_stream({"a.txt": b"new", "b/c.txt": b"c"}, {"a.txt": "0" * 64,
                                                                  "b/c.txt": hashlib.sha256(b"c").hexdigest()}),
                      tmp_path)
    assert account["bad"] == ["a.txt"] and account["received"] == ["b/c.txt"]
    assert (tmp_path / "a.txt").read_bytes() == b"old"
    assert set(folder_hashes(tmp_path)) == {"a.txt", "b/c.txt"}  # no temporary file left behind


@pytest.mark.parametrize("name", ["../escape.txt", "/abs.txt", "a/../../x"])
def test_a_path_outside_the_folder_is_refused(tmp_path, name):
    folder = tmp_path / "in"
    with pytest.raises(ValueError):
        receive(_stream({name: b"x"}), folder)
    assert not (tmp_path / "escape.txt").exists() and not (tmp_path / "x").exists()


def test_deleted_files_go_and_the_data_yaml_names_the_folder(tmp_path):
    (tmp_path / "gone.txt").write_text("x")
    account = receive(_stream({}, delete=["gone.txt"]), tmp_path)
    assert account["deleted"] == ["gone.txt"] and not (tmp_path / "gone.txt").exists()
    assert f"path: {tmp_path}" in (tmp_path / ".yolostudio-data.yaml").read_text()
