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
        tr("Latency per image: PyTorch {torch} ms · {client} {exported} ms (median of {runs}, {device})",
           torch=_num(lat.get("torch"), ".1f"), client=client + (f" [{providers[0]}]" if providers else ""),
           exported=_num(lat.get("exported"), ".1f"), runs=lat.get("runs", "?"), device=report.get("device", "")),
    ]
    second = v.get("second_client")
    if second:
        if second.get("skipped"):
            lines.append(tr("OpenCV DNN: not checked ({reason})", reason=second["skipped"]))
        else:
            lines.append(tr("OpenCV DNN: max abs difference {diff}, agreement {pct}",
                            diff=_num(second.get("max_abs_diff")), pct=_pct(second.get("nms_agreement"))))
    return lines


def _pct(value: Any) -> str:
    return "—" if not isinstance(value, (int, float)) else f"{100 * value:.1f} %"
