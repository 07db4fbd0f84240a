"""Evaluation of a trained model: what yolov5's validation says, image by image, and what to fix.

``matching`` sorts each image's predictions and labels into true positives and the kinds of error;
``ranking`` orders the errors by how likely the *label* is wrong (cleanlab's scores, computed in the worker:
``core/worker/label_scores.py``); ``bootstrap`` says how sure the mAP is; ``fingerprint`` and ``store`` keep
each evaluation in the run folder under a key of its inputs, so the same evaluation is read back, not re-run.
"""
