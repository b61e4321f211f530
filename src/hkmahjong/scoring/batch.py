"""批量計番 the JSON Lines batch format of ``hkmj score --jsonl`` (BATCH_FORMATS.md), as plain data.

:func:`score_record` turns one decoded input object into one output object; :func:`score_line`
does the same for a text line and never raises: a malformed line gives ``{"id": …, "error": …}``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from hkmahjong.errors import MahjongError
from hkmahjong.hand import Hand, Meld, MeldKind
from hkmahjong.rules.ruleset import Ruleset
from hkmahjong.scoring.calculator import score_hand
from hkmahjong.scoring.context import SPECIAL_FLAGS, WinContext
from hkmahjong.scoring.payment import payment_summary, settle_win
from hkmahjong.scoring.result import ScoreResult
from hkmahjong.tiles import Tile, Wind, parse_tile, parse_tiles

__all__ = [
    "BatchError",
    "NotationError",
    "arrangement_texts",
    "hand_from_json",
    "payment_json",
    "result_json",
    "score_line",
    "score_record",
    "settlement_extras",
]


class BatchError(MahjongError):
    """A batch input line that is malformed (names the field and what is allowed)."""


class NotationError(BatchError):
    """Tile text in a batch line that cannot be read (reported as reason ``bad_notation``)."""


RulesLoader = Callable[[str], Ruleset]


def _field(obj: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    value = obj.get(key)
    if value is not None and not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise BatchError(f"{where}{key} = {value!r}: expected {names}")
    return value


def _wind(value: Any, where: str) -> Wind:
    if not isinstance(value, str):
        raise BatchError(f"{where} = {value!r}: expected one of E, S, W, N")
    try:
        return Wind.parse(value)
    except MahjongError:
        raise BatchError(f"{where} = {value!r}: expected one of E, S, W, N") from None


def _meld(obj: Any, index: int) -> Meld:
    where = f"hand.melds[{index}]"
    if not isinstance(obj, Mapping):
        raise BatchError(f"{where}: expected an object with type, tiles, exposed")
    kind = obj.get("type")
    tiles_text = obj.get("tiles")
    exposed = obj.get("exposed", True)
    if kind not in ("chow", "pung", "kong"):
        raise BatchError(f"{where}.type = {kind!r}: expected chow, pung or kong")
    if not isinstance(tiles_text, str):
        raise BatchError(f"{where}.tiles = {tiles_text!r}: expected tile text such as '111s'")
    if not isinstance(exposed, bool):
        raise BatchError(f"{where}.exposed = {exposed!r}: expected true or false")
    try:
        tiles = sorted(parse_tiles(tiles_text))
    except MahjongError as exc:
        raise NotationError(f"{where}.tiles: {exc}") from None
    size = 4 if kind == "kong" else 3
    if len(tiles) != size:
        raise BatchError(f"{where}: a {kind} has {size} tiles, got {tiles_text!r}")
    if not exposed and kind != "kong":
        raise BatchError(f"{where}: exposed = false is only for a concealed kong")
    mk = {
        "chow": MeldKind.CHOW,
        "pung": MeldKind.PUNG,
        "kong": MeldKind.KONG if exposed else MeldKind.CONCEALED_KONG,
    }[kind]
    if kind == "chow":
        ok = tiles[0] < 27 and tiles[1] == tiles[0] + 1 and tiles[2] == tiles[0] + 2
        ok = ok and tiles[0] // 9 == tiles[2] // 9
    else:
        ok = all(t == tiles[0] for t in tiles)
    if not ok:
        raise BatchError(f"{where}: {tiles_text!r} is not a {kind}")
    try:
        return Meld(mk, tiles[0])
    except MahjongError as exc:
        raise BatchError(f"{where}: {exc}") from None


def hand_from_json(hand_obj: Any, flowers: Any) -> tuple[Hand, Tile | None]:
    """The :class:`Hand` and winning tile of a batch ``hand`` object plus ``context.flowers``.

    :raises BatchError: naming the malformed field.
    """
    if isinstance(hand_obj, str):
        try:
            hand = Hand.from_text(hand_obj, allow_any_count=True)
        except MahjongError as exc:
            raise NotationError(f"hand: {exc}") from None
        concealed, melds, bonus = list(hand.concealed), list(hand.melds), list(hand.bonus)
        winning_text = None
    elif isinstance(hand_obj, Mapping):
        conc_text = _field(hand_obj, "concealed", str, "hand.")
        if conc_text is None:
            raise BatchError("hand.concealed is missing: expected tile text such as '234m44466p'")
        try:
            concealed = parse_tiles(conc_text)
        except MahjongError as exc:
            raise NotationError(f"hand.concealed: {exc}") from None
        bonus = [t for t in concealed if t.is_bonus]
        concealed = [t for t in concealed if not t.is_bonus]
        melds_obj = hand_obj.get("melds") or []
        if not isinstance(melds_obj, list):
            raise BatchError(f"hand.melds = {melds_obj!r}: expected a list")
        melds = [_meld(m, i) for i, m in enumerate(melds_obj)]
        winning_text = _field(hand_obj, "winning_tile", str, "hand.")
    else:
        raise BatchError(f"hand = {hand_obj!r}: expected an object (or hand text)")
    if flowers is not None:
        if not isinstance(flowers, list) or not all(isinstance(f, str) for f in flowers):
            raise BatchError(f"context.flowers = {flowers!r}: expected a list such as ['1f', '2g']")
        for f in flowers:
            try:
                t = parse_tile(f)
            except MahjongError as exc:
                raise NotationError(f"context.flowers: {exc}") from None
            if not t.is_bonus:
                raise BatchError(f"context.flowers: {f!r} is not a flower or season (1f-4f, 1g-4g)")
            bonus.append(t)
    winning: Tile | None = None
    if winning_text is not None:
        try:
            winning = parse_tile(winning_text)
        except MahjongError as exc:
            raise NotationError(f"hand.winning_tile: {exc}") from None
    return Hand(tuple(concealed), tuple(melds), tuple(bonus)), winning


def arrangement_texts(result: ScoreResult) -> list[str]:
    """The arrangement as BATCH_FORMATS lists it: concealed groups, the pair, then declared melds."""
    arr = result.arrangement
    if arr is None:
        return []
    declared = [g.text for g in arr.groups if g.declared]
    rest = [g.text for g in arr.groups if not g.declared]
    return rest + declared


def payment_json(
    result: ScoreResult,
    ruleset: Ruleset,
    *,
    self_drawn: bool,
    winner: Wind | None,
    discarder: Wind | None,
    liable: Wind | None,
    robbed_kong: bool = False,
    kong_discarder: Wind | None = None,
    co_winners: tuple[Wind, ...] = (),
    balances: Mapping[Wind, int] | None = None,
) -> dict[str, Any] | None:
    """The ``payment`` object (share amounts, and ``settlement`` when the seats are known).

    :raises PaymentError: when the seats do not fit the kind of win (a MahjongError).
    """
    if not result.valid_win:
        return None
    full_flush = any(i.fan_id.value == "FULL_FLUSH" for i in result.items)
    out: dict[str, Any] = dict(
        payment_summary(result.total_fan, ruleset, is_limit=result.is_limit, full_flush=full_flush)
    )
    if winner is not None and (self_drawn or discarder is not None):
        settlement = settle_win(
            result,
            winner=winner,
            discarder=None if self_drawn else discarder,
            self_drawn=self_drawn,
            ruleset=ruleset,
            liable=liable,
            robbed_kong=robbed_kong,
            kong_discarder=kong_discarder if self_drawn else None,
            co_winners=co_winners,
            balances=balances,
        )
        out["settlement"] = settlement.as_json()
    return out


def result_json(result: ScoreResult) -> dict[str, Any]:
    """The scoring part of an output line: validity, reason, total, limit, items, arrangement."""
    out: dict[str, Any] = {
        "valid_win": result.valid_win,
        "reason": result.reason,
        "total_fan": result.total_fan,
        "limit": result.is_limit,
        "items": [
            {"id": i.fan_id.value, "zh": i.zh, "en": i.en, "fan": i.fan} for i in result.items
        ],
        "arrangement": arrangement_texts(result),
    }
    if not result.valid_win or "winning tile not given" in result.message:
        out["message"] = result.message
    return out


def score_record(obj: Any, default_rules: Ruleset, load: RulesLoader) -> dict[str, Any]:
    """Score one decoded batch input object; the output object of BATCH_FORMATS.md.

    :raises BatchError: (or another MahjongError) when the object is malformed.
    """
    if not isinstance(obj, Mapping):
        raise BatchError("each line must be a JSON object")
    ctx_obj = obj.get("context") or {}
    if not isinstance(ctx_obj, Mapping):
        raise BatchError(f"context = {ctx_obj!r}: expected an object")
    rules_name = _field(obj, "rules", str, "")
    ruleset = load(rules_name) if rules_name else default_rules
    try:
        hand, winning = hand_from_json(obj.get("hand"), ctx_obj.get("flowers"))
    except NotationError as exc:
        return {
            "id": obj.get("id"),
            "valid_win": False,
            "reason": "bad_notation",
            "total_fan": 0,
            "limit": False,
            "items": [],
            "arrangement": [],
            "message": str(exc),
        }
    self_drawn = _field(ctx_obj, "self_drawn", bool, "context.") or False
    winner_given = ctx_obj.get("winner_seat")
    if winner_given is not None:
        winner_seat = _wind(winner_given, "context.winner_seat")
    seat = _wind(
        ctx_obj.get("seat_wind", "E" if winner_given is None else winner_given),
        "context.seat_wind",
    )
    if winner_given is not None and winner_seat is not seat:
        raise BatchError(
            f"context.seat_wind = {seat.letter!r} but winner_seat = {winner_seat.letter!r}: "
            "a seat is named by its wind, so they must agree (give one of them)"
        )
    prevailing = _wind(ctx_obj.get("prevailing_wind", "E"), "context.prevailing_wind")
    special = ctx_obj.get("special") or []
    if not isinstance(special, list):
        raise BatchError(f"context.special = {special!r}: expected a list")
    flags: dict[str, bool] = {}
    for word in special:
        if word not in SPECIAL_FLAGS:
            allowed = ", ".join(SPECIAL_FLAGS)
            raise BatchError(f"context.special: unknown word {word!r}; allowed {allowed}")
        flags[SPECIAL_FLAGS[word]] = True
    ctx = WinContext(
        self_drawn=self_drawn,
        seat_wind=seat,
        prevailing_wind=prevailing,
        winning_tile=winning,
        **flags,
    )
    result = score_hand(hand, ctx, ruleset)
    out: dict[str, Any] = {"id": obj.get("id")}
    out.update(result_json(result))
    winner = ctx_obj.get("winner_seat")
    discarder = ctx_obj.get("discarder_seat")
    liable = ctx_obj.get("liable_seat")
    kong_discarder = ctx_obj.get("kong_discarder_seat")
    has_seats = any(x is not None for x in (winner, discarder, liable, kong_discarder))
    winner_w = _wind(winner, "context.winner_seat") if winner is not None else seat
    discarder_w = _wind(discarder, "context.discarder_seat") if discarder is not None else None
    liable_w = _wind(liable, "context.liable_seat") if liable is not None else None
    extras = settlement_extras(ctx_obj, ruleset, ctx)
    payment = payment_json(
        result,
        ruleset,
        self_drawn=self_drawn or ctx.eight_bonus or ctx.seven_bonus,
        winner=winner_w if has_seats or extras["co_winners"] else None,
        discarder=discarder_w,
        liable=liable_w,
        robbed_kong=ctx.robbing_kong,
        **extras,
    )
    if payment is not None:
        out["payment"] = payment
    return out


def settlement_extras(
    ctx_obj: Mapping[str, Any], ruleset: Ruleset, ctx: WinContext
) -> dict[str, Any]:
    """The optional settlement fields of a batch ``context``, as :func:`payment_json` keywords.

    ``kong_discarder_seat`` (出槓), ``co_winner_seats`` (一炮多響) and ``balances`` (破產 cap).

    :raises BatchError: naming the field and what is allowed.
    """
    kong = ctx_obj.get("kong_discarder_seat")
    kong_w = _wind(kong, "context.kong_discarder_seat") if kong is not None else None
    if kong_w is not None and not (ctx.self_drawn and ctx.kong_replacement):
        raise BatchError(
            "context.kong_discarder_seat (出槓) is only for a self-drawn win on a kong "
            "replacement: add self_drawn = true and special 'kong_replacement'"
        )
    return {
        "kong_discarder": kong_w,
        "co_winners": _co_winner_seats(ctx_obj.get("co_winner_seats"), ruleset, ctx.robbing_kong),
        "balances": _balances(ctx_obj.get("balances")),
    }


def _co_winner_seats(value: Any, ruleset: Ruleset, robbing_kong: bool) -> tuple[Wind, ...]:
    """``context.co_winner_seats``: the other winners of the same discard (一炮多響)."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise BatchError(f"context.co_winner_seats = {value!r}: expected a list such as ['W']")
    seats = tuple(_wind(v, f"context.co_winner_seats[{i}]") for i, v in enumerate(value))
    if seats and not (ruleset.multiple_winners or robbing_kong):
        raise BatchError(
            f"context.co_winner_seats: {ruleset.name!r} plays 截糊 (one winner per discard); "
            "several winners need switches.multiple_winners = true (一炮多響) or a robbed kong"
        )
    return seats


def _balances(value: Any) -> dict[Wind, int] | None:
    """``context.balances``: what each seat holds, for the 'until bankrupt' cap (破產)."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise BatchError(f'context.balances = {value!r}: expected an object such as {{"E": 100}}')
    out: dict[Wind, int] = {}
    for key, amount in value.items():
        seat = _wind(key, "context.balances key")
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise BatchError(
                f"context.balances.{key} = {amount!r}: expected a whole number of jade >= 0"
            )
        out[seat] = amount
    missing = [w.letter for w in Wind if w not in out]
    if missing:
        raise BatchError(f"context.balances: missing seat(s) {', '.join(missing)}")
    return out


def score_line(
    line: str, line_no: int, default_rules: Ruleset, load: RulesLoader
) -> dict[str, Any]:
    """Score one JSONL line; a malformed line gives ``{"id": …, "error": "line N: …"}``."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        return {
            "id": None,
            "error": f"line {line_no}: not valid JSON ({exc.msg} at column {exc.colno})",
        }
    ident = obj.get("id") if isinstance(obj, dict) else None
    try:
        return score_record(obj, default_rules, load)
    except MahjongError as exc:
        return {"id": ident, "error": f"line {line_no}: {exc}"}
