"""One module per ``yolostudio`` verb; each calls ``cli.registry.register`` when imported.

To add a verb, add a module here (see docs/architecture.md, "How to add a CLI verb"); nothing else changes.
"""
