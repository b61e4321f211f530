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
    "useful_from_keys",
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


# Parts keyed by an int (base 5: digit i is the count of the part's tile i), so a part with one
# tile more or less is a key plus or minus a power of five — what the route planner and the
# useful-tile count do for every candidate of a decision. The tables are the ones above.
P5 = (1, 5, 25, 125, 625, 3125, 15625, 78125, 390625)
"""Powers of five: ``key + P5[i]`` is a part's key with one more of its tile ``i``."""

PartStats = tuple[int, int, int, int, int, int, int, int]
"""What the planner needs of one part (a number suit or the honours): (table id, tiles,
pungs (kinds with 3+), pairs (kinds with exactly 2), kinds held, 十三幺 kinds held, whether a
十三幺 kind is paired, neighbour mask). Bit ``i`` of the neighbour mask (number suits only) is set
when the suit holds a tile within two of its tile ``i``: a tile without it cannot lower the
regular shanten."""

_NUM_STATS: dict[int, PartStats] = {}
_HON_STATS: dict[int, PartStats] = {}
_SHIFT = 20
"""Table ids stay below ``1 << _SHIFT`` (a few thousand are made), so two ids pack in one int."""
_COMB: dict[int, int] = {}
_FIN: dict[int, int] = {}


def num_key(counts: Sequence[int], lo: int) -> int:
    """The key of the number suit ``counts[lo:lo + 9]``."""
    c = counts
    return (
        c[lo]
        + 5 * c[lo + 1]
        + 25 * c[lo + 2]
        + 125 * c[lo + 3]
        + 625 * c[lo + 4]
        + 3125 * c[lo + 5]
        + 15625 * c[lo + 6]
        + 78125 * c[lo + 7]
        + 390625 * c[lo + 8]
    )


def hon_key(counts: Sequence[int]) -> int:
    """The key of the honours ``counts[27:34]``."""
    c = counts
    return c[27] + 5 * c[28] + 25 * c[29] + 125 * c[30] + 625 * c[31] + 3125 * c[32] + 15625 * c[33]


def key_counts(key: int, size: int) -> tuple[int, ...]:
    """The counts of a part's key (``size`` 9 for a number suit, 7 for the honours)."""
    out = []
    for _ in range(size):
        out.append(key % 5)
        key //= 5
    return tuple(out)


def num_stats(key: int) -> PartStats:
    """:data:`PartStats` of a number suit by its key."""
    found = _NUM_STATS.get(key)
    if found is None:
        c = key_counts(key, 9)
        near = 0
        for i in range(9):
            if any(c[j] for j in range(max(0, i - 2), min(8, i + 2) + 1)):
                near |= 1 << i
        found = _NUM_STATS[key] = (
            _suit_id(c),
            sum(c),
            sum(1 for n in c if n >= 3),
            sum(1 for n in c if n == 2),
            sum(1 for n in c if n),
            (c[0] > 0) + (c[8] > 0),
            int(c[0] >= 2 or c[8] >= 2),
            near,
        )
    return found


def hon_stats(key: int) -> PartStats:
    """:data:`PartStats` of the honours by their key (no neighbour mask: every kind stands alone)."""
    found = _HON_STATS.get(key)
    if found is None:
        c = key_counts(key, 7)
        kinds = sum(1 for n in c if n)
        found = _HON_STATS[key] = (
            _honours_id(c),
            sum(c),
            sum(1 for n in c if n >= 3),
            sum(1 for n in c if n == 2),
            kinds,
            kinds,
            int(any(n >= 2 for n in c)),
            0,
        )
    return found


def comb(a: int, b: int) -> int:
    """The table id of parts (or combinations) ``a`` and ``b`` together."""
    k = a << _SHIFT | b
    found = _COMB.get(k)
    if found is None:
        found = _store(_COMB, k, _combine_id(a, b))
    return found


def fin(a: int, b: int, need: int) -> int:
    """Regular shanten (without the tile-count floor) of tables ``a`` and ``b`` together, with
    ``need`` sets to make."""
    k = (a << _SHIFT | b) << 3 | need
    found = _FIN.get(k)
    if found is None:
        found = _store(_FIN, k, _finish_id(a, b, need))
    return found


_LIMIT = 1 << 20
"""Entries a key cache holds before it starts again (bounded memory on endless runs)."""


def _store(cache: dict[int, int], key: int, value: int) -> int:
    if len(cache) >= _LIMIT:
        cache.clear()
    cache[key] = value
    return value


EMPTY = _suit_id((0,) * 9)
"""Table id of an empty part (no tile: a suit a route leaves out)."""


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
    """(kinds, copies) of unseen tiles that lower ``shanten_all`` below ``base`` for 13-tile ``counts``.

    A number tile with no tile of its suit within two of it is not tried (it cannot lower the
    regular shanten; under a near 十三幺 the orphans are tried all the same)."""
    return useful_from_keys(
        counts,
        (num_key(counts, 0), num_key(counts, 9), num_key(counts, 18), hon_key(counts)),
        meld_count,
        unseen,
        base,
        flags,
    )


def useful_from_keys(
    counts: list[int],
    keys: tuple[int, int, int, int],
    meld_count: int,
    unseen: Sequence[int],
    base: int,
    flags: dict[str, bool],
) -> tuple[int, int]:
    """:func:`useful_count` of ``counts`` whose parts' keys (:func:`num_key` of each number
    suit, :func:`hon_key`) are ``keys``: a caller trying each discard of a hand keeps the keys
    and changes one."""
    k0, k1, k2, kh = keys
    a = _NUM_STATS.get(k0) or num_stats(k0)
    b = _NUM_STATS.get(k1) or num_stats(k1)
    c = _NUM_STATS.get(k2) or num_stats(k2)
    h = _HON_STATS.get(kh) or hon_stats(kh)
    special = False
    if meld_count == 0:
        if flags.get("thirteen", True):
            orphans = 13 - a[5] - b[5] - c[5] - h[5] - (a[6] | b[6] | c[6] | h[6])
            special = orphans - 1 < base
        if not special and flags.get("seven_pairs", False):
            kinds = a[4] + b[4] + c[4] + h[4]
            pairs = a[2] + a[3] + b[2] + b[3] + c[2] + c[3] + h[2] + h[3]
            special = 6 - pairs + max(0, 7 - kinds) - 1 < base
    if special or 4 in counts:
        return _useful_scan(counts, meld_count, unseen, base, special, flags)
    need = 4 - meld_count
    if 3 * need - a[1] - b[1] - c[1] - h[1] >= base:  # the tile-count floor: none goes below
        return 0, 0
    ia, ib, ic, ih = a[0], b[0], c[0], h[0]
    ab = comb(ia, ib)
    kinds = copies = 0
    for lo, key, stats, others in (
        (0, k0, a, comb(comb(ib, ic), ih)),
        (9, k1, b, comb(comb(ia, ic), ih)),
        (18, k2, c, comb(ab, ih)),
        (27, kh, h, comb(ab, ic)),
    ):
        ukey = (others, key, need, base)
        found = _USEFUL.get(ukey) if lo < 27 else _USEFUL_HON.get(ukey)
        if found is None:
            found = _lowering(others, key, stats, need, base, lo == 27)
        for i in found:
            n = unseen[lo + i]
            if n > 0:
                kinds += 1
                copies += n
    return kinds, copies


_USEFUL: dict[tuple[int, int, int, int], tuple[int, ...]] = {}
_USEFUL_HON: dict[tuple[int, int, int, int], tuple[int, ...]] = {}


def _lowering(
    others: int, key: int, stats: PartStats, need: int, base: int, honours: bool
) -> tuple[int, ...]:
    """The tiles of a part (by index in it) whose one more copy takes the regular shanten with
    the rest of the hand (table ``others``) below ``base`` (number tiles only with a neighbour)."""
    out: list[int] = []
    if honours:
        for i in range(7):
            if fin(others, hon_stats(key + P5[i])[0], need) < base:
                out.append(i)
        cache = _USEFUL_HON
    else:
        near = stats[7]
        for i in range(9):
            if near >> i & 1 and fin(others, num_stats(key + P5[i])[0], need) < base:
                out.append(i)
        cache = _USEFUL
    if len(cache) >= _LIMIT:
        cache.clear()
    found = cache[(others, key, need, base)] = tuple(out)
    return found


def _useful_scan(
    counts: list[int],
    meld_count: int,
    unseen: Sequence[int],
    base: int,
    special: bool,
    flags: dict[str, bool],
) -> tuple[int, int]:
    """:func:`useful_count` one tile at a time (a shanten per tile tried): the simple form, for
    hands near 十三幺 or 七對子 and hands holding four of a kind."""
    kinds = copies = 0
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
