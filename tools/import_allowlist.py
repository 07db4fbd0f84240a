"""An import-linter contract type that lists what a package MAY import, instead of what it may not.

import-linter's own types forbid named modules (``forbidden``) or order layers; a deny-list of "what a widget must
not import" has holes wherever a new package is not on it yet (issue 30: a widget could import
``gui.tune.operations`` because ``gui.tune`` was newer than the list). This type turns it round: every module
that ``source_modules`` (and their descendants) import directly must be one of ``allowed_modules`` (or inside
one of them), or inside the source package itself; anything else — a new feature package, a core module that
does I/O, a new third-party library — breaks the contract until someone adds it to the list on purpose.
Third-party and standard-library modules are named by their top-level package (``PySide6``, ``html``), as
import-linter's graph holds them (``include_external_packages = true``).

Registered in pyproject's ``[tool.importlinter]`` as ``contract_types = ["allowlist: tools.import_allowlist.
AllowListContract"]``; ``lint-imports`` puts the working directory on ``sys.path``, so it runs from the
repository root (as tests/test_import_contracts.py does).
"""

from __future__ import annotations

from typing import Any

from importlinter import Contract, ContractCheck, fields, output


def allowed(imported: str, allowed_modules: set[str]) -> bool:
    """True when ``imported`` is one of ``allowed_modules`` or inside one of them."""
    return any(imported == name or imported.startswith(name + ".") for name in allowed_modules)


class AllowListContract(Contract):
    """``source_modules`` import nothing outside themselves but ``allowed_modules``."""

    type_name = "allowlist"

    source_modules = fields.ListField(subfield=fields.ModuleField())
    allowed_modules = fields.ListField(subfield=fields.StringField())

    def check(self, graph: Any, verbose: bool) -> ContractCheck:
        sources = {str(m.name) for m in self.source_modules}  # type: ignore[attr-defined]
        permitted = set(self.allowed_modules) | sources  # type: ignore[arg-type]
        offences: list[dict[str, Any]] = []
        for source in sorted(sources):
            if source not in graph.modules:
                continue
            for importer in sorted({source} | graph.find_descendants(source)):
                for imported in sorted(graph.find_modules_directly_imported_by(importer)):
                    if not allowed(imported, permitted):
                        lines = [d["line_number"] for d in graph.get_import_details(importer=importer,
                                                                                     imported=imported)]
                        offences.append({"importer": importer, "imported": imported, "lines": lines})
        return ContractCheck(kept=not offences, metadata={"offences": offences})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for offence in check.metadata["offences"]:
            where = ", ".join(f"l.{n}" for n in offence["lines"]) or "?"
            output.print_error(f"{offence['importer']} -> {offence['imported']} ({where}): not on the allow-list")
            output.new_line()
