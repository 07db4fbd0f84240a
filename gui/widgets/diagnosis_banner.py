"""The bottleneck monitor's latest verdict on the Train page, with its evidence and a one-click fix.

Shows the newest ``diagnosis`` event (``core/training/bottleneck.py`` decides; this only displays): icon and
words by severity, the title, the detail, and the figures that triggered it. When the verdict carries
prescriptions, "Apply to next run…" asks for ``apply_requested``; the page shows the changes
(field: old → new, with the reason), asks to confirm, and writes them into the form. ``healthy`` is a
quiet one-line ok, never a nag; a dismissed verdict stays hidden until the verdict changes.
"""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton, QVBoxLayout, QWidget

from core.training.bottleneck import throttle_words
from gui.dialogs import ask_yes
from gui.widgets.levels import level_colour, level_icon, level_word


def _tr(text: str) -> str:
    return QCoreApplication.translate("DiagnosisBanner", text)


def _share(value: Any) -> str:
    return f"{100 * float(value):.0f} %"


def _fixed(digits: int, unit: str) -> Any:
    """``unit`` is source text (marked with ``QT_TRANSLATE_NOOP``), translated when shown."""
    return lambda value: _tr("{value} {unit}").format(value=f"{float(value):.{digits}f}", unit=_tr(unit))


#: evidence key -> (label, formatter); unknown keys are shown as they are. Each label is written out in
#: QT_TRANSLATE_NOOP so the extractor finds it (a wrapper around it hid them: English on a Chinese screen).
EVIDENCE: dict[str, tuple[str, Any]] = {
    "data_wait_share": (QT_TRANSLATE_NOOP("DiagnosisBanner", "data wait"), _share),
    "images_per_s": (QT_TRANSLATE_NOOP("DiagnosisBanner", "throughput"),
                     _fixed(1, QT_TRANSLATE_NOOP("DiagnosisBanner", "images/s"))),
    "cpu_percent": (QT_TRANSLATE_NOOP("DiagnosisBanner", "CPU"),
                    _fixed(0, QT_TRANSLATE_NOOP("DiagnosisBanner", "%"))),
    "cpu_count": (QT_TRANSLATE_NOOP("DiagnosisBanner", "cores"), str),
    "others_cpu_percent": (QT_TRANSLATE_NOOP("DiagnosisBanner", "other programs' CPU"),
                           _fixed(0, QT_TRANSLATE_NOOP("DiagnosisBanner", "%"))),
    "own_cpu_percent": (QT_TRANSLATE_NOOP("DiagnosisBanner", "this training's CPU"),
                        _fixed(0, QT_TRANSLATE_NOOP("DiagnosisBanner", "%"))),
    "cpu_wait_percent": (QT_TRANSLATE_NOOP("DiagnosisBanner", "waiting for a free core"),
                         _fixed(0, QT_TRANSLATE_NOOP("DiagnosisBanner", "% of a core"))),
    "iowait_percent": (QT_TRANSLATE_NOOP("DiagnosisBanner", "I/O wait"),
                       _fixed(0, QT_TRANSLATE_NOOP("DiagnosisBanner", "%"))),
    "disk_read_mb_s": (QT_TRANSLATE_NOOP("DiagnosisBanner", "disk read"),
                       _fixed(1, QT_TRANSLATE_NOOP("DiagnosisBanner", "MB/s"))),
    "workers": (QT_TRANSLATE_NOOP("DiagnosisBanner", "workers"), str),
    "gpu_util_percent": (QT_TRANSLATE_NOOP("DiagnosisBanner", "GPU busy"),
                         _fixed(0, QT_TRANSLATE_NOOP("DiagnosisBanner", "%"))),
    "gpu_mem_share": (QT_TRANSLATE_NOOP("DiagnosisBanner", "GPU memory used"), _share),
    "batch_size": (QT_TRANSLATE_NOOP("DiagnosisBanner", "batch"), str),
    "throttled_share": (QT_TRANSLATE_NOOP("DiagnosisBanner", "throttled"), _share),
    "max_temperature_c": (QT_TRANSLATE_NOOP("DiagnosisBanner", "max temperature"),
                          _fixed(0, QT_TRANSLATE_NOOP("DiagnosisBanner", "°C"))),
    "gpus_seen_by_nvml": (QT_TRANSLATE_NOOP("DiagnosisBanner", "GPUs seen by NVML"), str),
    "training_on_gpu": (QT_TRANSLATE_NOOP("DiagnosisBanner", "training on GPU"),
                        lambda v: _tr("yes") if v else _tr("no")),
    "reasons": (QT_TRANSLATE_NOOP("DiagnosisBanner", "reasons"),
                lambda v: ", ".join(throttle_words(str(r)) for r in v) if isinstance(v, list) else str(v)),
}


def evidence_text(evidence: dict[str, Any]) -> str:
    """``data wait 34 % · CPU 41 % · workers 2`` — the measured figures, with units; unknown ones skipped."""
    parts = []
    for key, value in (evidence or {}).items():
        if value is None or value == []:
            continue
        label, fmt = EVIDENCE.get(key, (key, str))
        try:
            shown = fmt(value)
        except (TypeError, ValueError):
            shown = str(value)
        parts.append(_tr("{label} {value}").format(label=_tr(label), value=shown))
    return " · ".join(parts)


def real_changes(rows: list[tuple[str, str, str, str]]) -> list[tuple[str, str, str, str]]:
    """The rows of (field, old, new, reason) that change something: "imgsz: 64 → 64" is not a change (issue 32)."""
    return [row for row in rows if str(row[1]).strip() != str(row[2]).strip()]


def confirm_changes(parent: QWidget | None, rows: list[tuple[str, str, str, str]]) -> bool:
    """Ask before changing the form: rows of (field, old, new, reason). Tests monkeypatch this."""
    lines = "\n".join(_tr("• {field}: {old} → {new} — {reason}").format(field=f, old=o, new=n, reason=r)
                      for f, o, n, r in rows)
    return ask_yes(parent, _tr("Apply to the next run?"),
                   _tr("These options will be changed in the form for the next run (the current run is not "
                       "touched):\n\n{changes}").format(changes=lines), default_yes=True)


class DiagnosisBanner(QFrame):
    apply_requested = Signal(list)  # the prescriptions [{field, value, reason}]

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("DiagnosisBanner")
        self.verdict: dict[str, Any] | None = None
        self._dismissed_code: str | None = None
        self._icon = QLabel(self)
        self.title_label = QLabel(self, wordWrap=True)
        self.title_label.setTextFormat(Qt.TextFormat.RichText)
        self.detail_label = QLabel(self, wordWrap=True)
        self.detail_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.evidence_label = QLabel(self, wordWrap=True)
        self.evidence_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.apply_button = QPushButton(self.tr("Apply to next run…"), self)
        self.apply_button.setToolTip(self.tr("Shows the suggested option changes and, once you confirm, sets "
                                             "them in the form for the next run"))
        self.apply_button.clicked.connect(self._on_apply)
        self.close_button = QToolButton(self, text="✕", autoRaise=True, clicked=self.dismiss)
        self.close_button.setToolTip(self.tr("Dismiss until the verdict changes"))
        self.close_button.setAccessibleName(self.tr("Dismiss"))
        texts = QVBoxLayout()
        texts.setSpacing(1)
        texts.addWidget(self.title_label)
        texts.addWidget(self.detail_label)
        texts.addWidget(self.evidence_label)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 4, 6, 4)
        layout.addWidget(self._icon, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(texts, 1)
        layout.addWidget(self.apply_button, 0, Qt.AlignmentFlag.AlignVCenter)
        layout.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        self.hide()

    @property
    def code(self) -> str:
        return str((self.verdict or {}).get("code") or "")

    @property
    def prescriptions(self) -> list[dict[str, Any]]:
        return [p for p in (self.verdict or {}).get("prescriptions") or [] if isinstance(p, dict) and p.get("field")]

    def clear(self) -> None:
        self.verdict, self._dismissed_code = None, None
        self.hide()

    def dismiss(self) -> None:
        self._dismissed_code = self.code
        self.hide()

    def show_diagnosis(self, event: dict[str, Any]) -> None:
        same = self.verdict is not None and all(self.verdict.get(k) == event.get(k) for k in (
            "code", "severity", "title", "detail", "evidence", "prescriptions"))
        self.verdict = event
        if same:  # repeated at every epoch end: nothing to redo (a style sheet re-polishes the whole frame)
            return
        severity = str(event.get("severity") or "info")
        title, detail = str(event.get("title") or ""), str(event.get("detail") or "")
        quiet = event.get("code") == "healthy" or severity == "ok"
        self._icon.setPixmap(level_icon(severity).pixmap(16 if quiet else 22, 16 if quiet else 22))
        if quiet:  # one calm line: figures inline, no frame, nothing to press
            self.setStyleSheet("")
            self.title_label.setText(self.tr("<b>{word}:</b> {title} — {detail}").format(
                word=escape(self.tr("Bottleneck monitor")), title=escape(title), detail=escape(detail)))
            self.detail_label.hide()
            self.evidence_label.hide()
            self.apply_button.hide()
            self.close_button.hide()
        else:
            colour = level_colour(severity)
            self.setStyleSheet(
                f"#DiagnosisBanner {{ border-left: 4px solid {colour.name()}; border-radius: 3px;"
                f" background: rgba({colour.red()}, {colour.green()}, {colour.blue()}, 28); }}")
            self.title_label.setText(self.tr("<b>{word} — {title}</b>").format(
                word=escape(level_word(severity)), title=escape(title)))
            self.detail_label.setText(detail)
            self.detail_label.setVisible(bool(detail))
            figures = evidence_text(event.get("evidence") or {})
            self.evidence_label.setText(self.tr("Measured: {figures}").format(figures=figures))
            self.evidence_label.setVisible(bool(figures))
            self.apply_button.setVisible(bool(self.prescriptions))
            self.close_button.show()
        self.setVisible(self._dismissed_code != self.code)
        if self._dismissed_code != self.code:
            self._dismissed_code = None

    def _on_apply(self) -> None:
        if self.prescriptions:
            self.apply_requested.emit(self.prescriptions)
