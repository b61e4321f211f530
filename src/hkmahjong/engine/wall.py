"""Internal: the seeded wall (bots may not import this)."""
