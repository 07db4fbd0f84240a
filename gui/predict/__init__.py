"""The Predict page: a model on images, folders, videos, cameras and streams, watched live."""
