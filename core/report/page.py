"""The deployment report as one self-contained, printable HTML page (inline CSS, no script, no network).

Every word goes through ``tr`` bound to the page's language (``core.i18n.translator``), so a Chinese page is
written while the app speaks English and the other way round. Values (paths, class names) are escaped. A4 on
paper: ``@page`` sets the size and margins, ``@media print`` drops the screen's width limit and keeps a table's
row from splitting across pages.
"""

from __future__ import annotations

import html
import time
from typing import Any, Callable

from core.i18n import translator

Tr = Callable[..., str]

#: The export formats by their products' names (``core.export.options.FORMATS``: onnx, engine, torchscript,
#: openvino; "engine" is TensorRT's file).
FORMAT_NAMES = {"onnx": "ONNX", "engine": "TensorRT", "torchscript": "TorchScript", "openvino": "OpenVINO"}

STYLE = """
@page { size: A4; margin: 14mm 12mm; }
body { font-family: "Noto Sans CJK SC", "Microsoft YaHei", "PingFang SC", "DejaVu Sans", sans-serif;
       font-size: 10.5pt; color: #111; max-width: 190mm; margin: 1em auto; line-height: 1.35; }
h1 { font-size: 16pt; margin: 0 0 2pt 0; }
h2 { font-size: 12pt; margin: 12pt 0 4pt 0; border-bottom: 1px solid #999; }
p.meta, p.note { color: #444; margin: 2pt 0; }
p.warn { color: #8a1f11; font-weight: bold; }
table { border-collapse: collapse; width: 100%; margin: 3pt 0; }
th, td { border: 1px solid #bbb; padding: 2pt 4pt; text-align: left; vertical-align: top; }
th { background: #eee; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.total td { font-weight: bold; }
code { font-size: 9pt; word-break: break-all; }
.big { font-size: 14pt; font-weight: bold; }
.sign td { height: 22pt; width: 68%; }
@media print { body { max-width: none; margin: 0; } tr, .keep { page-break-inside: avoid; }
               h2 { page-break-after: avoid; } }
"""


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _p(cls: str, text: str) -> str:
    """A paragraph of ``text`` (escaped) with a class of the style."""
    return f'<p class="{cls}">{_e(text)}</p>'


def _num(value: Any, digits: int = 3) -> str:
    return "—" if value is None else f"{float(value):.{digits}f}"


def _ranged(figure: dict[str, Any], digits: int = 3) -> str:
    """"0.812 (0.760–0.861)"; a dash where the figure is undefined."""
    if figure.get("value") is None:
        return "—"
    if figure.get("low") is None or figure.get("high") is None:
        return _num(figure["value"], digits)
    return f"{_num(figure['value'], digits)} ({_num(figure['low'], digits)}–{_num(figure['high'], digits)})"


def _table(header: list[str], rows: list[list[str]], numeric: set[int] = frozenset(),
           total: bool = False) -> str:
    head = "".join(f"<th>{h}</th>" for h in header)
    body = []
    for i, row in enumerate(rows):
        cls = ' class="total"' if total and i == len(rows) - 1 else ""
        body.append(f"<tr{cls}>" + "".join(f'<td class="n">{c}</td>' if j in numeric else f"<td>{c}</td>"
                                           for j, c in enumerate(row)) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _facts_table(pairs: list[tuple[str, str]]) -> str:
    return "<table>" + "".join(f'<tr><th style="width:32%">{k}</th><td>{v}</td></tr>' for k, v in pairs) + \
        "</table>"


def _model(facts: dict[str, Any], tr: Tr) -> str:
    m = facts["model"]
    start = _e(m["start_weights"]) if m["start_weights"] else tr("none: trained from scratch")
    return f'<h2 id="model">{tr("Model")}</h2>' + _facts_table([
        (tr("Weights file"), f"<code>{_e(m['weights'])}</code>"),
        ("SHA-256", f"<code>{_e(m['sha256'])}</code>"),
        (tr("Architecture"), _e(m["architecture"] or "—")),
        (tr("Start weights"), start),
        (tr("Image size (trained / evaluated)"),
         f"{_e(m['imgsz_trained'] or '—')} / {_e(m['imgsz_evaluated'] or '—')} px"),
        (tr("Classes"), _e(", ".join(m["classes"])) or "—"),
    ])


def _dataset(facts: dict[str, Any], tr: Tr) -> str:
    d = facts["dataset"]
    unchanged = {True: tr("yes"), False: tr("no: the val split changed after the evaluation"),
                 None: tr("unknown: the data.yaml cannot be read now")}[d["val_unchanged"]]
    return f'<h2 id="dataset">{tr("Dataset")}</h2>' + _facts_table([
        (tr("Dataset file"), f"<code>{_e(d['data'])}</code>"),
        (tr("Version it was trained on"), tr("not recorded: the run keeps the dataset file's path, not a "
                                             "fingerprint of its training images")),
        (tr("Training images (when evaluated)"), _e(d["train_images"] if d["train_images"] is not None else "—")),
        (tr("Val images / objects"), f"{_e(d['val_images'])} / {_e(d['val_instances'])}"),
        (tr("Val split fingerprint (SHA-256)"), f"<code>{_e(d['val_fingerprint'] or '—')}</code>"),
        (tr("Val split unchanged since the evaluation"), unchanged),
    ])


def _evaluation(facts: dict[str, Any], tr: Tr) -> str:
    ev = facts["evaluation"]
    metrics, interval = ev.get("metrics") or {}, ev.get("interval") or {}
    spread = (f" ({_num(interval.get('low'))}–{_num(interval.get('high'))})"
              if interval.get("low") is not None and interval.get("draws") else "")
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(float(ev.get("created") or 0)))
    return f'<h2 id="evaluation">{tr("Evaluation on the val split")}</h2>' + _facts_table([
        ("mAP@0.5", _num(metrics.get("map50"))),
        ("mAP@0.5:0.95", _num(metrics.get("map")) + spread),
        (tr("Evaluated"), when),
        (tr("Stored in"), f"<code>{_e(ev['store'])}</code>"),
    ])


def _rule_words(point: dict[str, Any], facts: dict[str, Any], tr: Tr) -> str:
    if point["rule"] == "recall":
        return tr("the highest confidence at which recall over all classes is at least {target}",
                  target=_num(point["target"], 2))
    if point["rule"] == "false_alarms":
        return tr("the lowest confidence with at most {limit} false alarms per 100 images",
                  limit=_num(point["target"], 1))
    best = (facts["evaluation"].get("best_f1") or {}).get("f1")
    return tr("the confidence of the best F1 ({f1}), as the evaluation chose it", f1=_num(best, 2))


def _operating(facts: dict[str, Any], tr: Tr) -> str:
    point, fig = facts["operating_point"], facts["at_confidence"]
    note = tr("Intervals: 95 % of {draws} bootstrap resamples of the {n} val images (seed {seed}); a detection "
              "counts as found at IoU 0.5 with its class, as yolov5 counts it.", draws=fig["draws"], n=fig["images"],
              seed=fig["seed"])
    return (f'<h2 id="operating">{tr("Operating confidence")}</h2>'
            f'<p><span class="big">{_num(point["confidence"], 3)}</span> — {_e(_rule_words(point, facts, tr))}</p>'
            + ("" if point["reached"] else _p("warn", tr(
                "Recall {target} is not reached at any stored confidence: the lowest one is used.",
                target=_num(point["target"], 2))))
            + _p("note", note))


def _per_class(facts: dict[str, Any], tr: Tr) -> str:
    fig = facts["at_confidence"]
    rows = [[_e(r["name"]), str(r["labels"]), str(r["true_positives"]), str(r["false_alarms"]),
             _ranged(r["precision"]), _ranged(r["recall"])] for r in fig["per_class"]]
    o = fig["overall"]
    rows.append([tr("all classes"), str(o["labels"]), str(o["true_positives"]), str(o["false_alarms"]),
                 _ranged(o["precision"]), _ranged(o["recall"])])
    header = [tr("Class"), tr("Objects"), tr("Found"), tr("False alarms"), tr("Precision (95 % interval)"),
              tr("Recall (95 % interval)")]
    note = "" if o["true_positives"] or o["false_alarms"] else \
        _p("warn", tr("No detection at this confidence: precision is undefined and recall is 0."))
    return f'<h2 id="per-class">{tr("Precision and recall per class at this confidence")}</h2>' + \
        _table(header, rows, {1, 2, 3, 4, 5}, total=True) + note


def _false_alarms(facts: dict[str, Any], tr: Tr) -> str:
    fig = facts["at_confidence"]
    rows = [[_e(r["name"]), _ranged(r["false_alarms_per_100"], 1)] for r in fig["per_class"]]
    rows.append([tr("all classes"), _ranged(fig["overall"]["false_alarms_per_100"], 1)])
    return (f'<h2 id="false-alarms">{tr("False alarms per 100 images")}</h2>'
            f'<p><span class="big">{_ranged(fig["overall"]["false_alarms_per_100"], 1)}</span></p>'
            + _p("note", tr("A false alarm is a detection no labelled object of its class matches: nothing there, "
                            "another class, a poor box or a second detection of one object."))
            + _table([tr("Class"), tr("False alarms per 100 images (95 % interval)")], rows, {1}, total=True))


def _latency(facts: dict[str, Any], run: str, tr: Tr) -> str:
    title = f'<h2 id="latency">{tr("Latency per format")}</h2>'
    if not facts["latency"]:
        return title + _p("note", tr("No export of this run yet: {command}", command=f"yolostudio export {run}"))
    rows = []
    for r in facts["latency"]:
        span = r.get("exported_range") or [None, None]
        rows.append([FORMAT_NAMES.get(str(r["format"]), _e(r["format"])), _e(str(r["precision"] or "").upper()),
                     _e(r["device"] or "—"),
                     f"{_num(r['exported_ms'], 2)} ({_num(span[0], 2)}–{_num(span[1], 2)})"
                     if r["exported_ms"] is not None else "—",
                     _num(r["torch_ms"], 2), tr("yes") if r["verified"] else tr("no")])
    return title + _table([tr("Format"), tr("Precision"), tr("Device"), tr("ms per image, median (10–90 %)"),
                           tr("PyTorch ms per image"), tr("Verified against PyTorch")], rows, {3, 4}) + \
        _p("note", tr("Measured by the export on the machine that exported, timed interleaved with PyTorch."))


def _int8(facts: dict[str, Any], tr: Tr) -> str:
    title = f'<h2 id="int8">{tr("INT8 cost")}</h2>'
    if not facts["int8"]:
        return title + _p("note", tr("No INT8 export of this run: {command}",
                                     command="yolostudio export WEIGHTS --format onnx --int8"))
    rows = []
    for r in facts["int8"]:
        f32, i8 = r["fp32"], r["int8"]
        lat = lambda d: _num((d.get("latency_ms") or {}).get("p50"), 2)  # noqa: E731
        verdict = tr("within the limit") if r["verified"] else tr("over the limit: not verified")
        rows.append([FORMAT_NAMES.get(str(r["format"]), _e(r["format"])), _num(f32.get("map50")),
                     _num(i8.get("map50")), _num(r.get("map50_drop")), _num(r.get("max_drop"), 3), verdict,
                     _num(f32.get("map")), _num(i8.get("map")), f"{lat(f32)} / {lat(i8)}"])
    header = [tr("Format"), "mAP@0.5 FP32", "mAP@0.5 INT8", tr("Drop"), tr("Limit"), tr("Verdict"),
              "mAP@0.5:0.95 FP32", "mAP@0.5:0.95 INT8", tr("ms median FP32 / INT8")]
    return title + _table(header, rows, {1, 2, 3, 4, 6, 7, 8})


def _sign(tr: Tr) -> str:
    return (f'<h2 id="sign">{tr("Approval")}</h2><table class="sign keep">'
            f'<tr><th style="width:32%">{tr("Checked by")}</th><td></td></tr>'
            f'<tr><th>{tr("Date")}</th><td></td></tr><tr><th>{tr("Signature")}</th><td></td></tr></table>')


def render(facts: dict[str, Any], language: str = "en") -> str:
    """The whole page in ``language`` ("en" or "zh_CN")."""
    tr = translator(language)
    run = facts["run"]
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(float(facts["created"])))
    title = tr("Deployment report: run {run}", run=run)
    lang = "zh-CN" if language == "zh_CN" else "en"
    body = "".join([
        f"<h1>{_e(title)}</h1>",
        _p("meta", tr("Written by YOLO Studio on {date} from the files stored in {folder}.", date=when,
                      folder=facts["run_dir"])),
        _model(facts, tr), _dataset(facts, tr), _evaluation(facts, tr), _operating(facts, tr),
        _per_class(facts, tr), _false_alarms(facts, tr), _latency(facts, run, tr), _int8(facts, tr), _sign(tr)])
    return (f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8">'
            f"<title>{_e(title)}</title><style>{STYLE}</style></head><body>{body}</body></html>\n")
