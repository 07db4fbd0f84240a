"""Export of trained weights to ONNX, TensorRT and TorchScript: the pure half (rules, facts, paths, reports).

Everything here is plain Python with no torch and no Qt, so the GUI and the CLI can decide what is
possible and read finished reports without starting a worker; the exporting itself lives in
``core/worker/export_job.py``.
"""
