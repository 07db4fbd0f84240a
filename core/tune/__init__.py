"""Hyperparameter search (issue 24): what is searched, what the budget allows, and the results' files.

Pure logic only (no Ray, no torch): the search space read from yolov5's own evolve table (``space``), the
trials a time budget allows (``budget``) and the summary of a finished search (``summary``). Ray Tune itself
runs in the ``tune`` worker job (``core/worker/tune_job.py``), never in the GUI or CLI process.
"""
