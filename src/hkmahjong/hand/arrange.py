"""Arrangements (拆牌) and win detection (糊牌判定).

A complete hand is four sets (chow, pung or kong) and a pair — declared melds count as sets — or
十三幺, or (only when asked, ``seven_pairs=True``) 七對子: seven *distinct* pairs, so four of a
kind is not two pairs.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

from hkmahjong.errors import InvalidHandError
from hkmahjong.hand import _fast
from hkmahjong.hand.groups import Arrangement, Group, GroupKind, Shape
from hkmahjong.hand.hand import Hand, HandStatus
from hkmahjong.hand.meld import Meld, MeldKind
from hkmahjong.tiles import KINDS, NUM_KINDS, ORPHAN_INDICES, is_thirteen_orphans

__all__ = ["arrangements", "is_complete", "is_complete_counts", "meld_group", "win_candidates"]


def meld_group(meld: Meld) -> Group:
    """The arrangement group of a declared meld (a concealed kong stays ``concealed``)."""
    if meld.kind is MeldKind.CHOW:
        kind = GroupKind.CHOW
    elif meld.kind is MeldKind.PUNG:
        kind = GroupKind.PUNG
    else:
        kind = GroupKind.KONG
    return Group(kind, meld.first, concealed=meld.kind is MeldKind.CONCEALED_KONG, declared=True)


def _decompose_sets(
    counts: list[int], start: int, sets: int, chow_only: bool = False
) -> list[list[tuple[GroupKind, int]]]:
    """Every split of ``counts`` (from index ``start``) into exactly ``sets`` chows/pungs.

    The lowest remaining tile starts a pung or a chow; once a chow was taken at a tile, no pung
    is taken there (``chow_only``), so each multiset of sets comes out once.
    """
    i = start
    while i < NUM_KINDS and counts[i] == 0:
        i += 1
        chow_only = False
    if i == NUM_KINDS:
        return [[]] if sets == 0 else []
    if sets == 0:
        return []
    out: list[list[tuple[GroupKind, int]]] = []
    if counts[i] >= 3 and not chow_only:
        counts[i] -= 3
        for rest in _decompose_sets(counts, i, sets - 1):
            out.append([(GroupKind.PUNG, i), *rest])
        counts[i] += 3
    if i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        counts[i] -= 1
        counts[i + 1] -= 1
        counts[i + 2] -= 1
        for rest in _decompose_sets(counts, i, sets - 1, True):
            out.append([(GroupKind.CHOW, i), *rest])
        counts[i] += 1
        counts[i + 1] += 1
        counts[i + 2] += 1
    return out


def _regular(counts: list[int], meld_count: int) -> list[list[tuple[GroupKind, int]]]:
    need = 4 - meld_count
    found: set[tuple[tuple[GroupKind, int], ...]] = set()
    result: list[list[tuple[GroupKind, int]]] = []
    for p in range(NUM_KINDS):
        if counts[p] < 2:
            continue
        counts[p] -= 2
        for sets in _decompose_sets(counts, 0, need):
            key = (*sorted(sets, key=lambda g: (g[1], g[0] is GroupKind.CHOW)), (GroupKind.PAIR, p))
            if key not in found:
                found.add(key)
                result.append(list(key))
        counts[p] += 2
    return result


def _is_orphans(counts: Sequence[int]) -> bool:
    return _valid(counts) and is_thirteen_orphans(counts)


def _is_pairs(counts: Sequence[int]) -> bool:
    if not _valid(counts):
        return False
    return sum(1 for n in counts if n == 2) == 7 and sum(counts) == 14


def arrangements(hand: Hand, *, seven_pairs: bool = False) -> list[Arrangement]:
    """Every distinct arrangement of a complete hand; [] when it is not complete.

    Declared melds are fixed groups (``declared=True``; a 暗槓 also ``concealed=True``). 十三幺
    is its own shape (twelve singles and the pair); 七對子 only with ``seven_pairs`` (seven distinct
    pairs: four of a kind is not two pairs). A hand may have several arrangements, e.g.
    ``111222333m`` reads as three pungs or three chows.

    >>> [a.text for a in arrangements(Hand.from_text("111222333m 456p 77z"))]
    ['111m 222m 333m 456p 77z', '123m 123m 123m 456p 77z']

    :raises InvalidHandError: for an impossible hand (a fifth copy, a wrong tile count, ...).
    """
    bad = hand.status() & ~HandStatus.DUPLICATE_BONUS & ~HandStatus.BAD_TILE_COUNT
    if bad:
        raise InvalidHandError(f"cannot arrange hand {hand}: {hand.describe_status(bad)}")
    k = len(hand.melds)
    counts = hand.concealed_counts
    if sum(counts) != 14 - 3 * k:
        if sum(counts) == 13 - 3 * k:
            return []
        raise InvalidHandError(f"cannot arrange hand {hand}: {hand.describe_status()}")
    declared = tuple(meld_group(m) for m in hand.melds)
    out: list[Arrangement] = []
    for groups in _regular(counts, k):
        concealed = tuple(Group(kind, KINDS[i]) for kind, i in groups)
        out.append(Arrangement(Shape.REGULAR, declared + concealed))
    if k == 0 and _is_orphans(counts):
        pair = next(i for i in ORPHAN_INDICES if counts[i] == 2)
        singles = tuple(Group(GroupKind.SINGLE, KINDS[i]) for i in ORPHAN_INDICES if i != pair)
        out.append(
            Arrangement(Shape.THIRTEEN_ORPHANS, (*singles, Group(GroupKind.PAIR, KINDS[pair])))
        )
    if k == 0 and seven_pairs and _is_pairs(counts):
        pairs = tuple(Group(GroupKind.PAIR, KINDS[i]) for i in range(NUM_KINDS) if counts[i] == 2)
        out.append(Arrangement(Shape.SEVEN_PAIRS, pairs))
    return out


_D9: dict[bytes, int] = {}
_D7: dict[bytes, int] = {}
_R9: frozenset[bytes] = frozenset()
"""Number-suit vectors that split exactly into sets and at most one pair (for win_candidates)."""
_R7: frozenset[bytes] = frozenset()
"""The same for honours."""
_VALID = bytes(range(5))
_ZERO_TWO = b"\x00\x02"
_MAYBE_SPECIAL = 254
"""Code of a suit vector that does not split exactly but could be part of 七對子 or 十三幺."""
_SPLIT = struct.Struct("9s9s9s7s").unpack
"""34 count bytes -> the three number suits' and the honours' (bytes, so hashable)."""


def _vectors(size: int, digits: tuple[int, ...], only: tuple[int, ...] | None) -> list[bytes]:
    out = [b""]
    for rank in range(size):
        allowed = digits if only is None or rank in only else (0,)
        out = [v + bytes([d]) for v in out for d in allowed]
    return out


def _load() -> None:
    global _D9, _D7, _R9, _R7
    t = _fast.tables()
    _R7 = frozenset(t.exact7_by_counts)
    d9 = dict(t.exact9_by_counts)
    for v in _vectors(9, (0, 2), None) + _vectors(9, (0, 1, 2), (0, 8)):
        d9.setdefault(v, _MAYBE_SPECIAL)
    d7 = dict(t.exact7_by_counts)
    for v in _vectors(7, (0, 2), None) + _vectors(7, (1, 2), None):
        d7.setdefault(v, _MAYBE_SPECIAL)
    _D7 = d7
    _D9 = d9
    _R9 = frozenset(t.exact9_by_counts)


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
    # Early reject: a regular hand has no honour single (each honour is a pair, a pung or
    # absent), and 十三幺 holds every honour; so an honour single with an honour missing is not
    # complete. This turns down most hands far from complete (nine in ten random ones) before
    # the count vector is even converted. Then each suit's count bytes must split exactly into
    # sets and at most one pair (or, code 254, could still be part of 七對子 / 十三幺); counts
    # outside 0-4 are in no table, and a wrong length fails the unpacking.
    c = counts
    try:
        if (
            c[27] == 1 or c[28] == 1 or c[29] == 1 or c[30] == 1 or c[31] == 1 or c[32] == 1
            or c[33] == 1
        ) and not (c[27] and c[28] and c[29] and c[30] and c[31] and c[32] and c[33]):  # fmt: skip
            return False
    except (IndexError, TypeError):  # short, or not integers (compiled): decided below
        pass
    try:
        ba = bytearray(counts)  # converts a list of ints ~2x faster than bytes(counts)
        m, p, s, h = _SPLIT(ba)
    except (ValueError, struct.error):  # a count outside 0-255, a wrong length
        return False
    except TypeError:
        raise InvalidHandError(f"counts must be 34 integers, got {counts!r}") from None
    d9 = _D9
    if not d9:
        _load()
        d9 = _D9
    v = d9.get(m)
    if v is None:
        return False
    w = d9.get(p)
    if w is None:
        return False
    x = d9.get(s)
    if x is None:
        return False
    y = _D7.get(h)
    if y is None:
        return False
    if v + w + x + y == 68 - meld_count:
        return True
    if meld_count:
        return False
    if seven_pairs and not ba.translate(None, _ZERO_TWO) and ba.count(2) == 7:
        return True
    return thirteen_orphans and y == _MAYBE_SPECIAL and _is_orphans(counts)


def _is_complete_reference(
    counts: Sequence[int],
    meld_count: int = 0,
    *,
    seven_pairs: bool = False,
    thirteen_orphans: bool = True,
) -> bool:
    """:func:`is_complete_counts` by dictionary lookups of each suit's count bytes.

    The check as it was before the fast path's early reject, kept as its reference: the
    property tests (tests/hand/test_win_fast_path.py) compare the two on any input (a short
    vector, a count outside 0-4, a non-integer), and bench/bench_hand.py times both.
    """
    if not _D9:
        _load()
    try:
        b = bytes(counts)
    except ValueError:
        return False
    except TypeError:
        raise InvalidHandError(f"counts must be 34 integers, got {counts!r}") from None
    # each suit must split exactly into sets and at most one pair (or, code 254, could still be
    # part of 七對子 / 十三幺); counts outside 0-4 are in no table, so they fail here
    d9 = _D9
    v = d9.get(b[0:9])
    if v is None:
        return False
    w = d9.get(b[9:18])
    if w is None:
        return False
    x = d9.get(b[18:27])
    if x is None:
        return False
    y = _D7.get(b[27:34])
    if y is None:
        return False
    if v + w + x + y == 68 - meld_count and len(b) == 34:
        return True
    if meld_count or len(b) != 34:
        return False
    if seven_pairs and not b.translate(None, _ZERO_TWO) and b.count(2) == 7:
        return True
    return thirteen_orphans and _is_orphans(counts)


_SUIT_MASKS = (0x1FF, 0x1FF << 9, 0x1FF << 18, 0x7F << 27)
_ALL_MASK = (1 << 34) - 1
_ORPHAN_MASK = sum(1 << k for k in ORPHAN_INDICES)
_Z7 = bytes(7)


def win_candidates(b: bytes, meld_count: int, *, seven_pairs: bool = False) -> int:
    """Tiles that might complete the concealed counts ``b`` (34 bytes): bit ``t`` is set for
    every tile ``t`` with ``is_complete_counts(b + t, meld_count, seven_pairs=...)`` — and
    possibly others (a superset: the exact check still decides).

    A regular win adds one tile to one suit, so the other three suits must already split exactly
    into sets and at most one pair: with two suits that do not, no tile completes a regular hand;
    with one, only that suit's tiles may. 十三幺 needs only terminals and honours in hand, 七對子
    (when asked) six pairs and the one single. Counts must be 0-4 (callers hold real hands).
    """
    r9 = _R9
    if not r9:
        _load()
        r9 = _R9
    mask = _ALL_MASK
    if b[0:9] not in r9:
        mask = _SUIT_MASKS[0]
    if b[9:18] not in r9:
        mask = _SUIT_MASKS[1] if mask == _ALL_MASK else 0
    if mask and b[18:27] not in r9:
        mask = _SUIT_MASKS[2] if mask == _ALL_MASK else 0
    if mask and b[27:34] not in _R7:
        mask = _SUIT_MASKS[3] if mask == _ALL_MASK else 0
    if meld_count == 0:
        if b[1:8] == b[10:17] == b[19:26] == _Z7:
            mask |= _ORPHAN_MASK
        if seven_pairs and b.count(1) == 1:
            mask |= 1 << b.index(1)
    return mask


def _valid(counts: Sequence[int]) -> bool:
    try:
        b = bytes(counts)
    except (ValueError, TypeError):
        return False
    return len(b) == NUM_KINDS and not b.translate(None, _VALID)


def is_complete(hand: Hand, *, seven_pairs: bool = False) -> bool:
    """糊: is the hand complete (14 tiles, each kong counting 3)? A 13-tile hand gives False.

    >>> is_complete(Hand.from_text("19m19p19s1234567z1m"))
    True

    :raises InvalidHandError: for an impossible hand (a fifth copy, 12 or 15 tiles, ...).
    """
    bad = hand.status() & ~HandStatus.DUPLICATE_BONUS
    if bad:
        raise InvalidHandError(f"cannot check hand {hand}: {hand.describe_status(bad)}")
    return is_complete_counts(hand.concealed_counts, len(hand.melds), seven_pairs=seven_pairs)
