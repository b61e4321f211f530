"""Hand evaluation shared by the bots: 13-tile states scored by efficiency or by fan routes."""

from __future__ import annotations

import math

from hkmahjong.bots.base import Situation
from hkmahjong.bots.evaluate import pung_shanten, shanten_all, useful_count
from hkmahjong.bots.routes import Route, RouteSpec, make_route, route_specs
from hkmahjong.rules import FanId, Ruleset
from hkmahjong.rules.memo import IdentityMemo
from hkmahjong.scoring.payment import share_for

__all__ = [
    "best_route",
    "discard_win_shares",
    "efficiency",
    "route_rank",
    "route_waits",
    "value_route",
]


def efficiency(s: Situation, counts: list[int], meld_count: int) -> tuple[int, int]:
    """(shanten, useful copies unseen) of a 13-tile state (fan ignored)."""
    r = s.route_ctx.ruleset
    flags = {"seven_pairs": r.seven_pairs, "thirteen": r.plays(FanId.THIRTEEN_ORPHANS)}
    sh = shanten_all(counts, meld_count, **flags)
    _, copies = useful_count(counts, meld_count, s.unseen, sh, **flags)
    return sh, copies


def route_rank(route: Route, min_fan: int) -> float:
    """番路 rank for the ``fan`` bot: distance first (toward a hand worth the minimum), then fan."""
    return _rank(route.distance, route.fan_discard, route.fan_self, min_fan)


def _rank(distance: int, fan_discard: int, fan_self: int, min_fan: int) -> float:
    if fan_discard >= min_fan:
        penalty = 0.0
    elif fan_self >= min_fan:
        penalty = 1.5
    else:
        penalty = 6.0 + 2.0 * (min_fan - fan_self)
    return -10.0 * (distance + penalty) + 0.3 * min(fan_discard, min_fan + 5)


def best_route(s: Situation, counts: list[int]) -> tuple[float, Route]:
    """The best route of a 13-tile state by :func:`route_rank`, with its rank."""
    return value_route(s, counts, 0.0)


def value_route(s: Situation, counts: list[int], steps: float) -> tuple[float, Route]:
    """The best route by :func:`route_rank` plus ``steps`` distance steps per doubling of what
    the route pays over a minimum-fan win (speed vs value: 0 ranks exactly as ``fan``)."""
    r = s.route_ctx.ruleset
    min_fan = r.min_fan
    shares = discard_win_shares(r)
    unit = (
        _spec_gain(min_fan, min_fan + (r.fan_value(FanId.SELF_DRAWN) or 0), r, shares)
        if steps
        else 1.0
    )
    best: tuple[float, RouteSpec] | None = None
    for spec in route_specs(counts, s.route_ctx):
        rank = _rank(spec[0], spec[1], spec[2], min_fan)
        if steps and spec[2] >= min_fan:
            gain = _spec_gain(spec[1] if spec[1] >= min_fan else None, spec[2], r, shares)
            rank += 10.0 * steps * math.log2(max(gain / unit, 1e-9))
        if best is None or rank > best[0]:
            best = (rank, spec)
    assert best is not None
    return best[0], make_route(best[1])


def _spec_gain(fan_discard: int | None, fan_self: int, r: Ruleset, shares: int) -> float:
    """Jade a win earns: all 自摸 (``fan_discard`` None: not a valid win on a discard), or a
    40/60 mix of the 自摸 and the discard win."""
    gain = 3 * _share(fan_self, r)
    if fan_discard is not None:
        gain = 0.4 * gain + 0.6 * shares * _share(fan_discard, r)
    return gain


def route_waits(s: Situation, counts: list[int], route: Route) -> int:
    """Unseen copies of the tiles that complete a ready (distance 0) ``route``."""
    meld_count = len(s.melds)
    r = s.route_ctx.ruleset
    total = 0
    for t in range(34):
        if s.unseen[t] <= 0 or not route.keeps(t):
            continue
        counts[t] += 1
        if route.pungs_only:
            done = pung_shanten(counts, meld_count) < 0
        else:
            done = shanten_all(counts, meld_count, seven_pairs=r.seven_pairs) < 0
        counts[t] -= 1
        if done:
            total += s.unseen[t]
    return total


_SHARES: IdentityMemo[Ruleset, float] = IdentityMemo(limit=4096)


def _share(fan: int, ruleset: Ruleset) -> float:
    v = _SHARES.get(ruleset, fan)
    if v is None:
        v = _SHARES.put(ruleset, fan, float(share_for(max(fan, 0), ruleset)))
    return v


_HORIZON = 14.0
"""Own draws after which a hand has usually ended (someone wins or it is drawn)."""
_STEP_PLAIN = 0.5
_STEP_FLUSH = 0.85
_STEP_PUNGS = 0.75


def offense(
    s: Situation, counts: list[int], *, value_weight: float = 1.0
) -> tuple[float, float, Route, float]:
    """(expected jade, route rank, route, win chance) of a 13-tile state, routes ranked as ``fan``."""
    rank, route = best_route(s, counts)
    r = s.route_ctx.ruleset
    by_discard = route.fan_discard >= r.min_fan
    if not by_discard and route.fan_self < r.min_fan:
        return 0.0, rank, route, 0.0
    draws = max(s.view.tiles_left / 4.0, 0.25)
    p = _win_chance(s, counts, route, draws, max(sum(s.unseen), 1), by_discard)
    gain = _route_gain(route, r, by_discard, discard_win_shares(r))
    return p * gain**value_weight, rank, route, p


def discard_win_shares(r: Ruleset) -> int:
    """Shares a win on a discard collects: the full-gun multiple, or 4 under half gun (2 + 1 + 1)."""
    return r.payment.discarder_shares if r.payment.gun.value == "full_gun" else 4


def _win_chance(
    s: Situation,
    counts: list[int],
    route: Route,
    draws: float,
    unseen_total: int,
    by_discard: bool,
) -> float:
    """Chance to complete ``route``: for a ready hand a Poisson estimate of drawing (or, when it
    wins on a discard, being fed) one of its waits in the draws left; further away, a step
    factor per distance. A route whose fan reaches the minimum only with 自摸 wins only by
    self-draw."""
    if route.distance <= 0:
        w = route_waits(s, counts, route)
        per_draw = w / unseen_total * (2.5 if by_discard else 1.0)
        return 1.0 - math.exp(-min(draws, _HORIZON) * per_draw)
    k = _STEP_PLAIN
    if route.suit is not None:
        k *= _STEP_FLUSH
    if route.pungs_only:
        k *= _STEP_PUNGS
    p = 0.55 * k**route.distance * min(1.0, draws / _HORIZON) ** (route.distance + 1)
    return p if by_discard else p * 0.55


def _route_gain(route: Route, r: Ruleset, by_discard: bool, disc_shares: int) -> float:
    """Jade a win on ``route`` earns (:func:`_spec_gain`)."""
    return _spec_gain(route.fan_discard if by_discard else None, route.fan_self, r, disc_shares)
