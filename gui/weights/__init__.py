"""The pretrained-weights dialog the Train form and the wizard offer (check, get, import)."""
