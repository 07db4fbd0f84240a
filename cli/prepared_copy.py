"""The prepared copy a wizard document asks for, made on the terminal: progress, Ctrl+C, and what it did.

``yolostudio wizard --prepare`` and ``yolostudio train --config wizard.json`` both call ``ensure_copy``, which
runs the one owner (``core.wizard.prepared_copy.copy_for_training`` → ``core.dataset.prepare``): the progress
line on a terminal, a note before and after elsewhere (a log, ``--json``'s stderr), and on Ctrl+C the images
finished so far are kept for the next run to resume from.
"""

from __future__ import annotations

from pathlib import Path

from cli.progress_line import ProgressLine
from cli.render import Output
from core.dataset.prepare import PrepareCancelled, PrepareError, PrepareResult
from core.i18n import tr
from core.wizard.prepared_copy import CopyRequest, copy_for_training, copy_words, current_copy


def ensure_copy(out: Output, request: CopyRequest, workspace: Path) -> PrepareResult | None:
    """The up-to-date copy (made or refreshed first), or None after saying why it cannot be made. Stopped (Ctrl+C):
    says so and raises ``PrepareCancelled``, the verb's cue to exit as stopped."""
    if current_copy(request, workspace) is None:
        out.note(tr("Preparing a copy of {source} resized to {imgsz} px (resumable; Ctrl+C keeps what is done)…",
                    source=request.source, imgsz=request.imgsz))
    line = ProgressLine(tty=None if not out.json_mode else False)
    try:
        result = copy_for_training(request, workspace, progress=lambda done, total: line.show(
            tr("Preparing {done}/{total} images", done=done, total=total)))
    except PrepareError as exc:
        line.clear()
        out.error(str(exc), tr("Fix the dataset (yolostudio dataset check {path}), or train on the originals: "
                               "yolostudio train {path} …", path=request.source))
        return None
    except (PrepareCancelled, KeyboardInterrupt) as exc:
        line.keep()
        out.error(tr("Stopped; the images prepared so far are kept and the next run resumes."))
        raise PrepareCancelled(str(exc)) from exc
    line.clear()
    for image, reason in result.failed[:5]:
        out.warning(tr("{image} could not be resized ({reason}); the copy holds it as it is.", image=image,
                       reason=reason))
    out.note(copy_words(result, request))
    return result
