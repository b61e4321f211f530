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
    "useful_from_parts",
    "winning_tiles",
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


# Parts of a hand (the three number suits, the honours) as objects that know their shanten
# table and the part with one tile more or less, so trying every candidate discard of a decision
# (and every tile after it) changes one part by following a link, not by rebuilding a hand.
P5 = (1, 5, 25, 125, 625, 3125, 15625, 78125, 390625)
"""Powers of five: a part's key is its counts in base 5 (digit ``i``: the count of tile ``i``)."""


class Part:
    """One part of a hand — a number suit (9 counts) or the honours (7) — as the planner reads
    it: its key, shanten table, tiles, pungs (kinds with 3+), pairs (kinds with exactly 2),
    kinds held, 十三幺 kinds held and whether one is paired, and (number suits) the neighbour
    mask: bit ``i`` set when the suit holds a tile within two of its tile ``i`` (a tile without
    one cannot lower the regular shanten)."""

    __slots__ = (
        "_lower",
        "_minus",
        "_plus",
        "honours",
        "key",
        "kinds",
        "near",
        "orphan_pair",
        "orphans",
        "pairs",
        "pungs",
        "table",
        "tiles",
    )

    def __init__(self, key: int, honours: bool) -> None:
        c = key_counts(key, 7 if honours else 9)
        self.key = key
        self.honours = honours
        self.table = _honours_id(c) if honours else _suit_id(c)
        self.tiles = sum(c)
        self.pungs = sum(1 for n in c if n >= 3)
        self.pairs = sum(1 for n in c if n == 2)
        self.kinds = sum(1 for n in c if n)
        if honours:
            self.orphans = self.kinds
            self.orphan_pair = int(self.pungs + self.pairs > 0)
            self.near = 0
        else:
            self.orphans = int(c[0] > 0) + int(c[8] > 0)
            self.orphan_pair = int(c[0] >= 2 or c[8] >= 2)
            near = 0
            for i in range(9):
                if any(c[j] for j in range(max(0, i - 2), min(8, i + 2) + 1)):
                    near |= 1 << i
            self.near = near
        size = len(c)
        self._plus: list[Part | None] = [None] * size
        self._minus: list[Part | None] = [None] * size
        self._lower: dict[tuple[int, int, int], tuple[int, ...]] | None = None

    def plus(self, i: int) -> Part:
        """This part with one more of its tile ``i``.

        :raises ValueError: when it holds four of that tile already (a key's digits are 0–4).
        """
        p = self._plus[i]
        if p is None:
            if self.key // P5[i] % 5 == 4:
                raise ValueError(f"a part cannot hold five of its tile {i}")
            p = self._plus[i] = part(self.key + P5[i], self.honours)
        return p

    def minus(self, i: int) -> Part:
        """This part with one fewer of its tile ``i`` (which it holds)."""
        p = self._minus[i]
        if p is None:
            p = self._minus[i] = part(self.key - P5[i], self.honours)
        return p

    def lowering(self, others: int, need: int, base: int) -> tuple[int, ...]:
        """The tiles of this part (by index) one more copy of which takes the regular shanten
        of this part with the rest of the hand (table ``others``, ``need`` sets to make) below
        ``base`` — number tiles only with a neighbour."""
        global _LOWER_ENTRIES
        lower = self._lower
        if lower is None:
            lower = self._lower = {}
            _LOWERED.append(self)
        key = (others, need, base)
        found = lower.get(key)
        if found is None:
            if _LOWER_ENTRIES >= _LIMIT_LOWER:
                _forget_lowering()
                lower = self._lower = {}
                _LOWERED.append(self)
            _LOWER_ENTRIES += 1
            out: list[int] = []
            near = self.near
            for i in range(len(self._plus)):
                if (self.honours or near >> i & 1) and fin(others, self.plus(i).table, need) < base:
                    out.append(i)
            found = lower[key] = tuple(out)
        return found


_LOWERED: list[Part] = []
"""Parts that remember lowering tiles (all forgotten past a bound, for endless runs)."""
_LOWER_ENTRIES = 0
_LIMIT_LOWER = 1 << 18


def _forget_lowering() -> None:
    global _LOWER_ENTRIES
    for p in _LOWERED:
        p._lower = None
    _LOWERED.clear()
    _LOWER_ENTRIES = 0


_PARTS: dict[int, Part] = {}
"""Parts by key; honours keys are negative (minus one) to share the dict."""


def part(key: int, honours: bool) -> Part:
    """The part of a key (one object per key)."""
    k = -1 - key if honours else key
    found = _PARTS.get(k)
    if found is None:
        found = _PARTS[k] = Part(key, honours)
    return found


def hand_parts(counts: Sequence[int]) -> tuple[Part, Part, Part, Part]:
    """The four parts of a count vector."""
    return (
        part(num_key(counts, 0), False),
        part(num_key(counts, 9), False),
        part(num_key(counts, 18), False),
        part(hon_key(counts), True),
    )


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
    return useful_from_parts(counts, hand_parts(counts), meld_count, unseen, base, flags)


def useful_from_parts(
    counts: list[int],
    parts: tuple[Part, Part, Part, Part],
    meld_count: int,
    unseen: Sequence[int],
    base: int,
    flags: dict[str, bool],
) -> tuple[int, int]:
    """:func:`useful_count` of ``counts`` whose parts (:func:`hand_parts`) are ``parts``: a
    caller trying each discard of a hand changes one part."""
    a, b, c, h = parts
    special = False
    if meld_count == 0:
        if flags.get("thirteen", True):
            orphans = 13 - a.orphans - b.orphans - c.orphans - h.orphans
            orphans -= a.orphan_pair | b.orphan_pair | c.orphan_pair | h.orphan_pair
            special = orphans - 1 < base
        if not special and flags.get("seven_pairs", False):
            kinds = a.kinds + b.kinds + c.kinds + h.kinds
            pairs = a.pungs + a.pairs + b.pungs + b.pairs + c.pungs + c.pairs + h.pungs + h.pairs
            special = 6 - pairs + max(0, 7 - kinds) - 1 < base
    if special or 4 in counts:
        return _useful_scan(counts, meld_count, unseen, base, special, flags)
    need = 4 - meld_count
    if 3 * need - a.tiles - b.tiles - c.tiles - h.tiles >= base:  # the tile-count floor
        return 0, 0
    ia, ib, ic, ih = a.table, b.table, c.table, h.table
    ab = comb(ia, ib)
    kinds = copies = 0
    for i in a.lowering(comb(comb(ib, ic), ih), need, base):
        n = unseen[i]
        if n > 0:
            kinds += 1
            copies += n
    for i in b.lowering(comb(comb(ia, ic), ih), need, base):
        n = unseen[9 + i]
        if n > 0:
            kinds += 1
            copies += n
    for i in c.lowering(comb(ab, ih), need, base):
        n = unseen[18 + i]
        if n > 0:
            kinds += 1
            copies += n
    for i in h.lowering(comb(ab, ic), need, base):
        n = unseen[27 + i]
        if n > 0:
            kinds += 1
            copies += n
    return kinds, copies


def winning_tiles(
    counts: list[int], meld_count: int, *, seven_pairs: bool = False, thirteen: bool = True
) -> list[int]:
    """The tiles (ascending) one more copy of which completes ``counts``: ``shanten_all`` of
    the hand with it is -1 (the waits of a ready hand, whether or not copies are left; never a
    tile the hand holds four of)."""
    need = 4 - meld_count
    if 4 in counts:
        return _winning_scan(counts, meld_count, seven_pairs, thirteen)
    out: list[int] = []
    a, b, c, h = hand_parts(counts)
    if 3 * need - a.tiles - b.tiles - c.tiles - h.tiles < 0:  # the tile-count floor allows it
        ia, ib, ic, ih = a.table, b.table, c.table, h.table
        ab = comb(ia, ib)
        out += a.lowering(comb(comb(ib, ic), ih), need, 0)
        out += [9 + i for i in b.lowering(comb(comb(ia, ic), ih), need, 0)]
        out += [18 + i for i in c.lowering(comb(ab, ih), need, 0)]
        out += [27 + i for i in h.lowering(comb(ab, ic), need, 0)]
    if meld_count == 0:
        special: list[int] = []
        if thirteen and thirteen_orphans_shanten(counts) == 0:
            special += ORPHAN_INDICES
        if seven_pairs and _seven_pairs_shanten(counts) == 0:
            special += [t for t in range(34) if counts[t] == 1]
        for t in special:
            if t not in out:
                counts[t] += 1
                done = shanten_all(counts, 0, seven_pairs=seven_pairs, thirteen=thirteen) < 0
                counts[t] -= 1
                if done:
                    out.append(t)
        out.sort()
    return out


def _winning_scan(
    counts: list[int], meld_count: int, seven_pairs: bool, thirteen: bool
) -> list[int]:
    """:func:`winning_tiles` one shanten per tile (hands holding four of a kind)."""
    out = []
    for t in range(34):
        if counts[t] >= 4:
            continue
        counts[t] += 1
        if shanten_all(counts, meld_count, seven_pairs=seven_pairs, thirteen=thirteen) < 0:
            out.append(t)
        counts[t] -= 1
    return out


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
