"""The PCIe link rule: a link running narrower or slower than the card can, and what it costs each batch.

yolov5 7.0.14's training loop copies every batch to the GPU as uint8 (``imgs.to(device, non_blocking=True)``,
then ``.float() / 255`` on the GPU), so one upload is ``batch × 3 × imgsz²`` bytes; the link's bandwidth per
lane follows from its generation (``PCIE_LANE_GB_S``). The cost is that upload's time at the link's current
generation and width against its maximum. An idle GPU narrows and slows its link to save power (NVML's
"current" link readings), so only a link that is narrow *under load* is a warning.
"""

from __future__ import annotations

from core.environment.facts import GpuFacts
from core.environment.rules.base import RuleContext
from core.findings import Finding
from core.i18n import tr

#: Usable bandwidth per lane and direction, GB/s, by PCIe generation: transfer rate (GT/s) × encoding efficiency
#: / 8 bits — PCI-SIG base specifications: 1.0 2.5 GT/s 8b/10b, 2.0 5 GT/s 8b/10b, 3.0 8 GT/s 128b/130b,
#: 4.0 16 GT/s 128b/130b, 5.0 32 GT/s 128b/130b, 6.0 64 GT/s PAM4 with 242/256-byte FLITs.
PCIE_LANE_GB_S: dict[int, float] = {1: 2.5 * 8 / 10 / 8, 2: 5.0 * 8 / 10 / 8, 3: 8.0 * 128 / 130 / 8,
                                    4: 16.0 * 128 / 130 / 8, 5: 32.0 * 128 / 130 / 8, 6: 64.0 * 242 / 256 / 8}
#: [design] utilisation at which the GPU counts as under load (an idle link's readings mean nothing).
PCIE_LOADED_UTIL = 30.0
#: [design] under load, a link with a quarter or less of its full bandwidth is a warning: x4 (or x1, x2) on an
#: x16-capable card at the same generation, or a generation three steps down; x8 of x16 stays a note.
PCIE_WARN_SHARE = 0.25


def link_gb_s(gen: int | None, width: int | None) -> float | None:
    if gen is None or width is None or gen not in PCIE_LANE_GB_S:
        return None
    return PCIE_LANE_GB_S[gen] * width


def batch_upload_mb(ctx: RuleContext) -> float:
    """One training batch as yolov5 uploads it (uint8 images), in MB."""
    return ctx.batch * 3 * ctx.imgsz * ctx.imgsz / 1e6


def pcie_finding(g: GpuFacts, label: str, ctx: RuleContext) -> Finding | None:
    width, width_max = g.pcie_width, g.pcie_width_max
    if width is None or not width_max:
        return None
    loaded = g.util_percent is not None and g.util_percent >= PCIE_LOADED_UTIL
    gen, gen_max = g.pcie_gen, g.pcie_gen_max or g.pcie_gen
    now, full = link_gb_s(gen, width), link_gb_s(gen_max, width_max)
    slower_gen = loaded and gen is not None and gen_max is not None and gen < gen_max
    if width >= width_max and not slower_gen:
        return None
    share = now / full if now is not None and full else width / width_max
    severity = "warning" if loaded and share <= PCIE_WARN_SHARE else "info"
    upload = batch_upload_mb(ctx)
    evidence = {tr("PCIe"): tr("gen {gen} of {gen_max}, x{width} of x{width_max}", gen=gen or "?",
                               gen_max=gen_max or "?", width=width, width_max=width_max),
                tr("utilisation"): f"{g.util_percent:.0f} %" if g.util_percent is not None else "?",
                tr("batch upload"): tr("{mb:.1f} MB (batch {batch} × 3 × {imgsz}²)", mb=upload, batch=ctx.batch,
                                       imgsz=ctx.imgsz)}
    cost = ""
    if now is not None and full is not None:
        evidence[tr("link bandwidth")] = tr("{now:.1f} GB/s of {full:.1f} GB/s", now=now, full=full)
        evidence[tr("time per batch upload")] = tr("{now:.1f} ms instead of {full:.1f} ms",
                                                   now=upload / now, full=upload / full)
        cost = tr(" Each batch of {mb:.1f} MB takes {now:.1f} ms to reach the GPU instead of {full:.1f} ms.",
                  mb=upload, now=upload / now, full=upload / full)
    return Finding("pcie-degraded", severity,
                   tr("GPU {gpu} runs its PCIe link at x{width} of x{max}", gpu=label, width=width, max=width_max)
                   if width < width_max else
                   tr("GPU {gpu} runs its PCIe link at gen {gen} of {gen_max} under load", gpu=label, gen=gen,
                      gen_max=gen_max),
                   tr("The link has {share:.0f}% of the bandwidth the card can use.{cost}", share=share * 100,
                      cost=cost) + " " +
                   (tr("Measured under load, so it is the slot, riser or card seating, not power saving.") if loaded
                    else tr("An idle GPU may narrow its link to save power: check again during training.")),
                   evidence,
                   tr("Reseat the card or move it to a full x16 slot (no riser or x4 slot); verify with "
                      "'nvidia-smi -q -d PCIE' under load."), "advice")
