"""桌面協議 (the table protocol): the messages of docs/protocol.md, built and parsed in one place.

Server → client messages are plain dicts built by the functions below (``dumps`` them with
:func:`hkmahjong.parlor.wire.dumps`); client → server frames are parsed strictly by
:func:`parse_client` into small typed values, or rejected with a :class:`ProtocolError` that
names the problem. The transport (``server.ws``) adds nothing but the socket.

>>> parse_client('{"t":"act","action":"discard 5p","v":12,"id":"a1"}')
Act(action=Action.from_text('discard 5p'), v=12, id='a1')
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from hkmahjong.engine.actions import Action
from hkmahjong.errors import IllegalActionError, MahjongError
from hkmahjong.parlor.wire import JSON, dumps, legal_json, legal_text

__all__ = [
    "EMOTES",
    "MAX_DEPTH",
    "MAX_FRAME_BYTES",
    "PROTOCOL_VERSION",
    "Act",
    "ClientMessage",
    "ClockInfo",
    "Emote",
    "ErrorCode",
    "Hello",
    "HintRequest",
    "Ping",
    "PlayerInfo",
    "Prefs",
    "ProtocolError",
    "Ready",
    "SitBack",
    "TableInfo",
    "parse_client",
    "ref_of",
]

log = logging.getLogger(__name__)

PROTOCOL_VERSION = 1
"""Bumped on any change a client must know about; ``hello.proto`` must match it."""
MAX_FRAME_BYTES = 4096
"""The largest client frame the server reads (UTF-8 bytes)."""
MAX_ID_CHARS = 64
MAX_ACTION_CHARS = 32
EMOTES: tuple[str, ...] = ("hello", "nice", "thanks", "sorry", "gg", "hurry")
"""The preset emotes (表情) a seat may send (``emote.id``); no free text is ever relayed."""
AUTO_PASS: tuple[str, ...] = ("none", "no_chow", "all")
"""``prefs.auto_pass``: never, on windows whose only claim is a chow, on every window but a win."""
HINT_ENGINES: tuple[str, ...] = ("strong", "master")
"""``hint.engine``: whose choice the advice explains (``strong`` by default)."""


class ErrorCode(Enum):
    """Why a client message was refused (``error.code``); the sender alone is told."""

    BAD_JSON = "bad_json"
    """The frame is not one JSON object."""
    BAD_MESSAGE = "bad_message"
    """Unknown ``t``, a missing or extra field, a field of the wrong type or size."""
    TOO_LARGE = "too_large"
    """The frame is longer than the limit (4096 bytes)."""
    RATE_LIMITED = "rate_limited"
    """Too many messages; wait and send again."""
    PROTO = "proto"
    """``hello.proto`` is not this server's protocol version."""
    HELLO_FIRST = "hello_first"
    """A table socket must send ``hello`` before anything else (and only once)."""
    NOT_SEATED = "not_seated"
    """This connection has no seat at the table (a spectator) and cannot act."""
    NO_PROMPT = "no_prompt"
    """Nothing to decide now (no open prompt for this seat)."""
    STALE = "stale"
    """``act.v`` is not the version of the open prompt."""
    ILLEGAL = "illegal"
    """The action is not one of the prompt's legal actions."""
    NOT_SAT_OUT = "not_sat_out"
    """``sit_back`` while not sat out."""
    NO_HINTS = "no_hints"
    """Hints exist at practice tables only."""
    TABLE_CLOSED = "table_closed"
    """The table is finished, cancelled or aborted."""
    INTERNAL = "internal"
    """The server failed; nothing was changed. Reconnect with ``hello``."""
    COMMIT_FAILED = "commit_failed"
    """Your action could not be saved, so it did not happen: the prompt is still open (same
    ``v``); decide again."""


class ProtocolError(MahjongError):
    """A client message refused with ``code``; ``ref`` echoes the message's ``id`` if it had one."""

    def __init__(self, code: ErrorCode, message: str, ref: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref

    def to_json(self) -> JSON:
        """The ``error`` message for the sender."""
        return error_msg(self.code, self.message, self.ref)


# --------------------------------------------------------------------------------------------
# client → server
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Hello:
    """First frame on a table socket: the protocol, and the last version seen (to resync)."""

    proto: int
    epoch: str | None = None
    since: int | None = None


@dataclass(frozen=True, slots=True)
class Act:
    """An answer to the open prompt ``v``: one of its legal actions."""

    action: Action
    v: int
    id: str | None = None


@dataclass(frozen=True, slots=True)
class SitBack:
    """回座: take a sat-out seat back."""


@dataclass(frozen=True, slots=True)
class HintRequest:
    """提示 (practice tables only); ``engine``: ``strong`` (the default) or ``master`` (大師)."""

    engine: str = "strong"


@dataclass(frozen=True, slots=True)
class Ready:
    """準備好: ready for the next hand (it starts when every player present is ready)."""


@dataclass(frozen=True, slots=True)
class Ping:
    """Keep-alive; answered with ``pong``."""


@dataclass(frozen=True, slots=True)
class Emote:
    """表情: one of the preset :data:`EMOTES`, shown to the table."""

    id: str


@dataclass(frozen=True, slots=True)
class Prefs:
    """The seat's settings (the account's, or a guest's kept in the browser); the table uses
    ``auto_win`` and ``auto_pass`` (applied server-side), the others are the page's own. A field
    left out keeps its value."""

    auto_win: bool | None = None
    auto_pass: str | None = None
    sort: str | None = None
    large_tiles: bool | None = None
    colour_blind: bool | None = None
    sound: bool | None = None
    animations: bool | None = None


ClientMessage = Hello | Act | SitBack | HintRequest | Ready | Ping | Emote | Prefs

_FIELDS: dict[str, dict[str, tuple[type | tuple[type, ...], bool]]] = {
    # name -> (types, required)
    "hello": {
        "proto": (int, True),
        "epoch": ((str, type(None)), False),
        "since": ((int, type(None)), False),
    },
    "act": {"action": (str, True), "v": (int, True), "id": ((str, type(None)), False)},
    "sit_back": {},
    "hint": {"engine": (str, False)},
    "ready": {},
    "ping": {},
    "emote": {"id": (str, True)},
    "prefs": {
        "auto_win": (bool, False),
        "auto_pass": (str, False),
        "sort": (str, False),
        "large_tiles": (bool, False),
        "colour_blind": (bool, False),
        "sound": (bool, False),
        "animations": (bool, False),
    },
}
_CHOICES: dict[tuple[str, str], tuple[str, ...]] = {
    ("hint", "engine"): HINT_ENGINES,
    ("emote", "id"): EMOTES,
    ("prefs", "auto_pass"): AUTO_PASS,
    ("prefs", "sort"): ("suit", "drawn_last"),
}
"""Fields whose string is one of a fixed list."""


def ref_of(msg: ClientMessage) -> str | None:
    """The ``id`` a parsed message carried (only ``act`` has one), echoed as ``ref`` by any
    error it gets."""
    return msg.id if isinstance(msg, Act) else None


def _ref_of(obj: Mapping[str, Any]) -> str | None:
    ref = obj.get("id")
    if isinstance(ref, str) and len(ref) <= MAX_ID_CHARS and _clean(ref):
        return ref
    return None


MAX_DEPTH = 8
"""The deepest nesting of arrays and objects a frame may have (a valid frame has 1)."""
MAX_INT_DIGITS = 16
"""The longest integer a frame may hold (every valid number is below 2⁵³, 16 digits)."""
_BAD_TEXT = re.compile("[\x00-\x1f\x7f\ud800-\udfff]")
"""Control characters and lone surrogates: refused in every string field (a lone surrogate
cannot be written back to the client as UTF-8, and a control character has no use here)."""


def _clean(text: str) -> bool:
    """No control character or lone surrogate (``isprintable`` answers most strings at C
    speed; the few it doubts, such as one with an ideographic space, go to the pattern)."""
    return text.isprintable() or _BAD_TEXT.search(text) is None


def _nesting(text: str, limit: int) -> bool:
    """Whether ``text`` (JSON) nests arrays and objects at most ``limit`` deep, ignoring
    brackets inside strings (a single linear pass; malformed text is left to the JSON reader)."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "[" or ch == "{":
            depth += 1
            if depth > limit:
                return False
        elif ch == "]" or ch == "}":
            depth -= 1
    return True


def _no_constants(name: str) -> Any:
    raise ProtocolError(ErrorCode.BAD_JSON, f"not JSON: {name} is not a JSON number")


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE, f"a number of {len(digits)} digits: at most {MAX_INT_DIGITS}"
        )
    return int(digits)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ProtocolError(ErrorCode.BAD_JSON, f"duplicate key {key[:40]!r}")
            seen.add(key)
    return obj


_DECODER = json.JSONDecoder(
    object_pairs_hook=_unique_keys, parse_int=_bounded_int, parse_constant=_no_constants
)


def parse_client(frame: str | bytes) -> ClientMessage:
    """Read one client frame (JSON text) into a typed message.

    Checks the size, the nesting (at most :data:`MAX_DEPTH`), that it is one JSON object
    (strict JSON: no ``NaN``/``Infinity``, no duplicate keys, UTF-8 without lone surrogates,
    integers of at most 16 digits), its ``t``, that every field is known, present when required
    and of the right type and size. It does not check the game: an ``act`` may still be
    illegal. Whatever a client sends, it raises nothing but :class:`ProtocolError`.

    :raises ProtocolError: ``too_large``, ``bad_json`` or ``bad_message``, saying what is wrong.
    """
    try:
        return _parse(frame)
    except ProtocolError:
        raise
    except Exception as exc:  # a defect of this parser: the client still gets an answer
        log.warning("parse_client: %s on a frame of %d", type(exc).__name__, len(frame))
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "the frame could not be read") from None


def _parse(frame: str | bytes) -> ClientMessage:
    size = len(frame)
    if isinstance(frame, str) and size * 4 > MAX_FRAME_BYTES and not frame.isascii():
        size = len(frame.encode("utf-8", "surrogatepass"))
    if size > MAX_FRAME_BYTES:
        raise ProtocolError(
            ErrorCode.TOO_LARGE, f"frame of {size} bytes; the limit is {MAX_FRAME_BYTES}"
        )
    if isinstance(frame, str):
        text = frame
    else:
        try:
            text = frame.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ProtocolError(ErrorCode.BAD_JSON, f"not UTF-8: {exc.reason}") from None
    if text.count("[") + text.count("{") > MAX_DEPTH and not _nesting(text, MAX_DEPTH):
        raise ProtocolError(ErrorCode.BAD_JSON, f"nested deeper than {MAX_DEPTH} levels")
    try:
        obj = _DECODER.decode(text)
    except ProtocolError:
        raise
    except ValueError as exc:
        raise ProtocolError(ErrorCode.BAD_JSON, f"not JSON: {exc}") from None
    except RecursionError:
        raise ProtocolError(ErrorCode.BAD_JSON, "nested too deeply") from None
    if not isinstance(obj, dict):
        raise ProtocolError(ErrorCode.BAD_JSON, f"a frame is one JSON object, not {_kind(obj)}")
    ref = _ref_of(obj)
    kind = obj.get("t")
    if not isinstance(kind, str) or kind not in _FIELDS:
        known = ", ".join(sorted(_FIELDS))
        shown = repr(kind[:40]) if isinstance(kind, str) else repr(kind)
        if isinstance(kind, list | dict):
            shown = _kind(kind)
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE, f"unknown message type t={shown}: expected one of {known}", ref
        )
    spec = _FIELDS[kind]
    for key in obj:
        if key != "t" and key not in spec:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"{kind}: unknown field {key[:40]!r}", ref)
    for key, (types, required) in spec.items():
        if key not in obj:
            if required:
                raise ProtocolError(ErrorCode.BAD_MESSAGE, f"{kind}: missing field {key!r}", ref)
            continue
        value = obj[key]
        if (isinstance(value, bool) and types is not bool) or not isinstance(value, types):
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE, f"{kind}.{key}: wrong type {_kind(value)}", ref
            )
        if isinstance(value, int) and not 0 <= value < 2**53:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"{kind}.{key}: out of range", ref)
        if isinstance(value, str):
            if len(value) > MAX_ID_CHARS:
                raise ProtocolError(
                    ErrorCode.BAD_MESSAGE,
                    f"{kind}.{key}: longer than {MAX_ID_CHARS} characters",
                    ref,
                )
            if not _clean(value):
                raise ProtocolError(
                    ErrorCode.BAD_MESSAGE,
                    f"{kind}.{key}: control characters or lone surrogates",
                    ref,
                )
        choices = _CHOICES.get((kind, key))
        if choices is not None and value not in choices:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE, f"{kind}.{key}: expected one of {', '.join(choices)}", ref
            )
    if kind == "hello":
        return Hello(obj["proto"], obj.get("epoch"), obj.get("since"))
    if kind == "act":
        text = obj["action"]
        if len(text) > MAX_ACTION_CHARS:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "act.action: too long", ref)
        try:
            action = Action.from_text(text)
        except IllegalActionError as exc:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"act.action: {exc}", ref) from None
        return Act(action, obj["v"], ref)
    if kind == "sit_back":
        return SitBack()
    if kind == "hint":
        return HintRequest(obj.get("engine", "strong"))
    if kind == "ready":
        return Ready()
    if kind == "emote":
        return Emote(obj["id"])
    if kind == "prefs":
        return Prefs(**{k: v for k, v in obj.items() if k != "t"})
    return Ping()


def _kind(value: object) -> str:
    if value is None:
        return "null"
    return {bool: "boolean", int: "number", float: "number", str: "string", list: "array",
            dict: "object"}.get(type(value), type(value).__name__)  # fmt: skip


# --------------------------------------------------------------------------------------------
# server → client
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ClockInfo:
    """時鐘: what is left of a decision's clock and of the player's match time bank."""

    kind: str
    """``turn`` (own turn: discard / kong / win) or ``claim`` (a claim or robbing window)."""
    ms: int
    bank_ms: int

    def to_json(self) -> JSON:
        """``{"kind","ms","bank_ms"}``."""
        return {"kind": self.kind, "ms": self.ms, "bank_ms": self.bank_ms}


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """A player of the table as everyone sees it (player numbers are fixed for the match)."""

    player: int
    name: str | None
    kind: str
    """``human``, ``bot`` or ``empty``."""
    bot: str | None
    status: str
    """``empty``, ``connected``, ``away`` (disconnected, within the grace), ``sat_out``, ``bot``."""
    seat: str | None
    """Seat wind in the current (or coming) hand, None before the match."""
    jade: int | float
    """Jade won (+) or lost (−) in this match so far."""
    escrow: int | None = None
    """Jade this player holds in the table's escrow (online tables with a stake), else None."""

    def to_json(self) -> JSON:
        """The ``players[]`` entry of ``table``."""
        return {
            "player": self.player,
            "name": self.name,
            "kind": self.kind,
            "bot": self.bot,
            "status": self.status,
            "seat": self.seat,
            "jade": self.jade,
            "escrow": self.escrow,
        }


@dataclass(frozen=True, slots=True)
class TableInfo:
    """The public facts of a table (the ``table`` object of snapshots, ``table`` and lobby)."""

    id: str
    kind: str
    """``practice`` or ``online``."""
    status: str
    """``waiting``, ``playing``, ``paused``, ``finished``, ``cancelled`` or ``aborted``."""
    rules: JSON
    """``{"name","digest","preset"}``: the resolved ruleset's name and digest (+ preset if any)."""
    length: str
    """A :class:`~hkmahjong.engine.match.MatchLength` value (``online``, ``four-rounds`` …)."""
    stake: int | None
    """The stake each player puts in escrow (online tables), else None."""
    buy_in: int | None
    """What each player pays when the match starts: the stake and the fee (None: nothing)."""
    clocks: JSON
    hints: bool
    private: bool
    players: tuple[PlayerInfo, ...]
    you: int | None = None
    """This connection's player number, None for a spectator (absent from the lobby)."""
    hand_number: int = 0
    dealer: int = 0
    prevailing: str = "E"
    fee: int = 0
    """手續費 the entry fee each player pays besides the stake (kept when the match ends,
    refunded when it is cancelled or aborted)."""
    watchers: int = 0
    """旁觀 how many spectators are watching now."""
    watch_delay_ms: int | None = None
    """How far spectators are behind the table: None = one hand-turn, else milliseconds."""
    extra: JSON = field(default_factory=dict)

    def to_json(self) -> JSON:
        """The ``table`` object."""
        out: JSON = {
            "id": self.id,
            "kind": self.kind,
            "status": self.status,
            "rules": self.rules,
            "length": self.length,
            "stake": self.stake,
            "buy_in": self.buy_in,
            "fee": self.fee,
            "clocks": self.clocks,
            "hints": self.hints,
            "private": self.private,
            "players": [p.to_json() for p in self.players],
            "you": self.you,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "prevailing": self.prevailing,
            "watchers": self.watchers,
            "watch_delay_ms": self.watch_delay_ms,
        }
        out.update(self.extra)
        return out


def prompt_json(v: int, legal: Sequence[Action], clock: ClockInfo) -> JSON:
    """The open prompt: its version (to answer with), the legal actions and the clock."""
    return {"v": v, "legal": legal_json(legal), "clock": clock.to_json()}


def snapshot_msg(
    v: int,
    epoch: str,
    table: JSON,
    view: JSON | None,
    prompt: JSON | None,
    hand_end: JSON | None = None,
) -> JSON:
    """``snapshot``: the whole state as this seat may see it, at version ``v``; between a hand's
    end and the next hand, ``hand_end`` is the last ``hand_end`` message as it was sent (without
    its ``t`` and ``v``), so a reloaded page shows the same result."""
    msg: JSON = {
        "t": "snapshot",
        "v": v,
        "proto": PROTOCOL_VERSION,
        "epoch": epoch,
        "table": table,
        "view": view,
        "prompt": prompt,
    }
    if hand_end is not None:
        msg["hand_end"] = hand_end
    return msg


def synced_msg(v: int, prompt: JSON | None) -> JSON:
    """``synced``: the missed messages were re-sent; now at ``v``; the open prompt, if any."""
    return {"t": "synced", "v": v, "prompt": prompt}


def event_msg(v: int, event: JSON) -> JSON:
    """``event``: one engine event as this seat sees it."""
    return {"t": "event", "v": v, "event": event}


def event_text(v: int, event: str) -> str:
    """The frame text of :func:`event_msg` from its event already encoded (``dumps`` of
    ``event_json``): the same bytes, for an event that several seats see alike."""
    return f'{{"t":"event","v":{v},"event":{event}}}'


def prompt_msg(v: int, legal: Sequence[Action], clock: ClockInfo) -> JSON:
    """``prompt``: this seat must decide; answer with ``act`` carrying this ``v``."""
    return {"t": "prompt", **prompt_json(v, legal, clock)}


def prompt_text(v: int, legal: Sequence[Action], clock: ClockInfo) -> str:
    """The frame text of :func:`prompt_msg` (the same bytes), from the legal actions' JSON
    encoded once each."""
    return f'{{"t":"prompt","v":{v},"legal":{legal_text(legal)},"clock":{dumps(clock.to_json())}}}'


def done_msg(v: int, prompt: int, action: str | None, by: str, ref: str | None) -> JSON:
    """``done``: the prompt ``prompt`` is closed — answered (``by`` you/timeout/auto) or withdrawn."""
    return {"t": "done", "v": v, "prompt": prompt, "action": action, "by": by, "ref": ref}


def clock_msg(v: int, seat: str, kind: str, ms: int, bank_ms: int) -> JSON:
    """``clock``: a turn clock started for ``seat`` (public: whose turn it is is public)."""
    return {"t": "clock", "v": v, "seat": seat, "kind": kind, "ms": ms, "bank_ms": bank_ms}


def hand_msg(
    v: int, hand: int, dealer: int, prevailing: str, seats: Mapping[str, int], commitment: str
) -> JSON:
    """``hand``: a hand starts; who sits where, and the commitment to its seed."""
    return {
        "t": "hand",
        "v": v,
        "hand": hand,
        "dealer": dealer,
        "prevailing": prevailing,
        "seats": dict(seats),
        "commitment": commitment,
    }


def hand_end_msg(
    v: int,
    hand: int,
    outcome: JSON,
    hands: Mapping[str, list[str]],
    seed: str,
    standings: Sequence[JSON],
) -> JSON:
    """``hand_end``: the result, every hand revealed, the hand seed and the standings."""
    return {
        "t": "hand_end",
        "v": v,
        "hand": hand,
        "result": outcome,
        "hands": dict(hands),
        "seed": seed,
        "standings": list(standings),
    }


def match_end_msg(
    v: int, totals: Sequence[int | float], settlement: JSON | None, seed: str, record: str
) -> JSON:
    """``match_end``: final totals per player, the stake settlement, the match seed, the record."""
    return {
        "t": "match_end",
        "v": v,
        "totals": list(totals),
        "settlement": settlement,
        "seed": seed,
        "record": record,
    }


def seat_msg(v: int, player: int, status: str) -> JSON:
    """``seat``: a player's status changed (connected / away / sat_out / …)."""
    return {"t": "seat", "v": v, "player": player, "status": status}


def watchers_msg(v: int, count: int) -> JSON:
    """``watchers``: how many spectators watch the table now (to the players)."""
    return {"t": "watchers", "v": v, "count": count}


def table_msg(v: int, table: JSON) -> JSON:
    """``table``: the table's public facts changed (someone sat down, the status, jade …)."""
    return {"t": "table", "v": v, "table": table}


def error_msg(code: ErrorCode, message: str, ref: str | None = None) -> JSON:
    """``error``: to the sender only; nothing was changed."""
    return {"t": "error", "code": code.value, "message": message, "ref": ref}


def hint_msg(advice: JSON) -> JSON:
    """``hint``: advice for this seat's current decision (practice tables)."""
    return {"t": "hint", "advice": advice}


def emote_msg(v: int, player: int, emote: str) -> JSON:
    """``emote``: player ``player`` sent the preset emote ``emote`` (to every seat)."""
    return {"t": "emote", "v": v, "player": player, "id": emote}


def pong_msg() -> JSON:
    """``pong``."""
    return {"t": "pong"}


def lobby_msg(v: int, tables: Sequence[JSON]) -> JSON:
    """``lobby``: every open table (whole list), at lobby version ``v``."""
    return {"t": "lobby", "v": v, "tables": list(tables)}


def lobby_diff_msg(v: int, upsert: Sequence[JSON], remove: Sequence[str]) -> JSON:
    """``lobby_diff``: what changed since the lobby version before ``v`` — tables new or changed
    (whole entries, by ``id``) and the ids of tables no longer listed."""
    return {"t": "lobby_diff", "v": v, "upsert": list(upsert), "remove": list(remove)}


def your_table_msg(public_id: str, status: str) -> JSON:
    """``your_table``: to a player's lobby sockets, a table they sit at changed status (it
    started: ``playing``)."""
    return {"t": "your_table", "id": public_id, "status": status}
