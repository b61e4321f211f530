"""爭牌 The one claim resolver: who gets a discard (or a robbed kong) once every seat has decided.

docs/rules.md §6: win > pung/kong > chow; several winners — the first in turn order after the
discarder wins (截糊, P) or all win (一炮多響, W1/W2); with the 十三幺 exemption (W2 正統) a
十三幺 winner is never head-bumped: it wins too *(decision: both wins stand, each paid)*.
Chow only by the discarder's 下家 (the claimer's 上家 discarded); the engine offers it to no one else.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hkmahjong.engine.actions import Action, ActionKind
from hkmahjong.tiles import Wind

__all__ = ["Resolution", "resolve"]


@dataclass(frozen=True, slots=True)
class Resolution:
    """What a closed window comes to: winners, false winners, or one claim (or nothing)."""

    winners: tuple[Wind, ...] = ()
    false_winners: tuple[Wind, ...] = ()
    claimer: Wind | None = None
    claim: Action | None = None


def resolve(
    decisions: Sequence[tuple[Wind, Action]],
    *,
    multiple_winners: bool,
    thirteen_exempt: Sequence[Wind] = (),
) -> Resolution:
    """Resolve a window; ``decisions`` in turn order from the discarder's 下家.

    ``thirteen_exempt`` lists the winners whose win is 十三幺 when the ruleset exempts it from the
    head bump (empty otherwise).
    """
    winners = [s for s, a in decisions if a.kind is ActionKind.WIN]
    false_winners = tuple(s for s, a in decisions if a.kind is ActionKind.FALSE_WIN)
    if winners:
        if not multiple_winners:
            first = winners[0]
            winners = [first, *(s for s in winners[1:] if s in thirteen_exempt)]
        return Resolution(tuple(winners), false_winners)
    if false_winners:
        return Resolution((), false_winners)
    for kind in (ActionKind.KONG, ActionKind.PUNG, ActionKind.CHOW):
        for seat, action in decisions:
            if action.kind is kind:
                return Resolution(claimer=seat, claim=action)
    return Resolution()
