"""access checks (being written)."""
