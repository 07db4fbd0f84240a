"""The Evaluate feature of the GUI: showing a stored evaluation (``view.EvaluationView``).

Display only; the evaluation itself runs in the ``evaluate`` worker (``yolostudio evaluate`` today; the Runs
page and the Train page's completion card are to start it through ``gui.job_runner``).
"""
