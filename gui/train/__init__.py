"""The Train feature: the Train page, its form and options controller, the run panel, the run viewer and the validation pictures."""
