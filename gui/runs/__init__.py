"""The Runs feature: the Runs page, its table model and the curves-overlay dialog."""
