"""The fast route ranking (planner.value_route / discard_routes) against the plain route list.

``routes._route_specs`` lists every route of a hand the simple way (a shanten call per route);
the planner's fast path ranks the routes of all candidate discards of a decision from shared
per-suit tables. Both must name the same best route with the same rank (bit for bit: the bots'
choices and candidate scores depend on it), and the same shanten.
"""

from __future__ import annotations

import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from hkmahjong.bots import evaluate, routes
from hkmahjong.bots.base import Situation
from hkmahjong.bots.evaluate import shanten_all, useful_count, winning_tiles
from hkmahjong.bots.planner import (
    _rank,
    _spec_gain,
    discard_routes,
    discard_win_shares,
    value_route,
)
from hkmahjong.bots.routes import Route, RouteContext, make_route
from hkmahjong.hand import Meld, MeldKind
from hkmahjong.rules import FanId, get_preset
from hkmahjong.tiles import Tile, Wind, thirteen_orphans_shanten

PRESETS = {n: get_preset(n) for n in ("parlor", "qingzhang", "ml")}


def reference_route(s: Situation, counts: list[int], steps: float) -> tuple[float, Route]:
    """The route rank as the planner computed it before the fast path: every spec of
    ``routes._route_specs``, ranked one by one, the first of the best."""
    ctx = s.route_ctx
    r = ctx.ruleset
    min_fan = r.min_fan
    shares = discard_win_shares(r)
    unit = (
        _spec_gain(min_fan, min_fan + (r.fan_value(FanId.SELF_DRAWN) or 0), r, shares)
        if steps
        else 1.0
    )
    best: tuple[float, routes.RouteSpec] | None = None
    for spec in routes._route_specs(counts, ctx, ctx.static):
        rank = _rank(spec[0], spec[1], spec[2], min_fan)
        if steps and spec[2] >= min_fan:
            gain = _spec_gain(spec[1] if spec[1] >= min_fan else None, spec[2], r, shares)
            rank += 10.0 * steps * math.log2(max(gain / unit, 1e-9))
        if best is None or rank > best[0]:
            best = (rank, spec)
    assert best is not None
    return best[0], make_route(best[1])


_MELDS = st.one_of(
    st.builds(lambda t: Meld(MeldKind.PUNG, Tile(t)), st.integers(0, 33)),
    st.builds(lambda t: Meld(MeldKind.KONG, Tile(t)), st.integers(0, 33)),
    st.builds(lambda t: Meld(MeldKind.CONCEALED_KONG, Tile(t)), st.integers(0, 33)),
    st.builds(
        lambda s, r: Meld(MeldKind.CHOW, Tile(9 * s + r), 1), st.integers(0, 2), st.integers(0, 6)
    ),
)


@st.composite
def situations(draw: st.DrawFn) -> tuple[Situation, list[int]]:
    """A seat's situation with 14 - 3k concealed tiles (k melds), tiles leaning to one suit or
    the honours now and then, so flush, 對對糊 and 番牌 routes all come up."""
    ruleset = PRESETS[draw(st.sampled_from(sorted(PRESETS)))]
    melds = draw(st.lists(_MELDS, max_size=4))
    counts = [0] * 34
    for m in melds:
        for t in m.tiles:
            counts[t] += 1
    if any(n > 4 for n in counts):
        melds = []
        counts = [0] * 34
    held = [0] * 34
    size = 14 - 3 * len(melds)
    lean = draw(st.sampled_from([None, 0, 1, 2, 3]))
    weights = [
        (6 if lean is not None and (t // 9 if t < 27 else 3) == lean else 1) for t in range(34)
    ]
    pool = [t for t in range(34) for _ in range(4 - counts[t]) for _ in range(weights[t])]
    rnd = random.Random(draw(st.integers(0, 2**32)))
    while sum(held) < size:
        t = rnd.choice(pool)
        if counts[t] + held[t] < 4:
            held[t] += 1
    seat = draw(st.sampled_from(list(Wind)))
    prevailing = draw(st.sampled_from(list(Wind)))
    bonus = tuple(Tile(t) for t in draw(st.sets(st.integers(34, 41), max_size=3)))
    ctx = RouteContext(ruleset, seat, prevailing, tuple(melds), bonus)
    s = Situation(None, held, tuple(melds), [4] * 34, ctx)  # type: ignore[arg-type]
    return s, held


FLAGS = {"seven_pairs", "thirteen"}


@settings(max_examples=600, deadline=None)
@given(situations(), st.sampled_from([0.0, 0.27, 0.6, 1.3]))
def test_discard_routes_match_the_route_list(
    sit: tuple[Situation, list[int]], steps: float
) -> None:
    s, counts = sit
    tiles = [t for t in range(34) if counts[t]]
    got = discard_routes(s, counts, tiles, steps)
    r = s.route_ctx.ruleset
    for t, (rank, route, plain) in zip(tiles, got, strict=True):
        counts[t] -= 1
        want = reference_route(s, counts, steps)
        sh = shanten_all(
            counts,
            len(s.melds),
            seven_pairs=r.seven_pairs,
            thirteen=r.plays(FanId.THIRTEEN_ORPHANS),
        )
        assert value_route(s, counts, steps) == want
        counts[t] += 1
        assert (rank, route) == want
        assert plain == sh


@settings(max_examples=400, deadline=None)
@given(situations(), st.integers(-1, 6), st.booleans(), st.booleans())
def test_useful_count_matches_the_tile_by_tile_scan(
    sit: tuple[Situation, list[int]], base: int, seven: bool, thirteen: bool
) -> None:
    """``useful_count`` from per-suit tables equals trying each unseen tile with a shanten."""
    s, counts = sit
    rnd = random.Random(sum(i * n for i, n in enumerate(counts)))
    unseen = [max(0, 4 - n - rnd.randrange(3)) for n in counts]
    flags = {"seven_pairs": seven, "thirteen": thirteen}
    m = len(s.melds)
    for t in [t for t in range(34) if counts[t]]:
        counts[t] -= 1
        sh = shanten_all(counts, m, **flags)
        for b in (sh, base):
            special = m == 0 and (
                (thirteen and thirteen_orphans_shanten(counts) - 1 < b)
                or (seven and evaluate._seven_pairs_shanten(counts) - 1 < b)
            )
            want = evaluate._useful_scan(counts, m, unseen, b, special, flags)
            assert useful_count(counts, m, unseen, b, **flags) == want
        counts[t] += 1


@settings(max_examples=400, deadline=None)
@given(situations(), st.booleans(), st.booleans())
def test_winning_tiles_are_the_tiles_that_complete_the_hand(
    sit: tuple[Situation, list[int]], seven: bool, thirteen: bool
) -> None:
    """``winning_tiles`` names every tile, and only those, with which ``shanten_all`` is -1
    (checked on each 13-tile hand after a discard, ready or not; a fifth copy is no tile)."""
    s, counts = sit
    m = len(s.melds)
    for t in [t for t in range(34) if counts[t]]:
        counts[t] -= 1
        want = []
        for w in range(34):
            if counts[w] == 4:
                continue  # no fifth copy
            counts[w] += 1
            if shanten_all(counts, m, seven_pairs=seven, thirteen=thirteen) < 0:
                want.append(w)
            counts[w] -= 1
        assert winning_tiles(counts, m, seven_pairs=seven, thirteen=thirteen) == want
        counts[t] += 1


def test_winning_tiles_of_the_special_shapes() -> None:
    """七對子 and 十三幺 waits, which the regular tables do not see."""
    pairs = [0] * 34
    for t in (0, 0, 4, 4, 9, 9, 13, 13, 20, 20, 30, 30, 33):
        pairs[t] += 1
    assert winning_tiles(pairs, 0, seven_pairs=True) == [33]
    assert winning_tiles(pairs, 0, seven_pairs=False) == []
    orphans = [0] * 34
    for t in (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33):
        orphans[t] += 1
    assert winning_tiles(orphans, 0) == [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
    assert winning_tiles(orphans, 0, thirteen=False) == []


@st.composite
def ready_hands(draw: st.DrawFn) -> tuple[list[int], int, int, bool]:
    """A ready hand: a complete one (sets and a pair, or 七對子 now and then) less one tile;
    with its meld count, the tile taken out and whether it was 七對子."""
    melds = draw(st.integers(0, 4))
    rnd = random.Random(draw(st.integers(0, 2**32)))
    while True:
        counts = [0] * 34
        pairs = melds == 0 and rnd.random() < 0.2
        if pairs:
            for t in rnd.sample(range(34), 7):
                counts[t] += 2
        else:
            for _ in range(4 - melds):
                if rnd.random() < 0.5:
                    counts[rnd.randrange(34)] += 3
                else:
                    first = 9 * rnd.randrange(3) + rnd.randrange(7)
                    for t in (first, first + 1, first + 2):
                        counts[t] += 1
            counts[rnd.randrange(34)] += 2
        if max(counts) <= 4:
            break
    out = rnd.choice([t for t in range(34) if counts[t]])
    counts[out] -= 1
    return counts, melds, out, pairs


@settings(max_examples=400, deadline=None)
@given(ready_hands(), st.booleans())
def test_winning_tiles_of_ready_hands(hand: tuple[list[int], int, int, bool], seven: bool) -> None:
    """On ready hands, with the tile that was taken out among the waits."""
    counts, m, out, pairs = hand
    want = []
    for w in range(34):
        if counts[w] < 4:
            counts[w] += 1
            if shanten_all(counts, m, seven_pairs=seven) < 0:
                want.append(w)
            counts[w] -= 1
    got = winning_tiles(counts, m, seven_pairs=seven)
    assert got == want
    if seven or not pairs:
        assert out in got
