"""Scoring: fan patterns, score_hand, and payments."""
