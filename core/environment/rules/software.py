"""Rules about the software stack: the probe itself, Python, PyTorch and yolov5 being installed.
"""

from __future__ import annotations

from core.environment.commands import yolov5_install_command
from core.environment.facts import EnvironmentFacts
from core.environment.rules.base import RuleContext, Unknown, need_fact, right_wheel_fix
from core.environment.tables import PYTHON_SUPPORTED, version_tuple
from core.findings import Finding
from core.i18n import tr


def rule_probe(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    p = f.probe
    if p.timed_out:
        return [Finding("probe-timeout", "error", tr("The environment check hung and was stopped"),
                        tr("The probe did not finish step '{step}' within {limit:.0f} s and was killed. A GPU driver "
                           "that hangs like this (a wedged driver, a GPU that fell off the bus) will hang training "
                           "too.", step=p.hung_at or "?", limit=p.timeout_s or 0),
                        {tr("step"): p.hung_at or "?", tr("time limit"): f"{p.timeout_s or 0:.0f} s"},
                        tr("Run nvidia-smi: if it hangs or shows 'ERR!', reboot the machine; if it persists, check "
                           "'sudo dmesg | grep -i xid' for the GPU error."), "advice")]
    if not p.completed:
        return [Finding("probe-failed", "error", tr("The environment check did not finish"),
                        tr("The probe process ended before reporting all facts; the checks below use what it "
                           "reported."), {tr("reason"): p.error or "?"},
                        tr("Run 'yolostudio doctor' in a terminal to see the probe's own messages."), "advice")]
    return []


def rule_python(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    version = version_tuple(str(need_fact(f.system.python_version, "Python version")))
    if version is None or len(version) < 2:
        return []  # not a version (facts_from_dict names it): nothing to judge
    low, high = PYTHON_SUPPORTED
    if low <= version[:2] <= high:
        return []
    severity = "error" if version[:2] < low else "warning"
    return [Finding("python-unsupported", severity, tr("Python {version} is not supported",
                                                        version=f.system.python_version),
                    tr("YOLO Studio and its PyTorch wheels are built for Python {low} to {high}; with another "
                       "version the right wheels may not exist or install.",
                       low="%d.%d" % low, high="%d.%d" % high),
                    {tr("Python"): str(f.system.python_version), tr("supported"): "%d.%d–%d.%d" % (*low, *high)},
                    tr("Create the app's environment with Python {high}: python{high} -m venv .venv, then run "
                       "installer/launch.sh again.", high="%d.%d" % high), "command")]


def rule_torch_missing(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    if need_fact(f.torch.installed, "torch installed") is True:
        return []
    fix, kind = right_wheel_fix(f)
    return [Finding("torch-missing", "error", tr("PyTorch is not installed"),
                    tr("Training needs PyTorch; importing it failed."),
                    {tr("import error"): f.torch.import_error or "?"}, fix, kind)]


def rule_yolov5_missing(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    if "yolov5" not in f.packages:
        raise Unknown(tr("{fact} was not read", fact="yolov5"))
    if f.packages["yolov5"]:
        return []
    return [Finding("yolov5-missing", "error", tr("The yolov5 package is not installed"),
                    tr("YOLO Studio trains with the yolov5 package's own trainer."),
                    {"yolov5": tr("not installed")}, yolov5_install_command(f), "command")]
