"""The Label page: label a folder of images with the box editor, the images most in need first."""
