"""番路 route planning: for each fan route the ruleset rewards, its distance and its fan.

A route is a target shape — a suit mask (any, 混一色 of one suit, 清一色 of one suit), a set shape
(any, 對對糊 all pungs, 平糊 all chows) and a set of 番牌 honour pairs forced into pungs. Its
``distance`` is the shanten of the hand toward that shape; its fan is read from the ruleset's fan
table (never hard-coded), for a win on a discard (``fan_discard``) and a self-draw
(``fan_self``). Bonus tiles already held (正花, 一台花, 無花) and value pungs already made count in
every route.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from hkmahjong.bots.evaluate import pung_shanten, shanten_all
from hkmahjong.hand import Meld, MeldKind
from hkmahjong.rules import FanId, Ruleset
from hkmahjong.rules.memo import IdentityMemo
from hkmahjong.tiles import Tile, Wind

__all__ = ["Route", "RouteContext", "plan_routes", "value_honours"]

_DRAGON_FANS = {
    Tile.WHITE: FanId.WHITE_DRAGON,
    Tile.GREEN: FanId.GREEN_DRAGON,
    Tile.RED: FanId.RED_DRAGON,
}
_DRAGONS = (31, 32, 33)


@dataclass(frozen=True, slots=True)
class Route:
    """One target: ``name`` (e.g. ``混一色 p + 對對糊``), ``distance`` (shanten) and its fan."""

    name: str
    distance: int
    fan_discard: int
    fan_self: int
    suit: int | None
    """The suit a flush route keeps (0 萬, 1 筒, 2 索), else None."""
    honours: bool
    """Whether honour tiles belong to the route."""
    pungs_only: bool
    goals: tuple[FanId, ...] = ()
    """The patterns the route is built on (混一色 / 清一色, 對對糊, 平糊, 番牌 pungs), as data."""
    value_tiles: tuple[Tile, ...] = ()
    """The honour pairs the route turns into 番牌 pungs."""

    def keeps(self, tile: int) -> bool:
        """True when ``tile`` fits the route's suit mask."""
        if tile >= 27:
            return self.honours
        return self.suit is None or tile // 9 == self.suit


@dataclass(frozen=True, slots=True)
class RouteContext:
    """What routes need besides the concealed counts: seat, winds, melds, bonus tiles, ruleset."""

    ruleset: Ruleset
    seat: Wind
    prevailing: Wind
    melds: tuple[Meld, ...]
    bonus: tuple[Tile, ...]
    _static: Static | None = field(default=None, compare=False, repr=False)

    @property
    def static(self) -> Static:
        """What does not change between the candidate discards of one decision (computed once)."""
        if self._static is None:
            key = (self.melds, self.bonus, self.seat, self.prevailing)
            st = _STATICS.get(self.ruleset, key)
            if st is None:
                st = _STATICS.put(self.ruleset, key, Static.of(self))
            object.__setattr__(self, "_static", st)
        assert self._static is not None
        return self._static


_STATICS: IdentityMemo[Ruleset, Static] = IdentityMemo(limit=4096)


@dataclass(frozen=True, slots=True, eq=False)
class Static:
    ruleset: Ruleset
    values: dict[int, int]
    meld_suits: frozenset[int]
    honour_melds: tuple[int, ...]
    has_chow: bool
    concealed: bool
    sure: int
    half: int
    full: int
    pungs: int
    chows: int
    concealed_fan: int
    self_fan: int
    great: int
    thirteen: bool
    seven: bool
    limit: int | None
    chow_ok: bool
    group_key: tuple[object, ...] = ()
    """What the planner's route templates read besides the ruleset (the others are its own)."""

    @classmethod
    def of(cls, ctx: RouteContext) -> Static:
        r = ctx.ruleset
        melds = ctx.melds
        values = value_honours(r, ctx.seat, ctx.prevailing)
        honour_melds = tuple(int(m.first) for m in melds if m.first >= 27)
        concealed = all(
            m.kind is MeldKind.CONCEALED_KONG and r.concealed_kong_keeps_concealed for m in melds
        )
        if concealed and ctx.bonus and not r.concealed_hand_with_bonus_tiles:
            concealed = False
        st = cls(
            ruleset=r,
            values=values,
            meld_suits=frozenset(m.first // 9 for m in melds if m.first < 27),
            honour_melds=honour_melds,
            has_chow=any(m.kind is MeldKind.CHOW for m in melds),
            concealed=concealed,
            sure=bonus_fan(r, ctx.seat, ctx.bonus),
            half=_fv(r, FanId.HALF_FLUSH),
            full=_fv(r, FanId.FULL_FLUSH),
            pungs=_fv(r, FanId.ALL_PUNGS),
            chows=_fv(r, FanId.ALL_CHOWS),
            concealed_fan=_fv(r, FanId.CONCEALED_HAND) if concealed else 0,
            self_fan=_fv(r, FanId.SELF_DRAWN),
            great=_fv(r, FanId.GREAT_DRAGONS),
            thirteen=r.plays(FanId.THIRTEEN_ORPHANS),
            seven=r.seven_pairs,
            limit=r.limit,
            chow_ok=not honour_melds and all(m.kind is MeldKind.CHOW for m in melds),
        )
        # the values in their order: it decides which 番牌 pair a route forces first
        key = (tuple(st.values.items()), st.honour_melds, st.chow_ok, st.sure + st.concealed_fan)
        object.__setattr__(st, "group_key", key)
        return st


def value_honours(ruleset: Ruleset, seat: Wind, prevailing: Wind) -> dict[int, int]:
    """番牌: honour tile index -> fan of a pung of it for ``seat`` (from the ruleset's fan table)."""
    out: dict[int, int] = {}
    for tile, fid in _DRAGON_FANS.items():
        v = ruleset.fan_value(fid) or 0
        if v:
            out[int(tile)] = v
    sw, pw = 27 + int(seat), 27 + int(prevailing)
    out[sw] = out.get(sw, 0) + (ruleset.fan_value(FanId.SEAT_WIND) or 0)
    out[pw] = out.get(pw, 0) + (ruleset.fan_value(FanId.PREVAILING_WIND) or 0)
    return {t: v for t, v in out.items() if v > 0}


def _fv(ruleset: Ruleset, fid: FanId) -> int:
    return ruleset.fan_value(fid) or 0


def bonus_fan(ruleset: Ruleset, seat: Wind, bonus: Sequence[Tile]) -> int:
    """正花 / 一台花 / 無花 fan of the bonus tiles held (read from the ruleset)."""
    if not ruleset.bonus_tiles:
        return 0
    if not bonus:
        return _fv(ruleset, FanId.NO_BONUS)
    held = {int(t) for t in bonus}
    fan = 0
    for base in (34, 38):
        full = all(base + i in held for i in range(4))
        if full and ruleset.plays(FanId.BONUS_SET):
            fan += _fv(ruleset, FanId.BONUS_SET)
        elif base + int(seat) in held:
            fan += _fv(ruleset, FanId.SEAT_BONUS)
    return fan


@lru_cache(maxsize=1 << 15)
def _shanten(
    key: tuple[int, ...], meld_count: int, pungs: bool, thirteen: bool, seven: bool
) -> int:
    if pungs:
        return pung_shanten(key, meld_count)
    return shanten_all(key, meld_count, thirteen=thirteen, seven_pairs=seven)


RouteSpec = tuple[int, int, int, "int | None", bool, bool, str, str, tuple[int, ...]]
"""(distance, fan_discard, fan_self, suit, honours, pungs_only, mask name, shape name, forced)."""


def make_route(spec: RouteSpec) -> Route:
    """The :class:`Route` of a spec from :func:`route_specs` (one object per spec: routes are
    frozen values)."""
    route = _ROUTES.get(spec)
    if route is None:
        if len(_ROUTES) >= 8192:
            _ROUTES.clear()
        route = _ROUTES[spec] = _make_route(spec)
    return route


_ROUTES: dict[RouteSpec, Route] = {}


def _make_route(spec: RouteSpec) -> Route:
    dist, fan, fan_self, suit, honours, pungs, mname, sname, forced = spec
    names = [n for n in (mname, sname) if n]
    names += [Tile(t).zh for t in forced]
    goals: list[FanId] = []
    if suit is not None:
        goals.append(FanId.HALF_FLUSH if honours else FanId.FULL_FLUSH)
    if sname:
        goals.append(_SHAPE_FANS[sname])
    return Route(
        name=" + ".join(names) or "雞糊",
        distance=dist,
        fan_discard=fan,
        fan_self=fan_self,
        suit=suit,
        honours=honours,
        pungs_only=pungs,
        goals=tuple(goals),
        value_tiles=tuple(Tile(t) for t in forced),
    )


_SHAPE_FANS = {"對對糊": FanId.ALL_PUNGS, "平糊": FanId.ALL_CHOWS}


def plan_routes(counts: Sequence[int], ctx: RouteContext) -> list[Route]:
    """Every plausible route for concealed ``counts`` (13 tiles, kongs counted 3) under ``ctx``."""
    return [make_route(spec) for spec in route_specs(counts, ctx)]


def route_specs(counts: Sequence[int], ctx: RouteContext) -> list[RouteSpec]:
    """Every plausible route as plain tuples (the fast form of :func:`plan_routes`)."""
    st = ctx.static
    key = tuple(counts)
    found = _SPECS.get(st, key)
    if found is None:
        found = _SPECS.put(st, key, _route_specs(counts, ctx, st))
    return found


_SPECS: IdentityMemo[Static, list[RouteSpec]] = IdentityMemo(limit=50_000)


def _route_specs(counts: Sequence[int], ctx: RouteContext, st: Static) -> list[RouteSpec]:
    meld_count = len(ctx.melds)
    values = st.values
    made_values = [t for t in st.honour_melds if t in values]
    made_values += [t for t in values if counts[t] >= 3]
    pair_values = sorted(
        (t for t in values if counts[t] == 2 and t not in made_values),
        key=lambda t: -values[t],
    )[:2]
    total = sum(counts)
    hon = sum(counts[27:34])
    masks: list[tuple[str, int | None, bool, int]] = [("", None, True, 0)]
    for s in range(3):
        if st.meld_suits <= {s}:
            in_suit = sum(counts[9 * s : 9 * s + 9])
            if st.half and in_suit + hon >= total - 6:
                masks.append((HALF_NAMES[s], s, True, st.half))
            if st.full and not st.honour_melds and in_suit >= total - 6:
                masks.append((FULL_NAMES[s], s, False, st.full))
    shapes: list[tuple[str, str, int]] = [("", "any", 0)]
    if st.pungs and not st.has_chow:
        pairs = sum(1 for n in counts if n >= 2)
        if pairs + meld_count >= 3:
            shapes.append(("對對糊", "pungs", st.pungs))
    if st.chow_ok and st.chows and not made_values:
        shapes.append(("平糊", "chows", st.chows))
    forced_sets: list[tuple[int, ...]] = [()]
    if pair_values:
        forced_sets += [(t,) for t in pair_values]
        if len(pair_values) == 2:
            forced_sets.append((pair_values[0], pair_values[1]))
    base_fan = st.sure + st.concealed_fan
    limit = st.limit
    routes: list[RouteSpec] = []
    for mname, suit, honours, mfan in masks:
        if suit is None:
            masked = list(counts)
        else:
            masked = [0] * 34
            masked[9 * suit : 9 * suit + 9] = counts[9 * suit : 9 * suit + 9]
            if honours:
                masked[27:34] = counts[27:34]
        made_fan = value_fan(made_values, values, st.great) if honours else 0
        for sname, shape, sfan in shapes:
            for forced in forced_sets:
                if forced and (not honours or shape == "chows"):
                    continue
                work = masked
                if forced or shape == "chows":
                    work = masked[:]
                    for t in forced:
                        work[t] -= 2
                    if shape == "chows":
                        for t in range(27, 34):
                            if work[t] > 2:
                                work[t] = 2
                plain = suit is None and not forced
                dist = _shanten(
                    tuple(work),
                    meld_count + len(forced),
                    shape == "pungs",
                    st.thirteen and plain and meld_count == 0,
                    st.seven and plain and shape == "any",
                ) + len(forced)
                vfan = (
                    value_fan(made_values + list(forced), values, st.great) if forced else made_fan
                )
                fan = base_fan + mfan + sfan + vfan
                fan_self = fan + st.self_fan
                if limit is not None:
                    fan = min(fan, limit)
                    fan_self = min(fan_self, limit)
                routes.append(
                    (dist, fan, fan_self, suit, honours, shape == "pungs", mname, sname, forced)
                )
    return routes


HALF_NAMES = ("混一色m", "混一色p", "混一色s")
FULL_NAMES = ("清一色m", "清一色p", "清一色s")


def value_fan(tiles: Sequence[int], values: dict[int, int], great: int) -> int:
    vfan = sum(values[t] for t in tiles)
    if great and sum(1 for t in tiles if t in _DRAGONS) == 3:
        vfan += great - sum(values[t] for t in _DRAGONS)
    return vfan
