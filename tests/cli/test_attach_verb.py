"""``yolostudio attach`` on a resumed run: the earlier stop is history, the newest start is the state."""

from __future__ import annotations

from cli.main import main
from core.job.protocol import encode, make_event
from core.runs.store import create_run
from core.run.files import EVENTS_FILE
from core.training.config import MachineFacts, TrainConfig, validate_config


def test_attach_shows_an_earlier_stop_as_history(tmp_path, capsys):
    data = tmp_path / "data.yaml"
    data.write_text("path: .\ntrain: a\nval: a\nnames: [x]\n")
    run = create_run(tmp_path / "ws", validate_config(TrainConfig(data=str(data), device="cpu", epochs=2),
                                                     MachineFacts(0)))
    first = [make_event("stage", stage="starting", pid=1, create_time=1.0),
             make_event("epoch_start", epoch=1, epochs=2, batches=4),
             make_event("done", status="stopped", elapsed_s=30.0, stopped_at={"epoch": 1, "batches_done": 2})]
    second = [make_event("stage", stage="starting", pid=1, create_time=2.0),
              make_event("epoch_start", epoch=1, epochs=2, batches=4),
              make_event("done", status="completed", elapsed_s=12.0)]
    (run / EVENTS_FILE).write_text("".join(encode(e) for e in first + second))
    assert main(["--workspace", str(tmp_path / "ws"), "attach", run.name]) == 0
    out = capsys.readouterr().out
    assert "Earlier: the run stopped in epoch 2 after 30 s, then was resumed." in out
    assert out.index("Earlier") < len(out) and "stopped" not in out[out.index("resumed."):].lower()


def test_earlier_endings_are_worded_in_the_users_language():
    from cli.verbs.attach import history_lines
    from core import i18n

    events = [{"type": "epoch_start", "epoch": 2}, {"type": "done", "status": "stopped", "elapsed_s": 40.0}]
    assert history_lines(events) == ["Earlier: the run stopped in epoch 3 after 40 s, then was resumed."]
    i18n.set_language("zh_CN")
    try:
        [line] = history_lines(events)
    finally:
        i18n.set_catalogue(None)
    assert "已停止" in line and "stopped" not in line
