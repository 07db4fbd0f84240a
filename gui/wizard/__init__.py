"""The Wizard feature: the wizard's page and its review of the recommendation."""
