"""How many epochs the recommendation trains, and how long that takes here: the goal fitted to this machine.

Why: the goals' epoch counts are yolov5's own figures for a GPU (``train.py --epochs`` defaults to 100; the
fine-tuning and best-accuracy counts follow from it), and on a CPU-only machine "Balanced" then meant 100
epochs and 5 h 42 min, handed to the Train page without a word. Here the epochs come from the predicted epoch
time (measured supply and demand, ``core.wizard.recommend``) and a time budget: the user's, else — on the CPU
only — the time the goal promises in its own words (``CPU_GOAL_BUDGET_S``). A choice that still takes hours
says so in words (``hours_note``), and the Train page's hand-over names what it set (``handover_words``).

Pure: numbers and a ``Goal`` in, a ``EpochFit`` (value, why, evidence) out; tests inject the epoch time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.i18n import tr, tr_n
from core.wizard.inputs import Goal

#: The most a goal takes on a CPU-only machine when the user sets no time budget: the goal's words made into
#: a figure (a product choice, shown to the user in the epochs' reason): a quick test is a matter of minutes,
#: "a good model in reasonable time" an hour, the best accuracy a night.
CPU_GOAL_BUDGET_S = {"quick": 15 * 60.0, "balanced": 3600.0, "accurate": 8 * 3600.0}
#: Fewer epochs than this teach little (yolov5's warm-up alone is 3 epochs, hyp ``warmup_epochs: 3.0``):
#: the recommendation keeps them and says the time they take instead of cutting further.
MIN_EPOCHS = 3
#: From this total a recommendation says in words that it takes hours.
HOURS_S = 3600.0


@dataclass(frozen=True)
class EpochFit:
    epochs: int
    why: str
    evidence: str
    budget_s: float | None  # the budget the epochs were fitted to (None: none applied)
    cut: bool  # fewer epochs than the goal's count


def budget_for(goal: Goal, on_cpu: bool) -> tuple[float | None, str]:
    """(the time budget that applies, whose it is: ``user``, ``cpu-goal`` or '')."""
    if goal.time_budget_s is not None:
        return goal.time_budget_s, "user"
    if on_cpu:
        return CPU_GOAL_BUDGET_S[goal.kind], "cpu-goal"
    return None, ""


def fit_epochs(goal: Goal, epochs: int, why: str, epoch_s: float, *, on_cpu: bool) -> EpochFit:
    """The goal's ``epochs`` (and its reason ``why``) cut to the budget that applies at ``epoch_s`` per epoch."""
    budget, whose = budget_for(goal, on_cpu)
    if budget is None or epochs * epoch_s <= budget:
        evidence = epochs_equation(epoch_s, epochs)
        if budget is not None:
            evidence += tr("; within {budget}", budget=duration_words(budget))
        return EpochFit(epochs, why, evidence, budget, False)
    fitted = max(MIN_EPOCHS, min(epochs, int(budget // max(epoch_s, 1e-6))))
    if whose == "user":
        text = tr("Cut from {goal_n} to fit your time budget of {budget}.", goal_n=epochs,
                  budget=duration_words(budget))
    else:
        text = tr("On this CPU {goal_n} epochs would take {total}: cut to fit the {goal} goal's {budget} (set a "
                  "time budget to choose another length).", goal_n=epochs, total=duration_words(epochs * epoch_s),
                  goal=goal_words(goal.kind), budget=duration_words(budget))
    if fitted * epoch_s > budget:
        text += " " + tr_n("Even {n} epoch takes {total} here.", "Even {n} epochs take {total} here.", fitted,
                           total=duration_words(fitted * epoch_s))
    return EpochFit(fitted, text, epochs_equation(epoch_s, fitted), budget, True)


def epochs_equation(epoch_s: float, n: int) -> str:
    """``1 min 40 s per epoch … × 3 = 5 min``: arithmetic that adds up as shown — the epoch time to the second
    (never "2 min × 3 = 5 min"), its product exact, "≈" where the total is rounded to minutes (an hour and more)."""
    per = max(1, int(round(epoch_s)))
    per_epoch = tr("{epoch} per epoch predicted on this machine", epoch=exact_duration_words(per))
    total = per * n
    shown = exact_duration_words(total) if total < HOURS_S else duration_words(total)
    if total < HOURS_S or shown == exact_duration_words(total):
        return tr("{per_epoch} × {n} = {total}", per_epoch=per_epoch, n=n, total=shown)
    return tr("{per_epoch} × {n} ≈ {total}", per_epoch=per_epoch, n=n, total=shown)


def exact_duration_words(seconds: int) -> str:
    """A whole number of seconds in words without rounding: ``1 min 40 s``, ``2 h 5 min 10 s``."""
    hours, rest = divmod(max(0, int(seconds)), 3600)
    minutes, secs = divmod(rest, 60)
    if not hours and not minutes:
        return tr("{s} s", s=secs)
    head = (tr("{h} h {m} min", h=hours, m=minutes) if minutes else tr("{h} h", h=hours)) if hours \
        else tr("{m} min", m=minutes)
    return tr("{head} {s} s", head=head, s=secs) if secs else head


def hours_note(total_s: float, *, on_cpu: bool) -> str:
    """The sentence a recommendation that takes hours carries ('' when it takes less than an hour)."""
    if total_s < HOURS_S:
        return ""
    if on_cpu:
        return tr("Training takes about {total} on this machine's CPU. A GPU, a smaller image size or the quick "
                  "test goal shortens it.", total=duration_words(total_s))
    return tr("Training takes about {total} on this machine.", total=duration_words(total_s))


def duration_words(seconds: float) -> str:
    """A duration in words with its units (``5 h 42 min``, ``12 min``, ``40 s``): a sentence reads it aloud."""
    seconds = max(0, int(round(seconds)))
    if seconds < 60:
        return tr("{s} s", s=seconds)
    hours, minutes = divmod(int(round(seconds / 60)), 60)
    if hours:
        return tr("{h} h {m} min", h=hours, m=minutes) if minutes else tr("{h} h", h=hours)
    return tr("{m} min", m=minutes)


def goal_words(kind: str) -> str:
    """A goal id (``quick``/``balanced``/``accurate``) as the wizard's Goal step calls it."""
    return {"quick": tr("quick test"), "balanced": tr("balanced"), "accurate": tr("best accuracy")}.get(kind, kind)


#: The options ``handover_words`` names: a form that changes one of them no longer says what the banner says.
HANDOVER_FIELDS = ("epochs", "model", "imgsz", "batch", "workers")


def handover_words(doc: dict[str, Any]) -> str:
    """What "Train with these settings" put on the Train form, with the predicted time: never a silent 100."""
    cfg, predicted = doc.get("config") or {}, doc.get("predicted") or {}
    epochs = cfg.get("epochs", "?")
    text = tr_n("The wizard set {n} epoch, {model}, image size {imgsz}, batch {batch}, {workers} workers: "
                "predicted {total} ({epoch} per epoch). Press Start to train.",
                "The wizard set {n} epochs, {model}, image size {imgsz}, batch {batch}, {workers} workers: "
                "predicted {total} ({epoch} per epoch). Press Start to train.", epochs,
                model=cfg.get("model", "?"), imgsz=cfg.get("imgsz", "?"), batch=cfg.get("batch", "?"),
                workers=cfg.get("workers", "?"), total=duration_words(float(predicted.get("total_s") or 0)),
                epoch=duration_words(float(predicted.get("epoch_s") or 0)))
    if doc.get("prepared_copy"):
        text += " " + tr("It trains on the prepared copy: {path}", path=cfg.get("data", ""))
    note = doc.get("hours_note") or ""
    return f"{text} {note}" if note else text
