"""Dataset YAML model, editor operations and validator (no Qt, no torch, no cv2).

Shared by the Dataset page and ``yolostudio dataset check``. Modules, one job each:
``findings`` (the finding record and its codes), ``yaml_doc`` (a data.yaml as text + positions, atomic
save), ``yaml_edit`` (edits that touch only the edited text), ``spec`` (what the YAML means: names, splits,
roots), ``data_yaml`` (the one judge of whether a data.yaml can be trained from, used by the validator and
the Train check, and the run's pinned copy),
``files`` (which images a split holds, yolov5's image↔label pairing), ``labels`` (one label file's rows),
``images`` (one image's facts via Pillow), ``scan`` (parallel per-file checks, re-reading only what
changed), ``statkeys`` (every file's size and mtime, over two cores), ``table`` (per-image results as
arrays), ``cache`` (the table on disk plus a journal), ``dirs`` (folder listings reused while unchanged),
``crossfile`` (orphans, leaks, duplicates), ``stats`` (totals and histograms), ``records`` (the gallery's
lazy per-image records), ``validate`` (the whole check), ``split`` (a new dataset from folders),
``fixes`` (one-click fixes, planned for a preview before they run, with backups), ``importers`` (another
tool's export — VOC, LabelMe, COCO, YOLO — as a YOLO dataset with splits that do not leak).
"""
