"""Issue 32: the bottleneck banner's evidence line ("data wait 19 % · throughput … images/s · cores · I/O wait ·
workers") was English on a Chinese screen — its labels sat behind a wrapper the extractor could not see.
Every label of the table is now read in Chinese."""

from __future__ import annotations

from gui.widgets.diagnosis_banner import EVIDENCE, evidence_text
from tests.gui.languages import app_in_language
from tests.latin_words import stray_words

SAMPLE = {"data_wait_share": 0.19, "images_per_s": 22.4, "cpu_percent": 100, "cpu_count": 2, "others_cpu_percent": 70, "own_cpu_percent": 25,
          "cpu_wait_percent": 60, "iowait_percent": 3,
          "disk_read_mb_s": 1.5, "workers": 2, "gpu_util_percent": 40, "gpu_mem_share": 0.3, "batch_size": 16,
          "throttled_share": 0.1, "max_temperature_c": 71, "gpus_seen_by_nvml": 1, "training_on_gpu": True,
          "reasons": ["x"]}


def test_every_evidence_label_is_chinese(qtbot):
    assert set(SAMPLE) == set(EVIDENCE)  # a new label is added to this sample too
    with app_in_language("zh_CN"):
        line = evidence_text(SAMPLE)
    assert "等待数据 19 %" in line and "吞吐量" in line and "张/秒" in line
    assert "60 %（以单个核计）" in line  # "130 % 个核" read as "130 % cores"
    assert not stray_words(line, {"x"}), line


def test_the_confusion_words_say_background_in_chinese(qtbot):
    """Evaluate's "'background' 行/列" sat beside the matrix's 背景: the same word now, and a whole sentence."""
    from core.evaluation.words import confusion_words  # noqa: PLC0415

    confusion = {"labels": ["a", "background"], "matrix": [[3, 1], [137, 0]]}
    with app_in_language("zh_CN"):
        lines = confusion_words(confusion)
    assert any("“背景”行：137 个" in line for line in lines) and any("“背景”列：1 个" in line for line in lines)
    assert not any("background" in line for line in lines)
