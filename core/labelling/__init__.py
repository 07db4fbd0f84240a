"""Labelling with the user's own model: proposals in a review queue, a person's decisions, accepted labels.

The loop (issue 33): a run's best weights predict new images (the ``autolabel`` worker job, entered through
``core.usecases.label.AutoLabelDoor``); the proposals wait in a review queue stored in the workspace — never in
a dataset — until accepted; a person reviews them least certain first; accepted images and labels are written
into a dataset with a record of where each label line came from.

The API both faces use (CLI ``yolostudio label …``, the GUI's Label page):

- ``store``: the queue on disk, ``<workspace>/labelling/<name>/`` (``queue.json`` header, append-only
  ``proposals.jsonl`` from the worker and ``reviews.jsonl`` from the faces; whole lines, so a killed process
  never spoils it). ``open_queue(workspace, name) -> Queue`` folds it; ``Queue.ordered()`` is the review order;
  ``list_queues``; decisions: ``save_image`` (an image's whole box list and state, one line: undo is another),
  ``set_box_state``, ``reject_image``; ``record_added`` (accept's).
- ``records``: the values — ``Box`` (pixel corners, class *name*, confidence, ``state`` proposed / accepted /
  edited / rejected, ``origin`` model / person), ``ImageItem`` (``state``, ``uncertainty``, ``reason`` code
  and ``reason_text``), ``rank`` and ``review_order`` (least certain first), ``goes_in``, ``yolo_row``.
- ``provenance``: the sidecar ``label_provenance.json`` at the dataset's root — per label line,
  model-proposed / person-confirmed / person-drawn; ``record_label(s)``, ``origins_of``, ``origin_of_box``.
- ``plan``: which images a new or resumed queue holds (``plan_queue``).
- ``accept``: a queue's accepted images and labels written into a dataset (``accept_into``).
"""
