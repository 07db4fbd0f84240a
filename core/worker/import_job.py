"""The ``dataset_import`` job: the Dataset page's Import… flow off the GUI process (issue 22).

Reading thousands of images (sizes, EXIF, a perceptual hash) takes seconds to minutes, so the page's
preview (``mode: preview``: what the source holds, nothing written) and the import itself (``mode:
write``: converted, split, written, then checked with the validator) run here, with ``import_progress``
events and the page's Cancel as the protocol's stop. The work is ``core.dataset.importers.plan``'s, the
same as ``yolostudio dataset import``; the report goes into the ``done`` event (``report``). No torch.
"""

from __future__ import annotations

from pathlib import Path

from core.dataset.importers.detect import ImportSourceError
from core.dataset.importers.plan import analyse, options_from_json, run_import
from core.dataset.importers.writer import ImportCancelled, ImportWriteError
from core.dataset.validate import validate_dataset
from core.i18n import tr
from core.worker.job import JobContext, JobError

#: Problems carried in the ``done`` event (the dialog lists 500; ``import_report.json`` keeps every one).
EVENT_SKIPPED = 1000


def run_dataset_import(ctx: JobContext) -> str:
    spec = ctx.spec
    options = options_from_json(spec.get("options") or {})
    source = Path(spec["source"])

    def progress(phase: str, done: int, total: int) -> None:
        ctx.emit("import_progress", phase=phase, done=done, total=total)

    def cancelled() -> bool:
        return ctx.stop_requested

    try:
        if spec.get("mode") == "preview":
            report = analyse(source, options, progress, cancelled, want_hash=False).preview_json()
        else:
            report = run_import(source, Path(spec["out"]), options, progress, cancelled).report
            progress("checking", 0, 1)
            check = validate_dataset(Path(report["data_yaml"]))
            counts = check.stats.get("findings", {})
            report["check"] = {"ok": check.ok, "errors": counts.get("error", 0),
                               "warnings": counts.get("warning", 0)}
    except ImportCancelled:
        return "stopped"
    except ImportSourceError as exc:
        raise JobError("dataset", str(exc), tr("Pick the folder the export was unpacked into, or its COCO "
                                               ".json file, and name the format if it is not detected.")) from exc
    except ImportWriteError as exc:
        raise JobError("dataset", str(exc), tr("Pick a new, empty folder for the imported dataset, or remove that "
                                               "one first.")) from exc
    if len(report.get("skipped", [])) > EVENT_SKIPPED:  # one event line stays small; the report file has all
        report["skipped_total"] = len(report["skipped"])
        report["skipped"] = report["skipped"][:EVENT_SKIPPED]
    ctx.done_fields["report"] = report
    return "completed"
