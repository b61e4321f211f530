"""hkmahjong.hand's shanten_counts and is_complete_counts as they were before issue 16's rework.

Verbatim copies (from commit 1fa8147, src/hkmahjong/hand/shanten.py and arrange.py; only the
win tables' loader renamed ``_load_win``) kept so bench/bench_hand.py can time today's code against
them in the same run, on the same corpus ("before" columns). They read the same per-suit tables.
"""

# ruff: noqa
# mypy: ignore-errors
from __future__ import annotations

from collections.abc import Sequence

from hkmahjong.errors import InvalidHandError
from hkmahjong.hand import _fast
from hkmahjong.hand._fast import NOT_EXACT
from hkmahjong.tiles import NUM_KINDS, Tile, is_thirteen_orphans

__all__ = ["is_complete_counts", "shanten_counts"]

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


def _load() -> None:
    global _NUM, _HON, _COMB, _FINAL, _NU, _HORPH, _SMALL9, _SMALL7
    t = _fast.tables()
    _NUM, _HON, _COMB, _FINAL = t.number, t.honour, t.comb, t.final
    _HORPH, _SMALL9, _SMALL7 = t.honour_orphans, t.number_by_counts, t.honour_by_counts
    _NU = t.size


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
    try:
        b = bytes(counts)
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
        _load()
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
            zk = 15625 * c[27] + 3125 * c[28] + 625 * c[29] + 125 * c[30] + 25 * c[31]
            code = (
                _HORPH[zk + 5 * c[32] + c[33]]
                + _TERM[5 * c[0] + c[8]]
                + _TERM[5 * c[9] + c[17]]
                + _TERM[5 * c[18] + c[26]]
            )
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


_D9: dict[bytes, int] = {}
_D7: dict[bytes, int] = {}
_R9: frozenset[bytes] = frozenset()
"""Number-suit vectors that split exactly into sets and at most one pair (for win_candidates)."""
_R7: frozenset[bytes] = frozenset()
"""The same for honours."""
_X9 = b""
"""Per number-suit vector (base-5 index): its code in ``_D9``, or 255 (``NOT_EXACT``)."""
_ZERO_TWO = b"\x00\x02"
_MAYBE_SPECIAL = 254
"""Code of a suit vector that does not split exactly but could be part of 七對子 or 十三幺."""


def _vectors(size: int, digits: tuple[int, ...], only: tuple[int, ...] | None) -> list[bytes]:
    out = [b""]
    for rank in range(size):
        allowed = digits if only is None or rank in only else (0,)
        out = [v + bytes([d]) for v in out for d in allowed]
    return out


def _load_win() -> None:
    global _D9, _D7, _X9, _R9, _R7
    t = _fast.tables()
    _R7 = frozenset(t.exact7_by_counts)
    d9 = dict(t.exact9_by_counts)
    x9 = bytearray(t.exact9)
    for v in _vectors(9, (0, 2), None) + _vectors(9, (0, 1, 2), (0, 8)):
        if d9.setdefault(v, _MAYBE_SPECIAL) == _MAYBE_SPECIAL:
            x9[_index(v)] = _MAYBE_SPECIAL
    d7 = dict(t.exact7_by_counts)
    for v in _vectors(7, (0, 2), None) + _vectors(7, (1, 2), None):
        d7.setdefault(v, _MAYBE_SPECIAL)
    _X9 = bytes(x9)
    _D7 = d7
    _D9 = d9
    _R9 = frozenset(t.exact9_by_counts)


def _index(vector: bytes) -> int:
    key = 0
    for n in vector:
        key = key * 5 + n
    return key


def is_complete_counts(
    counts: Sequence[int],
    meld_count: int = 0,
    *,
    seven_pairs: bool = False,
    thirteen_orphans: bool = True,
) -> bool:
    """糊: do the concealed ``counts`` with ``meld_count`` declared melds make a complete hand?

    A count vector that cannot be a complete hand (wrong total, a count outside 0-4) gives False.

    >>> from hkmahjong.tiles import counts34, parse_tiles
    >>> is_complete_counts(counts34(parse_tiles("123m456p789s11122z")))
    True

    :raises InvalidHandError: when ``counts`` is not a sequence of integers.
    """
    # Early reject: the first suit's counts, read as a base-5 number, index a table that says
    # whether the suit splits exactly into sets and at most one pair (255: no, and it cannot be
    # part of 七對子 / 十三幺 either). Most hands far from complete fail here, before the count
    # vector is even converted; a count outside 0-4 only aliases another vector, and the exact
    # check below (which validates every count) is what says True.
    x9 = _X9
    if not x9:
        _load_win()
        x9 = _X9
    c = counts
    try:
        first = x9[
            390625 * c[0] + 78125 * c[1] + 15625 * c[2] + 3125 * c[3] + 625 * c[4]
            + 125 * c[5] + 25 * c[6] + 5 * c[7] + c[8]
        ]  # fmt: skip
        if first == NOT_EXACT:
            return False
    except (IndexError, TypeError):  # a short vector, a count far outside 0-4, not integers
        pass  # the exact check decides (False, or InvalidHandError for non-integers)
    try:
        b = bytes(counts)
    except ValueError:
        return False
    except TypeError:
        raise InvalidHandError(f"counts must be 34 integers, got {counts!r}") from None
    d9 = _D9
    w = d9.get(b[9:18])
    if w is None:
        return False
    x = d9.get(b[18:27])
    if x is None:
        return False
    y = _D7.get(b[27:34])
    if y is None:
        return False
    v = d9.get(b[0:9])
    if v is None:
        return False
    if v + w + x + y == 68 - meld_count and len(b) == 34:
        return True
    if meld_count or len(b) != 34:
        return False
    if seven_pairs and not b.translate(None, _ZERO_TWO) and b.count(2) == 7:
        return True
    return thirteen_orphans and y == _MAYBE_SPECIAL and _is_orphans(counts)


def _is_orphans(counts: Sequence[int]) -> bool:
    return _valid(counts) and is_thirteen_orphans(counts)


def _is_pairs(counts: Sequence[int]) -> bool:
    if not _valid(counts):
        return False
    return sum(1 for n in counts if n == 2) == 7 and sum(counts) == 14


def _valid(counts: Sequence[int]) -> bool:
    try:
        b = bytes(counts)
    except (ValueError, TypeError):
        return False
    return len(b) == NUM_KINDS and not b.translate(None, _VALID)
