"""``install.json``: what an install created, so the uninstaller removes exactly that and nothing else.

Written atomically at the start of an install (status ``installing``) and after every file the installer
creates, so an interrupted install can be re-run or removed; ``installed`` only after the shortcuts, the
last step. The index and reason are kept for support ("which torch did the installer choose, and why?").
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from core.atomic import atomic_write_text

KIND = "yolostudio-install"


@dataclass
class Manifest:
    kind: str = KIND
    version: int = 1
    status: str = "installing"  # installing | installed
    app_version: str | None = None
    index: str | None = None
    reason: str | None = None
    source: str | None = None
    venv: str | None = None
    created: list[str] = field(default_factory=list)  # files and folders this installer made, in order
    updated: float | None = None

    def add(self, path: Path | str) -> None:
        text = str(path)
        if text not in self.created:
            self.created.append(text)


def load_manifest(path: Path) -> Manifest | None:
    """The manifest, or None when absent or not ours (a broken file is treated as absent)."""
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(raw, dict) or raw.get("kind") != KIND:
        return None
    known = {k: v for k, v in raw.items() if k in Manifest.__dataclass_fields__}
    manifest = Manifest(**known)
    manifest.created = [str(p) for p in manifest.created if isinstance(p, str)]
    return manifest


def save_manifest(manifest: Manifest, path: Path) -> None:
    manifest.updated = time.time()
    atomic_write_text(Path(path), json.dumps(asdict(manifest), indent=2, ensure_ascii=False) + "\n", backup=False)
