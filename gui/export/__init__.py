"""The Export feature: the Export page, its form, the report cards and Try it."""
