"""Arrangements and win detection (docs/rules.md §7: four sets and a pair, 十三幺, 七對子 by switch)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hkmahjong.errors import InvalidHandError
from hkmahjong.hand import (
    Arrangement,
    Group,
    GroupKind,
    Hand,
    Shape,
    arrangements,
    is_complete,
    is_complete_counts,
    waits,
)
from hkmahjong.tiles import Tile, counts34, parse_tiles

H = Hand.from_text


def texts(hand: str, **kw: bool) -> list[str]:
    return [a.text for a in arrangements(H(hand), **kw)]


def test_regular_arrangement_rules_7() -> None:
    """docs/rules.md §7: a complete hand is four sets and a pair."""
    assert texts("123m456p789s11122z") == ["123m 456p 789s 111z 22z"]
    assert is_complete(H("123m456p789s11122z"))


def test_every_distinct_arrangement() -> None:
    """111222333m reads as three pungs or three chows; both are listed, each once."""
    assert texts("111222333m456p77z") == [
        "111m 222m 333m 456p 77z",
        "123m 123m 123m 456p 77z",
    ]
    # 22334455667788m: pair 22, 55 or 88, each with two pairs of chows
    arr = arrangements(H("22334455667788m"))
    assert len(arr) == len({a.groups for a in arr}) == 3
    assert [a.pair.first for a in arr if a.pair] == [Tile.M2, Tile.M5, Tile.M8]


def test_declared_melds_are_fixed_groups() -> None:
    """Declared melds come first as declared groups; a 暗槓 is also concealed."""
    [arr] = arrangements(H("123m 22z [456p] [789s] (1111z)"))
    assert arr.shape is Shape.REGULAR
    kinds = [(g.kind, g.declared, g.concealed) for g in arr.groups]
    assert kinds == [
        (GroupKind.CHOW, True, False),
        (GroupKind.CHOW, True, False),
        (GroupKind.KONG, True, True),
        (GroupKind.CHOW, False, True),
        (GroupKind.PAIR, False, True),
    ]
    assert arr.text == "[456p] [789s] (1111z) 123m 22z"
    assert arr.pair == Group(GroupKind.PAIR, Tile.SOUTH)
    assert len(arr.sets) == 4


def test_four_concealed_copies_are_not_a_kong() -> None:
    """Four identical concealed tiles are a pung plus one tile elsewhere, never a kong."""
    assert texts("1111m456p789s1122z") == []
    assert texts("111123m456p789s55z") == ["111m 123m 456p 789s 55z"]


def test_thirteen_orphans_rules_7() -> None:
    """docs/rules.md §7 / W2 十三幺: its own shape — twelve singles and the pair; no melds."""
    [arr] = arrangements(H("19m19p19s1234567z9s"))
    assert arr.shape is Shape.THIRTEEN_ORPHANS
    assert arr.pair == Group(GroupKind.PAIR, Tile.S9)
    assert sum(1 for g in arr.groups if g.kind is GroupKind.SINGLE) == 12
    assert is_complete(H("19m19p19s1234567z1z"))
    assert not is_complete_counts(
        counts34(parse_tiles("19m19p19s1234567z1z")), thirteen_orphans=False
    )
    assert not is_complete(H("19m19p19s123456z55m"))


def test_seven_pairs_only_by_switch_rules_7() -> None:
    """docs/rules.md §7: 七對子 is not a win in the parlor; with the switch, seven distinct pairs."""
    hand = H("1155m2288p3399s11z")
    assert not is_complete(hand) and arrangements(hand) == []
    assert is_complete(hand, seven_pairs=True)
    [arr] = arrangements(hand, seven_pairs=True)
    assert arr.shape is Shape.SEVEN_PAIRS and len(arr.groups) == 7 and arr.pair is None


def test_four_of_a_kind_is_not_two_pairs() -> None:
    """七對子 needs seven distinct pairs: 1111m is not two pairs."""
    hand = H("1111m2288p3399s11z")
    assert not is_complete(hand, seven_pairs=True)
    assert arrangements(hand, seven_pairs=True) == []


def test_both_regular_and_seven_pairs() -> None:
    """112233m445566p77s is both four sets + pair and seven pairs: both arrangements."""
    shapes = [a.shape for a in arrangements(H("112233m445566p77s"), seven_pairs=True)]
    assert shapes == [Shape.REGULAR, Shape.SEVEN_PAIRS]


def test_thirteen_tile_hand_is_not_complete() -> None:
    """A 13-tile hand is never complete; a 12- or 15-tile hand is an error."""
    assert not is_complete(H("123m456p789s1122z"))
    assert arrangements(H("123m456p789s1122z")) == []
    with pytest.raises(InvalidHandError):
        is_complete(Hand(tuple(parse_tiles("123m456p789s122z"))))
    with pytest.raises(InvalidHandError):
        arrangements(Hand(tuple(parse_tiles("11111m456p789s122z"))))


def test_counts_api_edge_cases() -> None:
    """is_complete_counts: wrong totals, counts outside 0-4 give False; non-integers raise."""
    assert is_complete_counts(counts34(parse_tiles("123m11z")), 3)
    assert not is_complete_counts(counts34(parse_tiles("123m11z")), 2)
    assert not is_complete_counts([5] + [0] * 33)
    assert not is_complete_counts([2, 0, 0, 0, 0, 0, 0, 1, 5] + [0] * 25)  # 5 aliases 1+0
    assert not is_complete_counts([0] * 33 + [-1])
    assert not is_complete_counts([2] + [0] * 32)
    with pytest.raises(InvalidHandError):
        is_complete_counts([0.5] * 34)  # type: ignore[list-item]


def brute_complete(counts: list[int], melds: int) -> bool:
    """Slow reference: try every pair, then peel sets off the lowest tile."""

    def sets(c: list[int], need: int) -> bool:
        i = next((j for j in range(34) if c[j]), None)
        if i is None:
            return need == 0
        if need == 0:
            return False
        if c[i] >= 3:
            c[i] -= 3
            ok = sets(c, need - 1)
            c[i] += 3
            if ok:
                return True
        if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
            for j in (i, i + 1, i + 2):
                c[j] -= 1
            ok = sets(c, need - 1)
            for j in (i, i + 1, i + 2):
                c[j] += 1
            return ok
        return False

    if sum(counts) != 14 - 3 * melds:
        return False
    for p in range(34):
        if counts[p] >= 2:
            counts[p] -= 2
            ok = sets(counts, 4 - melds)
            counts[p] += 2
            if ok:
                return True
    return False


def random_complete(rng: random.Random, sets: int) -> list[int]:
    """A random complete concealed part (sets + pair), counts at most 4."""
    while True:
        c = [0] * 34
        p = rng.randrange(34)
        c[p] = 2
        ok = True
        for _ in range(sets):
            if rng.random() < 0.6:
                s = rng.randrange(3) * 9 + rng.randrange(7)
                tiles = [s, s + 1, s + 2]
            else:
                tiles = [rng.randrange(34)] * 3
            for t in tiles:
                c[t] += 1
            ok = ok and max(c) <= 4
        if ok:
            return c


def test_win_detection_matches_brute_force() -> None:
    """Fast win detection == slow reference on 6,000 seeded near-complete and random hands."""
    rng = random.Random(99)
    wall = [t for t in range(34) for _ in range(4)]
    for i in range(6000):
        k = i % 5 if i % 3 else 0
        if i % 2:
            c = random_complete(rng, 4 - k)
            for _ in range(rng.choice((0, 1))):
                out = rng.choice([t for t in range(34) if c[t]])
                c[out] -= 1
                c[rng.choice([t for t in range(34) if c[t] < 4])] += 1
        else:
            c = counts34(rng.sample(wall, 14 - 3 * k))
        assert is_complete_counts(c, k, thirteen_orphans=False) == brute_complete(c, k), (c, k)
        assert is_complete_counts(c, k) == (
            brute_complete(c, k)
            or bool(
                k == 0
                and all(c[t] for t in (0, 8, 9, 17, 18, 26, *range(27, 34)))
                and sum(c) == 14
                and sum(c[t] for t in (0, 8, 9, 17, 18, 26, *range(27, 34))) == 14
            )
        )


@st.composite
def complete_hands(draw: st.DrawFn) -> Hand:
    """Random complete hands with 0-4 declared melds (property tests)."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    k = draw(st.integers(0, 4))
    c = random_complete(rng, 4)
    tiles = [Tile(t) for t in range(34) for _ in range(c[t])]
    # declare k of the sets as melds: re-split the concealed part
    arr = arrangements(Hand(tuple(tiles)))[0]
    melds = []
    from hkmahjong.hand import Meld, MeldKind

    concealed = list(tiles)
    for g in arr.sets[:k]:
        kind = MeldKind.CHOW if g.kind is GroupKind.CHOW else MeldKind.PUNG
        melds.append(Meld(kind, g.first))
        for t in g.tiles:
            concealed.remove(t)
    return Hand(tuple(concealed), tuple(melds))


@settings(max_examples=150, deadline=None)
@given(complete_hands())
def test_arrangement_tiles_sum_to_the_hand(hand: Hand) -> None:
    """Every arrangement's tiles are exactly the hand's tiles, melds included (property)."""
    arrs = arrangements(hand)
    assert arrs and is_complete(hand)
    everything = sorted(hand.concealed + tuple(t for m in hand.melds for t in m.tiles))
    for arr in arrs:
        assert isinstance(arr, Arrangement)
        assert list(arr.tiles) == everything
        assert sum(1 for g in arr.groups if g.declared) == len(hand.melds)
        assert arr.groups[-1].kind is GroupKind.PAIR


@settings(max_examples=150, deadline=None)
@given(complete_hands(), st.data())
def test_adding_a_wait_completes(hand: Hand, data: st.DataObject) -> None:
    """Remove any tile from a complete hand: it is ready, and adding any wait completes it."""
    tile = data.draw(st.sampled_from(sorted(set(hand.concealed))))
    ready = hand.remove(tile)
    ws = waits(ready)
    assert tile in ws
    for w in ws:
        assert is_complete(ready.add(w))
    for t in set(range(34)) - set(ws):
        if ready.all_counts()[t] < 4:
            assert not is_complete(ready.add(Tile(t)))
