"""Bots: players that see only a PlayerView and the legal actions."""
