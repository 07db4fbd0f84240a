"""Is the chosen PyTorch build really served by the index we will install from? Asked before anything changes.

The wheel table (``core.environment.torch_builds``) says which builds a release publishes on PyTorch's own
index; a mirror (``--torch-index``), a proxy or an index that dropped a build may still not serve it, or not
for this Python and platform. pip itself answers that exactly: ``pip install --dry-run --no-deps
--ignore-installed torch==X+tag torchvision==Y+tag --index-url URL`` resolves against that index with this
interpreter's tags and installs nothing (pip >= 22.2). It exits 0 when it "Would install" them, and with
"No matching distribution found for …" when the index does not serve them — but it says that too after failing
to reach the index, so its connection warnings (``UNREACHABLE``) mean "could not ask", which is not a reason
to pick another build. The installer (``steps.Installer``) and the in-app
repair (``core.worker.repair_job``) try the chosen build, then the other builds that also fit the machine
(``fallback_tags``), and say why when they move on.
"""

from __future__ import annotations

from core.environment.commands import torch_install_argv
from core.environment.tables import (WHEELS, arch_covers, cuda_tuple, driver_floor, driver_meets)
from core.i18n import tr
from core.install.wheel_choice import WheelChoice

#: How pip says the index has no such build for this interpreter and platform: plainly, or — when a pip
#: constraint file also names the package — as a ResolutionImpossible whose reason is the same (both checked
#: against pip 26.3 in tests/installer/test_index_check_pip.py).
NOT_SERVED = ("No matching distribution found", "have no matching distributions available")
#: pip's warnings when it could not reach the index at all (urllib3's retry warning, pip's fetch error, a proxy or
#: TLS failure): it still ends with "No matching distribution", which then means nothing about the build.
UNREACHABLE = ("connection broken by", "Failed to establish a new connection", "Could not fetch URL",
               "ProxyError", "SSLError", "Max retries exceeded", "Read timed out",
               "Temporary failure in name resolution", "Name or service not known")
#: pip's lines that explain a refusal, kept for the reason given to the user.
_WHY = ("ERROR: Could not find", "ERROR: No matching", "ERROR: Cannot install", "ERROR: Could not")


def check_argv(python: str, tag: str, torch: str, vision: str, os_name: str | None,
               index_base: str | None = None) -> list[str]:
    """The dry run that asks the index for exactly the build ``torch_install_argv`` would install."""
    argv = torch_install_argv(python, tag, torch, vision, os_name, index_base)
    # --retries 2: pip reports an unreachable index only through urllib3's retry warnings (its own "could not
    # fetch" is a debug line), so a configured "retries = 0" must not silence them.
    return argv[:4] + ["--dry-run", "--no-deps", "--ignore-installed", "--retries", "2"] + argv[4:]


def answer(code: int, lines: list[str]) -> str:
    """'served', 'not-served' (the index has no such build for this Python/platform) or 'failed' (pip could not
    ask: the index unreachable, pip too old for --dry-run)."""
    if code == 0:
        return "served"
    if any(marker in line for line in lines for marker in UNREACHABLE):
        return "failed"  # pip then also says "No matching distribution": the index was never asked
    return "not-served" if any(marker in line for line in lines for marker in NOT_SERVED) else "failed"


def why(lines: list[str]) -> str:
    """pip's own explanation, for the message: the connection failure when there was one, else its ERROR lines,
    else its last line."""
    unreachable = [line.strip() for line in lines if any(marker in line for marker in UNREACHABLE)]
    if unreachable:
        return unreachable[-1]
    picked = [line.strip().removeprefix("ERROR: ") for line in lines if line.strip().startswith(_WHY)]
    return picked[-1] if picked else (lines[-1].strip() if lines else "")


def fallback_tags(choice: WheelChoice, driver_os: str | None) -> list[str]:
    """The other builds of the pinned release that also run this driver and carry kernels for every GPU the
    choice uses, in the table's order of preference. None after an explicit ``--cuda``/``--cpu``: the user
    asked for that build, so a missing one is an error, not a silent swap."""
    if choice.code.startswith("override") or choice.tag == "cpu":
        return []
    caps = [g.capability for g in choice.gpus if g.usable and g.capability is not None]
    have = cuda_tuple(choice.driver_cuda)
    out = []
    for wheel in WHEELS:
        assert wheel.cuda is not None
        if wheel.tag == choice.tag or not all(arch_covers(wheel.archs, cc) for cc in caps):
            continue
        if driver_meets(choice.driver, driver_floor(wheel.cuda[0], driver_os)) is False:
            continue
        if have is not None and have[0] < wheel.cuda[0]:
            continue
        out.append(wheel.tag)
    return out


def moved_reason(tag: str, first: str, refused: list[str], index_url: str) -> str:
    """Why a build other than the first choice is installed."""
    return tr("{first} is not served by {index} ({why}); {tag} also fits this machine and is installed instead.",
              first=first, index=index_url, why="; ".join(refused), tag=tag)
