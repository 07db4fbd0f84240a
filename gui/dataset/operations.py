"""Every way the Dataset page reaches core: one small ``CoreOp`` per call (``gui/operations.py``).

Each function builds the operation; the page adds what to do with the answer and runs it. All of them read
or write the disk (a data.yaml, label and list files, a folder of images), so none runs on the GUI thread —
except ``save_yaml_before_leaving``: a window that is closing or switching page needs its answer at once,
and the write is one small file (a data.yaml is a few kB; ``core.dataset.yaml_doc`` caps it at 8 MB).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, TypeVar

from PySide6.QtCore import QCoreApplication, QObject

from core.dataset.fixes import FixPlan, apply_fix, plan_fix, plan_reassign, undo_fix
from core.dataset.prepare import PrepareResult, prepare_dataset
from core.dataset.spec import DatasetSpec, read_spec
from core.dataset.split import SplitPlan, plan_split, write_split
from core.dataset.validate import Report, validate_dataset
from core.dataset.yaml_doc import YamlDocument, load_document, save_document
from core.demo.dataset import ensure_demo_dataset
from core.findings import Finding
from gui.operations import CoreOp

T = TypeVar("T")


def _tr(text: str) -> str:
    return QCoreApplication.translate("DatasetOperations", text)


def load_yaml(parent: QObject, path: Path) -> CoreOp[YamlDocument]:
    """Read and parse a data.yaml (a pipe or a 60 MB file is refused in words, never read)."""
    return CoreOp(parent, lambda: load_document(path), what=_tr("Opening {path}").format(path=path))


def read_dataset_spec(parent: QObject, doc: YamlDocument, path: Path) -> CoreOp[tuple[DatasetSpec, dict[str, str]]]:
    """What the document means on disk: the root and splits resolved (``read_spec`` looks at the folders), and
    whether each split path is a ``folder``, a ``list`` file or ``missing`` — for the form's previews."""
    def call() -> tuple[DatasetSpec, dict[str, str]]:
        spec = read_spec(doc, path)
        states = {str(p): "folder" if p.is_dir() else "list" if p.is_file() else "missing"
                  for split in spec.splits.values() for p in split.paths}
        return spec, states

    return CoreOp(parent, call, what=_tr("Reading {path}").format(path=path))


def save_yaml(parent: QObject, path: Path, doc: YamlDocument) -> CoreOp[bool]:
    """Write the document atomically, the original kept as ``.bak`` before the first overwrite; True when
    this save made that backup (the page says where the original went)."""
    return CoreOp(parent, lambda: save_yaml_before_leaving(path, doc), what=_tr("Saving {path}").format(path=path))


def save_yaml_before_leaving(path: Path, doc: YamlDocument) -> bool:
    """The same save, now: the window waits for it to close or switch page (see the module's first lines)."""
    backup = path.with_name(path.name + ".bak")
    first = not backup.exists()
    save_document(path, doc)
    return first and backup.exists()


def read_preview(parent: QObject, path: Path, limit: int) -> CoreOp[str]:
    """The first ``limit`` bytes of a finding's label, list or YAML file, as text (never a pipe's endless read)."""
    def call() -> str:
        if path.suffix.lower() not in (".txt", ".yaml", ".yml") or not path.is_file():
            return ""
        with open(path, "rb") as handle:
            return handle.read(limit).decode("utf-8", errors="replace")

    return CoreOp(parent, call, what=_tr("Reading {path}").format(path=path))


def prepare_copy(parent: QObject, data_yaml: Path, imgsz: int, out_dir: Path) -> CoreOp[PrepareResult]:
    """Write the resized copy of the dataset (reports progress, can be cancelled)."""
    def call(progress: Any, cancelled: Any) -> PrepareResult:
        return prepare_dataset(data_yaml, imgsz, out_dir, progress=progress, cancelled=cancelled)

    return CoreOp(parent, call, what=_tr("Preparing a resized copy"))


def check_dataset(parent: QObject, path: Path, doc: YamlDocument, cache_dir: Path) -> CoreOp[Report]:
    """Check every image and label (unchanged files come from the cache); reports progress, can be cancelled."""
    def call(progress: Any, cancelled: Any) -> Report:
        return validate_dataset(path, progress=progress, cancelled=cancelled, cache_dir=cache_dir, doc=doc)

    return CoreOp(parent, call, what=_tr("Checking the dataset"))


def _list_files(spec: DatasetSpec | None, names: tuple[str, ...]) -> list[str]:
    found = []
    for name in names:
        split = spec.splits.get(name) if spec is not None else None
        found += [str(p) for p in split.paths if p.is_file()] if split is not None else []
    return found


def plan_finding_fix(parent: QObject, finding: Finding, spec: DatasetSpec | None) -> CoreOp[FixPlan | None]:
    """What Fix… would change for ``finding`` now (None: no automatic fix); reads the files it would change."""
    def call() -> FixPlan | None:
        return plan_fix(finding, val_lists=_list_files(spec, ("val",)), root=spec.root if spec else None,
                        split_lists=_list_files(spec, ("train", "val", "test")))

    return CoreOp(parent, call, what=_tr("Planning the fix"))


def plan_class_reassign(parent: QObject, finding: Finding, new_class: int, name: str) -> CoreOp[FixPlan | None]:
    """The row of an impossible class id given class ``new_class`` instead (reads the label file)."""
    return CoreOp(parent, lambda: plan_reassign(finding, new_class, name), what=_tr("Planning the fix"))


def apply_finding_fix(parent: QObject, plan: FixPlan) -> CoreOp[None]:
    return CoreOp(parent, lambda: apply_fix(plan), what=_tr("Applying the fix"))


def undo_finding_fix(parent: QObject, plan: FixPlan) -> CoreOp[None]:
    return CoreOp(parent, lambda: undo_fix(plan), what=_tr("Undoing the fix"))


def plan_folder(parent: QObject, folder: Path, ratio: float) -> CoreOp[SplitPlan]:
    """Find the folder's images and labels: its own split (kept), the rest split by ``ratio``, the class ids."""
    def call(progress: Any, cancelled: Any) -> SplitPlan:
        plan = plan_split(folder, ratio, progress=progress)
        if not plan.train and not plan.val and not plan.test:
            raise FileNotFoundError(str(folder))
        return plan

    return CoreOp(parent, call, what=_tr("Finding images and labels"))


def write_folder(parent: QObject, plan: SplitPlan, names: list[str]) -> CoreOp[Path]:
    """Write the list files and the data.yaml (old ones backed up first)."""
    return CoreOp(parent, lambda: write_split(plan, names=names), what=_tr("Writing the dataset"))


def draw_pictures(parent: QObject, call: Callable[[Any, Any], T], what: str) -> CoreOp[T]:
    """Draw thumbnails or a large view (Pillow: decoding a photo takes tens of ms); ``call(progress, cancelled)``."""
    return CoreOp(parent, call, what=what)


def prepare_demo(parent: QObject, workspace: Path) -> CoreOp[Path]:
    """Generate the demo dataset on first use (deterministic, no download); reports progress."""
    call: Callable[[Any, Any], Path] = lambda progress, cancelled: ensure_demo_dataset(workspace, progress, cancelled)
    return CoreOp(parent, call, what=_tr("Preparing the demo dataset"))
