"""設定 (a player's settings): what the table does for a person, and what the page shows them.

Seven settings, kept per account (``GET/PUT /api/me/settings``) or, for a guest, in the browser;
the page sends them to the table in ``prefs`` after its ``hello``. The table acts on two, **on the
server**: ``auto_win`` (糊 whenever a win is legal) and ``auto_pass`` (``none``; ``no_chow``: pass a
window whose only claims are chows; ``all``: pass every window but one with a win). A window the
settings answer is decided like a bot's pass — inside the hold after the discard, with no prompt —
so a person on auto-pass shows nobody, by content or time, that a window opened
(docs/protocol.md, *Timing*). The rest (``sort``, ``large_tiles``, ``colour_blind``, ``sound``,
``animations``) are the page's own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from hkmahjong.engine.actions import Action, ActionKind
from hkmahjong.errors import MahjongError
from hkmahjong.parlor.protocol import AUTO_PASS, Prefs

__all__ = ["DEFAULT_PREFS", "PlayerPrefs", "PrefsError", "auto_decision"]

SORTS = ("suit", "drawn_last")
_WINS = (ActionKind.WIN, ActionKind.SELF_DRAW, ActionKind.BONUS_WIN)


class PrefsError(MahjongError):
    """Settings that are not valid (names the field)."""


@dataclass(frozen=True, slots=True)
class PlayerPrefs:
    """A player's settings (the ``/api/me/settings`` object)."""

    auto_win: bool = False
    auto_pass: str = "none"
    sort: str = "suit"
    large_tiles: bool = False
    colour_blind: bool = False
    sound: bool = True
    animations: bool = True

    def __post_init__(self) -> None:
        for name in ("auto_win", "large_tiles", "colour_blind", "sound", "animations"):
            if not isinstance(getattr(self, name), bool):
                raise PrefsError(f"{name}: expected true or false, not {getattr(self, name)!r}")
        if self.auto_pass not in AUTO_PASS:
            raise PrefsError(f"auto_pass: expected one of {', '.join(AUTO_PASS)}")
        if self.sort not in SORTS:
            raise PrefsError(f"sort: expected one of {', '.join(SORTS)}")

    def to_json(self) -> dict[str, Any]:
        """The settings object."""
        return asdict(self)

    @classmethod
    def from_json(cls, obj: Any, *, partial: bool = False) -> PlayerPrefs:
        """Settings from JSON, strictly: every key known, every value of its type (``partial``:
        keys left out keep their defaults).

        :raises PrefsError: naming the first field that is wrong.
        """
        if not isinstance(obj, Mapping):
            raise PrefsError("settings are one JSON object")
        known = set(cls.__dataclass_fields__)
        unknown = sorted(str(k)[:40] for k in obj if k not in known)
        if unknown:
            raise PrefsError(f"unknown setting(s): {', '.join(unknown)}")
        missing = sorted(known - set(obj))
        if missing and not partial:
            raise PrefsError(f"missing setting(s): {', '.join(missing)}")
        try:
            return cls(**dict(obj))
        except TypeError as exc:
            raise PrefsError(str(exc)) from None

    def updated(self, msg: Prefs) -> PlayerPrefs:
        """These settings with the fields ``msg`` carries."""
        given = {k: v for k, v in asdict(msg).items() if v is not None}
        return replace(self, **given)


DEFAULT_PREFS = PlayerPrefs()


def auto_decision(prefs: PlayerPrefs, legal: Sequence[Action], *, window: bool) -> Action | None:
    """What the settings answer for a person without asking them, or None (ask: a prompt).

    ``auto_win``: a legal win (糊, 自摸, 花糊) is taken. ``auto_pass`` (``window`` only): ``all``
    passes any window without a win, ``no_chow`` one whose only claims are chows.
    """
    wins = [a for a in legal if a.kind in _WINS]
    if wins:
        return wins[0] if prefs.auto_win else None
    if not window or prefs.auto_pass == "none":
        return None
    passing = next((a for a in legal if a.kind is ActionKind.PASS), None)
    if passing is None:
        return None
    claims = [a for a in legal if a.kind is not ActionKind.PASS]
    if prefs.auto_pass == "all" or all(a.kind is ActionKind.CHOW for a in claims):
        return passing
    return None
