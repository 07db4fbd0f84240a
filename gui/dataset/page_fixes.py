"""The Dataset page's Fix…: plan the fix of the chosen finding, preview it, apply it, undo it, check again.

Which findings have a fix and what it does are ``core.dataset.fix_catalogue``'s; the plan is made when a
finding is chosen (``operations.plan_finding_fix``, off the GUI thread: it reads the file it would change),
so Fix… is on only when there is a change to preview, and otherwise says "no automatic fix". A file fix
(a label or list rewritten with a backup, an image or label moved aside) can be undone with "Undo fix"
until the next fix; a ``path:`` fix is a YAML edit in the page's own history (Ctrl+Z).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.dataset.fix_catalogue import YAML_FIXES, fix_description
from core.dataset.fixes import FixPlan
from core.dataset.spec import reroot_target
from core.dataset.yaml_edit import EditError, set_value
from core.findings import Finding
from gui.dataset import dataset_dialogs, operations

if TYPE_CHECKING:
    from gui.dataset.dataset_page import DatasetPage


class FindingFixes:
    """Mixed into ``DatasetPage``: Fix… and Undo fix for the finding chosen in the Problems list."""

    def _plan_fix_of(self: "DatasetPage", finding: Finding) -> None:
        """Plan the chosen finding's fix in the background; Fix… follows the answer."""
        self.fix_plan = None
        if finding.code in YAML_FIXES and self.spec is not None:
            self.findings.set_fix(finding, fix_description(finding.code))
            return
        if not fix_description(finding.code):
            self.findings.set_fix(finding, "")
            return
        operations.plan_finding_fix(self, finding, self.spec) \
            .success(lambda plan: self._fix_planned(finding, plan)).run()

    def _fix_planned(self: "DatasetPage", finding: Finding, plan: FixPlan | None) -> None:
        if self.findings.current is not finding:
            return  # another finding was chosen meanwhile
        self.fix_plan = plan
        self.findings.set_fix(finding, fix_description(finding.code) if plan is not None else "")

    def fix_finding(self: "DatasetPage", finding: Finding) -> bool:
        """Show what the planned fix changes, apply it on yes, then check again (the check's cache follows)."""
        if finding.code in YAML_FIXES and self.path is not None:
            return self._reroot()
        plan = self.fix_plan
        if plan is None or plan.file != finding.file:
            self.banner.show_message("info", self.tr(
                "There is no automatic fix for this finding; its message says what to do."))
            return False
        if not dataset_dialogs.confirm_fix(self, plan.summary, plan.before, plan.after):
            return False
        operations.apply_finding_fix(self, plan).success(lambda _: self._fixed(plan)) \
            .failure(lambda exc: self.banner.show_message("error", self.tr("The fix failed: {reason}").format(
                reason=exc))).run()
        return True

    def _fixed(self: "DatasetPage", plan: FixPlan) -> None:
        self.undoable_fix = plan
        self.findings.offer_undo(plan.summary)
        self.banner.show_message("ok", self.tr("Done: {what}. Undo fix puts it back.").format(what=plan.summary))
        self.report = None
        self.check()
        if self.path is not None:
            self.dataset_saved.emit(self.path)  # its files changed: whoever judged the dataset judges it again

    def undo_last_fix(self: "DatasetPage") -> None:
        plan = self.undoable_fix
        if plan is None:
            return
        self.undoable_fix = None
        self.findings.offer_undo("")
        operations.undo_finding_fix(self, plan).success(lambda _: self._fix_undone(plan)) \
            .failure(lambda exc: self.banner.show_message("error", self.tr("Could not undo the fix: {reason}").format(
                reason=exc))).run()

    def _fix_undone(self: "DatasetPage", plan: FixPlan) -> None:
        self.banner.show_message("ok", self.tr("Undone: {what}.").format(what=plan.summary))
        self.report = None
        self.check()
        if self.path is not None:
            self.dataset_saved.emit(self.path)

    def _reroot(self: "DatasetPage") -> bool:
        """Set ``path:`` to where the dataset most likely is now (``spec.reroot_target``): an undoable edit,
        saved when the user saves."""
        assert self.spec is not None  # the finding being fixed came from it
        target = str(reroot_target(self.spec))
        if not dataset_dialogs.confirm_fix(self, self.tr("Set 'path' to {folder}").format(folder=target), "", ""):
            return False
        try:
            self._push(set_value(self.doc, ["path"], target), self.tr("Re-root the dataset"))
        except EditError as exc:
            self.banner.show_message("error", str(exc))
            return False
        self.banner.show_message("ok", self.tr("'path' is now {folder}. Save (Ctrl+S) to keep it.").format(
            folder=target))
        self.check()
        return True
