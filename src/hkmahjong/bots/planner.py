"""Hand evaluation shared by the bots: 13-tile states scored by efficiency or by fan routes."""

from __future__ import annotations

import math
from collections.abc import Sequence

from hkmahjong.bots.base import Situation
from hkmahjong.bots.evaluate import _FIN as _FINS
from hkmahjong.bots.evaluate import (
    P5,
    Part,
    comb,
    fin,
    hand_parts,
    key_counts,
    part,
    pung_shanten,
    shanten_all,
    useful_count,
)
from hkmahjong.bots.routes import (
    FULL_NAMES,
    HALF_NAMES,
    Route,
    RouteContext,
    RouteSpec,
    Static,
    make_route,
    value_fan,
)
from hkmahjong.rules import FanId, Ruleset
from hkmahjong.rules.memo import IdentityMemo
from hkmahjong.scoring.payment import share_for

__all__ = [
    "best_route",
    "discard_routes",
    "discard_win_shares",
    "efficiency",
    "route_rank",
    "route_waits",
    "share_value",
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
    the route pays over a minimum-fan win (speed vs value: 0 ranks exactly as ``fan``).

    Ties go to the first route in :func:`~hkmahjong.bots.routes.route_specs` order."""
    rank, spec, _ = _best_specs(counts, s.route_ctx, (-1,), steps)[0]
    return rank, make_route(spec)


def discard_routes(
    s: Situation, counts: list[int], tiles: Sequence[int], steps: float
) -> list[tuple[float, Route, int]]:
    """For each tile of ``tiles``, :func:`value_route` of ``counts`` without one of it, and that
    hand's shanten (``shanten_all`` with the ruleset's 七對子 and 十三幺): every candidate discard
    of a decision at once, sharing what the candidates have in common (three of the four parts
    of the hand are the same for each)."""
    return [
        (rank, make_route(spec), plain)
        for rank, spec, plain in _best_specs(counts, s.route_ctx, tiles, steps)
    ]


# The fast route ranking. route_specs lists every route of a hand; for a decision the bots only
# need the best one of each candidate hand. A route's distance is the shanten of the hand's parts
# (three number suits, the honours) that its suit mask keeps, its honour part changed by the
# 番牌 pairs it forces into pungs and, for 平糊, honour pungs broken into pairs: so the routes
# of one honour state are fixed templates (each with its fan and rank terms, computed once per
# context), and a candidate hand costs one shanten-table lookup per template. Each template
# reproduces what routes._route_specs does for that route, in the same order, and the rank is
# the same arithmetic as _rank, so the best route (first of the best ranks) is the same.

_Tail = tuple[int, int, bool, bool, str, tuple[int, ...]]
"""What a spec needs of a template besides its distance: (fan on a discard, fan by self-draw,
honours kept, 對對糊, shape name, forced value tiles)."""

_Template = tuple[
    int,  # shape: 0 any, 1 pungs (對對糊), 2 chows (平糊)
    int,  # the honour part of the route's work: an index into the group's honour variants
    int,  # sets to make (4 - melds - forced pairs)
    int,  # forced pairs
    bool,  # 十三幺 counts (plain route, no melds)
    bool,  # 七對子 counts
    float,  # rank penalty
    float,  # rank bonus
    "float | None",  # log2 of the payout over a minimum win's, when a win is valid
    _Tail,
]


_Variant = tuple[tuple[int, ...], bool]
"""An honour part a route works on: the honours without the forced pairs, capped at pairs for
平糊 (variant 0 of every plan is no honours at all)."""


class _Plan:
    """The route templates of a context and of the 番牌 the honours hold (made, paired)."""

    __slots__ = ("templates", "variants")

    def __init__(
        self, templates: list[tuple[_Template, ...]], variants: list[_Variant | None]
    ) -> None:
        self.templates = templates
        """By ``2 * mask kind + pungs shape allowed``: mask kind 0 any suit, 1 混一色, 2 清一色."""
        self.variants = variants


class _Group:
    """A plan with the honour parts of one honour state."""

    __slots__ = ("hon", "hons", "pairs", "templates")

    def __init__(self, hon: Part, plan: _Plan) -> None:
        self.hon = hon
        self.pairs = hon.pungs + hon.pairs
        self.templates = plan.templates
        h = key_counts(hon.key, 7)
        hons = [part(0, True)]
        for variant in plan.variants[1:]:
            assert variant is not None
            forced, capped = variant
            work = list(h)
            for t in forced:
                work[t - 27] -= 2
            if capped:
                work = [min(n, 2) for n in work]
            hons.append(part(sum(n * P5[i] for i, n in enumerate(work)), True))
        self.hons = hons


_GROUPS: IdentityMemo[Ruleset, _Group] = IdentityMemo(limit=50_000)
_PLANS: IdentityMemo[Ruleset, _Plan] = IdentityMemo(limit=4096)


def _group(st: Static, hon: Part, meld_count: int) -> _Group:
    """The group of honour part ``hon`` under ``st``: shared by every context that agrees on
    what the templates read (the ruleset, the 番牌 values, honour melds, chows allowed, the fan
    every route has, the melds), so a new hand or a new bonus tile rarely builds one."""
    key = (hon.key, meld_count, st.group_key)
    g = _GROUPS.get(st.ruleset, key)
    if g is None:
        h = key_counts(hon.key, 7)
        values = st.values
        made_values = [t for t in st.honour_melds if t in values]
        made_values += [t for t in values if h[t - 27] >= 3]
        pair_values = sorted(
            (t for t in values if h[t - 27] == 2 and t not in made_values),
            key=lambda t: -values[t],
        )[:2]
        pkey = (tuple(made_values), tuple(pair_values), meld_count, st.group_key)
        plan = _PLANS.get(st.ruleset, pkey)
        if plan is None:
            plan = _PLANS.put(
                st.ruleset, pkey, _make_plan(st, made_values, pair_values, meld_count)
            )
        g = _GROUPS.put(st.ruleset, key, _Group(hon, plan))
    return g


def _make_plan(
    st: Static, made_values: list[int], pair_values: list[int], meld_count: int
) -> _Plan:
    """What routes._route_specs derives from the honours, as templates (same order)."""
    r = st.ruleset
    min_fan = r.min_fan
    shares = discard_win_shares(r)
    unit = _spec_gain(min_fan, min_fan + st.self_fan, r, shares)
    values = st.values
    forced_sets: list[tuple[int, ...]] = [()]
    if pair_values:
        forced_sets += [(t,) for t in pair_values]
        if len(pair_values) == 2:
            forced_sets.append((pair_values[0], pair_values[1]))
    chows = st.chow_ok and bool(st.chows) and not made_values
    base_fan = st.sure + st.concealed_fan
    variants: list[_Variant | None] = [None]
    templates: list[tuple[_Template, ...]] = []
    for mask, honours, mfan in ((0, True, 0), (1, True, st.half), (2, False, st.full)):
        made_fan = value_fan(made_values, values, st.great) if honours else 0
        for pungs_ok in (False, True):
            shapes = [("", 0, 0)]
            if pungs_ok:
                shapes.append(("對對糊", 1, st.pungs))
            if chows:
                shapes.append(("平糊", 2, st.chows))
            out: list[_Template] = []
            for sname, shape, sfan in shapes:
                for forced in forced_sets:
                    if forced and (not honours or shape == 2):
                        continue
                    variant = 0
                    if honours:
                        v = (forced, shape == 2)
                        if v not in variants:
                            variants.append(v)
                        variant = variants.index(v)
                    plain = mask == 0 and not forced
                    vfan = (
                        value_fan(made_values + list(forced), values, st.great)
                        if forced
                        else made_fan
                    )
                    fan = base_fan + mfan + sfan + vfan
                    fan_self = fan + st.self_fan
                    if st.limit is not None:
                        fan = min(fan, st.limit)
                        fan_self = min(fan_self, st.limit)
                    if fan >= min_fan:
                        penalty = 0.0
                    elif fan_self >= min_fan:
                        penalty = 1.5
                    else:
                        penalty = 6.0 + 2.0 * (min_fan - fan_self)
                    log_gain: float | None = None
                    if fan_self >= min_fan:
                        gain = _spec_gain(fan if fan >= min_fan else None, fan_self, r, shares)
                        log_gain = math.log2(max(gain / unit, 1e-9))
                    out.append(
                        (
                            shape,
                            variant,
                            4 - meld_count - len(forced),
                            len(forced),
                            st.thirteen and plain and shape != 1 and meld_count == 0,
                            st.seven and plain and shape == 0 and meld_count == 0,
                            penalty,
                            0.3 * min(fan, min_fan + 5),
                            log_gain,
                            (fan, fan_self, honours, shape == 1, sname, forced),
                        )
                    )
            templates.append(tuple(out))
    return _Plan(templates, variants)


_Best = tuple[float, int, "_Tail | None"]
"""(rank, distance, template tail) of the best route of a scan."""
_NONE: _Best = (-math.inf, 0, None)


def _scan(
    templates: tuple[_Template, ...],
    hons: list[Part],
    nid: int,
    ntiles: int,
    n3: int,
    n2: int,
    nkinds: int,
    norph: int,
    npair: int,
    ten_steps: float,
) -> tuple[_Best, int]:
    """The best of the routes of ``templates`` over number parts with these stats (combined
    table id, tiles, pungs, pairs, kinds, 十三幺 kinds, 十三幺 pair), the first of the best ranks,
    and the distance of the first template."""
    top = -math.inf
    best = _NONE
    first = 99
    fins = _FINS
    for shape, variant, need, forced, thirteen, seven, penalty, bonus, log_gain, tail in templates:
        hon = hons[variant]
        if shape == 1:
            pungs = n3 + hon.pungs
            if pungs > need:
                pungs = need
            pairs = n2 + hon.pairs
            left = need - pungs + 1
            dist = 2 * (need - pungs) - (pairs if pairs < left else left)
        else:
            found = fins.get((nid << 20 | hon.table) << 3 | need)
            dist = fin(nid, hon.table, need) if found is None else found
        floor = 3 * need + 1 - ntiles - hon.tiles
        if dist < floor:
            dist = floor
        if thirteen:
            orphans = 13 - norph - hon.orphans - (1 if npair or hon.orphan_pair else 0)
            if orphans < dist:
                dist = orphans
        if seven:
            kinds = nkinds + hon.kinds
            pairs7 = 6 - (n3 + n2 + hon.pungs + hon.pairs) + (7 - kinds if kinds < 7 else 0)
            if pairs7 < dist:
                dist = pairs7
        dist += forced
        if first == 99:
            first = dist
        rank = -10.0 * (dist + penalty) + bonus
        if ten_steps and log_gain is not None:
            rank += ten_steps * log_gain
        if rank > top:
            top = rank
            best = (rank, dist, tail)
    return best, first


def _spec_gain(fan_discard: int | None, fan_self: int, r: Ruleset, shares: int) -> float:
    """Jade a win earns: all 自摸 (``fan_discard`` None: not a valid win on a discard), or a
    40/60 mix of the 自摸 and the discard win."""
    gain = 3 * share_value(fan_self, r)
    if fan_discard is not None:
        gain = 0.4 * gain + 0.6 * shares * share_value(fan_discard, r)
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


def share_value(fan: int, ruleset: Ruleset) -> float:
    """一份 in jade for ``fan`` (at least 0) under ``ruleset``: ``float(share_for(...))``,
    remembered per ruleset object."""
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


def _flush(
    flushes: dict[tuple[int, Part, _Group], _Best],
    index: int,
    p: Part,
    g: _Group,
    ten_steps: float,
) -> _Best:
    """The best flush route of templates ``index`` over suit part ``p``: it reads only that suit
    and the honours, so the candidates of a decision outside both share it (``flushes``)."""
    key = (index, p, g)
    found = flushes.get(key)
    if found is None:
        found, _ = _scan(
            g.templates[index],
            g.hons,
            p.table,
            p.tiles,
            p.pungs,
            p.pairs,
            p.kinds,
            p.orphans,
            p.orphan_pair,
            ten_steps,
        )
        flushes[key] = found
    return found


def _best_specs(
    counts: Sequence[int], ctx: RouteContext, removals: Sequence[int], steps: float
) -> list[tuple[float, RouteSpec, int]]:
    """For each tile of ``removals`` (-1: none), the rank and spec of the best route of
    ``counts`` without one of that tile, and the hand's plain shanten (its first route's
    distance: ``shanten_all`` with the ruleset's flags)."""
    st = ctx.static
    meld_count = len(ctx.melds)
    a0, b0, c0, h0 = hand_parts(counts)
    base = _group(st, h0, meld_count)
    total = sum(counts)
    ten_steps = 10.0 * steps
    pungs_shape = bool(st.pungs) and not st.has_chow
    flush_suits = [s for s in range(3) if st.meld_suits <= {s}]
    half = bool(st.half)
    full_flush = bool(st.full) and not st.honour_melds
    out: list[tuple[float, RouteSpec, int]] = []
    flushes: dict[tuple[int, Part, _Group], _Best] = {}
    for tile in removals:
        a, b, c, g = a0, b0, c0, base
        tot = total
        if tile >= 27:
            g = _group(st, h0.minus(tile - 27), meld_count)
            tot -= 1
        elif tile >= 18:
            c = c0.minus(tile - 18)
            tot -= 1
        elif tile >= 9:
            b = b0.minus(tile - 9)
            tot -= 1
        elif tile >= 0:
            a = a0.minus(tile)
            tot -= 1
        n3 = a.pungs + b.pungs + c.pungs
        n2 = a.pairs + b.pairs + c.pairs
        kind = int(pungs_shape and n3 + n2 + g.pairs + meld_count >= 3)
        templates = g.templates
        best, plain = _scan(
            templates[kind],
            g.hons,
            comb(comb(a.table, b.table), c.table),
            a.tiles + b.tiles + c.tiles,
            n3,
            n2,
            a.kinds + b.kinds + c.kinds,
            a.orphans + b.orphans + c.orphans,
            a.orphan_pair | b.orphan_pair | c.orphan_pair,
            ten_steps,
        )
        suit = -1
        hon_tiles = g.hon.tiles
        for s in flush_suits:
            p = a if s == 0 else b if s == 1 else c
            if half and p.tiles + hon_tiles >= tot - 6:
                found = _flush(flushes, 2 + kind, p, g, ten_steps)
                if found[0] > best[0]:
                    best = found
                    suit = s
            if full_flush and p.tiles >= tot - 6:
                found = _flush(flushes, 4 + kind, p, g, ten_steps)
                if found[0] > best[0]:
                    best = found
                    suit = s
        rank, dist, tail = best
        assert tail is not None
        fan, fan_self, honours, pungs, sname, forced = tail
        mname = "" if suit < 0 else HALF_NAMES[suit] if honours else FULL_NAMES[suit]
        spec: RouteSpec = (
            dist, fan, fan_self, None if suit < 0 else suit, honours, pungs, mname, sname, forced
        )  # fmt: skip
        out.append((rank, spec, plain))
    return out
