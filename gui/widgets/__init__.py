"""Reusable widgets: small, one job each, no business logic (they display what ``core`` computed)."""
