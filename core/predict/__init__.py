"""Predict: a model on the user's images, folders, globs, videos, cameras and streams (``yolostudio predict``).

``source`` says what a SOURCE string is (no OpenCV: both faces check it before a worker starts); ``plan`` builds
the worker spec; the worker (``core/worker/predict_job.py``) reads frames one at a time and writes the outputs.
"""
