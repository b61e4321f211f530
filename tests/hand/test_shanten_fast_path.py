"""The fast paths of shanten_counts agree with the per-suit DP and the slow path.

``shanten_counts`` (issue 16) names each suit of at most 9 tiles by a state (profile id, tiles)
and combines states by list lookups; a suit of 10+ tiles or bad input goes to ``_shanten_slow``
(the implementation before). These property tests compare the two, and the per-suit dynamic
programme of tests/hand/test_shanten.py (no tables at all), on random, near-complete, one-suit and
invalid hands, with every shape switch. The compiled build's native path (``_shanten_native``:
base-5 indices in native ints, every suit size) is called directly too, so it is checked on both
builds.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hkmahjong.errors import InvalidHandError
from hkmahjong.hand import shanten_counts
from hkmahjong.hand.shanten import _INVALID, _shanten_native, _shanten_slow

sys.path.insert(0, str(Path(__file__).parent))
from test_shanten import dp_shanten
from test_win_fast_path import near_complete, random_hands

FLAGS = st.tuples(st.booleans(), st.booleans())


def _check(hand: tuple[list[int], int], flags: tuple[bool, bool]) -> None:
    counts, melds = hand
    sp, to = flags
    fast = shanten_counts(counts, melds, seven_pairs=sp, thirteen_orphans=to)
    assert fast == _shanten_slow(counts, melds, seven_pairs=sp, thirteen_orphans=to), hand
    assert fast == dp_shanten(counts, melds, sp, to), hand
    assert fast == shanten_counts(tuple(counts), melds, seven_pairs=sp, thirteen_orphans=to)
    # the compiled build's path, also run here when the module is pure Python
    assert fast == _shanten_native(list(counts), melds, sp, to), hand


@settings(max_examples=500, deadline=None)
@given(random_hands(), FLAGS)
def test_fast_path_on_random_hands(hand: tuple[list[int], int], flags: tuple[bool, bool]) -> None:
    _check(hand, flags)


@settings(max_examples=500, deadline=None)
@given(near_complete(), FLAGS)
def test_fast_path_on_near_complete_hands(
    hand: tuple[list[int], int], flags: tuple[bool, bool]
) -> None:
    counts, melds = hand
    if sum(counts) in (13 - 3 * melds, 14 - 3 * melds):  # near_complete may cap a count
        _check(hand, flags)


@st.composite
def one_suit_heavy(draw: st.DrawFn) -> tuple[list[int], int]:
    """10-14 tiles of one suit (the slow path for that suit), the rest honours or another suit."""
    melds = draw(st.integers(0, 1))
    size = draw(st.sampled_from((13, 14))) - 3 * melds
    suit = draw(st.integers(0, 2)) * 9
    own = draw(st.integers(min(10, size), size))
    pool = [suit + r for r in range(9) for _ in range(4)]
    tiles = draw(st.permutations(pool))[:own]
    rest = [t for t in range(34) for _ in range(4) if not suit <= t < suit + 9]
    tiles += draw(st.permutations(rest))[: size - own]
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    return counts, melds


@settings(max_examples=200, deadline=None)
@given(one_suit_heavy(), FLAGS)
def test_one_suit_heavy_hands(hand: tuple[list[int], int], flags: tuple[bool, bool]) -> None:
    _check(hand, flags)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-2, 6), min_size=32, max_size=36), st.integers(-1, 5))
def test_invalid_input_raises_as_before(counts: list[int], melds: int) -> None:
    """Counts outside 0-4, wrong lengths or totals, meld counts outside 0-4: same answer or error."""
    try:
        expected: int | str = _shanten_slow(counts, melds)
    except InvalidHandError as e:
        expected = str(e)
    try:
        got: int | str = shanten_counts(counts, melds)
    except InvalidHandError as e:
        got = str(e)
    assert got == expected


def test_bool_meld_count_is_refused() -> None:
    """As before (type check); a mypyc build unboxes the bool to an int at the call, so not there."""
    if not importlib.import_module("hkmahjong.hand.shanten").__file__.endswith(".py"):
        pytest.skip("compiled build: mypyc passes a bool meld_count on as an int")
    hand = [0] * 34
    hand[0:9] = [1] * 9
    hand[27] = 3
    hand[28] = 1
    with pytest.raises(InvalidHandError, match="meld_count"):
        shanten_counts(hand, True)  # type: ignore[arg-type]
    with pytest.raises(InvalidHandError, match="meld_count"):
        shanten_counts(hand, False)  # type: ignore[arg-type]


def _answer(counts: object, melds: object) -> int | str:
    try:
        return shanten_counts(counts, melds)  # type: ignore[arg-type]
    except (InvalidHandError, TypeError) as e:
        return f"{type(e).__name__}: {e}"


def _slow_answer(counts: object, melds: object) -> int | str:
    try:
        return _shanten_slow(counts, melds)  # type: ignore[arg-type]
    except (InvalidHandError, TypeError) as e:
        return f"{type(e).__name__}: {e}"


@pytest.mark.parametrize(
    "odd",
    [1.0, None, "1", 2**70, -(2**70), True, 5, -1, 255, 256],
)
@pytest.mark.parametrize("at", [0, 8, 17, 26, 27, 33])
def test_odd_count_values_answer_as_before(odd: object, at: int) -> None:
    """A count that is not a small int (float, None, str, huge, bool) anywhere: same as before."""
    counts: list[object] = [0] * 34
    counts[0:9] = [1] * 9
    counts[27] = 3
    counts[28] = 1
    counts[at] = odd
    assert _answer(counts, 0) == _slow_answer(counts, 0)
    assert _answer(tuple(counts), 0) == _slow_answer(counts, 0)


@pytest.mark.parametrize("melds", [0, 1, -1, 5, 2**70])
def test_other_sequences_answer_as_lists(melds: int) -> None:
    """Tuples, bytes, ranges of counts, a number, and meld counts out of range: as before."""
    hand = [1] * 9 + [0] * 18 + [3, 1, 0, 0, 0, 0, 0]
    short = hand[:-4] if melds == 1 else hand
    for seq in (tuple(short), bytes(short), bytearray(short)):
        assert _answer(seq, melds) == _slow_answer(list(short), melds)
    assert _answer(range(34), 0) == _slow_answer(range(34), 0)
    assert _answer(42, 0) == _slow_answer(42, 0)


def test_native_path_refuses_what_it_does_not_take() -> None:
    """Bad lengths, counts, totals and meld counts come back as _INVALID (the caller raises)."""
    hand = [1] * 9 + [0] * 18 + [3, 1, 0, 0, 0, 0, 0]
    assert _shanten_native(hand, 0, False, True) == 0
    assert _shanten_native(hand[:33], 0, False, True) == _INVALID
    assert _shanten_native([*hand[:33], 1, 0], 0, False, True) == _INVALID
    assert _shanten_native(hand, 1, False, True) == _INVALID
    assert _shanten_native(hand, -1, False, True) == _INVALID
    assert _shanten_native(hand, 5, False, True) == _INVALID
    for bad in (-1, -3, 5, 7, 8, 13):
        assert _shanten_native([bad, *hand[1:]], 0, False, True) == _INVALID
