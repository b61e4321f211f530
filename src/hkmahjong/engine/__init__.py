"""The game engine: wall, deal, turns, claims, kongs, settlement, matches and records."""
