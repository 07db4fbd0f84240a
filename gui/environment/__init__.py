"""The Environment feature: the machine check's page, its details and the PyTorch repair dialog."""
