"""放銃 risk: how likely each opponent is ready, on which tiles, with what fan — and 包牌.

Read only from what the seat can see: exposed sets, discards, bonus tiles and the tiles still
unseen. The parlor has no 過水, so a tile an opponent discarded is only *likely* safe against them
(they could have changed their wait); it is discounted, not zeroed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from hkmahjong.bots.base import Situation
from hkmahjong.bots.planner import share_value
from hkmahjong.bots.routes import bonus_fan, value_honours
from hkmahjong.hand import MeldKind
from hkmahjong.rules import FanId, Ruleset
from hkmahjong.rules.memo import IdentityMemo
from hkmahjong.tiles import Wind

__all__ = ["Threat", "feeder_shares", "liability_tiles", "threats", "tile_danger"]

_DRAGONS = (31, 32, 33)
_WINDS = (27, 28, 29, 30)


@dataclass(frozen=True, slots=True)
class Threat:
    """One opponent as this seat reads it."""

    seat: Wind
    p_ready: float
    fan: int
    """Estimated fan of their win (at least the table minimum)."""
    pay: float
    """Jade this seat pays if it deals in to them."""
    flush_suit: int | None
    """The suit they seem to collect (混一色/清一色 read from their exposed sets), else None."""
    wait_weight: tuple[float, ...]
    """Relative chance of each of the 34 kinds being among their winning tiles, given ready."""


def _flush_suit(s: Situation, seat: Wind) -> int | None:
    melds = s.view.melds[seat]
    suits = {m.first // 9 for m in melds if m.first < 27}
    if len(suits) == 1 and len(melds) >= 2:
        return next(iter(suits))
    return None


def feeder_shares(r: Ruleset) -> int:
    """Shares the seat that feeds a win pays: the full-gun multiple, or its own 2 under half gun."""
    return r.payment.discarder_shares if r.payment.gun.value == "full_gun" else 2


def threats(s: Situation) -> list[Threat]:
    """Every opponent's readiness, fan estimate, payment and wait weights."""
    view = s.view
    r = s.route_ctx.ruleset
    out: list[Threat] = []
    disc_shares = feeder_shares(r)
    # the weight of each kind before an opponent's flush and discards, from its copies unseen
    base = [_BASE_WEIGHT[t][u] for t, u in enumerate(s.unseen)]
    for seat in Wind:
        if seat == view.seat:
            continue
        melds = view.melds[seat]
        turns = len(view.discards[seat])
        exposed = sum(1 for m in melds if m.kind is not MeldKind.CONCEALED_KONG)
        hazard = 0.035 * turns + 0.3 * exposed + 0.15 * (len(melds) - exposed)
        p_ready = min(0.92, 1.0 - math.exp(-hazard)) if turns + len(melds) else 0.0
        values = _values(r, seat, view.prevailing_wind)
        fan = bonus_fan(r, seat, view.bonus[seat])
        fan += sum(values.get(int(m.first), 0) for m in melds if m.kind is not MeldKind.CHOW)
        flush = _flush_suit(s, seat)
        if flush is not None:
            honours = any(m.first >= 27 for m in melds)
            fan += (
                (r.fan_value(FanId.HALF_FLUSH if honours else FanId.FULL_FLUSH) or 0)
                if len(melds) >= 3
                else 1
            )
        if melds and all(m.kind is not MeldKind.CHOW for m in melds) and len(melds) >= 3:
            fan += r.fan_value(FanId.ALL_PUNGS) or 0
        fan = max(fan, r.min_fan)
        if r.limit is not None:
            fan = min(fan, r.limit)
        pay = disc_shares * share_value(fan, r)
        weights = base[:]
        if flush is not None:
            for t in range(27):
                weights[t] *= 1.8 if t // 9 == flush else 0.1
        for t in {int(t) for t in view.discards[seat]}:
            weights[t] *= 0.25
        total = sum(weights) or 1.0
        waits = 2.2
        out.append(
            Threat(
                seat,
                p_ready,
                fan,
                pay,
                flush,
                tuple([x if (x := w * waits / total) < 1.0 else 1.0 for w in weights]),
            )
        )
    return out


def _base_weight(t: int, unseen: int) -> float:
    """A kind's wait weight from its copies unseen (none: 0), before flushes and discards."""
    if unseen <= 0:
        return 0.0
    if t >= 27:
        return 0.25 * unseen
    rank = t % 9
    w = 1.0 if 2 <= rank <= 6 else (0.8 if rank in (1, 7) else 0.55)
    w *= 0.5 + unseen / 6.0
    return w


_BASE_WEIGHT = [[_base_weight(t, u) for u in range(5)] for t in range(34)]

_VALUES: IdentityMemo[Ruleset, dict[int, int]] = IdentityMemo(limit=4096)


def _values(r: Ruleset, seat: Wind, prevailing: Wind) -> dict[int, int]:
    """:func:`~hkmahjong.bots.routes.value_honours`, remembered per ruleset and winds."""
    found = _VALUES.get(r, (seat, prevailing))
    if found is None:
        found = _VALUES.put(r, (seat, prevailing), value_honours(r, seat, prevailing))
    return found


def liability_tiles(s: Situation) -> dict[int, float]:
    """包牌 tiles: discarding them could make this seat liable for a limit hand (tile -> jade at risk)."""
    view = s.view
    r = s.route_ctx.ruleset
    out: dict[int, float] = {}
    limit = r.limit if r.limit is not None else 13
    limit_pay = 3.0 * share_value(limit, r)
    for seat in Wind:
        if seat == view.seat:
            continue
        melds = [m for m in view.melds[seat] if m.kind is not MeldKind.CHOW]
        firsts = {int(m.first) for m in melds}
        dragons = firsts & set(_DRAGONS)
        winds = firsts & set(_WINDS)
        if len(dragons) == 2:
            for t in set(_DRAGONS) - dragons:
                if s.unseen[t] >= 2:
                    out[t] = max(out.get(t, 0.0), limit_pay)
        if len(winds) == 3:
            for t in set(_WINDS) - winds:
                if s.unseen[t] >= 2:
                    out[t] = max(out.get(t, 0.0), limit_pay)
        if sum(1 for m in melds if m.kind.is_kong) == 3:
            for t in range(34):
                if s.unseen[t] >= 3:
                    out[t] = max(out.get(t, 0.0), 0.3 * limit_pay)
    return out


def tile_danger(threat_list: list[Threat], tile: int) -> float:
    """Expected jade lost by discarding ``tile`` now (deal-in chance × payment, summed)."""
    return sum(th.p_ready * th.wait_weight[tile] * th.pay for th in threat_list)
