"""Errors raised by hkmahjong: every one is a ``ValueError`` that says what is wrong and where."""

from __future__ import annotations


class MahjongError(ValueError):
    """Base class of every hkmahjong error."""


class TileNotationError(MahjongError):
    """Tile text (MPSZ notation) that cannot be read.

    ``position`` is the 0-based index of the offending character in ``text``.
    """

    def __init__(self, message: str, text: str = "", position: int | None = None) -> None:
        self.text = text
        self.position = position
        where = f" at position {position} of {text!r}" if position is not None else ""
        super().__init__(f"{message}{where}")


class InvalidHandError(MahjongError):
    """A hand that cannot exist (a fifth copy, a wrong tile count, a chow of honours, ...)."""


class IllegalActionError(MahjongError):
    """An action that is not legal in the current game state."""


class RulesetError(MahjongError):
    """A ruleset (preset name, TOML file or override) that is malformed or inconsistent."""
