"""向聽 for bots: fast shanten on 34-count vectors, also for partial (route-masked) hands.

The bots need distances the ``hand`` package does not offer: the distance to a hand made only of
one suit and honours (混一色), of pungs only (對對糊), with a given honour pung (番牌), on hands
with any number of tiles. Everything here works on plain count lists and per-suit tables cached by
their 9-tuple, so a decision costs microseconds, not milliseconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from hkmahjong.tiles import ORPHAN_INDICES, thirteen_orphans_shanten

__all__ = [
    "pung_shanten",
    "regular_shanten",
    "shanten_all",
    "suit_mask",
    "useful_count",
]

_ORPHAN_SET = frozenset(ORPHAN_INDICES)

# A table is a tuple of (sets, has_head, max_partial_blocks) options, Pareto-pruned.
_Options = tuple[tuple[int, int, int], ...]


def _prune(opts: set[tuple[int, int, int]]) -> _Options:
    best: dict[tuple[int, int], int] = {}
    for m, hp, t in opts:
        if m > 4:
            m = 4
        key = (m, hp)
        if best.get(key, -1) < t:
            best[key] = t if t < 4 else 4
    return tuple((m, hp, t) for (m, hp), t in best.items())


@lru_cache(maxsize=1 << 16)
def _suit(key: tuple[int, ...]) -> _Options:
    """Decompositions of one number suit (9 counts) into sets, a head and partial blocks."""
    c = list(key)
    i = 0
    while i < 9 and c[i] == 0:
        i += 1
    if i == 9:
        return ((0, 0, 0),)
    opts: set[tuple[int, int, int]] = set()

    def sub(changes: tuple[tuple[int, int], ...], dm: int, dh: int, dt: int) -> None:
        d = c[:]
        for idx, n in changes:
            d[idx] -= n
        for m, hp, t in _suit(tuple(d)):
            if hp + dh <= 1:
                opts.add((m + dm, hp + dh, t + dt))

    if c[i] >= 3:
        sub(((i, 3),), 1, 0, 0)
    if i <= 6 and c[i + 1] and c[i + 2]:
        sub(((i, 1), (i + 1, 1), (i + 2, 1)), 1, 0, 0)
    if c[i] >= 2:
        sub(((i, 2),), 0, 1, 0)
        sub(((i, 2),), 0, 0, 1)
    if i <= 7 and c[i + 1]:
        sub(((i, 1), (i + 1, 1)), 0, 0, 1)
    if i <= 6 and c[i + 2]:
        sub(((i, 1), (i + 2, 1)), 0, 0, 1)
    sub(((i, 1),), 0, 0, 0)
    return _prune(opts)


_HONOUR_OPTS: dict[int, _Options] = {
    0: ((0, 0, 0),),
    1: ((0, 0, 0),),
    2: ((0, 0, 1), (0, 1, 0)),
    3: ((1, 0, 0),),
    4: ((1, 0, 0),),
}


@lru_cache(maxsize=1 << 16)
def _combine(a: _Options, b: _Options) -> _Options:
    opts = {(m1 + m2, h1 + h2, t1 + t2) for m1, h1, t1 in a for m2, h2, t2 in b if h1 + h2 <= 1}
    return _prune(opts)


@lru_cache(maxsize=1 << 12)
def _honours(key: tuple[int, ...]) -> _Options:
    acc: _Options = ((0, 0, 0),)
    for n in key:
        if n >= 2:
            acc = _combine(acc, _HONOUR_OPTS[n])
    return acc


_TABLES: list[_Options] = []
_TABLE_ID: dict[_Options, int] = {}


def _intern(opts: _Options) -> int:
    i = _TABLE_ID.get(opts)
    if i is None:
        i = _TABLE_ID[opts] = len(_TABLES)
        _TABLES.append(opts)
    return i


@lru_cache(maxsize=1 << 16)
def _suit_id(key: tuple[int, ...]) -> int:
    return _intern(_suit(key))


@lru_cache(maxsize=1 << 12)
def _honours_id(key: tuple[int, ...]) -> int:
    return _intern(_honours(key))


@lru_cache(maxsize=1 << 18)
def _combine_id(a: int, b: int) -> int:
    return _intern(_combine(_TABLES[a], _TABLES[b]))


@lru_cache(maxsize=1 << 18)
def _finish_id(a: int, b: int, need: int) -> int:
    return _finish_core(_TABLES[a], _TABLES[b], need)


def _parts(counts: Sequence[int]) -> list[int]:
    return [
        _suit_id(tuple(counts[0:9])),
        _suit_id(tuple(counts[9:18])),
        _suit_id(tuple(counts[18:27])),
        _honours_id(tuple(counts[27:34])),
    ]


def _finish_core(a: _Options, b: _Options, need: int) -> int:
    best = 99
    for m1, h1, t1 in a:
        for m2, h2, t2 in b:
            hp = h1 + h2
            if hp > 1:
                continue
            m = m1 + m2
            if m > need:
                m = need
            t = t1 + t2
            if t > need - m:
                t = need - m
            v = 2 * (need - m) - t - hp
            if v < best:
                best = v
    return best


def regular_shanten(counts: Sequence[int], meld_count: int) -> int:
    """Regular (four sets and a pair) shanten of any-size concealed ``counts`` (-1 = complete).

    Tiles the hand lacks count as exchanges, so a route-masked hand gets a true distance.
    """
    p = _parts(counts)
    need = 4 - meld_count
    best = _finish_id(_combine_id(p[0], p[1]), _combine_id(p[2], p[3]), need)
    floor = 3 * need + 1 - sum(counts)
    return best if best > floor else floor


def pung_shanten(counts: Sequence[int], meld_count: int) -> int:
    """對對糊 shanten: four pungs/kongs and a pair from ``counts`` (declared melds must be pungs)."""
    need = 4 - meld_count
    pungs = pairs = 0
    for n in counts:
        if n >= 3:
            pungs += 1
        elif n == 2:
            pairs += 1
    pungs = min(pungs, need)
    s = 2 * (need - pungs) - min(pairs, need - pungs + 1)
    return max(s, 3 * need + 1 - sum(counts))


def _seven_pairs_shanten(counts: Sequence[int]) -> int:
    pairs = sum(1 for n in counts if n >= 2)
    kinds = sum(1 for n in counts if n)
    return 6 - pairs + max(0, 7 - kinds)


def shanten_all(
    counts: Sequence[int], meld_count: int, *, seven_pairs: bool = False, thirteen: bool = True
) -> int:
    """Best shanten over the regular shape, 十三幺 (concealed only) and optionally 七對子."""
    s = regular_shanten(counts, meld_count)
    if meld_count == 0:
        if thirteen:
            s = min(s, thirteen_orphans_shanten(counts))
        if seven_pairs:
            s = min(s, _seven_pairs_shanten(counts))
    return s


def suit_mask(counts: Sequence[int], suit: int, *, honours: bool) -> list[int]:
    """``counts`` with every tile outside number suit ``suit`` (0–2) removed (honours kept or not)."""
    out = [0] * 34
    out[9 * suit : 9 * suit + 9] = counts[9 * suit : 9 * suit + 9]
    if honours:
        out[27:34] = counts[27:34]
    return out


def useful_count(
    counts: list[int], meld_count: int, unseen: Sequence[int], base: int, **flags: bool
) -> tuple[int, int]:
    """(kinds, copies) of unseen tiles that lower ``shanten_all`` below ``base`` for 13-tile ``counts``."""
    kinds = copies = 0
    special = False
    if meld_count == 0:
        if flags.get("thirteen", True) and thirteen_orphans_shanten(counts) - 1 < base:
            special = True
        if flags.get("seven_pairs", False) and _seven_pairs_shanten(counts) - 1 < base:
            special = True
    parts = _parts(counts)
    others = [
        _combine_id(_combine_id(parts[1], parts[2]), parts[3]),
        _combine_id(_combine_id(parts[0], parts[2]), parts[3]),
        _combine_id(_combine_id(parts[0], parts[1]), parts[3]),
        _combine_id(_combine_id(parts[0], parts[1]), parts[2]),
    ]
    need = 4 - meld_count
    kept = sum(counts) + 1
    floor = 3 * need + 1 - kept
    for t in range(34):
        if unseen[t] <= 0:
            continue
        if t < 27:
            r = t % 9
            lo = t - (r if r < 2 else 2)
            hi = t + (8 - r if r > 6 else 2)
            if not (special and t in _ORPHAN_SET):
                for j in range(lo, hi + 1):
                    if counts[j]:
                        break
                else:
                    continue
        k = t // 9 if t < 27 else 3
        counts[t] += 1
        part = (
            _suit_id(tuple(counts[9 * k : 9 * k + 9]))
            if k < 3
            else _honours_id(tuple(counts[27:34]))
        )
        s = _finish_id(others[k], part, need)
        if s < floor:
            s = floor
        if special and s >= base:
            s = min(s, shanten_all(counts, meld_count, **flags))
        counts[t] -= 1
        if s < base:
            kinds += 1
            copies += unseen[t]
    return kinds, copies
