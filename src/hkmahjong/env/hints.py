"""Per-action hint planes (牌效 and 番路 look-ahead) computed from one seat's ``PlayerView`` only.

An optional addition to the observation (``SingleSeatEnv(hints=True)``, ``PolicyBot(hints=True)``)
for learners that should not have to work out tile efficiency from raw planes: for every tile kind
the seat could discard, what its hand would be after that discard — the shanten (向聽) and the
unseen copies of the tiles that lower it (as the ``efficient`` bot reads them), and the best fan
route (番路: distance, fan on a discard and on a self-draw, its rank, as the ``fan`` bot reads
them); for each kong it could declare the route rank after it; and in a claim window, for each of
the five claims (three chows, pung, exposed kong), the change of shanten and of route rank the
claim would bring. Nothing else is read than the view (own concealed tiles, every seat's melds and
rivers, the seat's bonus tiles and winds): another seat's hidden tiles and the wall never change a
hint (``tests/env/test_hints.py`` swaps them).

The planes are ``HINT_PLANES`` (names in order), ``(NUM_HINT_PLANES, 34)`` float32, each plane
within :func:`hint_bounds`; per-kind planes are 0 for a kind the seat cannot discard, scalar ones
are broadcast over the 34 columns. They cost one ``fan``-bot decision (1–3 ms), and are computed
only when the seat has a decision.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from hkmahjong.bots.base import Situation, claim_meld
from hkmahjong.bots.evaluate import shanten_all, useful_count
from hkmahjong.bots.planner import best_route
from hkmahjong.bots.routes import Route
from hkmahjong.bots.simple import tile_shape_bonus
from hkmahjong.engine import Action, ActionKind, Phase, PlayerView
from hkmahjong.hand import Meld, MeldKind
from hkmahjong.rules import FanId, Ruleset
from hkmahjong.tiles import Tile

__all__ = ["HINT_PLANES", "NUM_HINT_PLANES", "hint_bounds", "hint_planes"]

_CLAIMS = ("chow_low", "chow_mid", "chow_high", "pung", "exposed_kong")
HINT_PLANES: tuple[str, ...] = (
    # per kind: the hand after discarding one tile of it (0 where the seat cannot discard it)
    "discard_possible",
    "discard_shanten+1/9",
    "discard_min_shanten",
    "discard_useful/80",
    "discard_useful/best_useful",
    "discard_route_gap/20",
    "discard_route_best",
    "discard_route_within_1",
    "discard_route_distance/8",
    "discard_route_fan_discard>=min",
    "discard_route_fan_self>=min",
    "discard_route_fan_discard/13",
    "discard_shape_bonus/0.3",
    # per kind: a kong of it (concealed or added), its route rank against the best discard's
    "kong_possible",
    "kong_route_gain/20",
    # scalars: the hand now
    "now_shanten+1/9",
    "now_route_distance/8",
    "now_route_fan_self>=min",
    # scalars: each claim on the pending discard against passing
    *(
        f"{c}_{f}"
        for c in _CLAIMS
        for f in ("possible", "route_gain/20", "shanten_gain/2", "valid")
    ),
)
NUM_HINT_PLANES = len(HINT_PLANES)
_H = {name: i for i, name in enumerate(HINT_PLANES)}
_CLAIM_MARGIN = 1.0
"""What a claim must gain in route rank to be worth its exposure (as the ``fan`` bot weighs it)."""


def hint_bounds() -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """(low, high) of the hint planes: [0, 1] except the gains, which lie in [−1, 1]."""
    low = np.zeros((NUM_HINT_PLANES, 34), dtype=np.float32)
    high = np.ones((NUM_HINT_PLANES, 34), dtype=np.float32)
    for name, i in _H.items():
        if "gain" in name:
            low[i] = -1.0
    return low, high


def _clip(x: float, lo: float = 0.0, hi: float = 1.0) -> float:
    return min(max(x, lo), hi)


def _flags(ruleset: Ruleset) -> dict[str, bool]:
    return {"seven_pairs": ruleset.seven_pairs, "thirteen": ruleset.plays(FanId.THIRTEEN_ORPHANS)}


def _route(s: Situation, counts: list[int]) -> tuple[float, Route]:
    return best_route(s, counts)


def hint_planes(
    view: PlayerView, ruleset: Ruleset, legal: Sequence[Action]
) -> npt.NDArray[np.float32]:
    """The hint planes of ``view`` (see the module docstring): ``(NUM_HINT_PLANES, 34)``, for
    the seat's ``legal`` actions (``state.legal_actions(seat)``: they follow from its own hand
    and the rules alone)."""
    out = np.zeros((NUM_HINT_PLANES, 34), dtype=np.float32)
    s = Situation.of(view, ruleset)
    flags = _flags(ruleset)
    min_fan = ruleset.min_fan
    n = sum(s.counts)
    melds = len(s.melds)
    if n % 3 == 2:  # a tile to discard (own turn)
        top = _discards(out, s, flags, min_fan, legal)
        _kongs(out, s, legal, top)
        return out
    if n % 3 != 1:  # pragma: no cover - a hand is 3k+1 or 3k+2 tiles
        return out
    sh = shanten_all(s.counts, melds, **flags)
    rank, route = _route(s, s.counts)
    out[_H["now_shanten+1/9"]] = _clip((sh + 1) / 9)
    out[_H["now_route_distance/8"]] = _clip(route.distance / 8)
    out[_H["now_route_fan_self>=min"]] = float(route.fan_self >= min_fan)
    if view.phase is Phase.CLAIM and view.pending_tile is not None:
        _claims(out, s, view, legal, ruleset, flags, sh, rank)
    return out


def _discards(
    out: npt.NDArray[np.float32],
    s: Situation,
    flags: dict[str, bool],
    min_fan: int,
    legal: Sequence[Action],
) -> float:
    """Fill the per-kind discard planes; returns the best discard's route rank."""
    melds = len(s.melds)
    rows: list[tuple[int, int, int, float, Route]] = []
    kinds = sorted(
        {int(a.tile) for a in legal if a.kind is ActionKind.DISCARD and a.tile is not None}
    )
    if not kinds:
        return 0.0
    for t in kinds:
        s.counts[t] -= 1
        sh = shanten_all(s.counts, melds, **flags)
        _, copies = useful_count(s.counts, melds, s.unseen, sh, **flags)
        rank, route = _route(s, s.counts)
        s.counts[t] += 1
        rows.append((t, sh, copies, rank, route))
    best_sh = min(r[1] for r in rows)
    best_useful = max(r[2] for r in rows if r[1] == best_sh) or 1
    top = max(r[3] for r in rows)
    for t, sh, copies, rank, route in rows:
        col = out[:, t]
        col[_H["discard_possible"]] = 1.0
        col[_H["discard_shanten+1/9"]] = _clip((sh + 1) / 9)
        col[_H["discard_min_shanten"]] = float(sh == best_sh)
        col[_H["discard_useful/80"]] = _clip(copies / 80)
        col[_H["discard_useful/best_useful"]] = _clip(copies / best_useful) if sh == best_sh else 0
        col[_H["discard_route_gap/20"]] = _clip((top - rank) / 20)
        col[_H["discard_route_best"]] = float(rank >= top - 1e-9)
        col[_H["discard_route_within_1"]] = float(rank >= top - 1.0)
        col[_H["discard_route_distance/8"]] = _clip(route.distance / 8)
        col[_H["discard_route_fan_discard>=min"]] = float(route.fan_discard >= min_fan)
        col[_H["discard_route_fan_self>=min"]] = float(route.fan_self >= min_fan)
        col[_H["discard_route_fan_discard/13"]] = _clip(route.fan_discard / 13)
        s.counts[t] -= 1
        col[_H["discard_shape_bonus/0.3"]] = tile_shape_bonus(t, s.counts) / 0.3
        s.counts[t] += 1
    return top


def _kongs(
    out: npt.NDArray[np.float32],
    s: Situation,
    legal: Sequence[Action],
    top: float,
) -> None:
    kinds: list[tuple[int, bool]] = []  # (tile, concealed)
    for a in legal:
        if a.kind in (ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG):
            assert a.tile is not None
            kinds.append((int(a.tile), a.kind is ActionKind.CONCEALED_KONG))
    for t, concealed in kinds:
        counts = s.counts[:]
        after = s
        if concealed:
            counts[t] -= 4
            after = s.with_meld(Meld(MeldKind.CONCEALED_KONG, Tile(t)), [])
        else:
            counts[t] -= 1
        rank, _ = _route(after, counts)
        out[_H["kong_possible"], t] = 1.0
        out[_H["kong_route_gain/20"], t] = _clip((rank + 0.5 - top) / 20, -1.0)


def _claims(
    out: npt.NDArray[np.float32],
    s: Situation,
    view: PlayerView,
    legal: Sequence[Action],
    ruleset: Ruleset,
    flags: dict[str, bool],
    sh_now: int,
    pass_rank: float,
) -> None:
    tile = view.pending_tile
    assert tile is not None
    p = int(tile)
    options: list[tuple[str, Action]] = []
    for a in legal:
        if a.kind is ActionKind.CHOW:
            assert a.tile is not None
            name = _CLAIMS[p - int(a.tile)]  # claimed tile lowest / middle / highest
            options.append((name, a))
        elif a.kind is ActionKind.PUNG:
            options.append(("pung", a))
        elif a.kind is ActionKind.KONG:
            options.append(("exposed_kong", a))
    melds = len(s.melds)
    for name, a in options:
        meld, used = claim_meld(a, Tile(p))
        after = s.with_meld(meld, used)
        if a.kind is ActionKind.KONG:
            rank, route = _route(after, after.counts)
            rank += 0.5
            sh = shanten_all(after.counts, melds + 1, **flags)
        else:
            rank, route, sh = -1e9, None, 99
            for t in range(34):
                if after.counts[t] and not (t == p and ruleset.no_swap_discard):
                    after.counts[t] -= 1
                    r2, rt = _route(after, after.counts)
                    sh = min(sh, shanten_all(after.counts, melds + 1, **flags))
                    after.counts[t] += 1
                    if r2 > rank:
                        rank, route = r2, rt
        if route is None:
            continue
        out[_H[f"{name}_possible"]] = 1.0
        out[_H[f"{name}_route_gain/20"]] = _clip((rank - _CLAIM_MARGIN - pass_rank) / 20, -1.0)
        out[_H[f"{name}_shanten_gain/2"]] = _clip((sh_now - sh) / 2, -1.0)
        out[_H[f"{name}_valid"]] = float(route.fan_self >= ruleset.min_fan)
