"""``yolostudio``: the command-line front end — a peer of ``gui/``, over the same ``core``.

One module per verb under ``cli/verbs/`` (each registers itself with ``cli.registry``), one output
interface for human text and ``--json`` (``cli/render.py``), and the entry point ``cli.main:main``.
Nothing here imports Qt or the training stack; the ``gui`` verb loads ``gui.app`` only when asked for.
"""
