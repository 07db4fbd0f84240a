"""The bottleneck monitor: why a running training waits, measured, with the change that fixes the next run.

Pure and table-driven. ``RunWindow`` folds a sliding window of ``batch`` and ``system`` events (warm-up
batches excluded; validation and checkpoint saves are outside batch timing by construction) into the
figures the rules need; ``diagnose`` walks ``RULES`` in order and returns the first verdict that
applies, with the evidence that triggered it and prescriptions (config changes the user can apply to
the next run). Thresholds are data (``THRESHOLDS``): TensorFlow's input-pipeline analyser calls < 5%
input wait "not input-bound" and >= 20% "highly"; PyTorch's profiler suggests more workers above 5% and
a larger batch when GPU utilisation is under 50% (docs/facts/gpu-environment.md, section 5).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable

from core.findings import Change, Finding, Severity
from core.i18n import tr

#: NVML clock-event reasons that mean "slowed down", not "idle" (0x1 GpuIdle is ignored). The software power
#: cap (0x4) is left out: a GPU at its power limit under a full training load works as designed
#: (``core.environment.tables.THROTTLE_KIND`` has the sources); heat and the power supply are what slow it.
THROTTLE_BITS = {0x8: "hardware slowdown", 0x20: "software thermal slowdown", 0x40: "hardware thermal slowdown",
                 0x80: "hardware power brake"}



def throttle_words(name: str) -> str:
    """An NVML reason of ``THROTTLE_BITS`` in the user's language (the names stay English in the evidence: they are
    the keys a script reads); an unknown name as it is."""
    return {"hardware slowdown": tr("hardware slowdown"), "software thermal slowdown": tr("software thermal slowdown"),
            "hardware thermal slowdown": tr("hardware thermal slowdown"),
            "hardware power brake": tr("hardware power brake")}.get(name, name)


THRESHOLDS: dict[str, float] = {
    "wait_high": 0.20,  # data-wait share at/above which training is input-bound
    "wait_low": 0.05,  # below: the input pipeline keeps up
    "cpu_busy": 85.0,  # % of all cores: "all cores busy"
    "iowait_high": 10.0,  # % of CPU time waiting for the disk
    "gpu_util_low": 50.0,  # % of time a kernel ran
    "gpu_mem_room": 0.6,  # memory used / total below which a larger batch fits
    "throttled_share": 0.5,  # share of samples with a slowdown reason
    "min_batches": 8,  # fewer measured batches: no verdict yet
    "others_busy": 25.0,  # % of all cores other programs hold, with the CPU busy: contention from outside the run
    "cpu_wait": 25.0,  # % of one core's time the run's threads waited for a free core: it wanted the CPU it lacked
}


def verdict(code: str, severity: str, title: str, detail: str, evidence: dict[str, Any],
            prescriptions: list[Change] | tuple[Change, ...] = ()) -> Finding:
    """A verdict is the app's one finding record; its ``changes`` are the prescriptions for the next run."""
    return Finding(code, Severity(severity), title, detail, evidence, changes=tuple(prescriptions))


def verdict_event_fields(found: Finding) -> dict[str, Any]:
    """The ``diagnosis`` event's fields (docs/protocol.md): recorded runs and their readers keep this shape."""
    return {"code": found.code, "severity": str(found.severity), "title": found.message, "detail": found.detail,
            "evidence": dict(found.evidence),
            "prescriptions": [{"field": c.field, "value": c.value, "reason": c.reason} for c in found.changes]}


@dataclass
class WindowFigures:
    """What the rules read; every figure is measured over the window, None when not measured."""

    batches: int = 0
    images: int = 0
    data_wait_share: float | None = None
    images_per_s: float | None = None
    cpu_percent: float | None = None
    cpu_count: int | None = None
    proc_cpu_percent: float | None = None
    proc_cpu_wait_percent: float | None = None  # the run's threads waiting for a free core (% of one core)
    iowait_percent: float | None = None
    disk_read_mb_s: float | None = None
    gpu_util_percent: float | None = None
    gpu_mem_share: float | None = None
    gpu_temperature_c: float | None = None
    throttled_share: float | None = None
    throttle_reasons: list[str] = field(default_factory=list)
    gpus_seen: int = 0  # by NVML
    training_on_gpu: bool | None = None
    workers: int | None = None
    batch_size: int | None = None
    imgsz: int | None = None
    cache: str | None = None
    gpu_augment: str | None = None  # the run's --gpu-augment (issue 36)
    #: DDP: the rank that waited longest for its data ({rank, node, host, data_wait_share}); one starved rank stalls
    #: every rank, so its share is the run's (``data_wait_share``).
    slowest_rank: dict[str, Any] | None = None


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


class RunWindow:
    """A sliding window over the event stream: the last ``max_batch_events`` batch events and the system
    samples taken while they ran. Feed it every event; ``figures()`` summarises."""

    def __init__(self, max_batch_events: int = 200, max_system: int = 120) -> None:
        self.batches: deque[dict[str, Any]] = deque(maxlen=max_batch_events)
        self.system: deque[dict[str, Any]] = deque(maxlen=max_system)
        self.training_on_gpu: bool | None = None
        self.config: dict[str, Any] = {}
        self._in_training = False

    def feed(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "hello":
            self.training_on_gpu = bool(event.get("devices")) and event.get("device_type") != "cpu"
        elif kind == "batch" and not event.get("warmup"):
            self.batches.append(event)
            self._in_training = True
            if event.get("gpu_mem_gb") is not None:
                self.training_on_gpu = True
        elif kind == "stage":
            self._in_training = event.get("stage") == "training"
        elif kind == "epoch_start":
            self._in_training = True
        elif kind == "system" and self._in_training:
            self.system.append(event)

    def figures(self) -> WindowFigures:
        fig = WindowFigures(training_on_gpu=self.training_on_gpu, **{k: self.config.get(k) for k in (
            "workers", "batch_size", "imgsz", "cache", "gpu_augment")})
        wait = step = 0.0
        for ev in self.batches:
            window = ev.get("window") or {}
            fig.batches += int(window.get("batches") or 0)
            fig.images += int(window.get("images") or 0)
            wait += float(window.get("data_wait_s") or 0.0)
            step += float(window.get("step_s") or 0.0)
        if wait + step > 0:
            fig.data_wait_share = wait / (wait + step)
            fig.images_per_s = fig.images / (wait + step)
        fig.slowest_rank = _slowest_rank(self.batches)
        if fig.slowest_rank is not None:
            fig.data_wait_share = max(fig.data_wait_share or 0.0, fig.slowest_rank["data_wait_share"])
        samples = list(self.system)
        fig.cpu_percent = _mean([s["cpu_percent"] for s in samples if s.get("cpu_percent") is not None])
        fig.cpu_count = next((s.get("cpu_count") for s in reversed(samples) if s.get("cpu_count")), None)
        fig.proc_cpu_percent = _mean([s["proc_cpu_percent"] for s in samples if s.get("proc_cpu_percent") is not None])
        fig.proc_cpu_wait_percent = _mean([s["proc_cpu_wait_percent"] for s in samples
                                           if s.get("proc_cpu_wait_percent") is not None])
        fig.iowait_percent = _mean([s["iowait_percent"] for s in samples if s.get("iowait_percent") is not None])
        fig.disk_read_mb_s = _mean([s["disk_read_mb_s"] for s in samples if s.get("disk_read_mb_s") is not None])
        gpus = [g for s in samples for g in (s.get("gpus") or [])]
        fig.gpus_seen = max((len(s.get("gpus") or []) for s in samples), default=0)
        fig.gpu_util_percent = _mean([g["util_percent"] for g in gpus if g.get("util_percent") is not None])
        shares = [g["mem_used_gb"] / g["mem_total_gb"] for g in gpus if g.get("mem_used_gb") is not None
                  and g.get("mem_total_gb")]
        fig.gpu_mem_share = max(shares) if shares else None
        temps = [g["temperature_c"] for g in gpus if g.get("temperature_c") is not None]
        fig.gpu_temperature_c = max(temps) if temps else None
        reasons = [g.get("throttle_reasons") for g in gpus if g.get("throttle_reasons") is not None]
        if reasons:
            throttled = [r for r in reasons if any(r & bit for bit in THROTTLE_BITS)]
            fig.throttled_share = len(throttled) / len(reasons)
            seen = 0
            for r in throttled:
                seen |= r
            fig.throttle_reasons = [name for bit, name in THROTTLE_BITS.items() if seen & bit]
        return fig


def _slowest_rank(batches: Any) -> dict[str, Any] | None:
    """Over the window's DDP batch events (``ranks``): the rank with the largest data-wait share."""
    sums: dict[int, dict[str, Any]] = {}
    for ev in batches:
        for row in ev.get("ranks") or ():
            entry = sums.setdefault(int(row["rank"]), {"rank": int(row["rank"]), "node": row.get("node"),
                                                       "host": row.get("host"), "wait": 0.0, "step": 0.0})
            entry["wait"] += float(row.get("data_wait_s") or 0.0)
            entry["step"] += float(row.get("step_s") or 0.0)
    shares = [{**{k: e[k] for k in ("rank", "node", "host")}, "data_wait_share": e["wait"] / (e["wait"] + e["step"])}
              for e in sums.values() if e["wait"] + e["step"] > 0]
    return max(shares, key=lambda e: e["data_wait_share"], default=None) if len(shares) > 1 else None


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.0f}%"


def _waited(fig: WindowFigures) -> str:
    """Who waited: the GPU on a GPU run; on a CPU run the model's computation (no GPU is involved); under DDP the
    rank that waited most, and where it runs (every other rank waits for it at each step)."""
    share = _pct(fig.data_wait_share)
    slowest = fig.slowest_rank
    if slowest is not None:
        return tr("Rank {rank} on node {node} ({host}) waited for its data {share} of the time, and every other "
                  "rank waits for it at each step.", rank=slowest["rank"], node=slowest["node"],
                  host=slowest["host"], share=share)
    if fig.training_on_gpu:
        return tr("The GPU waited for data {share} of the time.", share=share)
    if fig.training_on_gpu is False:
        return tr("The model's computation on the CPU waited for data {share} of the time.", share=share)
    return tr("Training waited for data {share} of the time.", share=share)


def _input_prescriptions(fig: WindowFigures, kind: str) -> list[Change]:
    out: list[Change] = []
    workers = fig.workers or 0
    cores = fig.cpu_count or 0
    if kind == "workers" and cores:
        target = min(cores, max(workers * 2, workers + 2, 2))
        if fig.training_on_gpu is False:  # the workers share the cores with the model's computation
            target = min(max(cores - 1, 1), workers + 2)
        if target > workers:
            out.append(Change("workers", target, tr("{cores} cores, {workers} workers: more workers can decode "
                                                            "and augment in parallel", cores=cores, workers=workers)))
    if kind in ("cpu", "io") and fig.cache in (None, ""):
        out.append(Change("cache", "ram", tr("decode each image once and keep it in RAM (yolov5 checks that it "
                                                   "fits, else trains without cache)")))
    if kind == "cpu" and fig.training_on_gpu and fig.gpu_augment != "on":
        out.append(Change("gpu_augment", "on", tr("augment each batch on the GPU (--gpu-augment on): the loader's "
                                                  "workers then only decode, about a third of their CPU time per "
                                                  "image")))
    if kind == "cpu" and fig.imgsz and fig.imgsz > 320:
        smaller = max(320, (fig.imgsz * 3 // 4) // 32 * 32)
        out.append(Change("imgsz", smaller, tr("fewer pixels to decode and augment per image")))
    return out


def _rule_cpu_training(fig: WindowFigures, th: dict[str, float]) -> Finding | None:
    if fig.training_on_gpu is False and fig.gpus_seen > 0:
        return verdict("cpu-training", "error", tr("Training runs on the CPU although this machine has a GPU"),
                         tr("torch in the worker saw no usable CUDA device while NVML reports {n} GPU(s). Each step "
                            "takes many times longer than it would on the GPU.", n=fig.gpus_seen),
                         {"gpus_seen_by_nvml": fig.gpus_seen, "training_on_gpu": False},
                         [Change("device", "0", tr("train on the first GPU once the Environment page shows "
                                                         "CUDA working"))])
    return None


def _rule_throttled(fig: WindowFigures, th: dict[str, float]) -> Finding | None:
    if fig.training_on_gpu is False:
        return None  # a GPU slowing down does not slow a run on the CPU
    if fig.throttled_share is not None and fig.throttled_share >= th["throttled_share"]:
        thermal = any(THROTTLE_BITS[bit] in fig.throttle_reasons for bit in (0x20, 0x40))
        power = any(THROTTLE_BITS[bit] in fig.throttle_reasons for bit in (0x8, 0x80))
        fixes = ([tr("improve airflow (dust, fans, the fan curve)")] if thermal else []) + (
            [tr("check the power supply and the GPU's power connectors")] if power else [])
        return verdict("gpu-throttled", "warning", tr("The GPU is slowing itself down"),
                       tr("For {share} of the samples the GPU reported: {reasons}. To fix it: {fixes} "
                          "('nvidia-smi -q -d PERFORMANCE' shows which slowdown is active).",
                          share=_pct(fig.throttled_share), reasons=", ".join(map(throttle_words, fig.throttle_reasons)),
                          fixes="; ".join(fixes)),
                         {"throttled_share": fig.throttled_share, "reasons": fig.throttle_reasons,
                          "max_temperature_c": fig.gpu_temperature_c, "gpu_util_percent": fig.gpu_util_percent})
    return None


def others_cpu_percent(fig: WindowFigures) -> float | None:
    """The CPU other programs held, in % of all cores: the machine's busy share less this run's process tree's
    (psutil: ``cpu_percent`` is of all cores, a process's of one core, so the tree's is divided by the cores)."""
    if fig.cpu_percent is None or fig.proc_cpu_percent is None or not fig.cpu_count:
        return None
    return max(0.0, fig.cpu_percent - fig.proc_cpu_percent / fig.cpu_count)


def _rule_contention(fig: WindowFigures, th: dict[str, float]) -> Finding | None:
    """Other programs hold the CPU: a cause of its own, named as such — not the model's computation nor the
    loader, whose settings would not help (issue 32: the banner blamed the model while another program held the
    CPU at 100 % and training got 20–25 %)."""
    others = others_cpu_percent(fig)
    if others is None or others < th["others_busy"] or fig.cpu_percent is None or fig.cpu_percent < th["cpu_busy"]:
        return None
    waited = fig.proc_cpu_wait_percent  # the run wanted more CPU than it got (a run that sleeps or waits does not)
    if waited is None or waited < th["cpu_wait"] or waited < 0.5 * (fig.proc_cpu_percent or 0.0):
        return None
    own = fig.proc_cpu_percent / fig.cpu_count if fig.proc_cpu_percent is not None and fig.cpu_count else None
    severity = "warning" if fig.training_on_gpu is False or (fig.data_wait_share or 0.0) >= th["wait_low"] \
        else "info"
    return verdict("cpu-contention", severity, tr("Other programs are using the CPU this training needs"),
                   tr("Other programs held {others:.0f}% of all cores while this training got {own:.0f}% (the "
                      "machine {cpu:.0f}% busy), and its threads waited {wait:.1f} s per second for a free core: "
                      "training runs slower than this machine can train, and its settings are not the cause. "
                      "Close or pause the other programs, or train when they are done.", others=others,
                      own=own or 0.0, cpu=fig.cpu_percent, wait=waited / 100.0),
                   {"others_cpu_percent": others, "own_cpu_percent": own, "cpu_wait_percent": waited,
                    "cpu_percent": fig.cpu_percent,
                    "cpu_count": fig.cpu_count, "images_per_s": fig.images_per_s,
                    "data_wait_share": fig.data_wait_share})


def _input_bound(fig: WindowFigures, th: dict[str, float]) -> Finding | None:
    share = fig.data_wait_share
    if share is None or share < th["wait_low"]:
        return None
    severity = "warning" if share >= th["wait_high"] else "info"
    evidence = {"data_wait_share": share, "images_per_s": fig.images_per_s, "cpu_percent": fig.cpu_percent,
                "cpu_count": fig.cpu_count, "iowait_percent": fig.iowait_percent,
                "disk_read_mb_s": fig.disk_read_mb_s, "workers": fig.workers, "gpu_util_percent": fig.gpu_util_percent,
                **({"slowest_rank": fig.slowest_rank} if fig.slowest_rank is not None else {})}
    waiting = _waited(fig)
    on_cpu = fig.training_on_gpu is False
    if fig.iowait_percent is not None and fig.iowait_percent >= th["iowait_high"]:
        return verdict("input-bound-io", severity, tr("Training waits for the disk"),
                       tr("{waiting} The CPU spent {iowait:.0f}% of its time waiting for reads: the disk is the "
                          "limit. Cache the images, or copy the dataset to a local SSD.", waiting=waiting,
                          iowait=fig.iowait_percent), evidence, _input_prescriptions(fig, "io"))
    if fig.cpu_percent is not None and fig.cpu_percent >= th["cpu_busy"]:
        if on_cpu:
            return verdict("input-bound-cpu", severity, tr("The CPU is the limit: it prepares the images and "
                                                           "computes the model"),
                           tr("{waiting} All cores are busy ({cpu:.0f}%), and on a CPU run the data loader and the "
                              "model's computation share them: more workers would only take cores from the model. "
                              "Cache decoded images, use a smaller image size, or train on a GPU.",
                              waiting=waiting, cpu=fig.cpu_percent), evidence, _input_prescriptions(fig, "cpu"))
        return verdict("input-bound-cpu", severity, tr("Training waits for the CPU to prepare images"),
                       tr("{waiting} All cores are busy ({cpu:.0f}%): more workers would not help. Cache decoded "
                          "images, use lighter augmentation, or a smaller image size.", waiting=waiting,
                          cpu=fig.cpu_percent), evidence, _input_prescriptions(fig, "cpu"))
    cpu = "—" if fig.cpu_percent is None else f"{fig.cpu_percent:.0f}%"
    if on_cpu:
        return verdict("input-bound-workers", severity, tr("Training waits for the data loader; cores are idle"),
                       tr("{waiting} The CPU is only {cpu} busy, so a few more data-loader workers can prepare "
                          "images while the model computes (they share the cores with it).", waiting=waiting,
                          cpu=cpu), evidence, _input_prescriptions(fig, "workers"))
    return verdict("input-bound-workers", severity, tr("Training waits for the data loader; cores are idle"),
                   tr("{waiting} The CPU is only {cpu} busy, so more data-loader workers can feed the GPU.",
                      waiting=waiting, cpu=cpu), evidence, _input_prescriptions(fig, "workers"))


def _rule_underfed(fig: WindowFigures, th: dict[str, float]) -> Finding | None:
    if not fig.training_on_gpu or fig.gpu_util_percent is None or fig.gpu_util_percent >= th["gpu_util_low"]:
        return None
    prescriptions = []
    if fig.batch_size and fig.batch_size > 0 and (fig.gpu_mem_share is None or fig.gpu_mem_share < th["gpu_mem_room"]):
        prescriptions.append(Change("batch", fig.batch_size * 2, tr("GPU memory is {mem} used: a larger batch "
                                                                          "gives each kernel more work",
                                                                          mem=_pct(fig.gpu_mem_share))))
    return verdict("gpu-underfed-small-batch", "warning", tr("The GPU is idle between small steps"),
                     tr("Data arrives in time (wait {share}) but the GPU computed only {util:.0f}% of the time: each "
                        "step is too small to keep it busy. Use a larger batch (and mixed precision).",
                        share=_pct(fig.data_wait_share), util=fig.gpu_util_percent),
                     {"gpu_util_percent": fig.gpu_util_percent, "data_wait_share": fig.data_wait_share,
                      "gpu_mem_share": fig.gpu_mem_share, "batch_size": fig.batch_size}, prescriptions)


def _rule_healthy(fig: WindowFigures, th: dict[str, float]) -> Finding:
    evidence = {"data_wait_share": fig.data_wait_share, "images_per_s": fig.images_per_s,
                "gpu_util_percent": fig.gpu_util_percent}
    if fig.training_on_gpu is False:
        return verdict("healthy", "ok", tr("The data keeps up; the model's computation on the CPU sets the pace"),
                       tr("{waiting} The rest of each step is the model's forward and backward pass on the CPU; "
                          "on a GPU it runs one to two orders of magnitude faster.", waiting=_waited(fig)),
                       {**evidence, "gpu_util_percent": None, "cpu_percent": fig.cpu_percent})
    return verdict("healthy", "ok", tr("The input pipeline keeps up"), _waited(fig), evidence)


#: Checked in order; the first rule that returns a verdict wins.
RULES: tuple[Callable[[WindowFigures, dict[str, float]], Finding | None], ...] = (
    _rule_cpu_training, _rule_throttled, _rule_contention, _input_bound, _rule_underfed,
)


def diagnose(fig: WindowFigures, thresholds: dict[str, float] | None = None) -> Finding | None:
    """The verdict for a window, or None while too few batches were measured."""
    th = {**THRESHOLDS, **(thresholds or {})}
    if fig.batches < th["min_batches"]:
        return None
    for rule in RULES:
        verdict = rule(fig, th)
        if verdict is not None:
            return verdict
    return _rule_healthy(fig, th)


class EfficiencyAccumulator:
    """Whole-run efficiency, folded incrementally (a long run's events are never all kept in memory)."""

    def __init__(self) -> None:
        self._in_training = False
        self.wait = self.step = 0.0
        self.images = self.batches = 0
        self.gpu_util: list[float] = []  # one mean per system sample: bounded by run length / 1 s
        self.cpu: list[float] = []
        self.epoch_times: list[float] = []

    def feed(self, ev: dict[str, Any]) -> None:
        kind = ev.get("type")
        if kind == "stage":
            self._in_training = ev.get("stage") == "training"
        elif kind == "epoch_start":
            self._in_training = True
        elif kind == "batch" and not ev.get("warmup"):
            window = ev.get("window") or {}
            self.wait += float(window.get("data_wait_s") or 0.0)
            self.step += float(window.get("step_s") or 0.0)
            self.images += int(window.get("images") or 0)
            self.batches += int(window.get("batches") or 0)
        elif kind == "system" and self._in_training:
            utils = [g["util_percent"] for g in ev.get("gpus") or [] if g.get("util_percent") is not None]
            if utils:
                self.gpu_util.append(sum(utils) / len(utils))
            if ev.get("cpu_percent") is not None:
                self.cpu.append(float(ev["cpu_percent"]))
        elif kind == "epoch_end" and isinstance(ev.get("epoch_time_s"), (int, float)):
            self.epoch_times.append(float(ev["epoch_time_s"]))

    def summary(self) -> dict[str, Any]:
        total = self.wait + self.step
        return {"gpu_util_mean_percent": _mean(self.gpu_util), "data_wait_share": self.wait / total if total else None,
                "images_per_s": self.images / total if total else None, "epoch_time_mean_s": _mean(self.epoch_times),
                "cpu_percent_mean": _mean(self.cpu), "batches": self.batches}

