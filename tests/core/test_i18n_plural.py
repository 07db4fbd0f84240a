"""``core.i18n.tr_n``: a sentence with a count reads right in English for 1 and for more ("1 epoch", never
"1 epochs"), Chinese gets its one form for both, and the catalogue tool extracts both sentences; the texts a
user meets most use it (the wizard's hand-over, the prepared copy's words, the CLI's refusal)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from core import i18n
from core.dataset.prepare import PrepareResult
from core.i18n import tr_n
from core.wizard.prepared_copy import CopyRequest, copy_words
from core.wizard.time_fit import handover_words
from tools.i18n import _Extractor


@pytest.fixture(autouse=True)
def english():
    i18n.set_catalogue({})
    yield
    i18n.set_catalogue(None)


@pytest.mark.parametrize(("n", "expected"), [(0, "0 epochs left on cpu"), (1, "1 epoch left on cpu"),
                                             (2, "2 epochs left on cpu"), (11, "11 epochs left on cpu")])
def test_english_says_the_singular_only_for_one(n, expected):
    assert tr_n("{n} epoch left on {device}", "{n} epochs left on {device}", n, device="cpu") == expected


def test_chinese_has_one_form_for_both():
    i18n.set_catalogue({"{n} epoch left": "剩余 {n} 轮", "{n} epochs left": "剩余 {n} 轮"})
    assert tr_n("{n} epoch left", "{n} epochs left", 1) == "剩余 1 轮"
    assert tr_n("{n} epoch left", "{n} epochs left", 3) == "剩余 3 轮"


def test_the_extractor_takes_both_sentences_into_the_core_catalogue():
    source = 'from core.i18n import tr_n\nx = tr_n("{n} fold left", "{n} folds left", k)\n'
    tree = ast.parse(source)
    extractor = _Extractor("sample.py", tree)
    extractor.visit(tree)
    assert [(m.context, m.source) for m in extractor.messages] == [("core", "{n} fold left"), ("core", "{n} folds left")]


def test_the_wizard_hand_over_says_one_epoch():
    doc = {"config": {"epochs": 1, "model": "yolov5n.yaml", "imgsz": 64, "batch": 8, "workers": 2},
           "predicted": {"total_s": 5, "epoch_s": 5}}
    assert handover_words(doc).startswith("The wizard set 1 epoch, yolov5n.yaml")
    doc["config"]["epochs"] = 3
    assert handover_words(doc).startswith("The wizard set 3 epochs, yolov5n.yaml")


def test_the_prepared_copy_says_one_image_resized():
    request = CopyRequest(Path("/data/ds/data.yaml"), 640)
    one = PrepareResult(Path("/cache/data.yaml"), Path("/cache"), images=40, written=1)
    assert "(images resized to 640 px; 1 image resized now)" in copy_words(one, request)
    two = PrepareResult(Path("/cache/data.yaml"), Path("/cache"), images=40, written=2, resumed=1)
    assert "2 images resized now, 1 kept" in copy_words(two, request)


def test_the_tune_line_of_a_trial_stopped_after_one_epoch():
    """ASHA stops most trials after their first epoch: the line a user reads most."""
    import io

    from cli.verbs.tune import TuneConsole

    out = io.StringIO()
    console = TuneConsole(out=out)
    console.event({"type": "trial", "trial": 3, "state": "stopped", "epochs": 1, "fitness": 0.25})
    console.event({"type": "trial", "trial": 4, "state": "completed", "epochs": 5, "fitness": 0.5})
    assert out.getvalue().splitlines() == ["trial 3: stopped, 1 epoch, fitness 0.2500",
                                           "trial 4: completed, 5 epochs, fitness 0.5000"]
