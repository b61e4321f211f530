"""包牌 triggers for the engine: recording them from claims and storing them in a hand's JSON.

The engine tracks every special moment the scorer needs (docs/rules.md §7, §8; see
:func:`hkmahjong.engine.moments.win_context`) and records a :class:`~hkmahjong.scoring.liability.LiabilityTrigger` for
every claim that liability rules watch (§10: who fed the third dragon set, the fourth wind set,
the fourth kong, the fourth exposed set, a kong, a designated hand's third set). At a win,
:func:`~hkmahjong.scoring.liability.decide_liability` names the liable seat from them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hkmahjong.scoring.liability import Claim, Designated, LiabilityTrigger, TriggerKind
from hkmahjong.tiles import Tile, Wind

__all__ = ["trigger_from_json", "trigger_to_json", "unseen_before"]


def trigger_to_json(t: LiabilityTrigger) -> list[Any]:
    """A trigger as a JSON list (every field, in order)."""
    return [
        t.kind.value,
        None if t.feeder is None else int(t.feeder),
        int(t.beneficiary),
        t.turn,
        None if t.tile is None else int(t.tile),
        t.claim.value,
        t.feeder_tile_unseen,
        t.beneficiary_discarded_first,
        sorted(d.value for d in t.designated),
        t.feeder_forced,
        t.feeder_last_claim_turn,
    ]


def trigger_from_json(obj: Sequence[Any]) -> LiabilityTrigger:
    """Rebuild a trigger from :func:`trigger_to_json`.

    :raises ValueError: when a field is malformed.
    """
    kind, feeder, beneficiary, turn, tile, claim, unseen, first, designated, forced, last = obj
    return LiabilityTrigger(
        TriggerKind(kind),
        None if feeder is None else Wind(feeder),
        Wind(beneficiary),
        int(turn),
        None if tile is None else Tile(tile),
        Claim(claim),
        bool(unseen),
        bool(first),
        frozenset(Designated(d) for d in designated),
        bool(forced),
        None if last is None else int(last),
    )


def unseen_before(tile: int, rivers: Sequence[Sequence[int]], exposed: int) -> bool:
    """生章: ``tile`` was never discarded nor exposed before (the current discard not counted).

    ``rivers`` include the current discard as the last tile of its river; ``exposed`` is how many
    copies of ``tile`` the exposed melds hold.
    """
    seen = sum(r.count(tile) for r in rivers) - 1 + exposed
    return seen <= 0
