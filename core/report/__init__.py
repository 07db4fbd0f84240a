"""The deployment report: one printable page a QA engineer can sign (issue 34, point 4).

``gather`` reads what the run already stored — its best weights and their SHA-256, the training settings, the
newest val evaluation of those weights (``core.evaluation.store``) and the export reports
(``core.export.plan.find_reports``) — and computes the operating point and its intervals from the
evaluation's stored matches (``core.evaluation.operating_point``): no model runs. ``page`` renders those facts
as a self-contained HTML page in English or Chinese. Both faces (``yolostudio report``, the Evaluate window's
Report button) call ``gather.write_report``; it is a read of stored files, not a worker job.
"""
