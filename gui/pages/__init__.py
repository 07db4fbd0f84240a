"""The pages of the main window, one module per feature, in the order a newcomer walks them."""
