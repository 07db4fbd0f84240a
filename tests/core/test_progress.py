"""The progress model shared by the CLI and the GUI, fed with a real recorded run and synthetic events."""

from __future__ import annotations

from pathlib import Path

from core.run.progress import RunProgress, format_duration
from core.job.protocol import make_event, read_events

RECORDED = Path(__file__).resolve().parents[1] / "fixtures" / "recorded_train_events.jsonl"


def test_recorded_run_folds_to_completed():
    progress = RunProgress()
    events = read_events(RECORDED)
    for ev in events:
        progress.feed(ev)
    epoch_ends = [e for e in events if e["type"] == "epoch_end"]
    assert progress.status == "completed" and progress.run_fraction == 1.0
    assert progress.epochs == epoch_ends[-1]["epochs"] and len(progress.epoch_times) == len(epoch_ends)
    fittest = max(epoch_ends, key=lambda e: e["fitness"])  # yolov5's best.pt epoch
    assert progress.best_epoch == fittest["epoch"]
    assert progress.best_map50 == fittest["metrics"]["metrics/mAP_0.5"]
    assert progress.best_map50_95 == fittest["metrics"]["metrics/mAP_0.5:0.95"]
    assert progress.eta_run_s() is None


def test_eta_from_measured_rates():
    p = RunProgress()
    p.feed(make_event("epoch_start", epoch=0, epochs=3, batches=100, t=0.0))
    for i in range(0, 50, 10):
        p.feed(make_event("batch", epoch=0, epochs=3, index=i, count=100, losses={"box": 0.1}, data_wait_s=0.0,
                          step_s=0.1, window={"images_per_s": 80.0, "data_wait_share": 0.1}, warmup=False,
                          t=float(i)))  # one batch per second
    eta_epoch = p.eta_epoch_s()
    assert eta_epoch is not None and abs(eta_epoch - 59) < 1e-6  # 59 batches left at 1 batch/s
    assert abs(p.eta_run_s() - (59 + 2 * 100)) < 1e-6  # no epoch measured yet: epochs at the batch rate
    p.feed(make_event("epoch_end", epoch=0, epochs=3, metrics={"metrics/mAP_0.5": 0.1}, fitness=0.1,
                      best_fitness=0.1, epoch_time_s=120.0, t=120.0))
    assert p.eta_run_s() == 240.0
    assert abs(p.run_fraction - 1 / 3) < 1e-9


def test_warmup_batches_do_not_skew_rates():
    p = RunProgress()
    p.feed(make_event("epoch_start", epoch=0, epochs=1, batches=10, t=0.0))
    p.feed(make_event("batch", epoch=0, epochs=1, index=0, count=10, losses={}, data_wait_s=5.0, step_s=0.1,
                      window={"images_per_s": 1.0, "data_wait_share": 0.98}, warmup=True, t=5.0))
    assert p.images_per_s is None and p.data_wait_share is None


def test_format_duration():
    assert format_duration(None) == "—"
    assert format_duration(65) == "1:05"
    assert format_duration(3723) == "1:02:03"


def test_the_eta_falls_steadily_with_the_measured_epoch_time_instead_of_swinging():
    """Issue 32 (2:06 → 4:02 → 0:37): each epoch takes 60 s, 20 s of batches then 40 s of validation. After the
    first epoch the ETA follows the clock within a few seconds — the batch rate alone (validation left out) made
    it drop to 20 s at each epoch's start."""
    progress = RunProgress()
    t, etas = 1000.0, []
    for epoch in range(4):
        progress.feed({"type": "epoch_start", "epoch": epoch, "epochs": 4, "batches": 10, "t": t})
        for index in range(10):
            t += 2.0
            progress.feed({"type": "batch", "epoch": epoch, "epochs": 4, "index": index, "count": 10, "t": t})
            if epoch:
                etas.append((progress.eta_run_s(), (4 - epoch) * 60.0 - (t - (1000.0 + epoch * 60.0))))
        t += 40.0
        progress.feed({"type": "epoch_end", "epoch": epoch, "epochs": 4, "epoch_time_s": 60.0, "t": t})
        if epoch:
            etas.append((progress.eta_run_s(), (3 - epoch) * 60.0))
    assert all(abs(eta - true) <= 1.0 for eta, true in etas), etas
    assert all(later <= earlier for (earlier, _), (later, _) in zip(etas, etas[1:]))
