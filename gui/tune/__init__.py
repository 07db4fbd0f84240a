"""The Tune page (issue 24): a hyperparameter search on Ray Tune, planned here and run by the ``tune`` worker job.

The GUI process never imports Ray: ``operations`` reaches core (the space, the plan) off the GUI thread, the
page runs the job through ``gui.job_runner.JobRunner`` and draws its ``trial`` events (``trial_table``,
``fitness_chart``).
"""
