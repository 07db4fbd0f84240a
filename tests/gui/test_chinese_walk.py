"""The walk in 简体中文 (issue 25): every page with something on it, read as a Chinese user reads it.

With the app in zh_CN (``install_language``) at 1280×720, the walk opens each page of the window — the
Environment page with injected facts (a CPU build on a GPU machine, so findings and their details show),
the Dataset page with a dataset that has findings (an unreadable image, coordinates outside [0, 1], a class
id beyond the names), the Train page replaying a finished run (progress, log, plots, the completion card),
the Runs table and the Export page's weights list with that run's files — and the wizard's steps up to its
Review. It collects every text a person can read (labels, buttons, titles, items, table and tree cells,
headers, tooltips, read-only text) and fails on any Latin word that is not a name, path, file name, flag,
unit, quotation or one of ``latin_words.TERMS``. Screenshots go to ``tests/artifacts/screens/walk-*.png``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QAbstractButton, QAbstractItemView, QComboBox, QGroupBox, QHeaderView,
                               QLabel, QLineEdit, QPlainTextEdit, QTabBar, QTabWidget, QTextEdit, QWidget)

from core.dataset.findings import CODES as DATASET_CODES
from core.i18n import tr as core_tr
from core.run.files import EVENTS_FILE
from core.run.folder import PREDICTED_FIELDS, RunFolder
from core.runs.store import create_run, read_run
from core.training.bottleneck import diagnose, verdict_event_fields
from core.training.config import TrainConfig, validate_config
from gui.environment.environment_page import EnvironmentPage
from gui.pages.catalog import page_index
from tests.core.environment_builders import healthy_gpu_machine
from tests.core.test_dataset_validate import BOX, build
from tests.fixtures.checkpoint_files import record_as_own
from tests.gui.languages import app_in_language
from tests.latin_words import stray_words
from tests.waits import TIMEOUT_MS

ROOT = Path(__file__).resolve().parents[2]
SCREENS = ROOT / "tests" / "artifacts" / "screens"
RECORDED = ROOT / "tests" / "fixtures" / "recorded_train_events.jsonl"
RUN = "exp2"
#: The names this walk's own files carry (dataset folder, classes, run): shown as they are.
NAMES = {RUN, "shapes", "circle", "square", "triangle", "ws"}  # triangle: a class of the recorded run
MAX_ROWS = 200  # rows read per table: enough for every finding of the walk's dataset


def _model_texts(view: QAbstractItemView) -> list[str]:
    model = view.model()
    if model is None:
        return []
    out: list[str] = []

    def rows(parent, depth: int) -> None:
        for row in range(min(model.rowCount(parent), MAX_ROWS)):
            try:
                columns = model.columnCount(parent)
            except TypeError:  # a list model keeps columnCount private: one column
                columns = 1
            for column in range(columns):
                index = model.index(row, column, parent)
                for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                    value = index.data(role)
                    if isinstance(value, str) and value:
                        out.append(value)
            if depth < 3:
                rows(model.index(row, 0, parent), depth + 1)

    from PySide6.QtCore import QModelIndex  # noqa: PLC0415

    rows(QModelIndex(), 0)
    return out


def readable_texts(root: QWidget) -> list[tuple[str, str]]:
    """(widget kind, text) for every text a person can read in ``root`` now. Editable text boxes hold the
    user's own document (the YAML) or input, so only read-only ones are read."""
    found: list[tuple[str, str]] = []
    for widget in [root, *root.findChildren(QWidget)]:
        if widget is not root and not widget.isVisibleTo(root):
            continue
        texts = [widget.toolTip(), widget.windowTitle() if widget.isWindow() else ""]
        if isinstance(widget, (QLabel, QAbstractButton)):
            texts.append(widget.text())
        if isinstance(widget, QGroupBox):
            texts.append(widget.title())
        if isinstance(widget, QLineEdit):
            texts.append(widget.placeholderText())
        if isinstance(widget, QComboBox):
            texts += [widget.itemText(i) for i in range(widget.count())]
        if isinstance(widget, QTabBar):
            texts += [t for i in range(widget.count()) for t in (widget.tabText(i), widget.tabToolTip(i))]
        if isinstance(widget, QHeaderView) and widget.model() is not None:
            texts += [str(widget.model().headerData(i, widget.orientation()) or "") for i in range(widget.count())
                      if not widget.isSectionHidden(i)]
        elif isinstance(widget, QAbstractItemView):
            texts += _model_texts(widget)
        if isinstance(widget, (QPlainTextEdit, QTextEdit)) and widget.isReadOnly():
            texts += widget.toPlainText().splitlines()
        found += [(type(widget).__name__, t) for t in texts if t and t.strip()]
    return found


class Walk:
    def __init__(self, qtbot) -> None:
        self.qtbot = qtbot
        self.texts: list[tuple[str, str, str]] = []  # (where, widget kind, text)
        self.names = set(NAMES)
        SCREENS.mkdir(parents=True, exist_ok=True)

    def read(self, widget: QWidget, where: str, *, shot: bool = True) -> None:
        self.qtbot.wait(20)
        self.texts += [(where, kind, text) for kind, text in readable_texts(widget)]
        if shot:
            widget.grab().save(str(SCREENS / f"walk-zh_CN-{where}.png"))

    def stray(self) -> list[str]:
        return sorted({f"{where} · {kind}: {text!r} — {', '.join(words)}" for where, kind, text in self.texts
                       if (words := stray_words(text, self.names))})


@pytest.fixture
def chinese(qtbot, monkeypatch):
    monkeypatch.setattr(EnvironmentPage, "recheck", lambda self: False)  # no real probe: facts are injected
    with app_in_language("zh_CN"):
        yield


def dataset_with_findings(root: Path) -> Path:
    data = build(root, train={"t1": BOX, "t2": "0 1.3 0.5 0.1 0.1\n", "bad": (b"not an image", BOX),
                              "t3": "7 .5 .5 .1 .1\n", "t4": "1 .4 .4 .2 .2\n"})
    data.write_text(f"path: {root}\ntrain: images/train\nval: images/val\nnames: [circle, square]\n",
                    encoding="utf-8")
    return data


def finished_run(workspace: Path, data: Path) -> Path:
    """A completed run on disk: the recorded events of a real 3-epoch run, with its best.pt and last.pt."""
    run_dir = create_run(workspace, validate_config(TrainConfig(data=str(data), epochs=3, name=RUN)))
    events = [json.loads(line) for line in RECORDED.read_text(encoding="utf-8").splitlines()]
    # yolov5's console lines (``log`` events) are yolov5's own words, shown as it printed them: left out here.
    # The stream is otherwise as today's worker writes it ("preparing" no longer repeats its stage's words).
    events = [{k: v for k, v in e.items() if not (e.get("stage") == "preparing" and k == "detail")}
              for e in events if e["type"] != "log"]
    (run_dir / EVENTS_FILE).write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    keep_the_wizards_choices(run_dir)
    (run_dir / "weights").mkdir(exist_ok=True)
    for name in ("best.pt", "last.pt"):
        (run_dir / "weights" / name).write_bytes(b"pt")
        record_as_own(workspace, run_dir / "weights" / name)
    return run_dir


def keep_the_wizards_choices(run_dir: Path) -> None:
    """The run was started from the wizard (its wizard.json, the reasons in the language the wizard ran in): the
    wizard line under the bottleneck banner shows, and names the wizard's choices a verdict disagrees with."""
    config = json.loads((run_dir / "config.json").read_text(encoding="utf-8"))
    config = config.get("spec", {}).get("config", config)
    doc = {"config": {k: config.get(k) for k in PREDICTED_FIELDS},
           "predicted": {"images_per_s": 22.0, "epoch_s": 120.0, "total_s": 360.0},
           "reasons": {"workers": {"value": config.get("workers"), "step": "measure",
                                   "why": core_tr("Not measured: as many as the limits allow, at most 8.")},
                       "cache": {"value": "", "step": "measure", "why": core_tr("Does not fit in RAM with margin.")},
                       "batch": {"value": config.get("batch"), "step": "hardware",
                                 "why": core_tr("The largest batch that trained with room to spare: the GPU stays busy "
                                                "and yolov5 accumulates to {nbs} images per step.", nbs=64)},
                       "imgsz": {"value": config.get("imgsz"), "step": "dataset",
                                 "why": core_tr("Fine-tuning from pretrained weights converges in fewer epochs.")}}}
    assert RunFolder(run_dir).keep_wizard(doc, config)


def every_verdict() -> list[dict]:
    """A diagnosis event for every verdict the bottleneck monitor gives (the core's own rules over synthesised
    windows, in the language installed now), each with its evidence line and prescriptions."""
    from tests.core.test_bottleneck import gpu, window  # noqa: PLC0415

    cases = [dict(wait_share=0.02, cpu=100.0, others=78.0, on_gpu=False, cpu_count=2, waited=130.0),  # contention
             dict(wait_share=0.02, gpus=[gpu(95)]), dict(wait_share=0.30, cpu=40.0, gpus=[gpu(30)]),
             dict(wait_share=0.30, cpu=97.0, gpus=[gpu(30)]), dict(wait_share=0.30, cpu=40.0, iowait=25.0, gpus=[gpu(30)]),
             dict(wait_share=0.02, gpus=[gpu(25)]), dict(wait_share=0.02, gpus=[gpu(99, reasons=0x40, temp=91)]),
             dict(wait_share=0.02, gpus=[gpu(99, reasons=0x80)]), dict(wait_share=0.02, gpus=[gpu(0)], on_gpu=False),
             dict(wait_share=0.30, cpu=40.0, on_gpu=False, gpus=[]), dict(wait_share=0.02, on_gpu=False, gpus=[]),
             dict(wait_share=0.4, cpu=99.0, imgsz=320, cache="ram", gpu_augment="on")]
    events = [{"v": 1, "type": "diagnosis", "epoch": 2, "at": "epoch_end",
               **verdict_event_fields(diagnose(window(**case).figures()))} for case in cases]
    assert len({e["code"] for e in events}) >= 8  # every kind of verdict, not one kind many times
    return events


def read_every_verdict(walk: Walk, window, train) -> None:
    """Each verdict in the bottleneck banner, and the wizard line under it, as a replay or a live run shows
    them (the Train page's own event path)."""
    for index, event in enumerate(every_verdict()):
        train._on_event(event)
        walk.qtbot.waitUntil(lambda: train.diagnosis.verdict is event, timeout=TIMEOUT_MS)
        walk.read(window, f"train-verdict-{index}-{event['code']}", shot=index == 0)
    assert train.wizard_prediction.verdict.isVisibleTo(train)  # the wizard line under a verdict that overrules it


def read_the_evaluation(walk: Walk, run_dir: Path, workspace: Path) -> None:
    """The Evaluate window over a stored evaluation: its summary, per-class table, confusion words and plots."""
    from core.evaluation.request import plan_run_evaluation  # noqa: PLC0415
    from core.evaluation.store import save_evaluation  # noqa: PLC0415
    from gui.evaluate.evaluate_window import EvaluateWindow  # noqa: PLC0415 - after the language is installed
    from tests.gui.test_evaluate_view import result as stored_result  # noqa: PLC0415

    save_evaluation(plan_run_evaluation(run_dir, workspace).plan.folder, {**stored_result(), "prescription": []}, [])
    window = EvaluateWindow(run_dir, workspace)
    walk.qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    walk.qtbot.waitUntil(lambda: window.view is not None, timeout=TIMEOUT_MS)
    walk.names |= {"cat", "emu"}  # the stored evaluation's classes
    walk.read(window, "evaluate")
    window.close()


def test_the_chinese_walk_meets_no_stray_english(chinese, qtbot, tmp_path):
    from gui.main_window import MainWindow  # noqa: PLC0415 - after the language is installed

    workspace = tmp_path / "ws"
    data = dataset_with_findings(tmp_path / "shapes")
    run_dir = finished_run(workspace, data)
    window = MainWindow(workspace, prepare_demo=False, check_runs=False)
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    qtbot.waitExposed(window)
    walk = Walk(qtbot)
    walk.names |= set(DATASET_CODES)  # a finding's code, shown under "Code": the id the CLI's --json gives

    assert window.show_page(page_index("environment"))
    environment = window.page(page_index("environment"))
    facts = healthy_gpu_machine()
    facts.torch.version, facts.torch.cuda, facts.torch.cuda_available = "2.9.1+cpu", None, False
    walk.names |= {word for gpu in facts.nvml.gpus for word in gpu.name.split()}  # the GPU's own name
    walk.names |= {f.code for f in environment.show_facts(facts).findings}  # shown as the finding's code
    for row in range(environment.list.count()):
        environment.list.setCurrentRow(row)
        walk.read(window, f"environment-{row}", shot=row == 0)

    assert window.show_page(page_index("dataset"))
    dataset = window.page(page_index("dataset"))
    assert dataset.open_path(data)
    qtbot.waitUntil(lambda: not dataset.checking and bool(dataset.findings.findings), timeout=TIMEOUT_MS)
    codes = {f.code for f in dataset.findings.findings}
    assert {"image-corrupt", "label-not-normalized", "label-class-range"} <= codes  # the findings are on screen
    walk.read(window, "dataset-problems")
    dataset.right_tabs.setCurrentWidget(dataset.stats)
    walk.read(window, "dataset-statistics")

    assert window.open_run(read_run(run_dir))
    train = window.train_page
    qtbot.waitUntil(lambda: _replayed(train), timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: train.status_panel.evaluate_button.isVisibleTo(train), timeout=TIMEOUT_MS)  # its card
    walk.read(window, "train-replay")
    read_every_verdict(walk, window, train)
    read_the_evaluation(walk, run_dir, workspace)

    assert window.show_page(page_index("runs"))
    runs = window.page(page_index("runs"))
    qtbot.waitUntil(lambda: not runs.loading and runs.proxy.rowCount() == 1, timeout=TIMEOUT_MS)
    walk.read(window, "runs")

    assert window.show_page(page_index("export"))
    export = window.page(page_index("export"))
    qtbot.waitUntil(lambda: export.form.weights_path() != "", timeout=TIMEOUT_MS)
    weights = [export.form.weights_combo.itemText(i) for i in range(export.form.weights_combo.count())]
    assert weights == [f"{RUN} · best.pt", f"{RUN} · last.pt"]  # file names are never translated
    walk.read(window, "export")

    assert window.show_page(page_index("machines"))
    machines = window.page(page_index("machines"))
    qtbot.waitUntil(lambda: not machines.check_button.isEnabled(), timeout=TIMEOUT_MS)  # listed: none yet
    walk.read(window, "machines")

    for menu_action in window.menuBar().actions():
        walk.texts += [("menu", "QAction", action.text()) for action in (menu_action, *menu_action.menu().actions())
                       if action.text()]
    from gui.weights.weights_dialog import WeightsDialog  # noqa: PLC0415 - after the language is installed

    for name, dialog in (("settings", window.open_settings()), ("about", window.open_about()),
                         ("weights", WeightsDialog(window.workspace, window))):
        dialog.show()
        walk.read(dialog, f"dialog-{name}")
        dialog.close()
    walk_the_wizard(walk, qtbot, tmp_path, data)

    assert len({t for _w, _k, t in walk.texts}) > 300  # the walk is real: pages, findings, cells and logs read
    stray = walk.stray()
    assert stray == [], "English words on the Chinese screens:\n" + "\n".join(stray)


def _replayed(train) -> bool:
    sessions = [train.session, *(v.session for v in getattr(train, "viewers", []))]
    return any(s is not None and s.progress.status == "completed" for s in sessions)


def walk_the_wizard(walk: Walk, qtbot, tmp_path: Path, data: Path) -> None:
    """Its five steps on a 2-core CPU machine (injected facts), the measurement skipped: Review with estimates."""
    from gui.pages.page import AppServices  # noqa: PLC0415
    from gui.runs_store import RunsStore  # noqa: PLC0415
    from gui.wizard.wizard_page import DATASET, MEASURE, REVIEW, WizardPage  # noqa: PLC0415
    from tests.gui.test_wizard_page import CPU_BOX  # noqa: PLC0415

    page = WizardPage(tmp_path / "ws", facts=CPU_BOX)
    page.bind(AppServices(RunsStore(tmp_path / "ws", page), use_wizard=lambda doc: True))
    qtbot.addWidget(page)
    page.resize(1280, 720)
    page.show()
    qtbot.waitUntil(lambda: bool(page.hardware_text.text()), timeout=TIMEOUT_MS)
    for step in range(REVIEW):
        page.show_step(step)
        if step == DATASET:
            page.data_edit.setText(str(data))
            page.read_dataset()
            qtbot.waitUntil(lambda: page.summary_ds is not None, timeout=TIMEOUT_MS)
        walk.read(page, f"wizard-{step}")
    page.show_step(MEASURE)
    with qtbot.waitSignal(page.recommended, timeout=TIMEOUT_MS):  # the recommendation is an operation
        page.skip_button.click()
    assert page.stack.currentIndex() == REVIEW
    walk.read(page, "wizard-review")


@pytest.mark.parametrize("text, stray", [
    ("阶段：starting", ["starting"]),
    ("训练结束（completed），用时 6:21", ["completed"]),
    ("未测量——measure：已跳过", ["measure"]),
    ("目标：balanced", ["balanced"]),
    ("Pillow 无法读取这张图片（cannot identify image file）", ["cannot", "identify", "image", "file"]),
    ("exp2 · best.pt", []),  # a run's name and a file name
    ("GPU 0 · NVIDIA 驱动 550.54", []),
    ("Pillow 无法读取这张图片（'cannot identify image file'）", []),  # a quotation of Pillow's own words
    ("运行 yolostudio dataset prepare data.yaml --imgsz 640", []),  # a command as typed
    ("保存 data.yaml（Ctrl+S）；原文件保留为 .bak", []),
    ("circle 类没有实例", []),  # a class name of the test's dataset
])
def test_stray_english_is_told_from_names_paths_and_terms(text, stray):
    assert stray_words(text, {"circle"}) == stray
