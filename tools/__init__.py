"""Developer tools run from a checkout (``python -m tools.<name>``); the app never imports them."""
