"""Terminal columns line up whatever the script: padding counts cells (a Chinese character takes two)."""

from __future__ import annotations

import pytest

from cli.verbs.runs import runs_table
from core import i18n
from cli.columns import cells, clip, pad
from core.runs.store import RunInfo


@pytest.mark.parametrize("text, width", [("abc", 3), ("训练", 4), ("运行 run1", 9), ("e\u0301", 1), ("", 0),
                                         ("ｆｕｌｌ", 8)])
def test_cells_count_what_a_terminal_shows(text, width):
    assert cells(text) == width


def test_pad_and_clip_work_in_cells():
    assert pad("训练", 6) == "训练  " and pad("abc", 2) == "abc"
    assert clip("训练数据集", 5) == "训练" and clip("abc", 5) == "abc"


def test_the_runs_table_lines_up_chinese_run_names(tmp_path):
    runs = [RunInfo(name="训练一", path=str(tmp_path / "a"), status="completed"),
            RunInfo(name="exp", path=str(tmp_path / "b"), status="failed")]
    lines = runs_table(runs, tmp_path).splitlines()
    columns = [cells(line[:line.index(status)]) for line, status in zip(lines[1:], ("completed", "failed"))]
    assert columns[0] == columns[1] == cells(lines[0][:lines[0].index("status")])


def test_the_runs_table_words_statuses_in_the_users_language(tmp_path):
    i18n.set_language("zh_CN")
    try:
        table = runs_table([RunInfo(name="exp", path=str(tmp_path / "a"), status="stopped")], tmp_path)
    finally:
        i18n.set_catalogue(None)  # back to the environment's choice (English in tests)
    assert "已停止" in table and "stopped" not in table
