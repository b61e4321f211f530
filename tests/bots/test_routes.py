"""Route planning and the bots' shanten: distances exact, fan read from the ruleset.

docs/rules.md §8: 番牌 (dragon / seat / prevailing wind pungs), 混一色 3, 清一色 7, 對對糊 3 in the parlor;
the ``ml`` preset has no 門前清 (seed 002). Values are taken from the presets, never restated.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hkmahjong.bots.base import Situation
from hkmahjong.bots.evaluate import pung_shanten, regular_shanten, shanten_all, suit_mask
from hkmahjong.bots.planner import best_route, route_rank, value_route
from hkmahjong.bots.routes import RouteContext, plan_routes, value_honours
from hkmahjong.hand import Hand, shanten_counts
from hkmahjong.rules import FanId, get_preset
from hkmahjong.tiles import Tile, Wind, counts34, parse_tiles


def _counts(text: str) -> list[int]:
    return counts34(parse_tiles(text))


@st.composite
def _hands(draw: st.DrawFn) -> tuple[list[int], int]:
    melds = draw(st.integers(0, 3))
    size = 13 - 3 * melds + draw(st.integers(0, 1))
    pool = [t for t in range(34) for _ in range(4)]
    picked = draw(st.permutations(pool))[:size]
    counts = [0] * 34
    for t in picked:
        counts[t] += 1
    return counts, melds


@settings(max_examples=300, deadline=None)
@given(_hands())
def test_shanten_matches_the_hand_package(hand: tuple[list[int], int]) -> None:
    """The bots' fast shanten equals hkmahjong.hand.shanten_counts on 13/14-tile hands.

    The one allowed difference: the hand package does not count a wait on a fifth copy (all
    four in the hand); the bots' estimate may then be one lower.
    """
    counts, melds = hand
    mine, exact = shanten_all(counts, melds), shanten_counts(counts, melds)
    if 4 in counts:
        assert exact - 1 <= mine <= exact
    else:
        assert mine == exact


def test_partial_hands_count_missing_tiles() -> None:
    """A masked hand needs the removed tiles back: 12345m + 11z alone is 6 from ready."""
    masked = suit_mask(_counts("12345m456p789s11z"), 0, honours=True)
    assert regular_shanten(masked, 0) == 6
    assert pung_shanten(_counts("111m222p33s44s55z6z"), 0) == 1  # 3 pungs + 3 pairs: one away


def _ctx(preset: str, melds: str = "", seat: Wind = Wind.SOUTH) -> RouteContext:
    hand = Hand.from_text(f"1m{melds}", allow_any_count=True) if melds else None
    return RouteContext(
        get_preset(preset), seat, Wind.EAST, hand.melds if hand else (), (Tile.ORCHID,)
    )


def _best(routes: list, name: str) -> tuple[int, int, int]:  # type: ignore[type-arg]
    found = [r for r in routes if r.name == name]
    assert found, [r.name for r in routes]
    r = min(found, key=lambda r: r.distance)
    return r.distance, r.fan_discard, r.fan_self


def test_route_fan_comes_from_the_ruleset() -> None:
    """docs/rules.md §8 混一色 + 番牌: the fan of a route is the preset's value, and follows a change."""
    counts = _counts("1235689p77z11z2z3z")
    parlor = get_preset("parlor")
    ctx = _ctx("parlor")
    routes = plan_routes(counts, ctx)
    seat_bonus = parlor.fan_value(FanId.SEAT_BONUS)  # 蘭 is 南's own flower (正花)
    half = parlor.fan_value(FanId.HALF_FLUSH)
    red = parlor.fan_value(FanId.RED_DRAGON)
    concealed = parlor.fan_value(FanId.CONCEALED_HAND)
    dist, fan_d, fan_s = _best(routes, "混一色p + 中")
    assert fan_d == seat_bonus + half + red + concealed
    assert fan_s == fan_d + parlor.fan_value(FanId.SELF_DRAWN)
    richer = parlor.with_fan({FanId.HALF_FLUSH: 5})
    ctx2 = RouteContext(richer, ctx.seat, ctx.prevailing, ctx.melds, ctx.bonus)
    _, fan_d2, _ = _best(plan_routes(counts, ctx2), "混一色p + 中")
    assert fan_d2 == fan_d - half + 5
    assert dist >= 0


def test_value_honours_double_wind_and_ml_table() -> None:
    """docs/rules.md §8 番牌 風: seat and prevailing wind both → 2 (雙番東); ml has no 門前清."""
    parlor = get_preset("parlor")
    vals = value_honours(parlor, Wind.EAST, Wind.EAST)
    assert vals[int(Tile.EAST)] == parlor.fan_value(FanId.SEAT_WIND) + parlor.fan_value(
        FanId.PREVAILING_WIND
    )
    assert int(Tile.SOUTH) not in vals
    ml_routes = plan_routes(_counts("123456789m1122z"), _ctx("ml"))
    assert get_preset("ml").fan_value(FanId.CONCEALED_HAND) is None
    plain = [r for r in ml_routes if r.name == "雞糊"]
    ml = get_preset("ml")
    assert plain and plain[0].fan_discard == ml.fan_value(FanId.SEAT_BONUS)  # 正花 only


def test_melds_rule_out_routes() -> None:
    """An exposed chow rules out 對對糊; an exposed 1s pung rules out 混一色 of other suits."""
    counts = _counts("11p22p33p44z55z6z")
    routes = plan_routes(counts, _ctx("parlor", melds=" [123s] [111s]"))
    assert not any(r.pungs_only for r in routes)
    assert all(r.suit in (None, 2) for r in routes)


def _situation(preset: str, counts: list[int], seat: Wind = Wind.EAST) -> Situation:
    """東 holding 蘭 (not its own flower: no 正花, no 無花)."""
    ctx = _ctx(preset, seat=seat)
    return Situation(None, counts, (), [4 - n for n in counts], ctx)  # type: ignore[arg-type]


def test_value_route_trades_a_step_for_a_bigger_payout() -> None:
    """docs/rules.md §8 ml (seed 002: 白 pung 1 fan, 混一色 3, relative table 2, 8, 16, 24, 32 …): the
    ``fan`` rank keeps the faster 1-fan 白 route; counting 0.6 steps per doubling of the payout,
    the 混一色 + 白 route one step further (4 fan on a discard: 24 a share instead of 2) wins."""
    counts = _counts("112456m579p44z55z")
    s = _situation("ml", counts)
    _, fast = best_route(s, counts)
    assert (fast.name, fast.distance, fast.fan_discard) == ("白", 2, 1)
    _, rich = value_route(s, counts, 0.6)
    assert (rich.name, rich.distance, rich.fan_discard) == ("混一色m + 白", 3, 4)
    assert value_route(s, counts, 0.0)[1] == fast
    # in the parlor (minimum 3 fan) the 白 route is below the minimum: 混一色 is the route anyway
    parlor = _situation("parlor", counts)
    assert best_route(parlor, counts)[1].name.startswith("混一色m")


@settings(max_examples=150, deadline=None)
@given(_hands(), st.sampled_from(["parlor", "qingzhang", "ml"]))
def test_value_route_is_the_fan_rank_at_zero_and_pays_more_with_more_steps(
    hand: tuple[list[int], int], preset: str
) -> None:
    """``steps`` 0 ranks exactly as ``fan``; more steps per doubling never pick a route that pays
    less (the payout term's weight only grows)."""
    counts, melds = hand
    if melds or sum(counts) != 13:
        return
    s = _situation(preset, counts)
    r = get_preset(preset)
    fan_rank = max(plan_routes(counts, s.route_ctx), key=lambda rt: route_rank(rt, r.min_fan))
    assert value_route(s, counts, 0.0) == (route_rank(fan_rank, r.min_fan), fan_rank)
    paid = []
    for steps in (0.0, 0.3, 0.6, 1.2, 3.0):
        _, route = value_route(s, counts, steps)
        reaches = route.fan_self >= r.min_fan
        paid.append(route.fan_self if reaches else -1)
    reached = [p for p in paid if p >= 0]
    assert reached == sorted(reached)
