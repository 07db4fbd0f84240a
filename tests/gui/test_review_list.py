"""The review queue's list (gui/labelling/review_list.py): read on the pool, most in need first, the reason shown."""

from __future__ import annotations

from core.boxedit.review import ReviewRow
from gui.labelling.review_list import ReviewList
from tests.waits import TIMEOUT_MS


def test_rows_arrive_most_in_need_first_with_their_reason(qtbot) -> None:
    view = ReviewList()
    qtbot.addWidget(view)
    rows = [ReviewRow(f"/q/img{i}.jpg", need=i / 10, reason=f"least certain box {1 - i / 10:.2f}") for i in range(10)]
    with qtbot.waitSignal(view.loaded, timeout=TIMEOUT_MS) as blocker:
        view.load(lambda: rows)
    assert blocker.args == [10]
    assert view.model_.rows[0].image == "/q/img9.jpg" and view.currentIndex().row() == 0
    assert view.model_.index(0).data() == "img9.jpg — least certain box 0.10"
