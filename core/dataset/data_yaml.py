"""The one reader that decides whether a data.yaml can be trained from, and the copy a run trains from.

Three places ask about a data.yaml: the validator (Dataset page, ``yolostudio dataset check``), the Train
config check (before a run starts) and the run that hands the file to yolov5. They must judge it the same
way — a ``names: []`` the Dataset page passes but the Train page refuses is a bug — so all three go through
``judge_document``/``read_data_yaml``: the file's own findings (syntax, encoding, duplicate keys) plus what
``spec.read_spec`` says it means. Trainable means no finding of severity ``error`` about the file itself;
whether the images and labels it points at are fine is the validator's longer job.
"""

from __future__ import annotations

import errno
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from core.atomic import atomic_write_text
from core.dataset.findings import ERROR, finding
from core.dataset.spec import DatasetSpec, read_spec
from core.dataset.yaml_doc import YamlDocument, load_document
from core.findings import Finding
from core.i18n import tr


@dataclass
class DataYaml:
    """A data.yaml judged: its text and meaning (None when unreadable) and every finding about the file."""

    path: Path
    doc: YamlDocument | None
    spec: DatasetSpec | None
    findings: list[Finding] = field(default_factory=list)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == ERROR]

    @property
    def trainable(self) -> bool:
        return self.spec is not None and not self.errors


def judge_document(doc: YamlDocument, yaml_file: Path) -> DataYaml:
    """Judge a parsed (possibly unsaved) data.yaml: the file's findings, then what its content means."""
    spec = read_spec(doc, yaml_file)
    return DataYaml(Path(yaml_file).absolute(), doc, spec, list(doc.findings) + spec.findings)


def read_data_yaml(path: Path) -> DataYaml:
    """Read and judge a data.yaml on disk; an unreadable file is a finding, never an exception."""
    path = Path(path).expanduser()
    try:
        doc = load_document(path)
    except OSError as exc:
        if exc.errno in (errno.EINVAL, errno.EFBIG):  # not a regular file, or over the size limit
            return DataYaml(path.absolute(), None, None, [finding("yaml-too-large", path, tr(
                "This is not a data.yaml that can be read: {reason}.", reason=exc.strerror or exc))])
        return DataYaml(path.absolute(), None, None, [finding("yaml-unreadable", path, tr(
            "Cannot read the file: {reason}. Check that it exists and that you may read it.",
            reason=exc.strerror or exc))])
    return judge_document(doc, path)


def _yolov5_keeps_root(root: object) -> bool:
    """yolov5 uses ``path`` as written only when it is absolute (no ``~`` expansion); else it resolves it
    against its own install folder."""
    return isinstance(root, str) and bool(root) and Path(root).is_absolute()


def pin_dataset_root(data_path: Path, run_dir: Path) -> Path:
    """The data.yaml a run trains from: the user's own, or a copy whose dataset folder is absolute.

    yolov5 resolves a relative (or missing, or ``~``) ``path:`` against its install folder; people — and
    the validator — mean what ``read_spec`` resolves (the data.yaml's folder, ``~`` expanded). When the two
    would differ, the run gets ``<run_dir>/data.yaml`` with ``path`` set to the root the validator checked
    (everything else kept), so training finds the images and the copyable ``yolov5 train`` command works
    the same. The user's file is never touched.
    """
    judged = read_data_yaml(data_path)
    if judged.doc is None or judged.spec is None or not isinstance(judged.doc.data, dict):
        return data_path
    raw = dict(judged.doc.data)
    entries = [entry for split in judged.spec.splits.values() for entry in split.entries]
    if _yolov5_keeps_root(raw.get("path")) or all(Path(entry).is_absolute() for entry in entries):
        return data_path
    raw["path"] = str(judged.spec.root)
    pinned = run_dir / "data.yaml"
    header = f"# The dataset of this run: {data_path}, with its folder ('path') made absolute for yolov5.\n"
    atomic_write_text(pinned, header + yaml.safe_dump(raw, sort_keys=False, allow_unicode=True), backup=False)
    return pinned
