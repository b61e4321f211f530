"""Shanten (向聽), waits (聽牌) and useful tiles (有效牌).

Definition (exact): the distance of a hand is the fewest tile exchanges that turn it into a
complete hand in which no tile kind has more than four copies (concealed tiles and melds
together); shanten is that distance minus one. So ``-1`` is complete, ``0`` is ready (聽牌), and
a wait on a tile whose four copies are all in the hand does not count: ``333m 444p 333s 8888s`` is
not ready (its only wait would be a fifth 8s).
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import FunctionType

from hkmahjong.errors import InvalidHandError
from hkmahjong.hand import _fast
from hkmahjong.hand._profile import combine, suit_profile
from hkmahjong.hand.hand import Hand, HandStatus
from hkmahjong.tiles import KINDS, NUM_KINDS, Tile, thirteen_orphans_shanten

__all__ = [
    "ShantenResult",
    "discard_shanten",
    "regular_distance_capped",
    "shanten",
    "shanten_counts",
    "shanten_detail",
    "useful_after_discard",
    "useful_tiles",
    "waits",
]


@dataclass(frozen=True, slots=True)
class ShantenResult:
    """向聽 of each shape: ``regular``, ``thirteen_orphans`` (None with melds), ``seven_pairs``.

    ``seven_pairs`` is None when 七對子 is not allowed or the hand has melds; ``shanten`` is the
    minimum over the allowed shapes.
    """

    shanten: int
    regular: int
    thirteen_orphans: int | None
    seven_pairs: int | None


_SUITS = ((0, 9, True), (9, 18, True), (18, 27, True), (27, 34, False))
_FULL = {9: [4] * 9, 7: [4] * 7}


def regular_distance_capped(counts: Sequence[int], meld_count: int, caps: Sequence[int]) -> int:
    """Distance to 4 sets + pair (with ``4 - meld_count`` concealed sets) under per-kind caps.

    Suits without a capped kind use the tables; a suit holding meld tiles gets its profile by
    dynamic programming (cached), and the combination uses the tables when the profile is known.
    """
    t = _fast.tables()
    ids: list[int | None] = []
    pid: int | None
    profiles: list[tuple[int, ...]] = []
    for lo, hi, chows in _SUITS:
        part = counts[lo:hi]
        cap = list(caps[lo:hi])
        if cap == _FULL[hi - lo]:
            key = 0
            for n in part:
                key = key * 5 + n
            pid = (t.number if chows else t.honour)[key]
            prof = t.profiles[pid]
        else:
            prof = suit_profile(tuple(part), tuple(cap), chows)
            pid = t.index.get(prof)
        ids.append(pid)
        profiles.append(prof)
    a, b, c, d = ids
    if a is not None and b is not None and c is not None and d is not None:
        nu = t.size
        return t.final[4 - meld_count][t.comb[t.comb[a * nu + b] * nu + c] * nu + d]
    prof = combine(combine(combine(profiles[0], profiles[1]), profiles[2]), profiles[3])
    return prof[2 * (4 - meld_count) + 1]


def _regular_distance(counts: Sequence[int], meld_count: int, caps: Sequence[int] | None) -> int:
    if caps is None:
        return _fast.regular_distance(counts, meld_count)
    return regular_distance_capped(counts, meld_count, caps)


def _orphans_distance(counts: Sequence[int]) -> int:
    """Tiles to change for 十三幺 (its shanten + 1, like the other distances here)."""
    return thirteen_orphans_shanten(counts) + 1


def _pairs_distance(counts: Sequence[int]) -> int:
    pairs = 0
    kinds = 0
    for n in counts:
        if n:
            kinds += 1
            if n >= 2:
                pairs += 1
    if pairs >= 7:
        return 0
    if kinds >= 7:
        return 7 - pairs
    return 14 - pairs - kinds


_VALID = bytes(range(5))
_NUM = b""
_HON = b""
_COMB = b""
_FINAL: list[bytes] = []
_NU = 0
_HORPH = b""
_SMALL9: dict[bytes, int] = {}
_SMALL7: dict[bytes, int] = {}
_TWO_PLUS = b"\x02\x03\x04"
_TERM = bytes((a > 0) + (b > 0) + (16 if max(a, b) >= 2 else 0) for a in range(5) for b in range(5))
"""十三幺 code of a suit's 1 and 9 (index 5 * count1 + count9): kinds present + 16 if a pair."""


def _orphans_code(c: Sequence[int]) -> int:
    """十三幺 code of the whole hand (the tables loaded): the terminal and honour kinds present,
    plus 16 if one of them is a pair — from :data:`_HORPH` and :data:`_TERM`."""
    zk = 15625 * c[27] + 3125 * c[28] + 625 * c[29] + 125 * c[30] + 25 * c[31]
    return (
        _HORPH[zk + 5 * c[32] + c[33]]
        + _TERM[5 * c[0] + c[8]]
        + _TERM[5 * c[9] + c[17]]
        + _TERM[5 * c[18] + c[26]]
    )


def _load_tables() -> None:
    """Bind the per-suit tables (loaded on first use): all the compiled path needs."""
    global _NUM, _HON, _COMB, _FINAL, _NU, _HORPH, _SMALL9, _SMALL7
    t = _fast.tables()
    _NUM, _HON, _COMB, _FINAL = t.number, t.honour, t.comb, t.final
    _HORPH, _SMALL9, _SMALL7 = t.honour_orphans, t.number_by_counts, t.honour_by_counts
    _NU = t.size


def _load() -> None:
    """The tables and the state lists of the pure-Python path (built on its first call)."""
    global _E9, _N9, _E7, _C12, _C123, _FIN
    _load_tables()
    e9, s9 = _states(_SMALL9, lambda key: (_SMALL9[key], sum(key)))
    e7, s7 = _states(_SMALL7, lambda key: (_SMALL7[key], sum(key), key.count(0)))
    n9, n7 = len(s9), len(s7)
    c12, s12 = _combine_states(s9, s9)
    c123, s123 = _combine_states(s12, s9)
    fin = [array("b", [_BAD]) * (len(s123) * n7) for _ in range(5)]
    for i, (p3, t3) in enumerate(s123):
        if p3 < 0:
            continue
        for j, (ph, th, zeros) in enumerate(s7):
            rest = 14 - t3 - th  # 14 - 3k tiles or 13 - 3k with k melds
            k = rest // 3
            if rest >= 0 and rest % 3 != 2 and k <= 4:
                sh = _FINAL[4 - k][p3 * _NU + ph] - 1
                if k == 0 and sh > 0 and zeros < sh + 1:
                    sh += _ORPH  # 十三幺 may be closer: each honour kind missing is a tile to draw
                fin[k][i * n7 + j] = sh
    # states are stored multiplied by the width of the next table: one addition per lookup
    times9 = [i * n9 for i in range(len(s12))]
    _C12 = [times9[x] for x in c12]
    _C123 = array("H", [x * n7 for x in c123])
    _FIN = dict(enumerate(fin))
    _N9 = n9
    _E7 = e7
    _E9 = e9


_State = tuple[int, ...]
_E9: dict[bytes, int] = {}
"""Count bytes of a number suit of at most 9 tiles -> its state (profile id, tiles)."""
_N9 = 0
"""Number of number-suit states (the width of ``_C12``'s rows)."""
_E7: dict[bytes, int] = {}
"""Count bytes of the honours (at most 9 tiles) -> state (profile id, tiles, kinds absent)."""
_C12: list[int] = []
"""Row + state of a second number suit -> state of both (times the number of states)."""
_C123: array[int] = array("H")
"""The same with a third: state of the three (times the number of honour states)."""
_FIN: dict[int, array[int]] = {}
"""Per meld count: row + honour state -> shanten, _BAD when the tile total is not ``13 - 3k``
or ``14 - 3k``."""
_OVER = (-1, 99)
"""State of suits holding more than 14 tiles together (no hand has them)."""
_BAD = 127
"""Shanten entry of a tile total that does not fit the meld count."""
_ORPH = 64
"""Added to a shanten entry (no melds) when 十三幺 may be closer (few honour kinds missing)."""
_SPLIT = struct.Struct("9s9s9s7s").unpack
"""34 count bytes -> the three number suits' and the honours' (bytes, so hashable)."""


def _states(
    by_counts: dict[bytes, int], state: Callable[[bytes], _State]
) -> tuple[dict[bytes, int], list[_State]]:
    """Number the distinct states of the vectors in ``by_counts``: (vector -> id, states)."""
    ids: dict[_State, int] = {}
    out = {key: ids.setdefault(state(key), len(ids)) for key in by_counts}
    return out, list(ids)


def _combine_states(
    left: Sequence[_State], right: Sequence[_State]
) -> tuple[list[int], list[tuple[int, int]]]:
    """The state of each (left, right) pair, index ``len(right) * i + j``, and the new states."""
    ids: dict[tuple[int, int], int] = {}
    table: list[int] = []
    comb = _COMB
    nu = _NU
    for pa, ta, *_ in left:
        for pb, tb, *_ in right:
            key = _OVER if pa < 0 or ta + tb > 14 else (comb[pa * nu + pb], ta + tb)
            table.append(ids.setdefault(key, len(ids)))
    return table, list(ids)


def _bad_counts(counts: Sequence[int], meld_count: int) -> InvalidHandError:
    if type(meld_count) is not int or not 0 <= meld_count <= 4:
        return InvalidHandError(f"meld_count must be 0-4, got {meld_count!r}")
    if len(counts) != NUM_KINDS:
        return InvalidHandError(f"a count vector has {NUM_KINDS} entries, got {len(counts)}")
    for i, n in enumerate(counts):
        if not isinstance(n, int) or not 0 <= n <= 4:
            return InvalidHandError(f"count {n!r} of {Tile(i).mpsz} is outside 0-4")
    total = sum(counts)
    return InvalidHandError(
        f"{total} concealed tiles with {meld_count} melds: expected "
        f"{13 - 3 * meld_count} or {14 - 3 * meld_count}"
    )


_INVALID = -99
"""What :func:`_shanten_native` returns for input it does not take."""


def _shanten_native(c: list[int], k: int, seven_pairs: bool, thirteen_orphans: bool) -> int:
    """:func:`shanten_counts` on a list, in native integer arithmetic (the compiled build).

    Reads the 34 counts once, checks them (0-4, ``13 - 3k`` or ``14 - 3k`` tiles, ``k`` 0-4),
    computes each suit's base-5 index and looks its profile id up in the tables, for every
    suit size (no separate path for a suit of 10+ tiles). Returns :data:`_INVALID` for input it
    does not take (the caller asks :func:`_shanten_slow`, which raises); a count that is not an
    ``int`` raises ``TypeError`` when it is read (mypyc unboxes it).
    """
    if len(c) != 34 or k < 0 or k > 4:
        return _INVALID
    c0 = c[0]
    c1 = c[1]
    c2 = c[2]
    c3 = c[3]
    c4 = c[4]
    c5 = c[5]
    c6 = c[6]
    c7 = c[7]
    c8 = c[8]
    c9 = c[9]
    c10 = c[10]
    c11 = c[11]
    c12 = c[12]
    c13 = c[13]
    c14 = c[14]
    c15 = c[15]
    c16 = c[16]
    c17 = c[17]
    c18 = c[18]
    c19 = c[19]
    c20 = c[20]
    c21 = c[21]
    c22 = c[22]
    c23 = c[23]
    c24 = c[24]
    c25 = c[25]
    c26 = c[26]
    c27 = c[27]
    c28 = c[28]
    c29 = c[29]
    c30 = c[30]
    c31 = c[31]
    c32 = c[32]
    c33 = c[33]
    # fmt: off
    total = (
        c0 + c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8 + c9 + c10 + c11
        + c12 + c13 + c14 + c15 + c16 + c17 + c18 + c19 + c20 + c21 + c22 + c23
        + c24 + c25 + c26 + c27 + c28 + c29 + c30 + c31 + c32 + c33
        + 3 * k
    )
    if (
        (total != 13 and total != 14)
        or c0 < 0 or c0 > 4 or c1 < 0 or c1 > 4 or c2 < 0 or c2 > 4 or c3 < 0 or c3 > 4
        or c4 < 0 or c4 > 4 or c5 < 0 or c5 > 4 or c6 < 0 or c6 > 4 or c7 < 0 or c7 > 4
        or c8 < 0 or c8 > 4 or c9 < 0 or c9 > 4 or c10 < 0 or c10 > 4 or c11 < 0 or c11 > 4
        or c12 < 0 or c12 > 4 or c13 < 0 or c13 > 4 or c14 < 0 or c14 > 4 or c15 < 0 or c15 > 4
        or c16 < 0 or c16 > 4 or c17 < 0 or c17 > 4 or c18 < 0 or c18 > 4 or c19 < 0 or c19 > 4
        or c20 < 0 or c20 > 4 or c21 < 0 or c21 > 4 or c22 < 0 or c22 > 4 or c23 < 0 or c23 > 4
        or c24 < 0 or c24 > 4 or c25 < 0 or c25 > 4 or c26 < 0 or c26 > 4 or c27 < 0 or c27 > 4
        or c28 < 0 or c28 > 4 or c29 < 0 or c29 > 4 or c30 < 0 or c30 > 4 or c31 < 0 or c31 > 4
        or c32 < 0 or c32 > 4 or c33 < 0 or c33 > 4
    ):  # compared one by one: cheaper compiled than one OR of all (and as clear)
        return _INVALID
    # fmt: on
    if not _NU:
        _load_tables()
    num = _NUM
    nu = _NU
    comb = _COMB
    x = num[
        (((((((c0 * 5 + c1) * 5 + c2) * 5 + c3) * 5 + c4) * 5 + c5) * 5 + c6) * 5 + c7) * 5 + c8
    ]
    y = num[
        (((((((c9 * 5 + c10) * 5 + c11) * 5 + c12) * 5 + c13) * 5 + c14) * 5 + c15) * 5 + c16) * 5
        + c17
    ]
    w = num[
        (((((((c18 * 5 + c19) * 5 + c20) * 5 + c21) * 5 + c22) * 5 + c23) * 5 + c24) * 5 + c25) * 5
        + c26
    ]
    z = _HON[(((((c27 * 5 + c28) * 5 + c29) * 5 + c30) * 5 + c31) * 5 + c32) * 5 + c33]
    dist = _FINAL[4 - k][comb[comb[x * nu + y] * nu + w] * nu + z]
    if dist > 1 and k == 0:
        # 十三幺 needs every honour: each one missing is a tile to draw
        # fmt: off
        zeros = (c27 == 0) + (c28 == 0) + (c29 == 0) + (c30 == 0) + (c31 == 0) + (c32 == 0) + (c33 == 0)
        if thirteen_orphans and zeros < dist:
            kinds = (
                (c0 > 0) + (c8 > 0) + (c9 > 0) + (c17 > 0) + (c18 > 0) + (c26 > 0) + (c27 > 0)
                + (c28 > 0) + (c29 > 0) + (c30 > 0) + (c31 > 0) + (c32 > 0) + (c33 > 0)
            )
            pair = (
                c0 > 1 or c8 > 1 or c9 > 1 or c17 > 1 or c18 > 1 or c26 > 1 or c27 > 1
                or c28 > 1 or c29 > 1 or c30 > 1 or c31 > 1 or c32 > 1 or c33 > 1
            )
            # fmt: on
            od = (13 if pair else 14) - kinds
            if od < dist:
                dist = od
        if seven_pairs and dist > 1:
            pairs = 0
            kinds = 0
            for n in c:
                if n:
                    kinds += 1
                    if n > 1:
                        pairs += 1
            pd = 0 if pairs >= 7 else (7 - pairs if kinds >= 7 else 14 - pairs - kinds)
            if pd < dist:
                dist = pd
    return dist - 1


_NATIVE = not isinstance(_shanten_native, FunctionType)
"""True when this module runs compiled (mypyc): :func:`shanten_counts` then takes the native
path, whose integer arithmetic is cheap there and slow in the interpreter."""


def shanten_counts(
    counts: Sequence[int],
    meld_count: int = 0,
    *,
    seven_pairs: bool = False,
    thirteen_orphans: bool = True,
) -> int:
    """向聽 of concealed ``counts`` (34 entries) with ``meld_count`` declared melds.

    The concealed part must hold ``13 - 3k`` or ``14 - 3k`` tiles. This form knows nothing of the
    meld tiles, so copies in melds do not cap the waits; use :func:`shanten` for that. 十三幺 and
    七對子 count only without melds.

    >>> from hkmahjong.tiles import counts34, parse_tiles
    >>> shanten_counts(counts34(parse_tiles("123m456p789s1122z")))
    0

    :raises InvalidHandError: for a count outside 0-4 or a wrong number of tiles.
    """
    if _NATIVE:
        try:
            sh = _shanten_native(
                counts if type(counts) is list else list(counts),
                meld_count,
                seven_pairs,
                thirteen_orphans,
            )
        except (TypeError, ValueError):  # a count that is not an int, counts not a sequence
            sh = _INVALID
        if sh != _INVALID:
            return sh
        return _shanten_slow(
            counts, meld_count, seven_pairs=seven_pairs, thirteen_orphans=thirteen_orphans
        )
    # Interpreted (the pure build):
    # each suit's count bytes name a *state* (its profile and its tile count) when the suit holds
    # at most 9 tiles, all counts 0-4; three list lookups combine the states, and the last gives
    # the shanten, or _BAD when the tile total does not fit ``meld_count``. So a valid hand needs
    # no separate validation: a wrong length fails the unpacking, a count outside 0-4 or a suit of
    # 10+ tiles misses a dictionary, and _shanten_slow decides (or raises). The dictionaries are
    # empty until its first call loads them.
    try:
        ba = bytearray(counts)  # converts a list of ints ~2x faster than bytes(counts)
        m, p, s, h = _SPLIT(ba)
        z = _E7[h]
        sh = _FIN[meld_count][_C123[_C12[_E9[m] * _N9 + _E9[p]] + _E9[s]] + z]
    except (KeyError, ValueError, TypeError, struct.error):
        return _shanten_slow(
            counts, meld_count, seven_pairs=seven_pairs, thirteen_orphans=thirteen_orphans
        )
    if sh < _ORPH:
        if not seven_pairs and type(meld_count) is int:
            return sh
    elif sh == _BAD:  # a wrong tile total
        return _shanten_slow(
            counts, meld_count, seven_pairs=seven_pairs, thirteen_orphans=thirteen_orphans
        )
    else:  # no melds, and 十三幺 may be closer: fewer honour kinds are missing than the distance
        sh -= _ORPH
        if thirteen_orphans:
            code = _orphans_code(counts)
            od = (12 if code >= 16 else 13) - (code & 15)
            if od < sh:
                sh = od
    if type(meld_count) is not int:  # a bool
        return _shanten_slow(
            counts, meld_count, seven_pairs=seven_pairs, thirteen_orphans=thirteen_orphans
        )
    if seven_pairs and sh > 0 and not meld_count:
        pairs = 34 - len(ba.translate(None, _TWO_PLUS))
        kinds = 34 - ba.count(0)
        pd = 0 if pairs >= 7 else (7 - pairs if kinds >= 7 else 14 - pairs - kinds)
        if pd <= sh:
            sh = pd - 1
    return sh


def _shanten_slow(
    counts: Sequence[int],
    meld_count: int = 0,
    *,
    seven_pairs: bool = False,
    thirteen_orphans: bool = True,
) -> int:
    """:func:`shanten_counts` by per-suit profile ids: hands the state tables do not hold.

    A suit of 10+ tiles, or bad input (it validates and raises); in the compiled build only bad
    input. This was ``shanten_counts`` before the state tables (issue 16; bench/hand_before.py
    keeps that version verbatim).
    """
    try:
        b = bytes(bytearray(counts))
    except (ValueError, TypeError):
        raise _bad_counts(counts, meld_count) from None
    # the tile total is the digit sum of a base-256 number: its value modulo 255 (counts <= 4)
    if (
        len(b) != 34
        or b.translate(None, _VALID)
        or int.from_bytes(b, "little") % 255 + 3 * meld_count not in (13, 14)
        or meld_count < 0
        or type(meld_count) is not int
    ):
        raise _bad_counts(counts, meld_count)
    c = counts
    if not _NU:
        if _NATIVE:
            _load_tables()
        else:
            _load()  # the tables, and the state lists of shanten_counts' pure-Python path
    num = _NUM
    nu = _NU
    comb = _COMB
    small = _SMALL9
    x = small.get(b[0:9])
    if x is None:
        x = num[
            390625 * c[0] + 78125 * c[1] + 15625 * c[2] + 3125 * c[3] + 625 * c[4]
            + 125 * c[5] + 25 * c[6] + 5 * c[7] + c[8]
        ]  # fmt: skip
    y = small.get(b[9:18])
    if y is None:
        y = num[
            390625 * c[9] + 78125 * c[10] + 15625 * c[11] + 3125 * c[12] + 625 * c[13]
            + 125 * c[14] + 25 * c[15] + 5 * c[16] + c[17]
        ]  # fmt: skip
    w = small.get(b[18:27])
    if w is None:
        w = num[
            390625 * c[18] + 78125 * c[19] + 15625 * c[20] + 3125 * c[21] + 625 * c[22]
            + 125 * c[23] + 25 * c[24] + 5 * c[25] + c[26]
        ]  # fmt: skip
    z = _SMALL7.get(b[27:34])
    if z is None:
        z = _HON[
            15625 * c[27] + 3125 * c[28] + 625 * c[29] + 125 * c[30] + 25 * c[31] + 5 * c[32]
            + c[33]
        ]  # fmt: skip
    dist = _FINAL[4 - meld_count][comb[comb[x * nu + y] * nu + w] * nu + z]
    if dist > 1 and not meld_count:
        # 十三幺 needs every honour: each one missing is a tile to draw
        if thirteen_orphans and b.count(0, 27) < dist:
            code = _orphans_code(c)
            od = (13 if code >= 16 else 14) - (code & 15)
            if od < dist:
                dist = od
        if seven_pairs and dist > 1:
            pairs = 34 - len(b.translate(None, _TWO_PLUS))
            kinds = 34 - b.count(0)
            pd = 0 if pairs >= 7 else (7 - pairs if kinds >= 7 else 14 - pairs - kinds)
            if pd < dist:
                dist = pd
    return dist - 1


def _shanten(
    counts: Sequence[int],
    meld_count: int,
    caps: Sequence[int] | None,
    seven_pairs: bool,
    thirteen_orphans: bool,
) -> int:
    best = _regular_distance(counts, meld_count, caps)
    if meld_count == 0:
        if thirteen_orphans and best > 1:
            best = min(best, _orphans_distance(counts))
        if seven_pairs and best > 1:
            best = min(best, _pairs_distance(counts))
    return best - 1


def _caps(hand: Hand) -> list[int] | None:
    if not hand.melds:
        return None
    caps = [4] * NUM_KINDS
    for m in hand.melds:
        for t in m.tiles:
            caps[t] -= 1
    return caps


def _validated(hand: Hand) -> tuple[list[int], int, list[int] | None]:
    bad = hand.status() & ~HandStatus.DUPLICATE_BONUS
    if bad:
        raise InvalidHandError(f"cannot analyse hand {hand}: {hand.describe_status(bad)}")
    return hand.concealed_counts, len(hand.melds), _caps(hand)


def shanten(hand: Hand, *, seven_pairs: bool = False, thirteen_orphans: bool = True) -> int:
    """向聽 of a 13- or 14-tile hand (kongs count 3): -1 complete, 0 ready (聽牌), 1, 2, ...

    >>> shanten(Hand.from_text("123m456p789s1122z"))
    0

    :raises InvalidHandError: for an impossible hand (a fifth copy, a wrong tile count, ...).
    """
    counts, k, caps = _validated(hand)
    return _shanten(counts, k, caps, seven_pairs, thirteen_orphans)


def shanten_detail(hand: Hand, *, seven_pairs: bool = False) -> ShantenResult:
    """向聽 of each shape (regular, 十三幺, 七對子) and the minimum over the allowed ones.

    :raises InvalidHandError: for an impossible hand.
    """
    counts, k, caps = _validated(hand)
    regular = _regular_distance(counts, k, caps) - 1
    orphans = _orphans_distance(counts) - 1 if k == 0 else None
    pairs = _pairs_distance(counts) - 1 if k == 0 and seven_pairs else None
    best = min(v for v in (regular, orphans, pairs) if v is not None)
    return ShantenResult(best, regular, orphans, pairs)


def waits(hand: Hand, *, seven_pairs: bool = False) -> list[Tile]:
    """聽牌: the tiles that complete a ready 13-tile hand; [] when it is not ready.

    A tile whose four copies are all in the hand (melds included) is not a wait.

    >>> waits(Hand.from_text("123m456p789s1122z"))
    [Tile.EAST, Tile.SOUTH]

    :raises InvalidHandError: for an impossible hand or one that is not 13 tiles (kongs count 3).
    """
    counts, k, caps = _validated(hand)
    if sum(counts) != 13 - 3 * k:
        raise InvalidHandError(f"waits need a 13-tile hand, {hand} has {hand.tile_count}")
    held = hand.all_counts()
    out: list[Tile] = []
    for t in range(NUM_KINDS):
        if held[t] >= 4:
            continue
        counts[t] += 1
        if _shanten(counts, k, caps, seven_pairs, True) == -1:
            out.append(KINDS[t])
        counts[t] -= 1
    return out


def _unseen(held: Sequence[int], visible: Sequence[int] | None, t: int) -> int:
    n = 4 - held[t] - (visible[t] if visible is not None else 0)
    return n if n > 0 else 0


def _check_visible(visible: Sequence[int] | None) -> None:
    if visible is not None and len(visible) < NUM_KINDS:
        raise InvalidHandError(f"visible counts need {NUM_KINDS} entries, got {len(visible)}")


def _useful13(
    counts: list[int],
    k: int,
    caps: list[int] | None,
    held: list[int],
    visible: Sequence[int] | None,
    seven_pairs: bool,
) -> dict[Tile, int]:
    current = _shanten(counts, k, caps, seven_pairs, True)
    out: dict[Tile, int] = {}
    for t in range(NUM_KINDS):
        if held[t] >= 4:
            continue
        counts[t] += 1
        if _shanten(counts, k, caps, seven_pairs, True) < current:
            out[KINDS[t]] = _unseen(held, visible, t)
        counts[t] -= 1
    return out


def useful_tiles(
    hand: Hand, visible: Sequence[int] | None = None, *, seven_pairs: bool = False
) -> dict[Tile, int]:
    """有效牌: tiles whose draw lowers the shanten → copies unseen (4 − held − ``visible``).

    For a 13-tile hand, the tiles that lower its shanten. For a 14-tile hand, the union over the
    discards that keep the shanten lowest (see :func:`useful_after_discard` for each discard).
    ``visible`` is a 34-count vector of tiles seen elsewhere (discards, others' melds).

    :raises InvalidHandError: for an impossible hand.
    """
    _check_visible(visible)
    counts, k, caps = _validated(hand)
    held = hand.all_counts()
    if sum(counts) == 13 - 3 * k:
        return _useful13(counts, k, caps, held, visible, seven_pairs)
    per = _per_discard(counts, k, caps, held, visible, seven_pairs)
    best = min(s for s, _ in per.values())
    out: dict[Tile, int] = {}
    for s, useful in per.values():
        if s == best:
            out.update(useful)
    return dict(sorted(out.items()))


def _per_discard(
    counts: list[int],
    k: int,
    caps: list[int] | None,
    held: list[int],
    visible: Sequence[int] | None,
    seven_pairs: bool,
) -> dict[Tile, tuple[int, dict[Tile, int]]]:
    out: dict[Tile, tuple[int, dict[Tile, int]]] = {}
    for d in range(NUM_KINDS):
        if not counts[d]:
            continue
        counts[d] -= 1
        s = _shanten(counts, k, caps, seven_pairs, True)
        out[KINDS[d]] = (s, _useful13(counts, k, caps, held, visible, seven_pairs))
        counts[d] += 1
    return out


def useful_after_discard(
    hand: Hand, visible: Sequence[int] | None = None, *, seven_pairs: bool = False
) -> dict[Tile, dict[Tile, int]]:
    """For a 14-tile hand: each possible discard → its 有效牌 (tile → copies unseen).

    :raises InvalidHandError: for an impossible hand or one that is not 14 tiles (kongs count 3).
    """
    _check_visible(visible)
    counts, k, caps = _validated(hand)
    if sum(counts) != 14 - 3 * k:
        raise InvalidHandError(f"useful_after_discard needs a 14-tile hand, {hand} has 13")
    held = hand.all_counts()
    per = _per_discard(counts, k, caps, held, visible, seven_pairs)
    return {d: useful for d, (_, useful) in per.items()}


def discard_shanten(hand: Hand, *, seven_pairs: bool = False) -> dict[Tile, int]:
    """For a 14-tile hand: each possible discard → the shanten of what is left.

    :raises InvalidHandError: for an impossible hand or one that is not 14 tiles.
    """
    counts, k, caps = _validated(hand)
    if sum(counts) != 14 - 3 * k:
        raise InvalidHandError(f"discard_shanten needs a 14-tile hand, {hand} has 13")
    out: dict[Tile, int] = {}
    for d in range(NUM_KINDS):
        if counts[d]:
            counts[d] -= 1
            out[KINDS[d]] = _shanten(counts, k, caps, seven_pairs, True)
            counts[d] += 1
    return out
