"""HandState's fields, once: each one's default, how ``clone`` copies it and how the JSON writes it.

:data:`FIELDS` lists every field of :class:`~hkmahjong.engine.state.HandState` in order. The
state's slots, its blank state (:func:`fill`), :meth:`~hkmahjong.engine.state.HandState.clone`
(:func:`copy_into`) and its JSON (:mod:`hkmahjong.engine.state_json`) all follow the table, so a
new field is declared here once. The enums a field holds live here too: :class:`DrawSource`,
:class:`PendingKind`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from hkmahjong.engine.actions import Action
from hkmahjong.engine.context import trigger_from_json, trigger_to_json
from hkmahjong.engine.view import Phase
from hkmahjong.hand.meld import Meld
from hkmahjong.tiles import Tile, Wind

__all__ = [
    "FIELDS",
    "READ",
    "WRITTEN",
    "Copy",
    "DrawSource",
    "PendingKind",
    "Saved",
    "StateField",
    "copy_into",
    "fill",
]

_T: Final = [Tile(i) for i in range(42)]


class DrawSource(Enum):
    """Where the current seat's last tile came from (the value is the JSON and event word)."""

    NONE = ""
    """No draw this turn (after a claim or a discard)."""
    HEAD = "head"
    """摸牌: from the head of the wall."""
    KONG = "kong"
    """槓上: the replacement after a kong (from the tail)."""
    BONUS = "bonus"
    """補花: the replacement after a bonus tile (from the tail)."""


class PendingKind(Enum):
    """What the open window is about (the value is the JSON word)."""

    NONE = ""
    """No window."""
    DISCARD = "discard"
    """A discard that may be claimed."""
    ADDED = "added"
    """An added kong (加槓) that may be robbed."""
    CONCEALED = "concealed"
    """A concealed kong (暗槓) that may be robbed for 十三幺 (by ruleset)."""


class Copy(Enum):
    """How :meth:`HandState.clone` copies a field."""

    SHARE = "share"
    """Immutable value (or immutable items never changed in place): the same object."""
    LIST = "list"
    """A flat list of immutable items: a new list."""
    NESTED = "nested"
    """A list of lists (per seat): new inner lists."""
    DICT = "dict"
    """A dict of immutable values: a new dict."""
    RESET = "reset"
    """A cache: the default again."""


class Saved(Enum):
    """Whether :meth:`HandState.to_json` writes a field."""

    YES = "yes"
    """Written and read back exactly."""
    DERIVED = "derived"
    """Not written: recomputed from the saved fields on load (a window's options and wins)."""
    CACHE = "cache"
    """Not written: a cache, rebuilt on demand."""
    OPENING = "opening"
    """Not written: the opening events, returned once by :meth:`HandState.new`."""


def _same(value: Any) -> Any:
    return value


def _ints(value: Any) -> list[int]:
    return [int(n) for n in value]


def _bools(value: Any) -> list[bool]:
    return [bool(x) for x in value]


def _seat_tiles(value: Any) -> list[list[Tile]]:
    return [[_T[int(t)] for t in ts] for ts in value]


@dataclass(frozen=True, slots=True)
class StateField:
    """One field of :class:`HandState`: its default, how it is copied and saved."""

    name: str
    default: Callable[[], Any]
    copy: Copy
    saved: Saved = Saved.YES
    key: str = ""
    """The JSON key (the name without a leading/trailing underscore when empty)."""
    encode: Callable[[Any], Any] = _same
    decode: Callable[[Any], Any] = _same

    @property
    def json_key(self) -> str:
        """The key of this field in :meth:`HandState.to_json`."""
        return self.key or self.name.strip("_")


def _four(value: Any) -> Callable[[], list[Any]]:
    return lambda: [value] * 4


def _seat_lists() -> list[list[Any]]:
    return [[], [], [], []]


_F, _SH, _LI, _NE = StateField, Copy.SHARE, Copy.LIST, Copy.NESTED

FIELDS: tuple[StateField, ...] = (
    _F("ruleset", lambda: None, _SH, encode=lambda r: r.name),  # read first, by from_json
    _F("seed", bytes, _SH, encode=bytes.hex, decode=bytes.fromhex),
    _F("prevailing_wind", lambda: Wind.EAST, _SH, encode=int, decode=Wind),
    _F("hand_number", int, _SH, decode=int),
    _F("physical_table", bool, _SH, decode=bool),
    _F("dice", lambda: None, _SH, encode=lambda d: list(d) if d else None,
       decode=lambda d: (int(d[0]), int(d[1]), int(d[2])) if d else None),
    _F("break_text", str, _SH, key="break", decode=str),
    _F("wall", list, _LI, decode=_ints),
    _F("head", int, _SH, decode=int),
    _F("tail", int, _SH, decode=int),
    _F("hands", lambda: [[0] * 34 for _ in range(4)], _NE, decode=lambda v: [_ints(c) for c in v]),
    _F("melds", _seat_lists, _NE, encode=lambda v: [[m.text for m in ms] for ms in v],
       decode=lambda v: [[Meld.from_text(m) for m in ms] for ms in v]),
    _F("bonus", _seat_lists, _NE, decode=_seat_tiles),
    _F("rivers", _seat_lists, _NE, decode=_seat_tiles),
    _F("taken", _seat_lists, _NE, decode=lambda v: [_bools(r) for r in v]),
    _F("from_draw", _seat_lists, _NE, decode=lambda v: [_bools(r) for r in v]),
    _F("phase_", lambda: Phase.TURN, _SH, encode=lambda p: p.value, decode=Phase),
    _F("current", int, _SH, decode=int),
    _F("last_drawn", lambda: -1, _SH, decode=int),
    _F("draw_source", lambda: DrawSource.NONE, _SH, encode=lambda d: d.value, decode=DrawSource),
    _F("kong_chain", int, _SH, decode=int),
    _F("chain_from_rep", bool, _SH, decode=bool),
    _F("kong_fed_by", lambda: -1, _SH, decode=int),
    _F("claimed_tile", lambda: -1, _SH, decode=int),
    _F("pending_tile", lambda: -1, _SH, decode=int),
    _F("pending_from", lambda: -1, _SH, decode=int),
    _F("pending_kind", lambda: PendingKind.NONE, _SH, encode=lambda k: k.value,
       decode=PendingKind),
    _F("options", _seat_lists, _NE, Saved.DERIVED),
    _F("decisions", _four(None), _LI, encode=lambda v: [None if a is None else a.text for a in v],
       decode=lambda v: [None if a is None else Action.from_text(a) for a in v]),
    _F("turns_done", _four(0), _LI, decode=_ints),
    _F("any_claim", bool, _SH, decode=bool),
    _F("kong_declared", _four(False), _LI, decode=_bools),
    _F("dealer_konged", bool, _SH, decode=bool),
    _F("deal_bonus", _four(0), _LI, decode=_ints),
    _F("pung_bar", _four(0), _LI, decode=_ints),
    _F("win_bar_tiles", _four(0), _LI, decode=_ints),
    _F("win_bar_fan", _four(-1), _LI, decode=_ints),
    _F("win_barred", _four(False), _LI, decode=_bools),
    _F("declined", _four(False), _LI, decode=_bools),
    _F("triggers", list, _LI, encode=lambda v: [trigger_to_json(t) for t in v],
       decode=lambda v: [trigger_from_json(t) for t in v]),
    _F("go", int, _SH, decode=int),
    _F("last_claim_go", _four(-1), _LI, decode=_ints),
    _F("win_specs", list, _LI, key="wins", decode=list),
    _F("false_specs", list, _LI, key="false_wins", decode=list),
    _F("drawn", bool, _SH, decode=bool),
    _F("outcome_cache", lambda: None, _SH, Saved.CACHE),
    _F("initial_events", list, _LI, Saved.OPENING),
    _F("_legal", _four(None), Copy.RESET, Saved.CACHE),
    _F("_pub", _four(None), _LI, Saved.CACHE),
    _F("_win_cache", dict, Copy.DICT, Saved.DERIVED),
    _F("_issued", list, Copy.RESET, Saved.CACHE),
    _F("_cand", _four(-1), _LI, Saved.CACHE),
    _F("_draw_misses", bool, _SH, Saved.CACHE),
)  # fmt: skip
"""Every field of :class:`HandState`, once: its slots, blank state, clone and JSON follow."""


def _compile(name: str, lines: list[str], env: dict[str, Any]) -> Callable[..., Any]:
    """Build one function from source lines (straight-line code: no per-call reflection)."""
    exec("\n".join(lines), env)  # the source comes from FIELDS only, never from input
    fn: Callable[..., Any] = env[name]
    return fn


def _field_functions() -> tuple[Callable[[Any], None], Callable[[Any, Any], None]]:
    """``fill(state)`` (the blank defaults) and ``copy_into(state, other)`` (clone's copies)."""
    env: dict[str, Any] = {f"_d{i}": f.default for i, f in enumerate(FIELDS)}
    fill = ["def fill(o):"] + [f"    o.{f.name} = _d{i}()" for i, f in enumerate(FIELDS)]
    copy = ["def copy_into(s, o):"]
    for i, f in enumerate(FIELDS):
        n = f.name
        copy.append(
            {
                Copy.SHARE: f"    o.{n} = s.{n}",
                Copy.LIST: f"    o.{n} = s.{n}[:]",
                Copy.NESTED: f"    o.{n} = [x[:] for x in s.{n}]",
                Copy.DICT: f"    o.{n} = s.{n}.copy()",
                Copy.RESET: f"    o.{n} = _d{i}()",
            }[f.copy]
        )
    return _compile("fill", fill, env), _compile("copy_into", copy, env)


fill, copy_into = _field_functions()
"""``fill(state)`` sets every field to its default; ``copy_into(state, other)`` copies every
field as ``clone`` does. Both are straight-line code generated from :data:`FIELDS` once, at import
(a speed trick: ``clone`` through a loop over the table with ``getattr``/``setattr`` per field ran
about 2.5 times slower — 45,000–52,000 against 107,000–169,000 clones per CPU-second on the pure
build, 2026-12-07, load 10; bench/bench_engine.py's ``clone`` line measures it)."""
WRITTEN: Final = tuple(f for f in FIELDS if f.saved is Saved.YES)
"""The fields the JSON holds, in order."""
READ: Final = tuple(f for f in WRITTEN if f.name != "ruleset")
"""The fields read back from the JSON (the ruleset is looked up first, by name)."""
