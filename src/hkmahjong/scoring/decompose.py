"""拆牌 fast decomposition of concealed count vectors into sets and a pair, cached per vector.

The scoring hot path works on 34-length count tuples; the public :class:`~hkmahjong.hand.groups`
objects are built only for the arrangement finally reported.

>>> concealed_decompositions(tuple(1 if i in (0, 1, 2) else 0 for i in range(34)) )
()
"""

from __future__ import annotations

from functools import lru_cache

__all__ = [
    "CHOW",
    "PUNG",
    "concealed_decompositions",
    "is_seven_pairs",
    "is_thirteen_orphans",
]

CHOW = 0
PUNG = 1

_ORPHAN_IDX = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
SetTuple = tuple[tuple[int, int], ...]


@lru_cache(maxsize=1 << 17)
def _set_decompositions(counts: tuple[int, ...]) -> tuple[SetTuple, ...]:
    """Every way to split ``counts`` (a multiple of 3 tiles) into chows and pungs, leftmost first."""
    i = 0
    while i < 34 and counts[i] == 0:
        i += 1
    if i == 34:
        return ((),)
    out: list[SetTuple] = []
    c = list(counts)
    if c[i] >= 3:
        c[i] -= 3
        for rest in _set_decompositions(tuple(c)):
            out.append(((PUNG, i), *rest))
        c[i] += 3
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        for rest in _set_decompositions(tuple(c)):
            out.append(((CHOW, i), *rest))
    return tuple(out)


@lru_cache(maxsize=1 << 16)
def concealed_decompositions(counts: tuple[int, ...]) -> tuple[tuple[int, SetTuple], ...]:
    """All (pair tile, sets) splits of a concealed count vector of 3k+2 tiles; () if none."""
    if sum(counts) % 3 != 2:
        return ()
    out: list[tuple[int, SetTuple]] = []
    c = list(counts)
    for p in range(34):
        if c[p] >= 2:
            c[p] -= 2
            for sets in _set_decompositions(tuple(c)):
                out.append((p, sets))
            c[p] += 2
    return tuple(out)


def is_seven_pairs(counts: tuple[int, ...]) -> bool:
    """七對子: seven different pairs (four alike are not two pairs, W2)."""
    pairs = 0
    for n in counts:
        if n == 2:
            pairs += 1
        elif n:
            return False
    return pairs == 7


def is_thirteen_orphans(counts: tuple[int, ...]) -> bool:
    """十三幺: one of each of the 13 orphans plus one more of them, nothing else."""
    if sum(counts) != 14:
        return False
    return all(counts[i] >= 1 for i in _ORPHAN_IDX) and sum(counts[i] for i in _ORPHAN_IDX) == 14
