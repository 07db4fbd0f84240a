"""How a training run looks in a terminal: a live progress line and per-epoch metrics.

``ConsoleRenderer`` redraws one progress line in place on a terminal (at most ~4 times a second) and
prints one line per epoch; when stdout is a file (``nohup``), it prints only the epoch lines and
milestones, so logs stay readable. (``--json`` uses ``cli.render.JsonEvents``: the raw event stream.)
"""

from __future__ import annotations

import time
from typing import IO, Any

from cli.progress_line import ProgressLine
from cli.render import EventRenderer, shown, shown_event
from core.i18n import tr
from core.job.jobs import JobOutcome
from core.run.progress import RunProgress, format_duration, format_loss
from core.run.words import stage_word

#: The stages worth a line of their own in a terminal (the words are core.run.words', as the GUI shows them).
_NOTED_STAGES = ("preparing", "training", "stopping", "saving")


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.0f}%"


class ConsoleRenderer(EventRenderer):
    def __init__(self, stream: IO[str] | None = None, *, is_tty: bool | None = None, width: int = 24) -> None:
        super().__init__(False, stream)
        self.is_tty = self.out.isatty() if is_tty is None else is_tty
        self.width = width
        self.progress = RunProgress()
        self.line = ProgressLine(self.out, tty=self.is_tty)  # the batch bar, redrawn in place
        self._last_draw = 0.0
        self.device_type: str | None = None  # from the hello event: "cuda" or "cpu"
        self._last_diagnosis: str | None = None

    # -- output helpers -------------------------------------------------------------------------------
    def _line(self, text: str) -> None:
        self.line.say(text)

    def note(self, text: str) -> None:
        self._line(text)

    def text(self, line: str) -> None:
        self._line(shown(line))

    def finish(self, outcome: JobOutcome) -> None:
        if outcome.synthetic:  # on stdout, after the last progress line, where the user is looking
            self._line(tr("error: {reason}", reason=shown(outcome.message)))
            if outcome.hint:
                self._line("  → " + shown(outcome.hint))

    def bar_text(self) -> str:
        p = self.progress
        filled = int(round(p.epoch_fraction * self.width))
        bar = "█" * filled + "░" * (self.width - filled)
        losses = " ".join(f"{k} {format_loss(v)}" for k, v in p.losses.items())
        ips = "—" if p.images_per_s is None else f"{p.images_per_s:.0f}"
        # ETA before the losses: a line wider than the terminal is clipped at its end (cli.progress_line), and on
        # an 80-column terminal the clip took the ETA, the figure people look for
        return tr("Epoch {epoch}/{epochs} {bar} {batch}/{batches}  ETA {eta}  {losses}  {ips} img/s  "
                  "data wait {wait}", epoch=p.epoch + 1, epochs=p.epochs, bar=bar, batch=p.batch, batches=p.batches,
                  losses=losses, ips=ips, wait=_pct(p.data_wait_share), eta=format_duration(p.eta_run_s()))

    # -- events ---------------------------------------------------------------------------------------
    def event(self, ev: dict[str, Any]) -> None:
        ev = shown_event(ev)  # the worker's words and the run's events file are anyone's text
        self.progress.feed(ev)
        kind = ev.get("type")
        if kind == "hello":
            self.device_type = ev.get("device_type")
            versions = ev.get("versions", {})
            devices = ev.get("devices") or []
            device = ", ".join(d.get("name", "?") for d in devices) or tr("CPU (no CUDA device)")
            self._line(tr("torch {torch} (CUDA {cuda}) · yolov5 {yolov5} · {device}", torch=versions.get("torch"),
                          cuda=versions.get("cuda") or tr("none"), yolov5=versions.get("yolov5"), device=device))
        elif kind == "stage" and ev.get("stage") in _NOTED_STAGES:
            self._line(stage_word(ev["stage"]) or ev["stage"])
        elif kind == "batch" and self.is_tty:
            now = time.monotonic()
            if now - self._last_draw >= 0.25 or ev.get("index") == ev.get("count", 0) - 1:
                self._last_draw = now
                self.line.show(self.bar_text())
        elif kind == "epoch_end":
            self._line(self.epoch_line(ev))
        elif kind == "diagnosis" and ev.get("code") != self._last_diagnosis:
            self._last_diagnosis = ev.get("code")
            self._line(self.diagnosis_text(ev))
        elif kind == "warning":
            self._line(tr("warning: {message}", message=ev.get("message", "")))
        elif kind == "log" and ev.get("level") in ("warning", "error"):
            self._line(str(ev.get("message", "")))
        elif kind == "error":
            self._line(tr("error: {message}", message=ev.get("message", "")))
            if ev.get("hint"):
                self._line("  → " + str(ev["hint"]))
        elif kind == "done":
            self._line(self.done_text(ev))

    def epoch_line(self, ev: dict[str, Any]) -> str:
        m = ev.get("metrics") or {}
        timing = ev.get("timing") or {}
        ips = timing.get("images_per_s")
        best = tr(" (best)") if ev.get("is_best") else ""
        def shown(key: str, digits: int = 4) -> str:  # a figure the event lacks was not finite: NaN, never 0
            value = m.get(key)
            return format_loss(value, digits) if isinstance(value, (int, float)) else "NaN"

        return tr("Epoch {epoch}/{epochs}  box {box} obj {obj} cls {cls} | P {p} R {r} "
                  "mAP@0.5 {m50} mAP@0.5:0.95 {m95} | {secs:.1f} s, {ips} img/s, data wait {wait}{best}",
                  epoch=int(ev.get("epoch", 0)) + 1, epochs=ev.get("epochs"),
                  box=shown("train/box_loss"), obj=shown("train/obj_loss"), cls=shown("train/cls_loss"),
                  p=shown("metrics/precision", 3), r=shown("metrics/recall", 3),
                  m50=shown("metrics/mAP_0.5", 3), m95=shown("metrics/mAP_0.5:0.95", 3),
                  secs=ev.get("epoch_time_s") or 0.0, ips="—" if ips is None else f"{ips:.0f}",
                  wait=_pct(timing.get("data_wait_share")), best=best)

    def diagnosis_text(self, ev: dict[str, Any]) -> str:
        lines = [tr("Bottleneck monitor [{code}]: {title}", code=ev.get("code"), title=ev.get("title", "")),
                 "  " + str(ev.get("detail", ""))]
        for p in ev.get("prescriptions") or []:
            lines.append(tr("  → next run: --{field} {value} ({reason})", field=str(p.get("field")).replace("_", "-"),
                            value=p.get("value"), reason=p.get("reason", "")))
        return "\n".join(lines)

    def done_text(self, ev: dict[str, Any]) -> str:
        p = self.progress
        status = ev.get("status")
        lines = []
        if status == "completed":
            lines.append(tr("Completed in {time}.", time=format_duration(ev.get("elapsed_s"))))
        elif status == "stopped":
            lines.append(tr("Stopped after {time}; resume with 'yolostudio resume RUN'.",
                            time=format_duration(ev.get("elapsed_s"))))
        else:
            lines.append(tr("Failed after {time}.", time=format_duration(ev.get("elapsed_s"))))
        final = ev.get("final_metrics") or {}
        m50 = final.get("map50", p.best_map50)
        m95 = final.get("map50_95", p.best_map50_95)
        if m50 is not None:
            lines.append(tr("Best mAP@0.5 {m50:.3f}, mAP@0.5:0.95 {m95:.3f}", m50=m50, m95=m95 or 0.0))
        eff = ev.get("efficiency") or {}
        if eff.get("images_per_s") is not None:
            gpu = eff.get("gpu_util_mean_percent")
            if self.device_type == "cpu":  # no GPU trained: say so instead of "GPU busy —"
                lines.append(tr("Efficiency: {ips:.0f} img/s on the CPU, data wait {wait}",
                                ips=eff["images_per_s"], wait=_pct(eff.get("data_wait_share"))))
            else:
                lines.append(tr("Efficiency: {ips:.0f} img/s, data wait {wait}, GPU busy {gpu}",
                                ips=eff["images_per_s"], wait=_pct(eff.get("data_wait_share")),
                                gpu="—" if gpu is None else f"{gpu:.0f}%"))
        if ev.get("best"):
            lines.append(tr("Best weights: {path}", path=ev["best"]))
        if ev.get("last"):
            lines.append(tr("Last weights: {path}", path=ev["last"]))
        return "\n".join(lines)
