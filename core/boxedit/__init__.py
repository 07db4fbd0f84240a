"""The box editor's model, without Qt: a label file's rows, the edits a person makes to them, undo and redo,
and the conversion between yolov5's normalised rows and the image's pixels (``core.boxedit.session``)."""
