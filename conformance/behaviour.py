"""behaviour checks (being written)."""
