"""The workspace's runs: create, list, rename, resume and stop them (``store``), and the listing's cache of
folded events (``index``). One run folder's layout and files are ``core.run``'s; this package sits above the
training config, which a new run is made from."""
