"""Why no build of a torch release fits a machine, in one sentence — shared by the doctor's fixes and the
installer's plan, so both say the same thing when the fix is the driver and not PyTorch.

The class of case: every build with kernels for the GPUs needs a newer driver family than the one installed
(Blackwell on a 12.x driver under torch 2.14: cu126 has no sm_100/sm_120 kernels, cu130/cu132 need a 580+
driver). The facts are the release's row in ``torch_builds`` and the driver floors in ``tables``.
"""

from __future__ import annotations

from core.environment.tables import arch_covers, driver_floor, fitting_wheels
from core.environment.torch_builds import TorchRelease, release_for
from core.i18n import tr


def _arch_words(caps: list[tuple[int, int]]) -> str:
    return ", ".join(f"sm_{a}{b}" for a, b in sorted(set(caps)))


def no_build_reason(driver: str | None, caps: list[tuple[int, int]], driver_os: str | None,
                    release: TorchRelease | None = None) -> str:
    """'PyTorch 2.14 has no build that runs on driver 570.86.15 for sm_120: cu126 has no kernels for sm_120;
    cu132, cu130 need driver 580.65.06 or newer. The fix is the driver: …'."""
    release = release or release_for()
    reasons = []
    for wheel in release.builds:
        missing = [cc for cc in caps if not arch_covers(wheel.archs, cc)]
        if missing:
            reasons.append(tr("{tag} has no kernels for {archs}", tag=wheel.tag, archs=_arch_words(missing)))
        else:
            reasons.append(tr("{tag} needs driver {floor} or newer", tag=wheel.tag,
                              floor=driver_floor(wheel.cuda[0], driver_os) or "?"))  # type: ignore[index]
    fitting = fitting_wheels(caps)
    needed = driver_floor(fitting[-1].cuda[0], driver_os) if fitting else None  # type: ignore[index]
    return tr("PyTorch {release} has no build that runs on driver {driver} for {archs}: {reasons}. The fix is the "
              "driver, not PyTorch: update it to {needed} or newer.",
              release="%d.%d" % release.release, driver=driver or "?", archs=_arch_words(caps),
              reasons="; ".join(reasons), needed=needed or "?")
