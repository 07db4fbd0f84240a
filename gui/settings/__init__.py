"""The Settings dialog and its operations (reading and writing core.settings off the GUI thread)."""
