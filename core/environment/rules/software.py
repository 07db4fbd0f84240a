"""Rules about the software stack: the probe itself, Python, PyTorch and yolov5 being installed.
"""

from __future__ import annotations

from core.environment.commands import yolov5_install_command
from core.environment.facts import EnvironmentFacts
from core.environment.rules.base import (RuleContext, Unknown, need_fact, python_without_wheels, right_wheel_fix,
                                         torch_cannot_load, venv_fix)
from core.environment.tables import version_tuple
from core.environment.torch_builds import release_for
from core.environment.torch_load import VC_REDIST_URL, classify
from core.findings import Finding
from core.i18n import N_, tr


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
    """The Python range comes from torch's release table (``torch_builds``): outside it no torch wheel exists,
    so this is the one first fix, and the other rules' fixes name it instead of a pip line."""
    version = version_tuple(str(need_fact(f.system.python_version, N_("Python version"))))
    if version is None or len(version) < 2:
        return []  # not a version (facts_from_dict names it): nothing to judge
    release = release_for(f.torch.version)
    if release.has_python(version):
        return []
    return [Finding("python-unsupported", "error", tr("Python {version} is not supported",
                                                       version=f.system.python_version),
                    tr("PyTorch {release} publishes wheels for Python {range} only; on Python {version} no PyTorch "
                       "wheel exists, so 'pip install torch' cannot succeed. The app's environment needs a "
                       "supported Python first.", release="%d.%d" % release.release, range=release.python_words(),
                       version=f.system.python_version),
                    {tr("Python"): str(f.system.python_version), tr("supported"): release.python_words()},
                    venv_fix(f), "command")]


def rule_torch_missing(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    if need_fact(f.torch.installed, N_("torch installed")) is True:
        return []
    if torch_cannot_load(f):  # its metadata, or (a version-1 file) an import error that is not "No module …"
        return [_cannot_load(f)]
    fix, kind = right_wheel_fix(f)
    return [Finding("torch-missing", "error", tr("PyTorch is not installed"),
                    tr("Training needs PyTorch; importing it failed."),
                    {tr("import error"): f.torch.import_error or "?"}, fix, kind)]


def _cannot_load(f: EnvironmentFacts) -> Finding:
    """torch is installed (its metadata is there) but its import failed: the fix matches the loader's error
    (``torch_load.classify``), never a plain ``pip install`` that would answer "already satisfied"."""
    failure = classify(f.torch.import_error)
    installed = f"torch {f.torch.dist_version}" if f.torch.dist_version else tr("yes (its version was not recorded)")
    evidence = {tr("installed"): installed, tr("import error"): f.torch.import_error or "?"}
    reinstall, reinstall_kind = right_wheel_fix(f, force=True)
    if failure.cause == "vc-runtime":
        detail = tr("Windows could not load {dll} (WinError {code}): PyTorch's DLLs need the Microsoft Visual C++ "
                    "Redistributable (vcruntime140.dll, msvcp140.dll, vcruntime140_1.dll), which is missing or too "
                    "old.", dll=failure.library or "c10.dll", code=failure.winerror or "?")
        fix = tr("Install the latest Microsoft Visual C++ Redistributable (x64) from {url}, restart the app; if the "
                 "error stays: {reinstall}", url=VC_REDIST_URL, reinstall=reinstall)
    elif failure.cause == "cuda-library":
        detail = tr("{library} is missing: this CUDA build of PyTorch takes it from its nvidia-* pip packages, which "
                    "are missing or damaged. A plain reinstall would answer 'already satisfied'; a forced one "
                    "restores them.", library=failure.library)
        fix = reinstall
    elif failure.cause == "system-library":
        detail = tr("The system library {library} that PyTorch links against is missing.", library=failure.library)
        fix = tr("Install the system package that provides {library} (Debian/Ubuntu: apt-file search {library}), "
                 "then restart the app.", library=failure.library)
    else:
        detail = tr("PyTorch's files are damaged or incomplete (an interrupted install?); a forced reinstall of the "
                    "build replaces them.")
        fix = reinstall
    title = (tr("PyTorch {version} is installed but cannot load", version=f.torch.dist_version)
             if f.torch.dist_version else tr("PyTorch is installed but cannot load"))
    return Finding("torch-cannot-load", "error", title, detail, evidence, fix,
                   reinstall_kind if fix == reinstall else "advice")


def rule_yolov5_missing(f: EnvironmentFacts, ctx: RuleContext, earlier: list[Finding]) -> list[Finding]:
    if "yolov5" not in f.packages:
        raise Unknown(tr("{fact} was not read", fact="yolov5"))
    if f.packages["yolov5"]:
        return []
    # Installing yolov5 pulls torch in (its requirements): on a Python with no torch wheel that pip line cannot
    # succeed, so the fix is the same supported-Python environment python-unsupported names.
    fix = venv_fix(f) if python_without_wheels(f) else yolov5_install_command(f)
    return [Finding("yolov5-missing", "error", tr("The yolov5 package is not installed"),
                    tr("YOLO Studio trains with the yolov5 package's own trainer."),
                    {"yolov5": tr("not installed")}, fix, "command")]
