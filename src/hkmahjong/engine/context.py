"""和牌情況 and 包牌: building the scorer's ``WinContext`` and the liability triggers from a hand.

The engine tracks every special moment the scorer needs (RULES.md §7, §8) and every liability
trigger (§10); this module turns them into a :class:`~hkmahjong.scoring.WinContext` and finds the
liable seat of a win.
"""

from __future__ import annotations

from dataclasses import dataclass

from hkmahjong.hand.meld import Meld, MeldKind
from hkmahjong.rules import FanId, Ruleset
from hkmahjong.scoring.result import ScoreResult
from hkmahjong.tiles import Wind

__all__ = ["TRIGGER_KINDS", "Trigger", "claim_triggers", "liable_seat_for"]

TRIGGER_KINDS: dict[str, str] = {
    "great_dragons": "包大三元: fed the third exposed dragon set",
    "great_winds": "包大四喜: fed the fourth exposed wind set",
    "four_kongs": "包十八羅漢: fed the fourth kong",
    "fourth_set": "包十二張: fed the fourth exposed set",
    "third_set": "包九張: fed the third exposed set",
}
"""Every liability trigger the engine records, with what it means (RULES.md §10)."""

_LIMIT_OF = {
    "great_dragons": FanId.GREAT_DRAGONS,
    "great_winds": FanId.GREAT_WINDS,
    "four_kongs": FanId.FOUR_KONGS,
}


@dataclass(frozen=True, slots=True)
class Trigger:
    """包牌 trigger: ``feeder``'s discard let ``receiver`` expose a set (``kind`` in TRIGGER_KINDS)."""

    kind: str
    feeder: Wind
    receiver: Wind
    tile: int

    def to_json(self) -> list[object]:
        """``[kind, feeder, receiver, tile]``."""
        return [self.kind, int(self.feeder), int(self.receiver), self.tile]


def claim_triggers(melds: list[Meld], feeder: Wind, receiver: Wind, tile: int) -> list[Trigger]:
    """The triggers of a claim that just added ``melds[-1]`` (made from ``feeder``'s discard)."""
    new = melds[-1]
    exposed = [m for m in melds if m.kind is not MeldKind.CONCEALED_KONG]
    out: list[Trigger] = []
    if new.kind is not MeldKind.CHOW:
        if 31 <= tile <= 33 and sum(1 for m in exposed if 31 <= m.first <= 33) == 3:
            out.append(Trigger("great_dragons", feeder, receiver, tile))
        if 27 <= tile <= 30 and sum(1 for m in exposed if 27 <= m.first <= 30) == 4:
            out.append(Trigger("great_winds", feeder, receiver, tile))
        if new.kind is MeldKind.KONG and sum(1 for m in melds if m.kind.is_kong) == 4:
            out.append(Trigger("four_kongs", feeder, receiver, tile))
    if len(exposed) == 4:
        out.append(Trigger("fourth_set", feeder, receiver, tile))
    elif len(exposed) == 3:
        out.append(Trigger("third_set", feeder, receiver, tile))
    return out


def liable_seat_for(
    triggers: list[Trigger], winner: Wind, result: ScoreResult, ruleset: Ruleset
) -> Wind | None:
    """包牌 (P, parlor): the feeder of a 大三元 / 大四喜 / 十八羅漢 the winner completed, if any."""
    if not ruleset.payment.parlor_liability:
        return None
    ids = result.fan_ids
    for trig in triggers:
        fan = _LIMIT_OF.get(trig.kind)
        if trig.receiver == winner and fan is not None and fan in ids and trig.feeder != winner:
            return trig.feeder
    return None
