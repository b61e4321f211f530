"""座位 (seats): who decides for a player — a person, a bot, or the passive sat-out player.

Every decider is an engine :class:`~hkmahjong.engine.players.Controller` (``choose(view, legal)``)
and sees only its seat's :class:`PlayerView`. :class:`PassivePlayer` plays a seat whose player
timed out twice or left (RULES.md §13, seed 002): it discards the tile it drew (or, with no drawn
tile, the safest one), never claims and never wins, so leaving a table never helps anyone.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from hkmahjong.bots.registry import LEVEL_NAMES, get_bot
from hkmahjong.engine.actions import Action, ActionKind
from hkmahjong.engine.players import Controller
from hkmahjong.engine.view import PlayerView
from hkmahjong.errors import MahjongError
from hkmahjong.rules import Ruleset

__all__ = ["BOT_LEVELS", "PassivePlayer", "SeatStatus", "make_bot", "passive_choice"]

BOT_LEVELS: tuple[str, ...] = LEVEL_NAMES
"""The bot levels a table may seat (easy / normal / hard / expert)."""


class SeatStatus(Enum):
    """A seat's status as every player sees it (``players[].status`` of the protocol)."""

    EMPTY = "empty"
    CONNECTED = "connected"
    AWAY = "away"
    """Disconnected, within the grace period."""
    SAT_OUT = "sat_out"
    """Played by the passive player until the person takes the seat back."""
    BOT = "bot"


def passive_choice(view: PlayerView, legal: Sequence[Action]) -> Action:
    """The passive player's action: pass in a window; on a turn discard the drawn tile, else the
    safest discard (the tile with the most copies in sight, then honours, then the highest).

    Never a win, a claim or a kong. This is also what a timeout chooses.

    :raises MahjongError: when ``legal`` is empty.
    """
    if not legal:
        raise MahjongError("no legal action to choose from")
    pass_action = next((a for a in legal if a.kind is ActionKind.PASS), None)
    if pass_action is not None:
        return pass_action
    discards = [a for a in legal if a.kind is ActionKind.DISCARD]
    if not discards:
        return legal[0]
    if view.last_drawn is not None:
        drawn = Action.discard(view.last_drawn)
        if drawn in discards:
            return drawn
    seen = view.visible_counts()

    def safety(action: Action) -> tuple[int, int, int]:
        tile = action.tile
        assert tile is not None
        return (seen[tile], int(tile) >= 27, int(tile))

    return max(discards, key=safety)


class PassivePlayer:
    """被託管: the sat-out seat's player (see :func:`passive_choice`)."""

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The passive action."""
        return passive_choice(view, legal)

    def __repr__(self) -> str:
        return "PassivePlayer()"


def make_bot(level: str, seed: int | str, ruleset: Ruleset) -> Controller:
    """A bot of ``level`` (easy … expert) bound to the table's ruleset.

    :raises MahjongError: for an unknown level, naming the known ones.
    """
    if level not in BOT_LEVELS:
        raise MahjongError(f"unknown bot level {level!r}; levels: {', '.join(BOT_LEVELS)}")
    return get_bot(level, seed, ruleset=ruleset, time_budget=0.5)
