"""Internal: the mutable hand state (bots may not import this)."""
