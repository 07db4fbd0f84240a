"""Is a checkpoint file whole? A cheap structural check, without unpickling it (the GUI never imports torch).

``torch.save`` writes a zip archive (``<name>/data.pkl``, ``<name>/data/0`` …) whose central directory
is the last thing written. A write cut short — a killed process, a full disk — leaves a file without
that directory, or one whose entries point past its end; a 0-byte ``last.pt`` is the common case. Reading
the directory and checking each entry lies inside the file costs a few kB of reads at any size. It does
not prove the pickle inside is sound (only loading does, in a worker), but it tells a complete file from
a torn one, which is what "can this run be resumed?" needs. Writers make torn files rare to begin with
(``core.atomic.atomic_writer``); this is for folders written by other tools or older versions.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

from core.i18n import tr


def checkpoint_problem(path: Path) -> str | None:
    """None when ``path`` is a complete torch checkpoint archive; else why not, in words."""
    path = Path(path)
    try:
        size = os.stat(path).st_size
    except OSError:
        return tr("{file} is missing.", file=path.name)
    if size == 0:
        return tr("{file} is empty (0 bytes): its write was cut short.", file=path.name)
    try:
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        return tr("{file} is not a complete checkpoint ({reason}): its write was cut short.",
                  file=path.name, reason=str(exc) or type(exc).__name__)
    if not any(info.filename.endswith("data.pkl") for info in infos):
        return tr("{file} is not a PyTorch checkpoint (no data.pkl inside).", file=path.name)
    for info in infos:
        if info.header_offset + info.compress_size > size:
            return tr("{file} is truncated: {entry} runs past its end.", file=path.name, entry=info.filename)
    return None
