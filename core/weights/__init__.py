"""Pretrained YOLOv5 checkpoints on request: what exists, what is on this machine, and getting it safely.

``catalog`` lists the official v7.0 checkpoints with their published figures and sources; ``store`` is the
workspace's ``weights/`` folder and its manifest (the SHA-256 recorded when a file came in, checked at
every later use); ``download`` fetches one file over HTTPS with the standard library (resume, timeouts,
retries, progress, cancel) — the app's only network use, always on the user's request; ``choice`` says
whether the next training should fine-tune from a stored checkpoint, and why.
"""
