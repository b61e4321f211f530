"""拆牌 fast decomposition of concealed count vectors into sets and a pair, cached per vector.

The scoring hot path works on 34-length count tuples; the public :class:`~hkmahjong.hand.groups`
objects are built only for the arrangement finally reported.

>>> concealed_decompositions(tuple(1 if i in (0, 1, 2) else 0 for i in range(34)) )
()
"""

from __future__ import annotations

from functools import lru_cache

from hkmahjong.tiles import is_thirteen_orphans

__all__ = [
    "CHOW",
    "PUNG",
    "concealed_decompositions",
    "is_seven_pairs",
    "is_thirteen_orphans",
]

CHOW = 0
PUNG = 1

SetTuple = tuple[tuple[int, int], ...]


@lru_cache(maxsize=4096)
def _suit_sets(base: int, part: tuple[int, ...]) -> tuple[SetTuple, ...]:
    """Set splits of one suit's counts (``base`` = index of its first tile); honours: pungs only."""
    if base == 27:
        if any(n not in (0, 3) for n in part):
            return ()
        return (tuple((PUNG, base + i) for i, n in enumerate(part) if n),)
    i = 0
    while i < 9 and part[i] == 0:
        i += 1
    if i == 9:
        return ((),)
    out: list[SetTuple] = []
    c = list(part)
    if c[i] >= 3:
        c[i] -= 3
        for rest in _suit_sets(base, tuple(c)):
            out.append(((PUNG, base + i), *rest))
        c[i] += 3
    if i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        for rest in _suit_sets(base, tuple(c)):
            out.append(((CHOW, base + i), *rest))
    if len(out) > 1:
        out = list(dict.fromkeys(tuple(sorted(sets)) for sets in out))
    return tuple(out)


@lru_cache(maxsize=4096)
def _suit_with_pair(base: int, part: tuple[int, ...]) -> tuple[tuple[int, SetTuple], ...]:
    """(pair, sets) splits of one suit's counts holding the pair."""
    out: list[tuple[int, SetTuple]] = []
    c = list(part)
    for p, n in enumerate(part):
        if n >= 2:
            c[p] -= 2
            for sets in _suit_sets(base, tuple(c)):
                out.append((base + p, sets))
            c[p] += 2
    return tuple(out)


_BASES = (0, 9, 18, 27)


@lru_cache(maxsize=1 << 16)
def concealed_decompositions(counts: tuple[int, ...]) -> tuple[tuple[int, SetTuple], ...]:
    """All (pair tile, sets) splits of a concealed count vector of 3k+2 tiles; () if none.

    Works suit by suit (each suit's splits are cached), then combines them.
    """
    parts = [counts[0:9], counts[9:18], counts[18:27], counts[27:34]]
    pair_suit = -1
    for k, part in enumerate(parts):
        r = sum(part) % 3
        if r == 1 or (r == 2 and pair_suit >= 0):
            return ()
        if r == 2:
            pair_suit = k
    if pair_suit < 0:
        return ()
    combos: list[tuple[int, SetTuple]] = [(-1, ())]
    for k, part in enumerate(parts):
        base = _BASES[k]
        if k == pair_suit:
            options = _suit_with_pair(base, part)
            if not options:
                return ()
            combos = [(p, sets + more) for _, sets in combos for p, more in options]
        elif any(part):
            splits = _suit_sets(base, part)
            if not splits:
                return ()
            combos = [(p, sets + more) for p, sets in combos for more in splits]
    return tuple(combos)


def is_seven_pairs(counts: tuple[int, ...]) -> bool:
    """七對子: seven different pairs (four alike are not two pairs, W2)."""
    pairs = 0
    for n in counts:
        if n == 2:
            pairs += 1
        elif n:
            return False
    return pairs == 7
