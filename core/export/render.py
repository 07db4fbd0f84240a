"""Words for an export report, shared by the CLI and the GUI's report cards (pure, translatable)."""

from __future__ import annotations

from typing import Any

from core.i18n import tr

FORMAT_NAMES = {"onnx": "ONNX", "engine": "TensorRT", "torchscript": "TorchScript", "openvino": "OpenVINO"}


def format_name(fmt: str | None) -> str:
    return FORMAT_NAMES.get(str(fmt), str(fmt))


def size_text(n: int | None) -> str:
    if n is None:
        return "—"
    return tr("{mb:.1f} MB", mb=n / 1e6) if n >= 100_000 else tr("{kb:.0f} kB", kb=n / 1e3)


def _num(value: Any, spec: str = ".2e") -> str:
    return "—" if not isinstance(value, (int, float)) else format(value, spec)


def headline(report: dict[str, Any]) -> tuple[str, str]:
    """(level, text): "ok" verified, "warning" written but unverified, "error" not written."""
    name = format_name(report.get("format"))
    if report.get("error") or not report.get("path"):
        error = report.get("error") or {}
        return "error", tr("{format}: failed — {message}", format=name, message=error.get("message", "?"))
    if (report.get("verified") or {}).get("ok"):
        return "ok", tr("{format}: verified against PyTorch", format=name)
    return "warning", tr("{format}: NOT verified — the output differs from PyTorch beyond tolerance; the file is "
                         "kept, marked unverified", format=name)


def detail_lines(report: dict[str, Any]) -> list[str]:
    """The figures: file, differences, agreement, latency, and what the second client said."""
    if report.get("error") or not report.get("path"):
        hint = (report.get("error") or {}).get("hint")
        return [hint] if hint else []
    v = report.get("verified") or {}
    det = v.get("detections") or {}
    lat = report.get("latency_ms") or {}
    client = (v.get("client") or {}).get("client", "")
    providers = (v.get("client") or {}).get("providers") or []
    lines = [
        tr("File: {path} ({size})", path=report.get("path"), size=size_text(report.get("bytes"))),
        tr("Max abs difference vs PyTorch: {diff} (boxes {boxes} px, scores {scores}), {precision}",
           diff=_num(v.get("max_abs_diff")), boxes=_num(v.get("max_abs_diff_boxes_px")),
           scores=_num(v.get("max_abs_diff_scores")), precision=str(report.get("precision", "")).upper()),
        tr("Detection agreement after NMS: {pct} ({matched} of {boxes} boxes, IoU ≥ 0.9, same class, "
           "conf ≥ {conf}) on {images} images", pct=_pct(v.get("nms_agreement")), matched=det.get("matched", 0),
           boxes=max(det.get("reference", 0), det.get("exported", 0)), conf=_num(v.get("nms_conf"), ".3g"),
           images=report.get("images", 0)),
        latency_line(lat, client + (f" [{providers[0]}]" if providers else ""), str(report.get("device", ""))),
    ]
    second = v.get("second_client")
    if second:
        if second.get("skipped"):
            lines.append(tr("OpenCV DNN: not checked ({reason})", reason=second["skipped"]))
        else:
            lines.append(tr("OpenCV DNN: max abs difference {diff}, agreement {pct}",
                            diff=_num(second.get("max_abs_diff")), pct=_pct(second.get("nms_agreement"))))
    if report.get("int8"):
        lines.extend(int8_lines(report["int8"]))
    return lines


def latency_line(lat: dict[str, Any], client: str, device: str) -> str:
    """PyTorch and the runtime, measured side by side: medians with their 10–90 % ranges (a report from before
    the interleaved timing has medians only, and says so)."""
    if lat.get("torch_range") and lat.get("exported_range"):
        return tr("Latency per image, measured side by side ({runs} interleaved runs each, {device}): PyTorch {torch} "
                  "ms ({torch_low}–{torch_high}) · {client} {exported} ms ({low}–{high}); median (10–90 % range)",
                  runs=lat.get("runs", "?"), device=device, torch=_num(lat.get("torch"), ".1f"),
                  torch_low=_num(lat["torch_range"][0], ".1f"), torch_high=_num(lat["torch_range"][1], ".1f"),
                  client=client, exported=_num(lat.get("exported"), ".1f"),
                  low=_num(lat["exported_range"][0], ".1f"), high=_num(lat["exported_range"][1], ".1f"))
    return tr("Latency per image: PyTorch {torch} ms · {client} {exported} ms (median of {runs}, {device})",
              torch=_num(lat.get("torch"), ".1f"), client=client, exported=_num(lat.get("exported"), ".1f"),
              runs=lat.get("runs", "?"), device=device)
def cost_line(int8: dict[str, Any]) -> str:
    """What INT8 cost, in one line: mAP@0.5 and mAP@0.5:0.95 of both on val, their p50, the verdict and its limit."""
    fp32, q = int8["fp32"], int8["int8"]
    return tr("INT8 costs {drop:+.3f} mAP@0.5 ({fp32:.3f} → {int8:.3f}; mAP@0.5:0.95 {fp32_all:.3f} → "
              "{int8_all:.3f}) for p50 {t32:.1f} → {t8:.1f} ms: {verdict} (limit {limit}, --int8-max-drop).",
              drop=q["map50"] - fp32["map50"], fp32=fp32["map50"], int8=q["map50"], fp32_all=fp32["map"],
              int8_all=q["map"], t32=fp32["latency_ms"]["p50"], t8=q["latency_ms"]["p50"],
              verdict=tr("verified") if int8["verified"] else tr("NOT verified"), limit=int8["max_drop"])


def int8_lines(int8: dict[str, Any]) -> list[str]:
    """The cost line, the INT8 file, then FP32 and INT8 side by side: overall, per class, latency p50/p99."""
    fp32, q = int8["fp32"], int8["int8"]
    rows = [("", "FP32", "INT8"), ("mAP@0.5", f"{fp32['map50']:.3f}", f"{q['map50']:.3f}"),
            ("mAP@0.5:0.95", f"{fp32['map']:.3f}", f"{q['map']:.3f}")]
    for a, b in zip(fp32["per_class"], q["per_class"]):
        rows.append((f"  {a['name']} mAP@0.5", _num(a["map50"], ".3f"), _num(b["map50"], ".3f")))
    for key in ("p50", "p99"):
        rows.append((tr("latency {p}", p=key), f"{fp32['latency_ms'][key]:.1f} ms", f"{q['latency_ms'][key]:.1f} ms"))
    width = max(len(r[0]) for r in rows)
    return [cost_line(int8), tr("INT8 file: {path} ({size})", path=int8.get("path"), size=size_text(int8.get("bytes")))
            ] + [f"  {r[0]:<{width}}  {r[1]:>10}  {r[2]:>10}" for r in rows]


def _pct(value: Any) -> str:
    return "—" if not isinstance(value, (int, float)) else f"{100 * value:.1f} %"
