"""動作 Action: what a seat may do — discard, chow, pung, kong, win, pass, the kongs of a turn, ...

Every action has a text form (notation is the API) and parses back from it:

==========================  ==============================================================
``discard 5p``              打出 a tile (own turn)
``concealed_kong 7z``       暗槓 (own turn, four in hand)
``added_kong 3s``           加槓 (own turn, the fourth tile onto an exposed pung)
``self_draw``               自摸 (own turn, a complete hand that reaches the minimum)
``bonus_win``               花糊 / 八仙過海 (own turn, seven or eight bonus tiles)
``chow 345p``               上 (claim window, only the 上家's discard; the chow's tiles)
``pung``                    碰 (claim window)
``kong``                    明槓 (claim window, three in hand + the discard)
``win``                     食糊 on a discard, or 搶槓 in a robbing window
``pass``                    過 (claim or robbing window)
``false_win``               詐糊 declared (``physical_table`` mode only)
==========================  ==============================================================

>>> Action.from_text("chow 345p").text
'chow 345p'
>>> Action.discard(Tile.P5)
Action.from_text('discard 5p')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from hkmahjong.errors import IllegalActionError, TileNotationError
from hkmahjong.tiles import Tile, parse_tile

__all__ = ["Action", "ActionKind"]


class ActionKind(IntEnum):
    """The kind of an action; the value orders ``legal_actions`` (then the tile)."""

    PASS = 0
    DISCARD = 1
    CHOW = 2
    PUNG = 3
    KONG = 4
    CONCEALED_KONG = 5
    ADDED_KONG = 6
    SELF_DRAW = 7
    WIN = 8
    BONUS_WIN = 9
    FALSE_WIN = 10

    @property
    def word(self) -> str:
        """The word used in the text form, e.g. ``concealed_kong``."""
        return self.name.lower()

    @property
    def zh(self) -> str:
        """Chinese name shown to players."""
        return _ZH[self]

    @property
    def takes_tile(self) -> bool:
        """True when the text form names a tile (discard, chow and the turn's kongs)."""
        return self in _WITH_TILE


_ZH = {
    ActionKind.PASS: "過",
    ActionKind.DISCARD: "打",
    ActionKind.CHOW: "上",
    ActionKind.PUNG: "碰",
    ActionKind.KONG: "明槓",
    ActionKind.CONCEALED_KONG: "暗槓",
    ActionKind.ADDED_KONG: "加槓",
    ActionKind.SELF_DRAW: "自摸",
    ActionKind.WIN: "食糊",
    ActionKind.BONUS_WIN: "花糊",
    ActionKind.FALSE_WIN: "詐糊",
}
_WITH_TILE = frozenset(
    {ActionKind.DISCARD, ActionKind.CHOW, ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG}
)
_BY_WORD = {k.word: k for k in ActionKind}


@dataclass(frozen=True, slots=True, eq=False, init=False)
class Action:
    """One action: ``kind`` and, for discard/chow/kongs of a turn, a ``tile``.

    For a chow ``tile`` is the chow's lowest tile (``chow 345p`` has ``tile == Tile.P3``); the
    claimed discard is implied by the window. Actions are small interned values — ``Action(k, t)``
    always returns the same object — so equality is identity (fast in hot loops); compare, hash
    and sort them freely (``legal_actions`` is sorted by kind, then tile).

    :raises IllegalActionError: on construction when the tile does not fit the kind.
    """

    kind: ActionKind
    tile: Tile | None = None

    def __new__(cls, kind: ActionKind, tile: Tile | int | None = None) -> Action:
        """The interned action of ``kind`` (and ``tile``)."""
        try:
            kind = ActionKind(kind)
            if not kind.takes_tile:
                if tile is not None:
                    raise IllegalActionError(f"action {kind.word!r} takes no tile")
                return _PLAIN[kind]
            if tile is None or not 0 <= int(tile) < 34:
                raise IllegalActionError(f"action {kind.word!r} needs a playing tile, got {tile!r}")
            if kind is ActionKind.CHOW and (tile >= 27 or tile % 9 > 6):
                raise IllegalActionError(f"no chow starts at {Tile(tile).mpsz}")
            return _TILED[kind][int(tile)]
        except NameError:  # pragma: no cover - only before the interned tables exist
            raise IllegalActionError("actions are not ready yet") from None

    def __init__(self, kind: ActionKind, tile: Tile | int | None = None) -> None:
        """Nothing to do: ``__new__`` returned the interned, already filled action."""

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Action.from_text, (self.text,))

    def _key(self) -> tuple[int, int]:
        return (int(self.kind), -1 if self.tile is None else int(self.tile))

    def __lt__(self, other: Action) -> bool:
        return self._key() < other._key()

    def __le__(self, other: Action) -> bool:
        return self._key() <= other._key()

    def __gt__(self, other: Action) -> bool:
        return self._key() > other._key()

    def __ge__(self, other: Action) -> bool:
        return self._key() >= other._key()

    @property
    def text(self) -> str:
        """The text form, e.g. ``discard 5p``, ``chow 345p``, ``pung``."""
        if self.tile is None:
            return self.kind.word
        if self.kind is ActionKind.CHOW:
            t = int(self.tile)
            return f"chow {t % 9 + 1}{t % 9 + 2}{t % 9 + 3}{'mps'[t // 9]}"
        return f"{self.kind.word} {self.tile.mpsz}"

    @property
    def zh(self) -> str:
        """Chinese text, e.g. ``打 5p``."""
        return self.kind.zh if self.tile is None else f"{self.kind.zh} {self.text.split()[1]}"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action.from_text({self.text!r})"

    @classmethod
    def from_text(cls, text: str) -> Action:
        """Parse the text form (``discard 5p``, ``chow 345p``, ``pung``, ...).

        :raises IllegalActionError: when the text is not an action.
        """
        words = text.split()
        kind = _BY_WORD.get(words[0].lower()) if words else None
        if kind is None:
            raise IllegalActionError(
                f"unknown action {text!r}: expected one of {', '.join(sorted(_BY_WORD))}"
            )
        if not kind.takes_tile:
            if len(words) != 1:
                raise IllegalActionError(f"action {kind.word!r} takes no tile, got {text!r}")
            return _PLAIN[kind]
        if len(words) != 2:
            raise IllegalActionError(f"action {kind.word!r} needs one tile, e.g. 'discard 5p'")
        try:
            if kind is ActionKind.CHOW:
                body = words[1]
                ok = len(body) == 4 and body[3] in "mps" and body[:3].isdigit()
                first = int(body[0]) if ok else 0
                if not ok or body[:3] != f"{first}{first + 1}{first + 2}" or first > 7:
                    raise IllegalActionError(
                        f"a chow is written like 'chow 345p' (three consecutive tiles), got {text!r}"
                    )
                return cls(kind, parse_tile(f"{first}{body[3]}"))
            tile = parse_tile(words[1])
        except TileNotationError as exc:
            raise IllegalActionError(f"bad tile in action {text!r}: {exc}") from None
        if tile.is_bonus:
            raise IllegalActionError(f"bonus tiles are never discarded or melded: {text!r}")
        return _TILED[kind][tile]

    # --- cached constructors (actions are built in hot loops) --------------------------------
    @staticmethod
    def discard(tile: Tile | int) -> Action:
        """打: discard ``tile``."""
        return _TILED[ActionKind.DISCARD][tile]

    @staticmethod
    def chow(first: Tile | int) -> Action:
        """上: chow whose lowest tile is ``first``."""
        return _TILED[ActionKind.CHOW][first]

    @staticmethod
    def concealed_kong(tile: Tile | int) -> Action:
        """暗槓 of ``tile``."""
        return _TILED[ActionKind.CONCEALED_KONG][tile]

    @staticmethod
    def added_kong(tile: Tile | int) -> Action:
        """加槓 of ``tile`` onto the exposed pung."""
        return _TILED[ActionKind.ADDED_KONG][tile]

    @staticmethod
    def plain(kind: ActionKind) -> Action:
        """The action of a kind that takes no tile (``pung``, ``win``, ``pass``, ...)."""
        return _PLAIN[kind]


def _build(kind: ActionKind, tile: Tile | None) -> Action:
    obj = object.__new__(Action)
    object.__setattr__(obj, "kind", kind)
    object.__setattr__(obj, "tile", tile)
    return obj


_PLAIN: dict[ActionKind, Action] = {k: _build(k, None) for k in ActionKind if not k.takes_tile}
_TILED: dict[ActionKind, list[Action]] = {
    k: [_build(k, Tile(i)) for i in range(34)] for k in _WITH_TILE
}

PASS = _PLAIN[ActionKind.PASS]
PUNG = _PLAIN[ActionKind.PUNG]
KONG = _PLAIN[ActionKind.KONG]
WIN = _PLAIN[ActionKind.WIN]
SELF_DRAW = _PLAIN[ActionKind.SELF_DRAW]
BONUS_WIN = _PLAIN[ActionKind.BONUS_WIN]
FALSE_WIN = _PLAIN[ActionKind.FALSE_WIN]
