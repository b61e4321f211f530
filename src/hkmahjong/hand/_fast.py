"""Fast paths over 34-count vectors (internal): regular distance and win checks."""

from __future__ import annotations

from collections.abc import Sequence

from hkmahjong.hand._profile import combine, suit_profile

__all__ = ["regular_distance"]

_C9 = (4,) * 9
_C7 = (4,) * 7


def regular_distance(counts: Sequence[int], meld_count: int) -> int:
    """Fewest tiles to add so the concealed counts hold ``4 - meld_count`` sets and a pair."""
    prof = suit_profile(tuple(counts[0:9]), _C9, True)
    prof = combine(prof, suit_profile(tuple(counts[9:18]), _C9, True))
    prof = combine(prof, suit_profile(tuple(counts[18:27]), _C9, True))
    prof = combine(prof, suit_profile(tuple(counts[27:34]), _C7, False))
    return prof[2 * (4 - meld_count) + 1]


def is_regular_complete(counts: Sequence[int], meld_count: int) -> bool:
    """Do the concealed counts split exactly into ``4 - meld_count`` sets and a pair?"""
    if sum(counts) != 14 - 3 * meld_count or max(counts) > 4 or min(counts) < 0:
        return False
    return regular_distance(counts, meld_count) == 0
