"""File names, flags, placeholders, paths and commands survive translation (issue 25: "exp2 · 最佳.pt").

The finder is table-driven on the shapes it must and must not take; the catalogue test runs it over every
finished entry of both resources/i18n/*.ts files, as ``python -m tools.i18n check`` does.
"""

from __future__ import annotations

import pytest

from tools.i18n import ts_path
from tools.i18n import read_ts as read_catalogue
from tools.i18n_verbatim import lost_tokens, verbatim_tokens


@pytest.mark.parametrize("source, tokens", [
    ("{run} · best.pt", ["{run}", "best.pt"]),
    ("Export last.pt or best.pt of {name}", ["last.pt", "best.pt", "{name}"]),
    ("labels are *.txt files beside data.yaml.", ["*.txt", "data.yaml"]),
    ("The label x.TXT is not read", ["x.TXT"]),
    ("Saved as {stem}.onnx", ["{stem}", "{stem}.onnx"]),
    ("Run with --workers 2 or --no-amp.", ["--workers", "--no-amp"]),
    ("{rate:.0f} images/s at {share:.0%}", ["{rate:.0f}", "{share:.0%}"]),
    ("Free space in /dev/shm: {gb} GB", ["/dev/shm", "{gb}"]),
    ("NVML lives in /usr/lib/wsl/lib.", ["/usr/lib/wsl/lib"]),
    ("under weights/best.pt of the run", ["weights/best.pt", "best.pt"]),
    ("Install to C:\\YOLOStudio or ~/yolo", ["C:\\YOLOStudio", "~/yolo"]),
    ("the folders images/train and labels/", ["images/train", "labels/"]),
    ("Set YOLOSTUDIO_LANG, then run yolostudio train DATA.yaml", ["YOLOSTUDIO_LANG", "yolostudio train",
                                                                  "DATA.yaml"]),
    ("python -m tools.i18n update, or pip install fonttools", ["python -m tools.i18n", "pip install"]),
    ("See https://www.nvidia.com/Download/index.aspx", ["https://www.nvidia.com/Download/index.aspx"]),
])
def test_names_a_translation_must_keep(source, tokens):
    assert verbatim_tokens(source) == tokens


@pytest.mark.parametrize("source", [
    "Split into train/val by folder",  # one separator between words: prose
    "Debian/Ubuntu and Fedora/RHEL",
    "{speed} images/s, 40 MB/s",  # units
    "Epoch {epoch}/{epochs}",  # placeholders only: a fraction (its placeholders are kept on their own)
    "<b>Bold</b> text",  # markup
    "A {n}-value row; pip is running; nvidia-smi lists it",  # prose around tool names, a single-dash compound
])
def test_prose_units_and_markup_are_words_to_translate(source):
    paths_and_names = [t for t in verbatim_tokens(source) if not t.startswith("{")]
    assert paths_and_names == []


def test_a_translated_file_name_flag_or_path_is_lost():
    assert lost_tokens("{run} · best.pt", "{run} · 最佳.pt") == ["best.pt"]
    assert lost_tokens("Use --workers 2", "使用 --加载进程 2") == ["--workers"]
    assert lost_tokens("Predicted {rate:.0f} images/s", "预测 {rate} 张/秒") == ["{rate:.0f}"]
    assert lost_tokens("Free space in /dev/shm", "共享内存中的可用空间") == ["/dev/shm"]
    assert lost_tokens("Open {run} · best.pt", "打开 {run} · best.pt") == []


def test_every_translation_in_the_catalogue_keeps_its_names():
    lost = []
    for catalogue in ("yolostudio", "core"):
        entries = read_catalogue(ts_path(catalogue))
        assert len(entries) > 500  # the real catalogue was read
        for (context, source), translation in entries.items():
            if translation and lost_tokens(source, translation):
                lost.append(f"[{context}] {source!r} -> {translation!r}: {lost_tokens(source, translation)}")
    assert lost == [], "Translated names (keep them as they are):\n" + "\n".join(lost)
