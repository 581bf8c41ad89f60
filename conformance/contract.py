"""contract checks (being written)."""
