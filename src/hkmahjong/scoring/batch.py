"""批量計番 the JSON Lines batch format of ``hkmj score --jsonl`` (docs/calculator.md, *Batches*), as plain data.

:func:`score_request` turns one decoded input object into one output object and never raises for a
malformed object (it answers ``{"id": …, "error": …}``); it is the one function behind a batch
line, ``hkmj score --json`` and the web server's ``POST /api/score``. :func:`score_line` does the
same for one text line. :class:`BatchRules` decides what a line's ``"rules"`` may name: a preset,
inline TOML, or a file under a directory the caller allows — never any other file.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from hkmahjong.errors import MahjongError, RulesetError
from hkmahjong.hand import Hand, Meld, MeldKind
from hkmahjong.rules.presets import ALIASES, PRESETS, get_preset
from hkmahjong.rules.ruleset import Ruleset
from hkmahjong.rules.toml_io import loads_ruleset
from hkmahjong.scoring.applies import Settlement, inapplicable
from hkmahjong.scoring.calculator import score_hand
from hkmahjong.scoring.context import SPECIAL_FLAGS, WinContext
from hkmahjong.scoring.payment import payment_summary, settle_win
from hkmahjong.scoring.result import ScoreResult
from hkmahjong.tiles import Tile, Wind, parse_tile, parse_tiles

__all__ = [
    "MAX_HAND_TEXT",
    "MAX_ID_TEXT",
    "BatchError",
    "BatchRules",
    "NotationError",
    "arrangement_texts",
    "excerpt",
    "hand_from_json",
    "json_error_text",
    "payment_json",
    "result_json",
    "score_line",
    "score_record",
    "score_request",
    "settlement_extras",
]

MAX_HAND_TEXT = 200
"""The longest tile text a batch field may hold (a hand with four kongs and eight bonus tiles,
written tile by tile, is well under it); longer text is refused without being echoed."""
MAX_ID_TEXT = 200
"""The longest ``id`` string a line may carry (it is echoed back on the output line)."""
MAX_ERROR_TEXT = 400
"""Error and reason messages are cut to this many characters."""
MAX_INLINE_TOML = 16_000
"""The longest inline TOML a line's ``rules`` may hold."""


def excerpt(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut to about ``limit`` characters (errors echo only a short excerpt).

    >>> excerpt("x" * 100, 10)
    "'xxxxxxxx… (100 characters)"
    """
    text = repr(value)
    if len(text) <= limit:
        return text
    size = f" ({len(value)} characters)" if isinstance(value, str) else ""
    return text[: limit - 1] + "…" + size


def json_error_text(exc: json.JSONDecodeError) -> str:
    """What is wrong with a line that is not JSON, and where (``… at column N``, said once)."""
    msg = exc.msg.removesuffix(" at").rstrip()
    return f"not valid JSON: {msg} at column {exc.colno}"


class BatchError(MahjongError):
    """A batch input line that is malformed (names the field and what is allowed)."""


class NotationError(BatchError):
    """Tile text in a batch line that cannot be read (reported as reason ``bad_notation``)."""


RulesLoader = Callable[[str], Ruleset]

TOP_KEYS = ("id", "hand", "context", "rules")
"""The keys of an input object."""
HAND_KEYS = ("concealed", "melds", "winning_tile")
MELD_KEYS = ("type", "tiles", "exposed")
CONTEXT_KEYS = (
    "self_drawn",
    "seat_wind",
    "prevailing_wind",
    "flowers",
    "special",
    "winner_seat",
    "discarder_seat",
    "liable_seat",
    "kong_discarder_seat",
    "co_winner_seats",
    "balances",
    "liable_half_discard",
)
"""The keys of ``context``: docs/calculator.md's batch format, then our settlement additions."""


def _check_keys(obj: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
    """:raises BatchError: naming the first key of ``obj`` not in ``allowed``."""
    for key in obj:
        if key not in allowed:
            name = key if len(key) <= 40 and key.isprintable() else excerpt(key)
            raise BatchError(f"{where}{name}: unknown key; allowed {', '.join(allowed)}")


def _field(obj: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    value = obj.get(key)
    if value is not None and not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise BatchError(f"{where}{key} = {excerpt(value)}: expected {names}")
    return value


def _tiles_text(value: str, where: str) -> str:
    """``value`` if it is short enough to be tile text; :raises NotationError: otherwise."""
    if len(value) > MAX_HAND_TEXT:
        raise NotationError(
            f"{where}: {len(value)} characters of tile text; a hand is at most {MAX_HAND_TEXT}"
        )
    return value


def _wind(value: Any, where: str) -> Wind:
    if not isinstance(value, str):
        raise BatchError(f"{where} = {excerpt(value)}: expected one of E, S, W, N")
    try:
        return Wind.parse(value)
    except MahjongError:
        raise BatchError(f"{where} = {excerpt(value)}: expected one of E, S, W, N") from None


def _meld(obj: Any, index: int) -> Meld:
    where = f"hand.melds[{index}]"
    if not isinstance(obj, Mapping):
        raise BatchError(f"{where}: expected an object with type, tiles, exposed")
    _check_keys(obj, MELD_KEYS, f"{where}.")
    kind = obj.get("type")
    tiles_text = obj.get("tiles")
    exposed = obj.get("exposed", True)
    if kind not in ("chow", "pung", "kong"):
        raise BatchError(f"{where}.type = {excerpt(kind)}: expected chow, pung or kong")
    if not isinstance(tiles_text, str):
        raise BatchError(
            f"{where}.tiles = {excerpt(tiles_text)}: expected tile text such as '111s'"
        )
    if not isinstance(exposed, bool):
        raise BatchError(f"{where}.exposed = {excerpt(exposed)}: expected true or false")
    _tiles_text(tiles_text, f"{where}.tiles")
    try:
        tiles = sorted(parse_tiles(tiles_text))
    except MahjongError as exc:
        raise NotationError(f"{where}.tiles: {exc}") from None
    size = 4 if kind == "kong" else 3
    if len(tiles) != size:
        raise BatchError(f"{where}: a {kind} has {size} tiles, got {excerpt(tiles_text)}")
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
        raise BatchError(f"{where}: {excerpt(tiles_text)} is not a {kind}")
    try:
        return Meld(mk, tiles[0])
    except MahjongError as exc:
        raise BatchError(f"{where}: {exc}") from None


def hand_from_json(hand_obj: Any, flowers: Any) -> tuple[Hand, Tile | None]:
    """The :class:`Hand` and winning tile of a batch ``hand`` object plus ``context.flowers``.

    :raises BatchError: naming the malformed field (NotationError for unreadable tile text).
    """
    if isinstance(hand_obj, str):
        _tiles_text(hand_obj, "hand")
        try:
            hand = Hand.from_text(hand_obj, allow_any_count=True)
        except MahjongError as exc:
            raise NotationError(f"hand: {exc}") from None
        concealed, melds, bonus = list(hand.concealed), list(hand.melds), list(hand.bonus)
        winning_text = None
    elif isinstance(hand_obj, Mapping):
        _check_keys(hand_obj, HAND_KEYS, "hand.")
        conc_text = _field(hand_obj, "concealed", str, "hand.")
        if conc_text is None:
            raise BatchError("hand.concealed is missing: expected tile text such as '234m44466p'")
        _tiles_text(conc_text, "hand.concealed")
        try:
            concealed = parse_tiles(conc_text)
        except MahjongError as exc:
            raise NotationError(f"hand.concealed: {exc}") from None
        bonus = [t for t in concealed if t.is_bonus]
        concealed = [t for t in concealed if not t.is_bonus]
        melds_obj = hand_obj.get("melds") or []
        if not isinstance(melds_obj, list):
            raise BatchError(f"hand.melds = {excerpt(melds_obj)}: expected a list")
        if len(melds_obj) > 4:
            raise BatchError(f"hand.melds: {len(melds_obj)} melds; a hand declares at most 4")
        melds = [_meld(m, i) for i, m in enumerate(melds_obj)]
        winning_text = _field(hand_obj, "winning_tile", str, "hand.")
    elif hand_obj is None:
        raise BatchError("hand is missing: expected an object with concealed (or hand text)")
    else:
        raise BatchError(f"hand = {excerpt(hand_obj)}: expected an object (or hand text)")
    if flowers is not None:
        if not isinstance(flowers, list) or not all(isinstance(f, str) for f in flowers):
            raise BatchError(
                f"context.flowers = {excerpt(flowers)}: expected a list such as ['1f', '2g']"
            )
        if len(flowers) > 8:
            raise BatchError(f"context.flowers: {len(flowers)} tiles; there are 8 bonus tiles")
        for f in flowers:
            try:
                t = parse_tile(f)
            except MahjongError:
                raise NotationError(
                    f"context.flowers: {excerpt(f)} is not a tile (1f-4f, 1g-4g)"
                ) from None
            if not t.is_bonus:
                raise BatchError(
                    f"context.flowers: {excerpt(f)} is not a flower or season (1f-4f, 1g-4g)"
                )
            bonus.append(t)
    winning: Tile | None = None
    if winning_text is not None:
        try:
            winning = parse_tile(winning_text)
        except MahjongError:
            raise NotationError(
                f"hand.winning_tile = {excerpt(winning_text)}: expected one tile such as '6p'"
            ) from None
    return Hand(tuple(concealed), tuple(melds), tuple(bonus)), winning


def arrangement_texts(result: ScoreResult) -> list[str]:
    """The arrangement as the batch format (docs/calculator.md) lists it: concealed groups, the pair, then declared melds."""
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
    liable_half_discard: bool = False,
    robbed_kong: bool = False,
    kong_discarder: Wind | None = None,
    co_winners: tuple[Wind, ...] = (),
    balances: Mapping[Wind, int] | None = None,
) -> dict[str, Any] | None:
    """The ``payment`` object (share amounts, and ``settlement`` when the seats are known).

    The settlement is the one the engine makes (``scoring.payment.settle_hand``).

    :raises PaymentError: when the seats do not fit the kind of win (a MahjongError).
    :raises BatchError: for ``liable_half_discard`` without a liable seat and a discard win.
    """
    if liable_half_discard and (liable is None or self_drawn):
        raise BatchError(
            "context.liable_half_discard (落地: the liable seat pays half the discard) needs "
            "liable_seat and a win on a discard"
        )
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
            liable_half_discard=liable_half_discard,
            robbed_kong=robbed_kong,
            kong_discarder=kong_discarder if self_drawn else None,
            co_winners=co_winners,
            balances=balances,
        )
        out["settlement"] = settlement.as_json()
    return out


def result_json(result: ScoreResult) -> dict[str, Any]:
    """The scoring part of an output line: validity, reason, total, limit, items, arrangement.

    ``total_fan`` is null where no fan was computed (not complete, invalid, unreadable): only a
    win and a complete hand below the minimum carry a total.
    """
    out: dict[str, Any] = {
        "valid_win": result.valid_win,
        "reason": result.reason,
        "total_fan": result.total_fan if result.fan_counted else None,
        "limit": result.is_limit,
        "items": [
            {"id": i.fan_id.value, "zh": i.zh, "en": i.en, "fan": i.fan} for i in result.items
        ],
        "arrangement": arrangement_texts(result),
    }
    if not result.valid_win or "winning tile not given" in result.message:
        out["message"] = _cut(result.message)
    return out


def _not_scored(ident: Any, reason: str, message: str) -> dict[str, Any]:
    """An output line for a hand that was not scored (no total, no items)."""
    return {
        "id": ident,
        "valid_win": False,
        "reason": reason,
        "total_fan": None,
        "limit": False,
        "items": [],
        "arrangement": [],
        "message": _cut(message),
    }


def _cut(text: str) -> str:
    return text if len(text) <= MAX_ERROR_TEXT else text[: MAX_ERROR_TEXT - 1] + "…"


def _ident(obj: Any) -> Any:
    """The line's ``id`` to echo back.

    :raises BatchError: for an id that is not a short string, a number or null.
    """
    ident = obj.get("id") if isinstance(obj, Mapping) else None
    if ident is None or isinstance(ident, int | float):
        return ident
    if isinstance(ident, str) and len(ident) <= MAX_ID_TEXT:
        return ident
    raise BatchError(
        f"id = {excerpt(ident)}: expected a string of at most {MAX_ID_TEXT} characters, "
        "a number or null"
    )


def _special_where(key: str) -> str:
    if key in SPECIAL_FLAGS:
        return f"context.special {key!r}"
    return f"hand.{key}" if key == "winning_tile" else f"context.{key}"


def score_record(obj: Any, default_rules: Ruleset, load: RulesLoader) -> dict[str, Any]:
    """Score one decoded batch input object; the output object of docs/calculator.md, *Batches*.

    :raises BatchError: (or another MahjongError) when the object is malformed.
    """
    if not isinstance(obj, Mapping):
        raise BatchError("each line must be a JSON object")
    _check_keys(obj, TOP_KEYS, "")
    ident = _ident(obj)
    ctx_obj = obj.get("context") or {}
    if not isinstance(ctx_obj, Mapping):
        raise BatchError(f"context = {excerpt(ctx_obj)}: expected an object")
    _check_keys(ctx_obj, CONTEXT_KEYS, "context.")
    rules_name = _field(obj, "rules", str, "")
    ruleset = load(rules_name) if rules_name else default_rules
    try:
        hand, winning = hand_from_json(obj.get("hand"), ctx_obj.get("flowers"))
    except NotationError as exc:
        return _not_scored(ident, "bad_notation", str(exc))
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
        raise BatchError(f"context.special = {excerpt(special)}: expected a list")
    flags: dict[str, bool] = {}
    for word in special:
        if word not in SPECIAL_FLAGS:
            allowed = ", ".join(SPECIAL_FLAGS)
            raise BatchError(f"context.special: unknown word {excerpt(word)}; allowed {allowed}")
        flags[SPECIAL_FLAGS[word]] = True
    ctx = WinContext(
        self_drawn=self_drawn,
        seat_wind=seat,
        prevailing_wind=prevailing,
        winning_tile=winning,
        **flags,
    )
    winner = ctx_obj.get("winner_seat")
    discarder = ctx_obj.get("discarder_seat")
    liable = ctx_obj.get("liable_seat")
    kong_discarder = ctx_obj.get("kong_discarder_seat")
    has_seats = any(x is not None for x in (winner, discarder, liable, kong_discarder))
    winner_w = _wind(winner, "context.winner_seat") if winner is not None else seat
    discarder_w = _wind(discarder, "context.discarder_seat") if discarder is not None else None
    liable_w = _wind(liable, "context.liable_seat") if liable is not None else None
    extras = settlement_extras(ctx_obj, ruleset, ctx)
    bad = inapplicable(
        hand,
        ctx,
        ruleset,
        Settlement(
            discarder=discarder_w,
            liable=liable_w,
            kong_discarder=extras["kong_discarder"],
            co_winners=extras["co_winners"],
            balances=extras["balances"],
        ),
    )
    if bad is not None:
        return _not_scored(
            ident, "invalid_context", f"{_special_where(bad.key)} cannot apply: {bad.why}"
        )
    result = score_hand(hand, ctx, ruleset)
    out: dict[str, Any] = {"id": ident}
    out.update(result_json(result))
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


def score_request(obj: Any, default_rules: Ruleset, load: RulesLoader) -> dict[str, Any]:
    """計番請求: one batch input object (decoded JSON) to its output object; never raises.

    The output is docs/calculator.md's batch format line; a malformed object gives ``{"id": …, "error": …}``
    whose message names the field and echoes at most a short excerpt of the input. ``load``
    turns a line's ``"rules"`` into a ruleset (use a :class:`BatchRules`, which never reads a file
    the caller did not allow); ``default_rules`` applies when the line names none.
    """
    try:
        return score_record(obj, default_rules, load)
    except MahjongError as exc:
        try:
            ident = _ident(obj)
        except BatchError:
            ident = None
        return {"id": ident, "error": _cut(str(exc))}


def score_line(
    line: str, line_no: int, default_rules: Ruleset, load: RulesLoader
) -> dict[str, Any]:
    """Score one JSONL line; a malformed line gives ``{"id": …, "error": "line N: …"}``."""
    try:
        obj = json.loads(line.rstrip("\r\n"))  # a column on the line, not past its end of line
    except json.JSONDecodeError as exc:
        return {"id": None, "error": f"line {line_no}: {json_error_text(exc)}"}
    except RecursionError:
        return {"id": None, "error": f"line {line_no}: not valid JSON: nested too deeply"}
    out = score_request(obj, default_rules, load)
    if "error" in out:
        out["error"] = f"line {line_no}: {out['error']}"
    return out


class BatchRules:
    """批量台例: what a batch line's ``"rules"`` may name, resolved and cached.

    A preset name or alias; inline TOML (any text holding ``=`` or a line break, e.g.
    ``"preset = 'parlor'\nmin_fan = 1"``); or, only when ``rules_dir`` is given, the name of a
    TOML file inside that directory (no path outside it, symbolic links resolved). Errors never
    echo a file's content and echo at most a short excerpt of the line.
    """

    def __init__(self, rules_dir: str | Path | None = None, *, cache_size: int = 64) -> None:
        """Allow ruleset files under ``rules_dir`` (None: presets and inline TOML only)."""
        self.rules_dir = None if rules_dir is None else Path(rules_dir).resolve()
        self._cache: dict[str, Ruleset] = {}
        self._cache_size = cache_size

    def __call__(self, text: str) -> Ruleset:
        """The ruleset ``text`` names; :raises RulesetError: saying what is wrong."""
        hit = self._cache.get(text)
        if hit is not None:
            return hit
        ruleset = self._resolve(text)
        if len(self._cache) >= self._cache_size:
            self._cache.clear()
        self._cache[text] = ruleset
        return ruleset

    def _resolve(self, text: str) -> Ruleset:
        body = text.lstrip("\ufeff")
        if body.strip().lower() in (*PRESETS, *ALIASES):
            return get_preset(body)
        if "=" in body or "\n" in body:
            if len(body) > MAX_INLINE_TOML:
                raise RulesetError(
                    f"rules: {len(body)} characters of inline TOML; at most {MAX_INLINE_TOML}"
                )
            return loads_ruleset(body, source="rules (inline TOML)")
        presets = ", ".join(PRESETS)
        if self.rules_dir is None:
            raise RulesetError(
                f"rules = {excerpt(text)}: not a preset ({presets}) nor inline TOML; a batch "
                "line may name a ruleset file only under a directory the caller allows "
                "(hkmj score --rules-dir DIR)"
            )
        return self._file(body)

    def _file(self, name: str) -> Ruleset:
        assert self.rules_dir is not None
        where = f"rules = {excerpt(name)}"
        if len(name) > 255:
            raise RulesetError(f"{where}: too long for a file name")
        try:
            path = (self.rules_dir / name).resolve()
        except (OSError, ValueError, RuntimeError):
            raise RulesetError(f"{where}: not a file name") from None
        if not path.is_relative_to(self.rules_dir):
            raise RulesetError(f"{where}: not inside --rules-dir (only files there may be named)")
        try:
            data = path.read_text(encoding="utf-8-sig")
        except (OSError, ValueError):
            raise RulesetError(f"{where}: no readable file of that name in --rules-dir") from None
        try:
            return loads_ruleset(data, source=name)
        except RulesetError:
            raise RulesetError(
                f"{where}: the file is not a valid ruleset (its content is not shown here; "
                "check it with hkmj rules FILE)"
            ) from None


def settlement_extras(
    ctx_obj: Mapping[str, Any], ruleset: Ruleset, ctx: WinContext
) -> dict[str, Any]:
    """The optional settlement fields of a batch ``context``, as :func:`payment_json` keywords.

    ``kong_discarder_seat`` (出槓), ``co_winner_seats`` (一炮多響), ``balances`` (破產 cap) and
    ``liable_half_discard`` (C 落地: the liable seat pays half of the discarder's amount).

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
        "liable_half_discard": _field(ctx_obj, "liable_half_discard", bool, "context.") or False,
    }


def _co_winner_seats(value: Any, ruleset: Ruleset, robbing_kong: bool) -> tuple[Wind, ...]:
    """``context.co_winner_seats``: the other winners of the same discard (一炮多響)."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise BatchError(
            f"context.co_winner_seats = {excerpt(value)}: expected a list such as ['W']"
        )
    seats = tuple(_wind(v, f"context.co_winner_seats[{i}]") for i, v in enumerate(value))
    if seats and not (ruleset.multiple_winners or robbing_kong):
        raise BatchError(
            f"context.co_winner_seats: {excerpt(ruleset.name)} plays 截糊 (one winner per discard); "
            "several winners need switches.multiple_winners = true (一炮多響) or a robbed kong"
        )
    return seats


def _balances(value: Any) -> dict[Wind, int] | None:
    """``context.balances``: what each seat holds, for the 'until bankrupt' cap (破產)."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise BatchError(
            f'context.balances = {excerpt(value)}: expected an object such as {{"E": 100}}'
        )
    out: dict[Wind, int] = {}
    for key, amount in value.items():
        seat = _wind(key, "context.balances key")
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise BatchError(
                f"context.balances.{seat.letter} = {excerpt(amount)}: expected a whole number of jade >= 0"
            )
        out[seat] = amount
    missing = [w.letter for w in Wind if w not in out]
    if missing:
        raise BatchError(f"context.balances: missing seat(s) {', '.join(missing)}")
    return out
