"""座位 (seats): who decides for a player — a person, a bot, or the passive sat-out player.

Every decider is an engine :class:`~hkmahjong.engine.players.Controller` (``choose(view, legal)``)
and sees only its seat's :class:`PlayerView`. :class:`PassivePlayer` plays a seat whose player
timed out twice or left (docs/rules.md §13, seed 002): it discards the tile it drew (or, with no drawn
tile, the safest one), never claims and never wins, so leaving a table never helps anyone.

Bots at a table have **deterministic budgets**: no wall-clock budget decides what they play, so a
bot's choice depends only on its seed and what it has seen, never on the machine's load (the
table's bots run off the event loop, :mod:`hkmahjong.parlor.thinking`). ``master`` (大師) plays
exactly :data:`TABLE_ROLLOUTS` samples a searched decision, in a worker process
(:class:`SearchBot`).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from hkmahjong.bots.master import MasterBot, Search
from hkmahjong.bots.registry import LEVEL_NAMES, get_bot
from hkmahjong.engine.actions import Action, ActionKind
from hkmahjong.engine.players import Controller
from hkmahjong.engine.record import rules_spec
from hkmahjong.engine.view import PlayerView
from hkmahjong.errors import MahjongError
from hkmahjong.rules import Ruleset

__all__ = [
    "BOT_LEVELS",
    "SEARCH_LEVELS",
    "TABLE_ROLLOUTS",
    "UNTIMED",
    "PassivePlayer",
    "SearchBot",
    "SeatStatus",
    "make_bot",
    "passive_choice",
]

SEARCH_LEVELS: tuple[str, ...] = ("master",)
"""Levels that search (大師): they think in a worker process, with a fixed sample count."""
BOT_LEVELS: tuple[str, ...] = (*LEVEL_NAMES, *SEARCH_LEVELS)
"""The bot levels a table may seat (easy / normal / hard / expert / master)."""
TABLE_ROLLOUTS = 8
"""Samples ``master`` plays at a searched decision at a table (``Search(rollouts=8)``: the same
choice on any machine under any load; about 0.1–0.3 s of one core in the compiled build)."""
UNTIMED = 3600.0
"""The time budget given to a table's bots: so large it never binds, so no choice depends on
how fast the machine happened to be (``strong``'s budget only ever cut its search short)."""


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


class SearchBot:
    """大師 at a table: :class:`~hkmahjong.bots.master.MasterBot` with ``rollouts`` samples and no
    time budget, described by plain values so that a worker process can build it
    (:func:`hkmahjong.parlor.thinking.search_choose`). ``choose`` plays it here (the fallback when
    no worker process is available: the same choice)."""

    def __init__(self, seed: int | str, ruleset: Ruleset, rollouts: int = TABLE_ROLLOUTS) -> None:
        self.seed = seed
        self.ruleset = ruleset
        self.rollouts = rollouts
        self.digest = str(rules_spec(ruleset)["digest"])
        """The ruleset's digest (a worker process keeps its bots by it)."""
        self._bot: MasterBot | None = None

    def bot(self) -> MasterBot:
        """The master bot itself (built once)."""
        if self._bot is None:
            self._bot = master_bot(self.seed, self.ruleset, self.rollouts)
        return self._bot

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """Master's action, searched here."""
        return self.bot().choose(view, legal)

    def __repr__(self) -> str:
        return f"SearchBot(seed={self.seed!r}, rollouts={self.rollouts})"


def master_bot(seed: int | str, ruleset: Ruleset, rollouts: int = TABLE_ROLLOUTS) -> MasterBot:
    """大師 with a deterministic budget: exactly ``rollouts`` samples a searched decision."""
    return MasterBot(seed, ruleset=ruleset, time_budget=UNTIMED, search=Search(rollouts=rollouts))


def make_bot(level: str, seed: int | str, ruleset: Ruleset) -> Controller:
    """A bot of ``level`` (easy … expert, master) bound to the table's ruleset, with a
    deterministic budget.

    :raises MahjongError: for an unknown level, naming the known ones.
    """
    if level not in BOT_LEVELS:
        raise MahjongError(f"unknown bot level {level!r}; levels: {', '.join(BOT_LEVELS)}")
    if level in SEARCH_LEVELS:
        return SearchBot(seed, ruleset)
    return get_bot(level, seed, ruleset=ruleset, time_budget=UNTIMED)
