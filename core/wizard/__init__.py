"""The hardware-aware parameter wizard: facts + measurements -> settings, each with why and evidence.

``inputs`` (the facts it decides from), ``rules`` and ``recommend`` (pure), ``commands`` (what to copy),
``tables`` (reference figures used only where nothing was measured). The measurements are the
``wizard_measure`` worker job (``core/worker/wizard_job.py``).
"""
