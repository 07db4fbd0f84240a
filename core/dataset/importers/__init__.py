"""Import a dataset from another tool's format into a YOLO dataset that trains (issue 22).

The path, one module per step: a reader per format (``voc``, ``labelme``, ``coco``, ``yolo``) turns the
source into the common model (``model``: images with boxes in the source's own pixels, and every annotation
it could not read with the reason); ``detect`` picks the reader; ``convert`` reads each image (size, EXIF
orientation, a perceptual hash) and puts each box where yolov5 will see it (``geometry``: rotated with the
EXIF orientation, clipped, normalised); ``classes`` renames, merges and drops classes and finds names
spelled two ways; ``splitter`` makes splits that do not leak; ``writer`` writes it all into a temporary
folder beside the output and moves it into place when complete. ``plan`` ties them together for the
``dataset import`` CLI verb and the ``dataset_import`` worker job.

The source is only read: nothing under it is written, renamed or deleted.
"""
