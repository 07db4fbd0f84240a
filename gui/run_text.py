"""Words for a run: stage names, the progress line, log lines for events, the status-bar summary.

Pure functions from ``core.run.progress.RunProgress`` and protocol events to translated text, so the Train
page, the status bar and tests read the same sentences. Figures come from the progress model only —
nothing here recomputes progress or ETAs.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QDateTime, QLocale

from core.job.jobs import JobOutcome
from core.run.progress import RunProgress, format_duration
from core.run.words import stage_word, status_title, status_word

DASH = "—"


def _tr(text: str) -> str:
    return QCoreApplication.translate("RunText", text)


def date_time_text(seconds: float) -> str:
    """A moment in the user's locale (``12/1/26 6:15 AM``, ``2026/12/1 06:15``). The bare C/POSIX locale of
    a server or container has no date format of its own ("1 12 2026 06:15"): ISO 8601 reads unambiguously."""
    moment = QDateTime.fromSecsSinceEpoch(int(seconds))
    locale = QLocale()
    if locale.language() == QLocale.Language.C:
        return moment.toString("yyyy-MM-dd HH:mm")
    return locale.toString(moment, QLocale.FormatType.ShortFormat)


def stage_text(progress: RunProgress) -> str:
    """The stage line: the words of ``core.run.words`` (the CLI prints the same)."""
    if progress.stage == "done":
        status = progress.status or ""
        return status_title(status) if status in ("completed", "stopped", "failed") else _tr("Ended")
    return stage_word(progress.stage) or progress.stage


def _number(value: float | None, pattern: str) -> str:
    return DASH if value is None else pattern.format(value)


def ended_text(outcome: JobOutcome, *, with_message: bool = True) -> str:
    """The stage line once a worker start has ended (the progress model only knows what was said)."""
    if outcome.status in ("completed", "stopped"):
        return status_title(outcome.status)
    if with_message and outcome.message:
        return _tr("Failed: {message}").format(message=outcome.message)
    return status_title("failed")


def trained_images(outcome: JobOutcome | None) -> tuple[int, float] | None:
    """(images trained, seconds) of the run's ending start: its batches' images (``done.run_timing``) and the
    time the card shows beside them (``done.elapsed_s``)."""
    done = outcome.done if outcome is not None and outcome.done else {}
    images = (done.get("run_timing") or {}).get("images")
    seconds = done.get("elapsed_s")
    if isinstance(images, (int, float)) and images > 0 and isinstance(seconds, (int, float)) and seconds > 0:
        return int(images), float(seconds)
    return None


def average_speed(outcome: JobOutcome | None) -> float | None:
    """The run's average images/s once it has ended: images trained / training time, the two figures the card
    shows (issue 32: the efficiency summary's rate left out warm-up and validation — "—" on a small run, 175 where
    2,304 images in 0:28 is 82); the summary's rate only where the worker did not count its images."""
    counted = trained_images(outcome)
    if counted is not None:
        return counted[0] / counted[1]
    efficiency = (outcome.done.get("efficiency") if outcome is not None and outcome.done else None) or {}
    value = efficiency.get("images_per_s")
    return float(value) if isinstance(value, (int, float)) else None


def detail_text(progress: RunProgress, *, live: bool = True, average: float | None = None) -> str:
    """``Epoch 3/30 · batch 12/16 · 312 img/s · data wait 12 % · ETA 0:04:12`` (no ETA once ended). Once
    ended, ``average`` (the run's average images/s) replaces the speed of the last batches."""
    if not progress.epochs:
        return _tr("Waiting for the first epoch…")
    if not live and average is not None:
        return _tr("Epoch {epoch}/{epochs} · batch {batch}/{batches} · {speed} img/s on average").format(
            epoch=min(progress.epoch + 1, progress.epochs), epochs=progress.epochs, batch=progress.batch,
            batches=progress.batches or DASH, speed=f"{average:.1f}")
    return _tr("Epoch {epoch}/{epochs} · batch {batch}/{batches} · {speed} img/s · data wait {wait} % · "
               "ETA {eta}").format(
        epoch=min(progress.epoch + 1, progress.epochs), epochs=progress.epochs,
        batch=progress.batch, batches=progress.batches or DASH,
        speed=_number(progress.images_per_s, "{:.0f}"),
        wait=_number(None if progress.data_wait_share is None else 100 * progress.data_wait_share, "{:.0f}"),
        eta=format_duration(progress.eta_run_s() if live else None))


def best_text(progress: RunProgress) -> str:
    if progress.best_map50 is None:
        return _tr("Best mAP: — (known after the first validation)")
    # Said as what it is: the best epoch's validation during training. best.pt's own validation at the end (the
    # completion card) can differ a little: yolov5 saves the weights in 16 bits and validates that file again.
    return _tr("Best epoch {epoch}, validated during training: mAP@0.5 {map50} · mAP@0.5:0.95 {map50_95}").format(
        map50=f"{progress.best_map50:.3f}", epoch=(progress.best_epoch or 0) + 1,
        map50_95=_number(progress.best_map50_95, "{:.3f}"))


def summary_text(run_name: str, progress: RunProgress) -> str:
    """The status bar's glance at the active run."""
    if not progress.epochs:
        return _tr("Run {name}: {stage}").format(name=run_name, stage=stage_text(progress))
    return _tr("Run {name} · epoch {epoch}/{epochs} · {percent} % · ETA {eta}").format(
        name=run_name, epoch=min(progress.epoch + 1, progress.epochs), epochs=progress.epochs,
        percent=f"{100 * progress.run_fraction:.0f}", eta=format_duration(progress.eta_run_s()))


def log_line(event: dict[str, Any]) -> str | None:
    """The log view's line for an event; None for events that only feed plots and progress."""
    kind = event.get("type")
    if kind == "log":
        level, message = event.get("level", "info"), str(event.get("message", ""))
        if level == "warning":
            return _tr("Warning: {message}").format(message=message)
        return _tr("Error: {message}").format(message=message) if level == "error" else message
    if kind == "warning":
        return _tr("Warning: {message} {hint}").format(message=event.get("message", ""),
                                                       hint=event.get("hint", "")).rstrip()
    if kind == "error":
        return _tr("Error: {message} — {hint}").format(message=event.get("message", ""), hint=event.get("hint", ""))
    if kind == "stage" and event.get("stage") in ("starting", "preparing", "training", "stopping", "finished"):
        detail = event.get("detail")
        name = stage_word(str(event.get("stage"))) or str(event.get("stage"))  # the id's words, as on the stage line
        return (_tr("Stage: {stage} ({detail})").format(stage=name, detail=detail) if detail
                else _tr("Stage: {stage}").format(stage=name))
    if kind == "hello":
        versions = event.get("versions") or {}
        devices = ", ".join(str(d.get("name", "")) for d in event.get("devices") or []) or _tr("CPU")
        return _tr("Worker ready: PyTorch {torch}, yolov5 {yolov5}, on {devices}").format(
            torch=versions.get("torch", DASH), yolov5=versions.get("yolov5", DASH), devices=devices)
    if kind == "epoch_end":
        metrics = event.get("metrics") or {}
        return _tr("Epoch {epoch}/{epochs} done in {time}: mAP@0.5 {map50}, mAP@0.5:0.95 {map50_95}").format(
            epoch=int(event.get("epoch", 0)) + 1, epochs=event.get("epochs", DASH),
            time=format_duration(event.get("epoch_time_s")),
            map50=_number(metrics.get("metrics/mAP_0.5"), "{:.3f}"),
            map50_95=_number(metrics.get("metrics/mAP_0.5:0.95"), "{:.3f}"))
    if kind == "checkpoint":
        return _tr("Checkpoint saved: {path}").format(path=event.get("path", ""))
    if kind == "done":
        return _tr("Run ended ({status}) after {elapsed}").format(
            status=status_word(str(event.get("status", ""))) or DASH, elapsed=format_duration(event.get("elapsed_s")))
    return None
