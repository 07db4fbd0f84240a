"""Progress of a running ``pip install``, read from its output lines (installer and in-app repair).

pip's ``--progress-bar raw`` (pip >= 24.1) prints ``Progress <bytes> of <total>`` for each download, and
its log names every phase: ``Collecting X``, ``Downloading <url> (899.7 MB)`` / ``Using cached ...``,
``Installing collected packages: a, b``, ``Successfully installed ...``, ``ERROR: ...``. Folding those
lines gives what a person wants to see — which file, how far, which phase — without parsing a terminal
progress bar. Pure: a test feeds it recorded lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.i18n import tr

#: pip gained ``--progress-bar raw`` in 24.1.
RAW_PROGRESS_PIP = (24, 1)
MAX_ERROR_LINES = 20

_PROGRESS = re.compile(r"^Progress (\d+) of (\d+)$")
_DOWNLOAD = re.compile(r"^\s*(Downloading|Using cached|Resuming download)\s+(\S+)(?:\s+\(([^)]*)\))?")
_COLLECTING = re.compile(r"^\s*Collecting\s+(\S+)")


@dataclass
class PipProgress:
    """The folded state: ``phase`` is resolving, downloading, installing, done or failed."""

    phase: str = "resolving"
    package: str | None = None  # the requirement pip is collecting
    file: str | None = None  # the file being downloaded (its name, not the URL)
    size_text: str | None = None  # pip's own "899.7 MB"
    done_bytes: int = 0
    total_bytes: int = 0
    files_downloaded: int = 0
    installing: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def feed(self, line: str) -> bool:
        """Fold one output line; True when the visible state changed."""
        line = line.rstrip("\r\n")
        match = _PROGRESS.match(line)
        if match:
            self.done_bytes, self.total_bytes = int(match.group(1)), int(match.group(2))
            if self.total_bytes and self.done_bytes >= self.total_bytes:
                self.files_downloaded += 1
            return True
        match = _DOWNLOAD.match(line)
        if match:
            self.phase = "downloading"
            self.file = match.group(2).rsplit("/", 1)[-1].replace("%2B", "+")
            self.size_text = match.group(3)
            self.done_bytes = self.total_bytes = 0
            return True
        match = _COLLECTING.match(line)
        if match:
            self.package = match.group(1)
            return True
        if line.startswith("Installing collected packages:"):
            self.phase = "installing"
            self.installing = [p.strip() for p in line.split(":", 1)[1].split(",") if p.strip()]
            return True
        if line.startswith("Successfully installed"):
            self.phase = "done"
            return True
        if line.startswith("ERROR:") or line.startswith("error:"):
            self.errors = (self.errors + [line])[-MAX_ERROR_LINES:]
            return False
        return False

    @property
    def fraction(self) -> float | None:
        """Share of the current file downloaded; None when unknown (pip did not say the size)."""
        if self.phase != "downloading" or not self.total_bytes:
            return None
        return min(1.0, self.done_bytes / self.total_bytes)

    @property
    def cancellable(self) -> bool:
        """Stopping pip is safe until it starts replacing files: after that, a killed pip leaves PyTorch
        half uninstalled (its rollback runs only on an ordinary error)."""
        return self.phase in ("resolving", "downloading")

    def describe(self) -> str:
        if self.phase == "downloading" and self.file:
            if self.total_bytes:
                return tr("Downloading {file}: {done:.0f} of {total:.0f} MB", file=self.file,
                          done=self.done_bytes / 1e6, total=self.total_bytes / 1e6)
            return tr("Downloading {file} ({size})", file=self.file, size=self.size_text or "?")
        if self.phase == "installing":
            return tr("Installing {packages}", packages=", ".join(self.installing))
        if self.phase == "done":
            return tr("Installed")
        return tr("Resolving {package}", package=self.package or "…")


def pip_supports_raw(version_text: str) -> bool:
    """``pip 26.3 from ...`` -> True."""
    match = re.search(r"pip (\d+)\.(\d+)", version_text)
    return bool(match) and (int(match.group(1)), int(match.group(2))) >= RAW_PROGRESS_PIP
