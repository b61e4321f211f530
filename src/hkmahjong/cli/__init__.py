"""The ``hkmj`` command: a thin adapter over the library (no rules live here)."""
