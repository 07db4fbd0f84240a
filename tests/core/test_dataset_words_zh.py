"""Every dataset finding in 简体中文 (issue 25: "Pillow cannot read this image…" on the Chinese pages): each
failing case of ``test_dataset_validate`` and a few data.yaml faults, checked with the Chinese catalogue, and
every word a user reads (message, detail, advice) held to ``tests/latin_words.stray_words``. yolov5's own
messages are quoted in them ('…'), as yolov5 prints them, so a user can find them in its log."""

from __future__ import annotations

import pytest

from core import i18n
from core.dataset.validate import validate_dataset
from tests.core.test_dataset_validate import CASES, build
from tests.latin_words import stray_words

#: data.yaml faults: a split that is missing, one that is empty, names against nc, a root from another machine,
#: a list file naming a missing image, a duplicate class name, no val key.
YAML_FAULTS = {
    "split-path-missing, split-empty": "train: images/nowhere\nval: images/empty\nnames: [a, b]\n",
    "names-nc-mismatch, path-foreign": "train: images/train\nval: images/val\nnc: 3\nnames: [a, b]\n",
    "image-missing": "train: train.txt\nval: images/val\nnames: [a, b]\n",
    "names-duplicate, yaml-missing-key": "train: images/train\nnames: [a, a]\n",
    "yaml-syntax": "train: [images/train\nnames: [a, b]\n",
}


@pytest.fixture
def chinese():
    i18n.set_language("zh_CN")
    yield
    i18n.set_language("en")


def _words(report) -> list[str]:
    texts = []
    for f in report.findings:
        texts += [f.message, f.detail] + ([f.fix] if f.fix_kind != "command" else [])
    return [t for t in texts if t]


def test_every_dataset_finding_reads_in_chinese(chinese, tmp_path):
    stray, codes = [], set()
    for code, (train, val, yaml_text, _suffix, _line) in sorted(CASES.items()):
        report = validate_dataset(build(tmp_path / code, train=train, val=val, yaml_text=yaml_text))
        codes |= {f.code for f in report.findings}
        stray += [f"{code}: {t!r} — {w}" for t in _words(report) if (w := stray_words(t))]
    for name, body in YAML_FAULTS.items():
        root = tmp_path / name.split(",")[0]
        build(root)
        (root / "images" / "empty").mkdir()
        (root / "train.txt").write_text("./images/train/t1.png\n./images/train/nothere.png\n", encoding="utf-8")
        root_line = "path: /content/drive/MyDrive/ds\n" if "foreign" in name else f"path: {root}\n"
        (root / "data.yaml").write_text(root_line + body, encoding="utf-8")
        report = validate_dataset(root / "data.yaml")
        codes |= {f.code for f in report.findings}
        stray += [f"{name}: {t!r} — {w}" for t in _words(report) if (w := stray_words(t, {"MyDrive"}))]
    assert set(CASES) <= codes and {"split-path-missing", "names-nc-mismatch", "image-missing"} <= codes
    assert stray == [], "English in the dataset findings:\n" + "\n".join(sorted(set(stray)))
