"""Dataset YAML model, editor operations and validator (no Qt, no torch, no cv2).

Shared by the Dataset page and ``yolostudio dataset check``. Modules, one job each:
``findings`` (the finding record and its codes), ``yaml_doc`` (a data.yaml as text + positions, edits that
touch only the edited text, atomic save), ``spec`` (what the YAML means: names, splits, roots),
``files`` (which images a split holds, yolov5's image↔label pairing), ``labels`` (one label file's rows),
``images`` (one image's facts via Pillow), ``scan`` (parallel per-file checks with a cache),
``validate`` (the whole check: per-file + cross-file findings and statistics), ``split`` (a new dataset
from folders), ``fixes`` (one-click fixes, planned for a preview before they run, with backups).
"""
