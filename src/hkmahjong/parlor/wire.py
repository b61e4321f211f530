"""線上格式 (wire format): engine values as the JSON the parlor sends (docs/protocol.md).

Plain functions from engine types to JSON-ready dicts and lists; nothing here decides what a
seat may see — callers pass ``event.for_seat(seat)`` and ``state.view(seat)``, which already hold
only what that seat may know. Tiles are MPSZ text (``5p``, ``7z``, bonus ``1f``/``1g``), seats
are wind letters (``E S W N``: seat winds of the current hand), per-seat lists are indexed
東 南 西 北.

>>> from hkmahjong.engine import Action
>>> action_json(Action.from_text("chow 345p"))["tiles"]
['3p', '4p', '5p']
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from json.encoder import c_encode_basestring, c_make_encoder  # type: ignore[attr-defined]
from typing import TYPE_CHECKING, Any

from hkmahjong.engine.actions import Action, ActionKind
from hkmahjong.tiles import Tile

if TYPE_CHECKING:
    from hkmahjong.bots.advice import Advice
    from hkmahjong.engine.events import Event, FalseWinRecord, HandOutcome, WinRecord
    from hkmahjong.engine.view import PlayerView, PublicView
    from hkmahjong.hand.meld import Meld
    from hkmahjong.scoring.payment import PaymentLine
    from hkmahjong.scoring.result import ScoreResult
    from hkmahjong.tiles import Wind

__all__ = [
    "action_json",
    "advice_json",
    "dumps",
    "event_json",
    "legal_json",
    "legal_text",
    "meld_json",
    "outcome_json",
    "payment_json",
    "public_view_json",
    "score_json",
    "seat_or_none",
    "tiles_json",
    "view_json",
    "win_json",
]

JSON = dict[str, Any]


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
_C_ENCODER = (
    None
    if c_make_encoder is None or c_encode_basestring is None
    else c_make_encoder(
        None, _ENCODER.default, c_encode_basestring, None, ":", ",", False, False, False
    )
)
"""The C encoder with the options of :data:`_ENCODER`, made once and without the check for
circular references (``JSONEncoder.encode`` builds one per call and keeps a dict of every
container it enters): the frames are built by the server, never circular."""


def dumps(obj: object) -> str:
    """The frame text of ``obj``: compact JSON, UTF-8 characters kept (``"碰"``, not ``\\u78b0``).

    One encoder for every frame (``json.dumps`` with options builds a new one per call).
    """
    if _C_ENCODER is None:  # pragma: no cover - CPython has the accelerator
        return _ENCODER.encode(obj)
    return "".join(_C_ENCODER(obj, 0))


_MPSZ = tuple(Tile(i).mpsz for i in range(42))


def tiles_json(tiles: Iterable[Tile]) -> list[str]:
    """Tiles as MPSZ strings, in the given order."""
    return [_MPSZ[t] for t in tiles]


def seat_or_none(seat: Wind | None) -> str | None:
    """A seat wind as its letter, or None."""
    return None if seat is None else seat.letter


def _tile(tile: Tile | None) -> str | None:
    return None if tile is None else _MPSZ[tile]


def meld_json(meld: Meld) -> JSON:
    """一副: kind (chow/pung/kong/added_kong/concealed_kong), tiles, source offset (1 上家 2 對家 3 下家)."""
    return {
        "kind": meld.kind.value,
        "tiles": tiles_json(meld.tiles),
        "source": meld.source,
        "text": meld.text,
    }


_ACTIONS: dict[Action, JSON] = {}


def action_json(action: Action) -> JSON:
    """動作: the text to send back, its kind, Chinese label, tile (and a chow's three tiles).

    Actions are interned values, so each one's JSON is built once and copied after.
    """
    known = _ACTIONS.get(action)
    if known is None:
        known = _ACTIONS[action] = _action_json(action)
    out = dict(known)
    if "tiles" in out:
        out["tiles"] = list(out["tiles"])
    return out


def _action_json(action: Action) -> JSON:
    out: JSON = {
        "action": action.text,
        "kind": action.kind.word,
        "zh": action.zh,
        "tile": _tile(action.tile),
    }
    if action.kind is ActionKind.CHOW and action.tile is not None:
        first = int(action.tile)
        out["tiles"] = [action.tile.mpsz, f"{first % 9 + 2}{'mps'[first // 9]}"]
        out["tiles"].append(f"{first % 9 + 3}{'mps'[first // 9]}")
    return out


_ACTION_TEXTS: dict[Action, str] = {}


def legal_text(legal: Sequence[Action]) -> str:
    """``dumps(legal_json(legal))``, from each action's JSON encoded once."""
    texts = _ACTION_TEXTS
    out = []
    for a in legal:
        known = texts.get(a)
        if known is None:
            known = texts[a] = dumps(legal_json((a,))[0])
        out.append(known)
    return "[" + ",".join(out) + "]"


def legal_json(legal: Sequence[Action]) -> list[JSON]:
    """The legal actions, in the engine's order (kind, then tile).

    The items are the shared cached objects of :func:`action_json` (a prompt is encoded, never
    changed): read-only.
    """
    actions = _ACTIONS
    out = []
    for a in legal:
        known = actions.get(a)
        if known is None:
            known = actions[a] = _action_json(a)
        out.append(known)
    return out


def event_json(event: Event) -> JSON:
    """事件 as a seat sees it (pass ``event.for_seat(seat)``): every field always present."""
    return {
        "kind": event.kind.value,
        "seat": seat_or_none(event.seat),
        "tile": _tile(event.tile),
        "tiles": tiles_json(event.tiles),
        "meld": None if event.meld is None else meld_json(event.meld),
        "source": seat_or_none(event.source),
        "detail": event.detail,
    }


def score_json(result: ScoreResult) -> JSON:
    """計番: total fan, limit flag and the itemised fan (id, 繁/简/English names, fan, count)."""
    return {
        "total_fan": result.total_fan,
        "is_limit": result.is_limit,
        "limit": result.limit,
        "items": [
            {
                "id": item.fan_id.value,
                "zh": item.fan_id.zh,
                "zh_hans": item.fan_id.zh_hans,
                "en": item.fan_id.en,
                "fan": item.fan,
                "count": item.count,
            }
            for item in result.items
        ],
    }


def win_json(win: WinRecord) -> JSON:
    """糊: the winner, off whom (None = self-drawn), the hand, winning tile, score and 包牌."""
    return {
        "seat": win.seat.letter,
        "discarder": seat_or_none(win.discarder),
        "self_drawn": win.self_drawn,
        "hand": win.hand.text,
        "concealed": tiles_json(win.hand.concealed),
        "melds": [meld_json(m) for m in win.hand.melds],
        "bonus": tiles_json(win.hand.bonus),
        "winning_tile": _tile(win.context.winning_tile),
        "score": score_json(win.result),
        "liable": seat_or_none(win.liable),
        "liable_half_discard": win.liable_half_discard,
    }


def _false_win_json(record: FalseWinRecord) -> JSON:
    return {
        "seat": record.seat.letter,
        "self_drawn": record.self_drawn,
        "would_be_discarder": seat_or_none(record.would_be_discarder),
    }


def payment_json(line: PaymentLine) -> JSON:
    """一筆付款: who pays whom how much, what for (``kind``, a ``PaymentKind`` value) and why in
    words (zh and en)."""
    return {
        "from": line.payer.letter,
        "to": line.payee.letter,
        "amount": line.amount,
        "kind": line.kind.value,
        "zh": line.reason_zh,
        "en": line.reason_en,
    }


def outcome_json(outcome: HandOutcome) -> JSON:
    """一局的結果: deltas per seat (E S W N), wins, false wins, drawn, the payment lines."""
    return {
        "deltas": list(outcome.deltas),
        "drawn": outcome.drawn,
        "wins": [win_json(w) for w in outcome.wins],
        "false_wins": [_false_win_json(f) for f in outcome.false_wins],
        "payments": [payment_json(p) for p in outcome.payments],
    }


def view_json(view: PlayerView) -> JSON:
    """玩家視角: everything the seat may see, per-seat lists indexed 東 南 西 北."""
    return {
        "seat": view.seat.letter,
        "prevailing": view.prevailing_wind.letter,
        "hand_number": view.hand_number,
        "phase": view.phase.value,
        "to_act": [s.letter for s in view.to_act],
        "current": view.current.letter,
        "concealed": tiles_json(view.concealed),
        "last_drawn": _tile(view.last_drawn),
        "melds": [[meld_json(m) for m in seat] for seat in view.melds],
        "bonus": [tiles_json(seat) for seat in view.bonus],
        "discards": [tiles_json(seat) for seat in view.discards],
        "claimed": [list(seat) for seat in view.claimed],
        "from_draw": [list(seat) for seat in view.from_draw],
        "concealed_counts": list(view.concealed_counts),
        "tiles_left": view.tiles_left,
        "pending_tile": _tile(view.pending_tile),
        "pending_from": seat_or_none(view.pending_from),
        "outcome": None if view.outcome is None else outcome_json(view.outcome),
    }


def public_view_json(view: PublicView) -> JSON:
    """旁觀視角: a spectator's view in the shape of :func:`view_json` — ``seat`` null, no
    concealed tile (``concealed`` empty, ``last_drawn`` null), everything public."""
    return {
        "seat": None,
        "prevailing": view.prevailing_wind.letter,
        "hand_number": view.hand_number,
        "phase": view.phase.value,
        "to_act": [s.letter for s in view.to_act],
        "current": view.current.letter,
        "concealed": [],
        "last_drawn": None,
        "melds": [[meld_json(m) for m in seat] for seat in view.melds],
        "bonus": [tiles_json(seat) for seat in view.bonus],
        "discards": [tiles_json(seat) for seat in view.discards],
        "claimed": [list(seat) for seat in view.claimed],
        "from_draw": [list(seat) for seat in view.from_draw],
        "concealed_counts": list(view.concealed_counts),
        "tiles_left": view.tiles_left,
        "pending_tile": _tile(view.pending_tile),
        "pending_from": seat_or_none(view.pending_from),
        "outcome": None if view.outcome is None else outcome_json(view.outcome),
    }


def advice_json(advice: Advice) -> JSON:
    """提示: :class:`~hkmahjong.bots.advice.Advice` as data (the screens put it into words).

    ``action`` is the suggestion (an action of the prompt, with its kind, Chinese label and tile);
    ``shanten_now`` / ``shanten`` the 向聽 before and after it (-1: a win); ``waits`` when ready
    after it, each with the copies this seat cannot see and the fan on a discard / self-drawn
    (null: not a valid win); ``useful`` otherwise (有效牌 with unseen copies); ``goal`` the route
    aimed at (its fan patterns with their names, ``suit`` m/p/s or null); ``danger`` for a discard
    (``level`` safe/low/medium/high, ``ready`` the seats that look ready).
    """
    goal = advice.goal
    danger = advice.danger
    return {
        "action": action_json(advice.action),
        "seat": advice.seat.letter,
        "shanten_now": advice.shanten_now,
        "shanten": advice.shanten,
        "waits": [
            {
                "tile": w.tile.mpsz,
                "left": w.left,
                "on_discard": w.on_discard,
                "self_drawn": w.self_drawn,
            }
            for w in advice.waits
        ],
        "useful": [{"tile": tile.mpsz, "left": left} for tile, left in advice.useful],
        "goal": None
        if goal is None
        else {
            "distance": goal.distance,
            "fans": [
                {"id": f.value, "zh": f.zh, "zh_hans": f.zh_hans, "en": f.en} for f in goal.fans
            ],
            "value_tiles": tiles_json(goal.value_tiles),
            "suit": None if goal.suit is None else goal.suit.value,
            "fan_on_discard": goal.fan_on_discard,
            "fan_self_drawn": goal.fan_self_drawn,
        },
        "danger": None
        if danger is None
        else {
            "tile": danger.tile.mpsz,
            "level": danger.level.name.lower(),
            "expected_loss": round(danger.expected_loss, 1),
            "liability": danger.liability,
            "ready": [w.letter for w in danger.ready],
        },
        "steps_given_up": advice.steps_given_up,
        "safer": advice.safer,
    }
