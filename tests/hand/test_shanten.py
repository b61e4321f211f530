"""Shanten, waits and useful tiles (docs/rules.md §7; the exact definition in docs/hand.md)."""

from __future__ import annotations

import itertools
import random

import pytest

from hkmahjong.errors import InvalidHandError
from hkmahjong.hand import (
    Hand,
    Meld,
    MeldKind,
    ShantenResult,
    discard_shanten,
    is_complete_counts,
    shanten,
    shanten_counts,
    shanten_detail,
    useful_after_discard,
    useful_tiles,
    waits,
)
from hkmahjong.hand._profile import combine, suit_profile
from hkmahjong.hand.shanten import _orphans_distance, _pairs_distance
from hkmahjong.tiles import KINDS, Tile, counts34, parse_tiles

H = Hand.from_text


def test_basic_values() -> None:
    """-1 complete, 0 ready (聽牌), then the number of tiles still missing minus one."""
    assert shanten(H("123m456p789s11122z")) == -1
    assert shanten(H("123m456p789s1122z")) == 0
    assert shanten(H("123m456p789s1234z")) == 2
    assert shanten(H("147m258p369s1234z"), thirteen_orphans=False) == 8
    assert shanten(H("147m258p369s1234z")) == 7  # 十三幺: 1m 9s 1234z present


def test_fifth_copy_wait_does_not_count() -> None:
    """The issue's edge case: 333m 444p 333s 8888s is not ready — its wait would be a fifth 8s."""
    hand = H("333m 444p 333s 8888s")
    assert shanten(hand) == 1
    assert waits(hand) == []
    assert shanten_counts(counts34(parse_tiles("333m444p333s8888s"))) == 1


def test_meld_copies_cap_the_waits() -> None:
    """A wait on a tile whose other three copies are in a declared pung is no wait."""
    hand = H("1m [111m] [222p] [333s] [444s]")
    assert shanten(hand) == 1 and waits(hand) == []
    # the counts form knows nothing of the meld tiles
    assert shanten_counts(counts34(parse_tiles("1m")), 4) == 0
    assert waits(H("5z [111m] [222p] [333s] [444s]")) == [Tile.WHITE]


def test_thirteen_orphans_rules_7() -> None:
    """docs/rules.md §7 十三幺: thirteen-sided wait; none with melds."""
    hand = H("19m19p19s1234567z")
    assert shanten(hand) == 0
    assert waits(hand) == [Tile(t) for t in (0, 8, 9, 17, 18, 26, *range(27, 34))]
    assert shanten(hand, thirteen_orphans=False) == 8
    assert shanten_detail(H("19m19p19s123456z5m")).thirteen_orphans == 1
    assert shanten_detail(H("19m19p19s123z 5m [555z]")).thirteen_orphans is None


def test_seven_pairs_by_switch_rules_7() -> None:
    """docs/rules.md §7: 七對子 counts only with the switch; four of a kind is not two pairs."""
    hand = H("1155m2288p3399s1z")
    assert shanten(hand) > 0
    assert shanten(hand, seven_pairs=True) == 0
    assert waits(hand, seven_pairs=True) == [Tile.EAST]
    assert shanten(H("1111m2288p3399s1z"), seven_pairs=True) == 2  # 1111m is one pair
    detail = shanten_detail(hand, seven_pairs=True)
    assert detail == ShantenResult(0, detail.regular, detail.thirteen_orphans, 0)
    assert shanten_detail(hand).seven_pairs is None


def test_fourteen_tile_shanten_is_best_discard() -> None:
    """A 14-tile hand's shanten is the best 13-tile shanten after one discard (or -1)."""
    rng = random.Random(5)
    wall = [t for t in range(34) for _ in range(4)]
    for _ in range(300):
        hand = Hand(tuple(Tile(t) for t in rng.sample(wall, 14)))
        per = discard_shanten(hand)
        if shanten(hand) >= 0:
            assert shanten(hand) == min(per.values())


def test_waits_and_useful_tiles() -> None:
    """Useful tiles (有效牌) with unseen copies: 4 − held − visible."""
    hand = H("123m456p789s1122z")
    assert waits(hand) == [Tile.EAST, Tile.SOUTH]
    assert useful_tiles(hand) == {Tile.EAST: 2, Tile.SOUTH: 2}
    assert useful_tiles(hand, counts34(parse_tiles("1z1z2z"))) == {Tile.EAST: 0, Tile.SOUTH: 1}
    two = H("139m456p789s1122z5z")
    after = useful_after_discard(two)
    assert set(after) == set(two.concealed)
    assert after[Tile.WHITE] == useful_tiles(H("139m456p789s1122z"))
    per = discard_shanten(two)
    best = [d for d in per if per[d] == min(per.values())]
    assert Tile.WHITE in best and Tile.M9 in best
    union = {t: n for d in best for t, n in after[d].items()}
    assert useful_tiles(two) == dict(sorted(union.items()))


def test_useful_tiles_lower_shanten() -> None:
    """Each useful tile lowers the shanten; every other drawable tile does not (random hands)."""
    rng = random.Random(11)
    wall = [t for t in range(34) for _ in range(4)]
    for _ in range(60):
        hand = Hand(tuple(Tile(t) for t in rng.sample(wall, 13)))
        s = shanten(hand)
        useful = useful_tiles(hand)
        for t in KINDS:
            if hand.all_counts()[t] < 4:
                assert (shanten(hand.add(t)) < s) == (t in useful)


def test_errors() -> None:
    """Bad input raises InvalidHandError saying what is wrong."""
    with pytest.raises(InvalidHandError, match="waits need a 13-tile hand"):
        waits(H("123m456p789s11122z"))
    with pytest.raises(InvalidHandError, match="14-tile hand"):
        useful_after_discard(H("123m456p789s1122z"))
    with pytest.raises(InvalidHandError, match=r"impossible|cannot analyse"):
        shanten(Hand(tuple(parse_tiles("123m456p789s122z"))))
    good = counts34(parse_tiles("123m456p789s1122z"))
    for bad, fragment in [
        (good[:33], "34 entries"),
        ([5, *good[1:]], "outside 0-4"),
        ([-1, *good[1:]], "outside 0-4"),
        (counts34(parse_tiles("123m456p789s122z")), "expected 13 or 14"),
    ]:
        with pytest.raises(InvalidHandError, match=fragment):
            shanten_counts(bad)
    with pytest.raises(InvalidHandError, match="meld_count"):
        shanten_counts(good, 5)
    with pytest.raises(InvalidHandError, match="visible"):
        useful_tiles(H("123m456p789s1122z"), [0] * 5)


# --- the capped (declared melds) path against a brute-force whole-hand oracle ----------------

_SETS = [(t, t, t) for t in range(34)] + [
    (s * 9 + r, s * 9 + r + 1, s * 9 + r + 2) for s in range(3) for r in range(7)
]


def oracle_distance(concealed: list[int], held_in_melds: list[int], sets_needed: int) -> int:
    """min over complete targets (sets + pair, counts with melds <= 4) of tiles missing."""
    best = 99
    for combo in itertools.combinations_with_replacement(range(len(_SETS)), sets_needed):
        base = list(held_in_melds)
        for i in combo:
            for t in _SETS[i]:
                base[t] += 1
        if max(base) > 4:
            continue
        for p in range(34):
            if base[p] + 2 > 4:
                continue
            missing = 0
            for t in range(34):
                want = base[t] - held_in_melds[t] + (2 if t == p else 0)
                if want > concealed[t]:
                    missing += want - concealed[t]
            best = min(best, missing)
    return best


def random_melds(rng: random.Random, k: int, counts: list[int]) -> list[Meld]:
    melds: list[Meld] = []
    while len(melds) < k:
        kind = rng.choice([MeldKind.PUNG, MeldKind.CHOW, MeldKind.KONG, MeldKind.CONCEALED_KONG])
        if kind is MeldKind.CHOW:
            first = rng.randrange(3) * 9 + rng.randrange(7)
            tiles = [first, first + 1, first + 2]
        else:
            first = rng.randrange(34)
            tiles = [first] * (3 if kind is MeldKind.PUNG else 4)
        if all(counts[t] + tiles.count(t) <= 4 for t in tiles):
            for t in tiles:
                counts[t] += 1
            melds.append(Meld(kind, Tile(first)))
    return melds


@pytest.mark.parametrize("k", [3, 4])
def test_capped_shanten_matches_oracle(k: int) -> None:
    """Hands with declared melds (tiles of one kind shared with the concealed part): exact."""
    rng = random.Random(1000 + k)
    for _ in range(150 if k == 3 else 300):
        held = [0] * 34
        melds = random_melds(rng, k, held)
        pool = [t for t in range(34) for _ in range(4 - held[t])]
        # bias towards the meld tiles so the caps matter
        near = [t for t in pool if held[t]] * 3 + pool
        size = rng.choice((13, 14)) - 3 * k
        concealed: list[int] = []
        while len(concealed) < size:
            t = rng.choice(near)
            if held[t] + concealed.count(t) < 4:
                concealed.append(t)
        hand = Hand(tuple(Tile(t) for t in concealed), tuple(melds))
        expected = oracle_distance(counts34(concealed), held, 4 - k) - 1
        assert shanten(hand) == expected, hand


def test_two_meld_hands_match_oracle() -> None:
    """A few two-meld hands against the (slower) oracle."""
    rng = random.Random(77)
    for _ in range(12):
        held = [0] * 34
        melds = random_melds(rng, 2, held)
        pool = [t for t in range(34) for _ in range(4 - held[t])]
        concealed = rng.sample(pool, 7)
        hand = Hand(tuple(Tile(t) for t in concealed), tuple(melds))
        assert shanten(hand) == oracle_distance(counts34(concealed), held, 2) - 1, hand


def dp_shanten(c: list[int], k: int, seven_pairs: bool, orphans: bool) -> int:
    """Shanten from the per-suit dynamic programme (no tables) and the special-shape formulas."""
    prof = suit_profile(tuple(c[0:9]), (4,) * 9, True)
    for lo, hi in ((9, 18), (18, 27)):
        prof = combine(prof, suit_profile(tuple(c[lo:hi]), (4,) * 9, True))
    prof = combine(prof, suit_profile(tuple(c[27:34]), (4,) * 7, False))
    best = prof[2 * (4 - k) + 1]
    if k == 0 and orphans:
        best = min(best, _orphans_distance(c))
    if k == 0 and seven_pairs:
        best = min(best, _pairs_distance(c))
    return best - 1


def test_fast_path_matches_dynamic_programming() -> None:
    """The table path equals the per-suit DP on random hands, with every shape switch."""
    rng = random.Random(3)
    wall = [t for t in range(34) for _ in range(4)]
    orphans = [t for t in wall if Tile(t).is_orphan]
    for i in range(1500):
        k = i % 4 if i % 3 else 0
        pool = orphans if i % 5 == 0 else wall
        c = counts34(rng.sample(pool, rng.choice((13, 14)) - 3 * k))
        for sp, to in ((False, False), (True, True), (True, False), (False, True)):
            expected = dp_shanten(c, k, sp, to)
            assert shanten_counts(c, k, seven_pairs=sp, thirteen_orphans=to) == expected, c
        assert (shanten_counts(c, k) == -1) == is_complete_counts(c, k)


def test_one_suit_hands_match_dynamic_programming() -> None:
    """清一色-like hands (10-14 tiles of one suit: the index path, not the small-suit lookup)."""
    rng = random.Random(17)
    for i in range(600):
        suit = rng.randrange(3) * 9
        pool = [suit + r for r in range(9) for _ in range(4)]
        size = rng.choice((13, 14))
        own = rng.randrange(10, size + 1)
        tiles = rng.sample(pool, own) + rng.sample(
            [t for t in range(27, 34) for _ in range(4)], size - own
        )
        c = counts34(tiles)
        assert shanten_counts(c, seven_pairs=i % 2 == 0) == dp_shanten(c, 0, i % 2 == 0, True), c
