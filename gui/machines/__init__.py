"""The Machines page: machines reached by SSH (issue 35)."""
