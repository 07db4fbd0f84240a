"""Numbers and paths read from files the user can edit: finite and in range, or a message naming file and key.

Each case is one the fault campaign found (``bench/faults_values.py`` counts them): a NUL in the settings'
workspace, ``"size": 1e400`` in the weights manifest, ``inf`` cores in a facts file, ``.nan`` in a training
config or a hyp file, ``hyp: /etc/passwd``."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest

from cli.main import main
from core.environment.facts import load_facts
from core.file_values import FileValueError, finite_number, has_control_characters, path_text
from core.training.hyp_file import hyp_problem, required_keys
from core.model_catalog import builtin_hyp_path
from core.run.progress import RunProgress, format_loss
from core.settings import read_settings
from core.training.config import MachineFacts, TrainConfig, validate_config
from core.training.options import load_config_file
from core.weights.store import WeightsStore, iter_stored
from core.workspace import resolve_workspace, settings_notes

FACTS = Path(__file__).parents[1] / "fixtures" / "facts" / "cpu-vm.json"


@pytest.mark.parametrize(("value", "ok"), [(3, True), (2.5, True), (0, True), (-1, False), (11, False),
                                           (math.nan, False), (math.inf, False), (True, False), ("3", False),
                                           (10**400, False), (None, False)])
def test_finite_number_in_range(value, ok):
    if ok:
        assert finite_number(value, file="f.json", key="k", low=0, high=10) == value
    else:
        with pytest.raises(FileValueError) as refused:
            finite_number(value, file="f.json", key="k", low=0, high=10)
        assert str(refused.value).startswith("f.json: k is ") and "from 0 to 10" in str(refused.value)


def test_a_whole_number_is_asked_for_where_one_is_needed():
    assert finite_number(4.0, file="f", key="k", integer=True) == 4
    with pytest.raises(FileValueError, match="whole number"):
        finite_number(4.5, file="f", key="k", integer=True)


@pytest.mark.parametrize("text", ["/tmp/a\0b", "/home/x\x1b[2K", "/tmp/\u009b1", "/tmp/\u200eabc"])
def test_path_text_refuses_control_and_format_characters(text):
    assert has_control_characters(text)
    with pytest.raises(FileValueError, match="settings.json: workspace"):
        path_text(text, file="settings.json", key="workspace")
    assert path_text("/home/o'brien/ws", file="s", key="workspace") == "/home/o'brien/ws"


def test_a_nul_in_the_settings_workspace_falls_back_and_is_said(tmp_path, monkeypatch, capsys):
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.json").write_text(json.dumps({"settings_version": 2, "workspace": "/tmp/a\0b",
                                                       "theme": "dark"}), encoding="utf-8")
    monkeypatch.setenv("YOLOSTUDIO_CONFIG_DIR", str(config))
    monkeypatch.delenv("YOLOSTUDIO_WORKSPACE", raising=False)
    settings, problems = read_settings()
    assert settings.workspace == "" and settings.theme == "dark"  # the rest of the file still counts
    assert len(problems) == 1 and "settings.json: workspace is" in problems[0]
    assert "\0" not in str(resolve_workspace())  # the app starts in its default workspace
    assert settings_notes() == problems and settings_notes("/elsewhere") == []
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert main(["runs"]) == 0
    assert "settings.json: workspace is" in capsys.readouterr().err


def test_a_manifest_size_of_1e400_neither_crashes_list_nor_blocks_remove(tmp_path, capsys):
    store = WeightsStore(tmp_path / "ws")
    store.root.mkdir(parents=True)
    store.path("yolov5s.pt").write_bytes(b"x")
    store.manifest_path.write_text('{"version": 1, "files": {"yolov5s.pt": {"sha256": "ab", "size": 1e400, '
                                   '"source": "download", "added": 1}}}', encoding="utf-8")
    assert [(name, state) for name, _, state in iter_stored(store)] == [("yolov5s.pt", "unlisted")]
    assert "manifest.json: files.yolov5s.pt.size is inf" in store.manifest_problem
    assert main(["--workspace", str(tmp_path / "ws"), "weights", "list"]) == 0
    assert "files.yolov5s.pt.size" in capsys.readouterr().err
    assert main(["--workspace", str(tmp_path / "ws"), "weights", "remove", "yolov5s"]) == 0
    assert json.loads(store.manifest_path.read_text(encoding="utf-8"))["files"] == {}  # the bad record went too
    assert not store.path("yolov5s.pt").exists()


@pytest.mark.parametrize(("section", "key", "value"), [("system", "logical_cores", math.inf),
                                                        ("system", "ram_total_gb", math.inf),
                                                        ("system", "usable_cores", math.nan),
                                                        ("system", "ram_total_gb", -4.0)])
def test_impossible_machine_facts_make_the_file_invalid_for_doctor_and_wizard(tmp_path, capsys, section, key,
                                                                              value):
    raw = json.loads(FACTS.read_text(encoding="utf-8"))
    raw[section][key] = value
    path = tmp_path / "facts.json"
    path.write_text(json.dumps(raw), encoding="utf-8")  # Infinity / NaN, as json writes them
    with pytest.raises(ValueError, match=f"{section}.{key}"):
        load_facts(path)
    assert main(["--workspace", str(tmp_path / "ws"), "doctor", "--facts", str(path)]) == 2
    data = tmp_path / "data.yaml"
    data.write_text("path: .\ntrain: images\nval: images\nnames: [a]\n", encoding="utf-8")
    assert main(["--workspace", str(tmp_path / "ws"), "wizard", str(data), "--facts", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count(f"{section}.{key}") == 2 and "Traceback" not in err


@pytest.mark.parametrize("text", ["label_smoothing: .nan\n", "label_smoothing: -.inf\n", "epochs: 1.0e+400\n",
                                  '{"label_smoothing": 1e400}'])
def test_a_config_file_with_a_non_finite_number_names_file_and_key(tmp_path, text):
    path = tmp_path / "train.yaml"
    path.write_text(text, encoding="utf-8")
    key = text.split(":")[0].strip('{"')
    with pytest.raises(ValueError, match=rf"train.yaml: {key} (is|=)"):
        load_config_file(path)


@pytest.fixture
def data_yaml(tmp_path: Path) -> Path:
    path = tmp_path / "data.yaml"
    path.write_text("path: .\ntrain: images/train\nval: images/val\nnames: [a, b]\n", encoding="utf-8")
    return path


def _checked(data: Path, **kw):
    return validate_config(TrainConfig(data=str(data), model="yolov5n.yaml", epochs=1, imgsz=64, batch=2,
                                       workers=0, device="cpu", **kw), MachineFacts(gpu_count=0))


def test_a_nan_option_is_refused_like_one_out_of_range(data_yaml):
    result = _checked(data_yaml, label_smoothing=math.nan)
    assert not result.ok and {p.field for p in result.errors} == {"label_smoothing"}


def test_a_hyp_that_is_not_a_hyp_file_is_refused_before_the_run(data_yaml, tmp_path):
    result = _checked(data_yaml, hyp="/etc/passwd")
    assert not result.ok and [p.field for p in result.errors] == ["hyp"]
    assert "/etc/passwd holds no hyperparameters" in result.errors[0].message


def test_a_hyp_file_needs_every_key_yolov5_reads_each_a_finite_number(tmp_path):
    reference = builtin_hyp_path("hyp.scratch-low.yaml")
    assert hyp_problem(reference) is None and "lr0" in required_keys() and "fliplr" in required_keys()
    text = reference.read_text(encoding="utf-8")
    nan = tmp_path / "nan.yaml"
    nan.write_text(text.replace("lr0: 0.01", "lr0: .nan"), encoding="utf-8")
    assert "nan.yaml: lr0 is nan" in hyp_problem(nan)
    missing = tmp_path / "missing.yaml"
    missing.write_text("\n".join(line for line in text.splitlines() if not line.startswith("mosaic:")),
                       encoding="utf-8")
    assert "missing.yaml: missing mosaic" in hyp_problem(missing)
    fifo = tmp_path / "hyp.fifo"
    os.mkfifo(fifo)  # opened without blocking, then refused: yolov5 would wait for a writer forever
    assert "not a regular file" in hyp_problem(fifo)


def test_a_nan_loss_is_shown_as_nan_never_as_zero():
    progress = RunProgress()
    progress.feed({"v": 1, "type": "batch", "t": 1.0, "epoch": 0, "epochs": 1, "index": 0, "count": 2,
                   "losses": {"box": None, "obj": 0.5, "cls": 0.25}, "data_wait_s": 0.0, "step_s": 0.1,
                   "window": {}})
    assert math.isnan(progress.losses["box"]) and progress.losses["obj"] == 0.5
    assert [format_loss(v) for v in progress.losses.values()] == ["NaN", "0.5000", "0.2500"]


def test_an_epoch_line_shows_a_non_finite_figure_as_nan():
    import io

    from cli.train_render import ConsoleRenderer
    from core.job.event_fields import clean_event

    event = clean_event({"type": "epoch_end", "epoch": 0, "epochs": 2, "epoch_time_s": 1.0,
                         "metrics": {"train/box_loss": 0.5, "train/obj_loss": None, "train/cls_loss": 0.25,
                                     "metrics/precision": 0.5, "metrics/recall": 0.5, "metrics/mAP_0.5": None,
                                     "metrics/mAP_0.5:0.95": 0.125}})  # None: what the writer makes of NaN
    line = ConsoleRenderer(io.StringIO(), is_tty=False).epoch_line(event)
    assert "box 0.5000 obj NaN cls 0.2500" in line and "mAP@0.5 NaN" in line and "0.0000" not in line
