"""Worker subprocesses: everything that touches torch and yolov5, started as ``python -m core.worker``.

Jobs are plain functions that report through an injected ``EventWriter``; the GUI and the CLI only
start them and read their JSON lines. Modules here may import torch/yolov5 — nothing outside may.
"""
