"""Batch timing: data wait vs step time, throttled events whose windows cover every batch."""

from __future__ import annotations

from core.worker.batch_timer import BatchTimer


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def run_batch(timer: BatchTimer, clock: Clock, wait: float, step: float, images: int = 8, **kw):
    clock.now += wait
    timer.batch_start()
    clock.now += step
    return timer.batch_end(images, **kw)


def test_wait_is_gap_between_batches_and_step_is_batch_time():
    clock = Clock()
    timer = BatchTimer(min_interval_s=0.0, clock=clock)
    timer.epoch_start()
    first = run_batch(timer, clock, wait=0.3, step=0.1)
    second = run_batch(timer, clock, wait=0.05, step=0.2)
    assert (round(first.data_wait_s, 6), round(first.step_s, 6)) == (0.3, 0.1)
    assert (round(second.data_wait_s, 6), round(second.step_s, 6)) == (0.05, 0.2)


def test_validation_time_before_epoch_start_is_not_wait():
    clock = Clock()
    timer = BatchTimer(min_interval_s=0.0, clock=clock)
    timer.epoch_start()
    run_batch(timer, clock, wait=0.0, step=0.1)
    clock.now += 30.0  # validation + checkpoint
    timer.epoch_start()
    t = run_batch(timer, clock, wait=0.02, step=0.1)
    assert round(t.data_wait_s, 6) == 0.02


def test_throttled_windows_add_up_to_every_batch():
    clock = Clock()
    timer = BatchTimer(min_interval_s=0.1, clock=clock)
    timer.epoch_start()
    emitted, total_wait, total_batches = [], 0.0, 0
    for i in range(200):
        wait, step = 0.001 * (i % 7), 0.01
        total_wait += wait
        total_batches += 1
        t = run_batch(timer, clock, wait, step, force_emit=(i == 199))
        if t.emit:
            emitted.append(t.window)
    assert len(emitted) < 40  # ~10 per simulated second, not 200
    assert sum(w.batches for w in emitted) == total_batches
    assert abs(sum(w.data_wait_s for w in emitted) - total_wait) < 1e-9
    assert timer.epoch.batches == 200 and timer.run.images == 1600


def test_shares_and_rates():
    clock = Clock()
    timer = BatchTimer(min_interval_s=0.0, clock=clock)
    timer.epoch_start()
    t = run_batch(timer, clock, wait=0.25, step=0.75, images=16)
    assert t.window.data_wait_share == 0.25
    assert t.window.images_per_s == 16.0
