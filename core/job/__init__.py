"""The one job path across the process boundary, from the launcher's side: the job's spec and its outcome
(``jobs``), the command that starts a worker (``launch``, ``torchrun`` for DDP), and the event/control protocol
with its typed fields (``protocol``, ``event_fields``). docs/architecture.md, "One job path"."""
