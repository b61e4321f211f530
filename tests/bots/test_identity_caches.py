"""Caches keyed by a ruleset (or a derived object) answer for *that* object, never a freed one's.

``id(obj)`` is only unique while ``obj`` lives: CPython hands a freed object's address to the
next object of the same size, so a cache keyed by ``id()`` that does not keep the object alive
(or check it) answers a new ruleset with the old one's values (issue 13, item 17). Each test
builds a ruleset, uses it, drops it (freed at once: a ruleset holds no cycles), and builds
another with different payment or fan values in a loop, so the new object lands at a freed
address many times.
"""

from __future__ import annotations

from dataclasses import replace

from hkmahjong.bots import planner, routes
from hkmahjong.bots.routes import RouteContext, RouteSpec, route_specs
from hkmahjong.rules import FanId, Ruleset, get_preset
from hkmahjong.scoring.payment import share_for
from hkmahjong.scoring.table import table_for
from hkmahjong.tiles import Wind, counts34, parse_tiles

PARLOR = get_preset("parlor")
ML = get_preset("ml")
ROUNDS = 50


def _ml_paid_parlor() -> Ruleset:
    """A parlor copy paid by ml's table (ML 付錢表): other shares for the same fan."""
    return replace(PARLOR, payment=ML.payment, min_fan=ML.min_fan, limit=ML.limit)


def test_planner_shares_follow_a_new_ruleset_at_a_freed_address() -> None:
    """bots/planner ``share_value``: a parlor copy is used and dropped, then ml's payment table asks."""
    fan = 5
    expected = float(share_for(fan, _ml_paid_parlor()))
    assert expected != float(share_for(fan, PARLOR))
    stale = 0
    for k in range(ROUNDS):
        copy = replace(PARLOR, name=f"parlor copy {k}")
        assert planner.share_value(fan, copy) == float(share_for(fan, PARLOR))
        del copy
        fresh = _ml_paid_parlor()
        stale += planner.share_value(fan, fresh) != expected
        del fresh
    assert stale == 0, f"{stale} stale answers of {ROUNDS}"


def test_fan_table_follows_a_new_ruleset_at_a_freed_address() -> None:
    """scoring/table ``table_for``: each ruleset object gets the fan values it holds."""
    for k in range(ROUNDS):
        copy = replace(PARLOR, name=f"parlor copy {k}")
        assert table_for(copy).values[FanId.HALF_FLUSH] == PARLOR.fan[FanId.HALF_FLUSH]
        del copy
        other = replace(PARLOR, fan=PARLOR.fan.set(FanId.HALF_FLUSH, 1))
        assert table_for(other).values[FanId.HALF_FLUSH] == 1
        del other


COUNTS = counts34(parse_tiles("1234567m123p45s1z"))


def _specs(ruleset: Ruleset, *, drop_statics: bool) -> tuple[list[RouteSpec], list[RouteSpec]]:
    """(cached, freshly computed) route specs of a 混一色-leaning hand under ``ruleset``."""
    ctx = RouteContext(ruleset, Wind.SOUTH, Wind.EAST, (), ())
    st = ctx.static
    if drop_statics:
        routes._STATICS.clear()  # what the bound does when a decision's context is still alive
    return route_specs(COUNTS, ctx), routes._route_specs(COUNTS, ctx, st)


def test_route_specs_follow_a_new_context_at_a_freed_address() -> None:
    """bots/routes ``route_specs``: specs cached for a dropped context's statics never leak."""
    stale = 0
    for k in range(ROUNDS):
        old = replace(PARLOR, name=f"parlor copy {k}")
        cached, fresh = _specs(old, drop_statics=True)
        assert cached == fresh
        del old, cached, fresh
        new = replace(PARLOR, fan=PARLOR.fan.set(FanId.HALF_FLUSH, 1))
        cached, fresh = _specs(new, drop_statics=False)
        stale += cached != fresh
        del new, cached, fresh
    assert stale == 0, f"{stale} stale answers of {ROUNDS}"


def test_route_statics_follow_a_new_ruleset_at_a_freed_address() -> None:
    """bots/routes ``RouteContext.static``: the statics belong to the context's own ruleset."""
    for k in range(ROUNDS):
        copy = replace(PARLOR, name=f"parlor copy {k}")
        assert RouteContext(copy, Wind.SOUTH, Wind.EAST, (), ()).static.ruleset is copy
        del copy
        other = replace(PARLOR, fan=PARLOR.fan.set(FanId.HALF_FLUSH, 1))
        st = RouteContext(other, Wind.SOUTH, Wind.EAST, (), ()).static
        assert st.ruleset is other and st.half == 1
        del other, st
