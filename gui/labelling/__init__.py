"""Labelling in the app: the box editor widget (``box_editor``) that the Errors browser, the Dataset gallery and
the review queue share; its model is Qt-free (``core.boxedit``)."""
