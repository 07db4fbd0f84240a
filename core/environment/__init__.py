"""The environment checker's core: facts about a machine, the rules that judge them, and their tables.

Why a package of its own: the facts are plain data (gathered in a worker subprocess, saved to a file,
attached to a bug report, injected by tests), and the rules are pure functions of those facts, so the
same diagnosis runs for this machine, for a colleague's saved facts file, and in table-driven tests.
Nothing here imports Qt or torch; the torch half of the probe lives in ``core/worker/probe_job.py``.
"""

from __future__ import annotations
