"""Machines reached by SSH (issue 35): the saved machines, the user's OpenSSH client as the one way to reach them,
host keys accepted only by the user, and the remote doctor. Nothing here stores a password or writes a secret."""
