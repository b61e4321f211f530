"""Invariants of score_hand on random complete hands (hypothesis), for every preset.

docs/rules.md §8: best arrangement, limit cap, exclusions; the arrangement reported covers the hand.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from hkmahjong.hand import Hand, Meld, MeldKind, arrangements
from hkmahjong.rules import FanId
from hkmahjong.rules.presets import get_preset
from hkmahjong.scoring import WinContext, score_hand
from hkmahjong.scoring.decompose import concealed_decompositions
from hkmahjong.tiles import Tile, Wind

PRESETS = {name: get_preset(name) for name in ("parlor", "qingzhang", "ml", "cuhk")}
NO_LIMIT = dataclasses.replace(get_preset("parlor"), limit=None)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def complete_hands(draw: st.DrawFn) -> Hand:
    """A random complete regular hand: four sets (some declared) and a pair, bonus tiles."""
    counts = [0] * 34
    concealed: list[int] = []
    melds: list[Meld] = []
    for _ in range(4):
        kind = draw(st.sampled_from(["chow", "pung", "pung", "kong"]))
        if kind == "chow":
            first = draw(st.sampled_from([s * 9 + r for s in range(3) for r in range(7)]))
            tiles = [first, first + 1, first + 2]
        else:
            first = draw(st.integers(0, 33))
            tiles = [first] * (4 if kind == "kong" else 3)
        assume(all(counts[t] + tiles.count(t) <= 4 for t in set(tiles)))
        for t in tiles:
            counts[t] += 1
        if kind == "kong":
            mk = draw(st.sampled_from([MeldKind.KONG, MeldKind.CONCEALED_KONG]))
            melds.append(Meld(mk, Tile(first)))
        elif draw(st.booleans()):
            melds.append(Meld(MeldKind.CHOW if kind == "chow" else MeldKind.PUNG, Tile(first)))
        else:
            concealed += tiles
    pair = draw(st.integers(0, 33))
    assume(counts[pair] + 2 <= 4)
    concealed += [pair, pair]
    bonus = draw(st.lists(st.integers(34, 41), unique=True, max_size=3))
    return Hand(tuple(Tile(t) for t in concealed), tuple(melds), tuple(Tile(t) for t in bonus))


contexts = st.builds(
    WinContext,
    self_drawn=st.booleans(),
    seat_wind=st.sampled_from(list(Wind)),
    prevailing_wind=st.sampled_from(list(Wind)),
    last_tile=st.booleans(),
)


def _hand_tiles(hand: Hand) -> list[int]:
    return sorted([*hand.concealed, *(t for m in hand.melds for t in m.tiles)])


@SETTINGS
@given(hand=complete_hands(), ctx=contexts, name=st.sampled_from(sorted(PRESETS)))
def test_complete_hand_is_scored_within_limit(hand: Hand, ctx: WinContext, name: str) -> None:
    """A complete hand is never 'not_complete'; the total never exceeds the limit; uncapped
    totals equal the sum of the items (docs/rules.md §8 cap)."""
    rules = PRESETS[name]
    r = score_hand(hand, ctx, rules)
    assert r.reason in (None, "below_minimum_fan"), (hand, r)
    assert rules.limit is not None
    assert r.total_fan <= rules.limit, (hand, r)
    if not r.is_limit:
        assert r.total_fan == sum(i.fan for i in r.items), (hand, r)
    assert r.valid_win == (r.total_fan >= rules.min_fan)


@SETTINGS
@given(hand=complete_hands(), ctx=contexts)
def test_arrangement_tiles_sum_to_the_hand(hand: Hand, ctx: WinContext) -> None:
    """The reported arrangement uses exactly the hand's tiles (kongs as four)."""
    r = score_hand(hand, ctx, PRESETS["parlor"])
    assert r.arrangement is not None
    assert sorted(r.arrangement.tiles) == _hand_tiles(hand)


@SETTINGS
@given(hand=complete_hands(), ctx=contexts)
def test_no_limit_stacks_at_least_the_capped_total(hand: Hand, ctx: WinContext) -> None:
    """Under no limit the total is never below the capped one (W1 無限番)."""
    capped = score_hand(hand, ctx, PRESETS["parlor"])
    free = score_hand(hand, ctx, NO_LIMIT)
    assert free.total_fan >= capped.total_fan
    assert not free.is_limit


@SETTINGS
@given(hand=complete_hands(), ctx=contexts, name=st.sampled_from(sorted(PRESETS)))
def test_self_draw_and_last_tile_never_lower_the_score(
    hand: Hand, ctx: WinContext, name: str
) -> None:
    """With no other special flag, winning by self-draw or on the last tile adds, never removes."""
    rules = PRESETS[name]
    base = dataclasses.replace(ctx, self_drawn=False, last_tile=False)
    b = score_hand(hand, base, rules).total_fan
    assert score_hand(hand, dataclasses.replace(base, self_drawn=True), rules).total_fan >= b
    assert score_hand(hand, dataclasses.replace(base, last_tile=True), rules).total_fan >= b


@SETTINGS
@given(hand=complete_hands(), ctx=contexts)
def test_unknown_winning_tile_is_the_best_interpretation(hand: Hand, ctx: WinContext) -> None:
    """winning_tile=None scores at least as much as any concrete winning tile (best reading),
    also under the wait-restricting switches (W1 fn.5, W1 fn.22)."""
    rules = dataclasses.replace(
        PRESETS["parlor"],
        all_chows_any_wait=False,
        four_concealed_pungs_single_wait_discard=True,
    )
    best = score_hand(hand, dataclasses.replace(ctx, winning_tile=None), rules).total_fan
    for t in set(hand.concealed):
        got = score_hand(hand, dataclasses.replace(ctx, winning_tile=t), rules).total_fan
        assert got <= best, (hand, t)


@SETTINGS
@given(hand=complete_hands(), ctx=contexts)
def test_text_round_trip_scores_the_same(hand: Hand, ctx: WinContext) -> None:
    """Notation is the API: the hand's text scores exactly like the hand."""
    rules = PRESETS["qingzhang"]
    a = score_hand(hand, ctx, rules)
    b = score_hand(Hand.from_text(hand.text), ctx, rules)
    assert (a.total_fan, a.items) == (b.total_fan, b.items)


@SETTINGS
@given(hand=complete_hands())
def test_decomposition_matches_hand_arrangements(hand: Hand) -> None:
    """The scorer's cached decomposition finds the same regular arrangements as hand.arrangements."""
    conc = tuple(hand.concealed_counts)
    mine = Counter(
        tuple(sorted([(("chow" if k == 0 else "pung"), t) for k, t in sets] + [("pair", p)]))
        for p, sets in concealed_decompositions(conc)
    )
    theirs = Counter(
        tuple(sorted((g.kind.value, int(g.first)) for g in arr.groups if not g.declared))
        for arr in arrangements(hand)
        if arr.shape.value == "regular"
    )
    assert mine == theirs, hand


def test_limit_hand_under_no_limit_stacks() -> None:
    """W1 無限番: a limit hand counts its listed value and stacks (字一色 + 番牌)."""
    hand = Hand.from_text("111z222z333z55z [777z] 3f")
    r = score_hand(hand, WinContext(), NO_LIMIT)
    assert r.fan_of(FanId.ALL_HONOURS) == 10 and r.total_fan == 13 and not r.is_limit


DOUBLED = dataclasses.replace(
    NO_LIMIT, fan=type(NO_LIMIT.fan)({f: 2 * v for f, v in NO_LIMIT.fan.items()})
)


@SETTINGS
@given(hand=complete_hands(), ctx=contexts)
def test_values_come_only_from_the_ruleset(hand: Hand, ctx: WinContext) -> None:
    """Doubling every value of the fan table doubles every item and the total (no value is
    hard-coded in the calculator; docs/dev/architecture.md practice 4)."""
    a = score_hand(hand, ctx, NO_LIMIT)
    b = score_hand(hand, ctx, DOUBLED)
    assert b.total_fan == 2 * a.total_fan
    assert [(i.fan_id, 2 * i.fan) for i in a.items] == [(i.fan_id, i.fan) for i in b.items]


any_contexts = st.builds(
    WinContext,
    self_drawn=st.booleans(),
    seat_wind=st.sampled_from(list(Wind)),
    prevailing_wind=st.sampled_from(list(Wind)),
    winning_tile=st.none() | st.sampled_from(list(Tile)),
    robbing_kong=st.booleans(),
    last_tile=st.booleans(),
    kong_replacement=st.booleans(),
    double_kong_replacement=st.booleans(),
    bonus_replacement=st.booleans(),
    heavenly=st.booleans(),
    earthly=st.booleans(),
    first_go_around=st.booleans(),
    seven_bonus=st.booleans(),
    eight_bonus=st.booleans(),
)


@st.composite
def any_hands(draw: st.DrawFn) -> Hand:
    """Arbitrary, possibly impossible hands (any count, fifth copies, bonus tiles)."""
    concealed = draw(st.lists(st.sampled_from(list(Tile)[:34]), max_size=16))
    kinds = [MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG, MeldKind.CONCEALED_KONG]
    melds = draw(
        st.lists(
            st.builds(
                Meld,
                st.sampled_from(kinds[1:]),
                st.sampled_from(list(Tile)[:34]),
            )
            | st.builds(Meld, st.just(MeldKind.CHOW), st.sampled_from([Tile(i) for i in range(7)])),
            max_size=5,
        )
    )
    bonus = draw(st.lists(st.sampled_from(list(Tile)[34:]), max_size=9))
    return Hand(tuple(concealed), tuple(melds), tuple(bonus))


@settings(max_examples=400, deadline=None)
@given(hand=any_hands(), ctx=any_contexts, name=st.sampled_from(sorted(PRESETS)))
def test_score_hand_never_raises(hand: Hand, ctx: WinContext, name: str) -> None:
    """Bad input is a result with a reason, never a crash (house rules: clear errors)."""
    r = score_hand(hand, ctx, PRESETS[name])
    assert r.valid_win or r.reason is not None
    if r.valid_win:
        assert r.total_fan >= PRESETS[name].min_fan
