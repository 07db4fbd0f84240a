"""One vocabulary for a run's status and stage (``core.run.words``): the CLI and the GUI say the same words."""

from __future__ import annotations

import io

import pytest

from cli.train_render import ConsoleRenderer
from core import i18n
from core.run.progress import RunProgress
from core.run.words import stage_word, status_title, status_word
from core.runs.store import RunInfo
from core.runs.status import RUN_STATUSES
from core.run.words import UNREADABLE
from gui.run_text import stage_text
from gui.runs.runs_table_model import RunsTableModel


@pytest.fixture(params=["en", "zh_CN"])
def language(request):
    if request.param != "en":
        i18n.set_language(request.param)
    yield request.param
    i18n.set_catalogue(None)


@pytest.mark.parametrize("status", [*RUN_STATUSES, UNREADABLE])
def test_the_runs_table_shows_the_clis_status_word_as_a_title(qapp, language, status):
    run = RunInfo(name="exp", path="/r/exp", status=status)
    shown = RunsTableModel.display(run, "status")
    assert shown == status_title(status)
    if language == "en":
        assert shown == status_word(status).capitalize() and shown != status
    else:
        assert shown != status.capitalize() and status_word(status) != status  # translated, both forms


@pytest.mark.parametrize("stage", ["preparing", "training", "stopping", "saving"])
def test_the_terminal_and_the_train_page_word_a_stage_alike(qapp, language, stage):
    out = io.StringIO()
    ConsoleRenderer(out, is_tty=False).event({"type": "stage", "stage": stage})
    progress = RunProgress()
    progress.feed({"type": "stage", "stage": stage})
    assert out.getvalue() == stage_word(stage) + "\n" == stage_text(progress) + "\n"
