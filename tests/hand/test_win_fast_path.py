"""The early-reject fast path of is_complete_counts agrees with the full decomposition (issue 16).

``is_complete_counts`` rejects most hands from one base-5 table lookup per suit; these property
tests compare it, over random hands and near-complete ones, with the full decomposition
(``_regular``: every split into sets and a pair, plus the 十三幺 / 七對子 checks) and with the
dictionary-lookup implementation it replaced (``_is_complete_reference``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hkmahjong.errors import InvalidHandError
from hkmahjong.hand import is_complete_counts
from hkmahjong.hand.arrange import _is_complete_reference, _regular, win_candidates
from hkmahjong.tiles import counts34, is_thirteen_orphans, parse_tiles

WALL = [t for t in range(34) for _ in range(4)]


def full_decomposition(counts: list[int], melds: int, seven_pairs: bool) -> bool:
    if sum(counts) != 14 - 3 * melds:
        return False
    if _regular(list(counts), melds):
        return True
    if melds:
        return False
    if seven_pairs and sum(1 for n in counts if n == 2) == 7:
        return True
    return is_thirteen_orphans(counts)


def _counts(tiles: list[int]) -> list[int]:
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


@st.composite
def random_hands(draw: st.DrawFn) -> tuple[list[int], int]:
    melds = draw(st.integers(0, 4))
    size = draw(st.sampled_from((13, 14))) - 3 * melds
    return _counts(draw(st.permutations(WALL))[:size]), melds


@st.composite
def near_complete(draw: st.DrawFn) -> tuple[list[int], int]:
    """Sets and a pair (some from one suit, so chows overlap), then up to two tiles changed."""
    melds = draw(st.integers(0, 4))
    tiles = [draw(st.integers(0, 33))] * 2
    for _ in range(4 - melds):
        if draw(st.booleans()):
            suit = draw(st.integers(0, 2))
            first = suit * 9 + draw(st.integers(0, 6))
            tiles += [first, first + 1, first + 2]
        else:
            tiles += [draw(st.integers(0, 33))] * 3
    for _ in range(draw(st.sampled_from((0, 0, 1, 2)))):
        tiles[draw(st.integers(0, len(tiles) - 1))] = draw(st.integers(0, 33))
    counts = _counts(tiles)
    if max(counts) > 4:
        counts = [min(n, 4) for n in counts]
    return counts, melds


def _check(hand: tuple[list[int], int], seven_pairs: bool) -> None:
    counts, melds = hand
    fast = is_complete_counts(counts, melds, seven_pairs=seven_pairs)
    assert fast == full_decomposition(counts, melds, seven_pairs), (counts, melds)
    assert fast == _is_complete_reference(counts, melds, seven_pairs=seven_pairs)
    assert fast == is_complete_counts(tuple(counts), melds, seven_pairs=seven_pairs)


@settings(max_examples=400, deadline=None)
@given(random_hands(), st.booleans())
def test_fast_path_on_random_hands(hand: tuple[list[int], int], seven_pairs: bool) -> None:
    _check(hand, seven_pairs)


@settings(max_examples=600, deadline=None)
@given(near_complete(), st.booleans())
def test_fast_path_on_near_complete_hands(hand: tuple[list[int], int], seven_pairs: bool) -> None:
    _check(hand, seven_pairs)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(-6, 9), min_size=30, max_size=36),
    st.integers(0, 4),
    st.booleans(),
)
def test_fast_path_on_invalid_vectors(counts: list[int], melds: int, seven_pairs: bool) -> None:
    """Counts outside 0-4 (which can alias a valid suit's index) and wrong lengths: as before."""
    assert is_complete_counts(counts, melds, seven_pairs=seven_pairs) == _is_complete_reference(
        counts, melds, seven_pairs=seven_pairs
    )


def test_aliased_index_is_not_complete() -> None:
    """0 5 in two ranks reads like 1 0 in base 5; the range check still says no."""
    complete = [0] * 34
    complete[0:9] = [1, 1, 1, 1, 1, 1, 1, 1, 1]
    complete[27] = 3
    complete[28] = 2
    assert is_complete_counts(complete)
    aliased = list(complete)
    aliased[7], aliased[8] = 0, 6  # 5 * 0 + 6 == 5 * 1 + 1
    assert not is_complete_counts(aliased)
    assert not is_complete_counts([*complete, 0])
    assert not is_complete_counts(complete[:33])


def test_special_shapes_and_errors() -> None:
    orphans = [0] * 34
    for t in (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33):
        orphans[t] = 1
    orphans[33] = 2
    assert is_complete_counts(orphans)
    assert not is_complete_counts(orphans, thirteen_orphans=False)
    pairs = [0] * 34
    for t in (0, 1, 9, 10, 11, 12, 30):
        pairs[t] = 2
    assert is_complete_counts(pairs, seven_pairs=True)
    assert not is_complete_counts(pairs)
    with pytest.raises(InvalidHandError):
        is_complete_counts(["a"] * 34)  # type: ignore[list-item]


def _check_candidates(hand: tuple[list[int], int], seven_pairs: bool) -> None:
    """Every tile that completes the hand minus one of its tiles is among ``win_candidates``."""
    counts, melds = hand
    for drop in {k for k in range(34) if counts[k]}:
        c = list(counts)
        c[drop] -= 1
        mask = win_candidates(bytes(c), melds, seven_pairs=seven_pairs)
        for t in range(34):
            if c[t] < 4:
                c[t] += 1
                if is_complete_counts(c, melds, seven_pairs=seven_pairs):
                    assert (mask >> t) & 1, (c, t, melds)
                c[t] -= 1


@settings(max_examples=300, deadline=None)
@given(near_complete(), st.booleans())
def test_win_candidates_hold_every_winning_tile(
    hand: tuple[list[int], int], seven_pairs: bool
) -> None:
    """The engine's claim scan skips the win check for tiles outside ``win_candidates``: the
    mask must hold every tile that wins (near-complete hands, each tile dropped in turn)."""
    _check_candidates(hand, seven_pairs)


@pytest.mark.parametrize(
    ("text", "seven_pairs"),
    [
        ("19m19p19s1234567z1z", False),  # 十三幺, each tile dropped
        ("1122m3344p5566s77z", True),  # 七對子
        ("11112222333344m", False),
        ("1112345678999m1m", False),  # 九蓮寶燈 shapes
    ],
)
def test_win_candidates_on_special_hands(text: str, seven_pairs: bool) -> None:
    """The special shapes and many-sided waits (every tile dropped in turn)."""
    _check_candidates((counts34_of(text), 0), seven_pairs)


def counts34_of(text: str) -> list[int]:
    return [int(n) for n in counts34(parse_tiles(text))]
