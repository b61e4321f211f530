"""Research environment (PettingZoo / Gymnasium) over the engine."""
