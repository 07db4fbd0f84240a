"""The environment rules: pure functions from facts to findings, run from one table.

Each rule looks at ``EnvironmentFacts`` (and the training options it should be judged for, in
``RuleContext``) and returns findings. A rule that needs a fact that was not read raises ``Unknown``:
its check is reported as unknown with the reason, and every other rule still runs — so a partial or
old facts file still gets the diagnosis that its facts allow. Rules see the findings of the rules
before them, so a consequence is not reported twice (no "CUDA unusable" on top of "driver too old").

The rules live by subject (``software``, ``accelerator``, ``cuda``, ``driver_state``, ``gpu_health``, ``host``,
``loader``, ``gpu_state``, ``devices``, ``pcie``, ``slices``; shared helpers in
``base``; what a passed check measured, in words, in ``measured``);
this module owns their order and the loop that runs them. A new rule is a function in the module of its
subject and one row in ``RULES``.
"""

from __future__ import annotations

from typing import Callable

from core.environment.facts import EnvironmentFacts
from core.environment.findings import NOT_CHECKED, CheckResult, Evaluation
from core.environment.rules.accelerator import rule_accelerator
from core.environment.rules.base import NotApplicable, RuleContext, Unknown
from core.environment.rules.cuda import (rule_arch, rule_cuda_unusable, rule_cudnn, rule_driver, rule_no_gpu,
                                         rule_nvml, rule_torch_cpu_build)
from core.environment.rules.devices import rule_gpu_hidden, rule_mixed_gpus, rule_multi_gpu
from core.environment.rules.gpu_health import rule_gpu_health
from core.environment.rules.gpu_state import rule_amp, rule_gpu_state
from core.environment.rules.host import rule_disk, rule_ram, rule_shm, rule_windows, shm_needed_gb
from core.environment.rules.loader import rule_cpu_limited, rule_worker_ram
from core.environment.rules.measured import measured_words
from core.environment.rules.slices import rule_mig, rule_windows_commit
from core.environment.rules.software import rule_probe, rule_python, rule_torch_missing, rule_yolov5_missing
from core.findings import Finding
from core.i18n import tr

__all__ = ["RULES", "Rule", "RuleContext", "evaluate", "shm_needed_gb"]


Rule = Callable[[EnvironmentFacts, RuleContext, list[Finding]], list[Finding]]

#: (check key, check title, rule), in the order they run and the order a person reads them.
RULES: tuple[tuple[str, str, Rule], ...] = (
    ("probe", "Environment probe", rule_probe),
    ("python", "Python version", rule_python),
    ("torch", "PyTorch installed", rule_torch_missing),
    ("yolov5", "yolov5 installed", rule_yolov5_missing),
    ("accelerator", "GPU kind (NVIDIA, AMD ROCm, Jetson)", rule_accelerator),
    ("nvml", "GPU driver (NVML)", rule_nvml),
    ("gpu-hidden", "GPUs hidden by the environment", rule_gpu_hidden),
    ("gpu", "NVIDIA GPU present", rule_no_gpu),
    ("torch-build", "PyTorch CUDA build", rule_torch_cpu_build),
    ("driver", "Driver vs PyTorch CUDA", rule_driver),
    ("arch", "GPU architecture in the wheel", rule_arch),
    ("gpu-health", "GPU compute mode and memory health", rule_gpu_health),
    ("cuda", "CUDA works (test kernel)", rule_cuda_unusable),
    ("cudnn", "cuDNN", rule_cudnn),
    ("shm", "Shared memory (/dev/shm)", rule_shm),
    ("cpu", "CPUs for the data loader", rule_cpu_limited),
    ("ram-workers", "RAM for the data-loader workers", rule_worker_ram),
    ("ram", "RAM for the dataset cache", rule_ram),
    ("disk", "Disk speed and space", rule_disk),
    ("gpu-state", "GPU busy, throttling, PCIe", rule_gpu_state),
    ("amp", "Mixed precision (AMP)", rule_amp),
    ("mixed-gpus", "Mixed GPUs", rule_mixed_gpus),
    ("mig", "MIG slice", rule_mig),
    ("multi-gpu", "Several GPUs", rule_multi_gpu),
    ("windows-commit", "Windows commit limit (page file)", rule_windows_commit),
    ("windows", "Windows data loading", rule_windows),
)


def evaluate(facts: EnvironmentFacts, ctx: RuleContext | None = None, notes: list[str] | None = None) -> Evaluation:
    """Run every rule; a rule missing its facts is an ``unknown`` check, a crashing rule too (with why)."""
    ctx = ctx or RuleContext()
    result = Evaluation(notes=list(notes or []))
    for key, title, rule in RULES:
        try:
            found = rule(facts, ctx, list(result.findings))
        except Unknown as exc:
            result.checks.append(CheckResult(key, tr(title), NOT_CHECKED, str(exc)))
            continue
        except NotApplicable as exc:
            result.checks.append(CheckResult(key, tr(title), "n/a", str(exc)))
            continue
        except (TypeError, ValueError, AttributeError, KeyError, IndexError) as exc:  # malformed facts
            result.checks.append(CheckResult(key, tr(title), NOT_CHECKED,
                                             tr("facts malformed: {reason}", reason=exc)))
            continue
        result.findings.extend(found)
        result.checks.append(CheckResult(key, tr(title), "found" if found else "ok",
                                         measured="" if found else measured_words(key, facts, ctx)))
    return result
