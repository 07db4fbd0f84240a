"""One run's folder: its layout and the questions only the folder can answer (``core.run.folder.RunFolder``).

Nothing is re-exported here: each name is imported from the module that owns it (``core.run.folder``,
``core.run.files``, ``core.run.owner``, …), so a reader finds its owner from the import line.
"""
