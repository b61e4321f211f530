"""Scoring (計番): WinContext, fan patterns, score_hand and the itemised ScoreResult.

Payments (shares, gun schemes, liability, false wins) live in :mod:`hkmahjong.scoring.payment`.
"""

from hkmahjong.scoring.calculator import score_hand, score_waits
from hkmahjong.scoring.context import SPECIAL_FLAGS, WinContext
from hkmahjong.scoring.result import REASONS, FanItem, ScoreResult

__all__ = [
    "REASONS",
    "SPECIAL_FLAGS",
    "FanItem",
    "ScoreResult",
    "WinContext",
    "score_hand",
    "score_waits",
]
