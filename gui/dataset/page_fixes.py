"""The Dataset page's Fix…: plan the fix of the chosen finding, preview it, apply it, undo it, check again.

``FindingFixes`` is a controller the page owns: it drives the Problems list's Fix… and Undo fix, edits the
document (``DocumentEditing``) for a ``path:`` fix and asks the check (``DatasetChecking``) to judge again;
``message`` is a line for the banner and ``files_changed`` says the dataset's files were written.

Which findings have a fix and what it does are ``core.dataset.fix_catalogue``'s; the plan is made when a
finding is chosen (``operations.plan_finding_fix``, off the GUI thread: it reads the file it would change),
so Fix… is on only when there is a change to preview, and otherwise says "no automatic fix". A file fix
(a label or list rewritten with a backup, an image or label moved aside) can be undone with "Undo fix"
until the next fix; a ``path:`` fix is a YAML edit in the page's own history (Ctrl+Z).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from core.dataset.fix_catalogue import YAML_FIXES, fix_description
from core.dataset.fixes import FixPlan, can_reassign
from core.dataset.spec import reroot_target
from core.dataset.yaml_edit import EditError, set_value
from core.findings import Finding
from gui.dataset import dataset_dialogs, operations
from gui.dataset.dataset_findings import FindingsView
from gui.dataset.page_checking import DatasetChecking
from gui.dataset.page_editing import DocumentEditing


class FindingFixes(QObject):
    """Fix… and Undo fix for the finding chosen in the Problems list (see the module's docstring)."""

    message = Signal(str, str)  # level, text: a line for the page's banner
    files_changed = Signal(Path)  # a fix applied or undone wrote the dataset's files: whoever judged it, again

    def __init__(self, document: DocumentEditing, checking: DatasetChecking, findings: FindingsView,
                 parent: QWidget) -> None:
        super().__init__(parent)
        self._document, self._checking, self._findings, self._window = document, checking, findings, parent
        self.fix_plan: FixPlan | None = None  # the chosen finding's fix, planned
        self.undoable_fix: FixPlan | None = None  # the last fix applied
        findings.fix_requested.connect(self.fix_finding)
        findings.undo_fix_requested.connect(self.undo_last_fix)
        findings.reassign_requested.connect(self.reassign)

    def forget(self) -> None:
        """Another file is shown: no plan, nothing to undo."""
        self.fix_plan = self.undoable_fix = None
        self._findings.offer_undo("")

    def plan_fix_of(self, finding: Finding) -> None:
        """Plan the chosen finding's fix in the background; Fix… follows the answer."""
        self.fix_plan = None
        spec = self._document.spec
        if can_reassign(finding) and spec is not None:  # the box kept, given a class: beside "delete the row"
            self._findings.offer_classes(finding, list(spec.names))
        if finding.code in YAML_FIXES and self._document.spec is not None:
            self._findings.set_fix(finding, fix_description(finding.code))
            return
        if not fix_description(finding.code):
            self._findings.set_fix(finding, "")
            return
        operations.plan_finding_fix(self._window, finding, self._document.spec) \
            .success(lambda plan: self._fix_planned(finding, plan)).run()

    def _fix_planned(self, finding: Finding, plan: FixPlan | None) -> None:
        if self._findings.current is not finding:
            return  # another finding was chosen meanwhile
        self.fix_plan = plan
        self._findings.set_fix(finding, fix_description(finding.code) if plan is not None else "")

    def fix_finding(self, finding: Finding) -> bool:
        """Show what the planned fix changes, apply it on yes, then check again (the check's cache follows)."""
        if finding.code in YAML_FIXES and self._document.path is not None:
            return self._reroot()
        plan = self.fix_plan
        if plan is None or plan.file != finding.file:
            self.message.emit("info", self.tr(
                "There is no automatic fix for this finding; its message says what to do."))
            return False
        if not dataset_dialogs.confirm_fix(self._window, plan.summary, plan.before, plan.after):
            return False
        operations.apply_finding_fix(self._window, plan).success(lambda _: self._fixed(plan)) \
            .failure(lambda exc: self.message.emit("error", self.tr("The fix failed: {reason}").format(
                reason=exc))).run()
        return True

    def reassign(self, finding: Finding, new_class: int) -> None:
        """Give the row of an impossible class id class ``new_class``: planned, previewed, applied, undoable."""
        spec = self._document.spec
        name = spec.names[new_class] if spec is not None and 0 <= new_class < len(spec.names) else ""
        operations.plan_class_reassign(self._window, finding, new_class, name) \
            .success(lambda plan: self._apply_reassign(plan)).run()

    def _apply_reassign(self, plan: FixPlan | None) -> None:
        if plan is None:
            self.message.emit("info", self.tr("The label file changed since the check; check again first."))
            return
        if not dataset_dialogs.confirm_fix(self._window, plan.summary, plan.before, plan.after):
            return
        operations.apply_finding_fix(self._window, plan).success(lambda _: self._fixed(plan)) \
            .failure(lambda exc: self.message.emit("error", self.tr("The fix failed: {reason}").format(
                reason=exc))).run()

    def _fixed(self, plan: FixPlan) -> None:
        self.undoable_fix = plan
        self._findings.offer_undo(plan.summary)
        self.message.emit("ok", self.tr("Done: {what}. Undo fix puts it back.").format(what=plan.summary))
        self._check_again()

    def undo_last_fix(self) -> None:
        plan = self.undoable_fix
        if plan is None:
            return
        self.undoable_fix = None
        self._findings.offer_undo("")
        operations.undo_finding_fix(self._window, plan).success(lambda _: self._fix_undone(plan)) \
            .failure(lambda exc: self.message.emit("error", self.tr("Could not undo the fix: {reason}").format(
                reason=exc))).run()

    def _fix_undone(self, plan: FixPlan) -> None:
        self.message.emit("ok", self.tr("Undone: {what}.").format(what=plan.summary))
        self._check_again()

    def _check_again(self) -> None:
        self._checking.forget()
        self._checking.check()
        if self._document.path is not None:
            self.files_changed.emit(self._document.path)

    def _reroot(self) -> bool:
        """Set ``path:`` to where the dataset most likely is now (``spec.reroot_target``): an undoable edit,
        saved when the user saves."""
        spec = self._document.spec
        assert spec is not None  # the finding being fixed came from it
        target = str(reroot_target(spec))
        if not dataset_dialogs.confirm_fix(self._window, self.tr("Set 'path' to {folder}").format(folder=target),
                                           "", ""):
            return False
        try:
            self._document.push(set_value(self._document.doc, ["path"], target), self.tr("Re-root the dataset"))
        except EditError as exc:
            self.message.emit("error", str(exc))
            return False
        self.message.emit("ok", self.tr("'path' is now {folder}. Save (Ctrl+S) to keep it.").format(
            folder=target))
        self._checking.check()
        return True
