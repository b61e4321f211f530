"""一局之果: a finished hand's outcome, assembled from the wins and false wins the hand recorded.

While a hand is played, :class:`~hkmahjong.engine.state.HandState` records each win as a *spec*:
the JSON-ready facts of the moment (the winner, the discarder, the hand's text, its
:class:`~hkmahjong.scoring.WinContext`, the turn, 生章, the tiles left, ...) that the state saves
with its JSON (key ``wins``; a false win 詐糊 under ``false_wins``). :func:`hand_outcome` turns
them into the :class:`~hkmahjong.engine.events.HandOutcome`: each win scored from its hand and
context, its 包牌 decided from the hand's liability triggers (docs/engine.md, *Winning, special
contexts, liability, settlement*), and everything settled by the one settlement
(:func:`~hkmahjong.engine.settle.settle_records`). A state read back from JSON thus gives the
same outcome as the one that played the hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from typing import Any, Final

from hkmahjong.engine.events import FalseWinRecord, HandOutcome, WinRecord
from hkmahjong.engine.settle import settle_records
from hkmahjong.hand import Hand
from hkmahjong.rules import Ruleset
from hkmahjong.scoring import WinContext, score_hand
from hkmahjong.scoring.liability import LiabilityTrigger, decide_liability
from hkmahjong.tiles import Tile, Wind

__all__ = ["Spec", "context_from_json", "context_to_json", "false_spec", "hand_outcome", "win_spec"]

Spec = dict[str, Any]
"""A recorded win or false win, as saved in the state's JSON."""

_W: Final = list(Wind)


def context_to_json(ctx: WinContext) -> dict[str, Any]:
    """A win context as a JSON object (every field; winds and the tile as numbers)."""
    out: dict[str, Any] = {}
    for f in fields(ctx):
        v = getattr(ctx, f.name)
        out[f.name] = v if isinstance(v, bool) or v is None else int(v)
    return out


def context_from_json(obj: dict[str, Any]) -> WinContext:
    """Rebuild a win context from :func:`context_to_json`."""
    kw: dict[str, Any] = dict(obj)
    kw["seat_wind"] = Wind(kw["seat_wind"])
    kw["prevailing_wind"] = Wind(kw["prevailing_wind"])
    if kw.get("winning_tile") is not None:
        kw["winning_tile"] = Tile(kw["winning_tile"])
    return WinContext(**kw)


def win_spec(
    seat: int,
    discarder: int | None,
    hand: Hand,
    ctx: WinContext,
    *,
    robbed: bool,
    kong_discarder: int,
    turn: int,
    unseen: bool,
    tiles_left: int,
    discarder_last_claim: int,
) -> Spec:
    """The spec of a win: seat ``seat`` wins with ``hand`` in ``ctx``, on ``discarder``'s tile
    (None: self-drawn); what 包牌 needs (``turn``, 生章 ``unseen``, ``tiles_left``, the
    discarder's last claim turn, -1 for none); the feeder of an exposed kong whose replacement
    won (出槓, -1 for none)."""
    return {
        "seat": seat,
        "discarder": discarder,
        "hand": hand.text,
        "ctx": context_to_json(ctx),
        "robbed": robbed,
        "kong_discarder": kong_discarder,
        "turn": turn,
        "unseen": unseen,
        "tiles_left": tiles_left,
        "discarder_last_claim": discarder_last_claim,
    }


def false_spec(seat: int, *, self_drawn: bool, discarder: int | None) -> Spec:
    """The spec of a false win (詐糊): who, self-drawn or on whose discard."""
    return {"seat": seat, "self_drawn": self_drawn, "discarder": discarder}


def hand_outcome(
    ruleset: Ruleset,
    wins: Sequence[Spec],
    false_wins: Sequence[Spec],
    triggers: Sequence[LiabilityTrigger],
    *,
    drawn: bool,
) -> HandOutcome:
    """The outcome of a hand that ended with ``wins`` and ``false_wins`` (or ``drawn``, 流局):
    each win scored and its liable seat decided from ``triggers``, then all settled together."""
    records: list[WinRecord] = []
    for spec in wins:
        s = int(spec["seat"])
        hand = Hand.from_text(spec["hand"], allow_any_count=True)
        ctx = context_from_json(spec["ctx"])
        res = score_hand(hand, ctx, ruleset)
        disc = spec["discarder"]
        last_claim = int(spec["discarder_last_claim"])
        decision = decide_liability(
            triggers,
            winner=_W[s],
            self_drawn=disc is None,
            discarder=None if disc is None else _W[disc],
            hand_fan_ids=res.fan_ids,
            ruleset=ruleset,
            winning_tile=ctx.winning_tile,
            turn=int(spec["turn"]),
            kong_replacement=ctx.kong_replacement,
            discard_unseen=bool(spec["unseen"]),
            tiles_left=int(spec["tiles_left"]),
            discarder_last_claim_turn=last_claim if last_claim >= 0 else None,
        )
        kd = int(spec["kong_discarder"])
        records.append(
            WinRecord(
                _W[s],
                None if disc is None else _W[disc],
                hand,
                ctx,
                res,
                decision.liable,
                liable_half_discard=decision.half_discard,
                kong_discarder=_W[kd] if kd >= 0 else None,
            )
        )
    false_records = [
        FalseWinRecord(
            _W[int(spec["seat"])],
            bool(spec["self_drawn"]),
            None if spec["discarder"] is None else _W[spec["discarder"]],
        )
        for spec in false_wins
    ]
    total = settle_records(records, false_records, ruleset)
    d = total.as_tuple()
    return HandOutcome(
        deltas=(d[0], d[1], d[2], d[3]),
        wins=tuple(records),
        false_winners=tuple(f.seat for f in false_records),
        drawn=drawn,
        lines=tuple(line.text() for line in total.lines),
        false_wins=tuple(false_records),
        payments=tuple(total.lines),
    )
