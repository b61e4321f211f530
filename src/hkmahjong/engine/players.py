"""玩家 (players): the controller protocol ``choose(view, legal) -> Action`` and a random player.

Everything that sits at a table — a random player, a bot, a human at the terminal, a remote
client — is a :class:`Controller`: it sees only its seat's :class:`PlayerView` and the legal
actions, and returns one of them. The bots package implements the same protocol.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from hkmahjong.engine.actions import Action, ActionKind
from hkmahjong.engine.events import Event
from hkmahjong.engine.match import Match
from hkmahjong.engine.record import ActionRecord, GameRecord, HandRecord, digest_of, new_match_seed
from hkmahjong.engine.runner import MatchRunner
from hkmahjong.engine.state import HandState
from hkmahjong.errors import IllegalActionError, MahjongError

if TYPE_CHECKING:
    from hkmahjong.engine.view import PlayerView
    from hkmahjong.rules import Ruleset

__all__ = [
    "Controller",
    "FirstPlayer",
    "RandomPlayer",
    "check_choice",
    "play_hand",
    "run_match",
]


@runtime_checkable
class Controller(Protocol):
    """A seat's decision maker: given what it may see and the legal actions, pick one."""

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """Return one of ``legal`` (never empty)."""
        ...


class RandomPlayer:
    """隨機玩家: picks a uniformly random legal action from its own seeded RNG.

    ``win_bias`` (0–1) is the chance of taking a win (食糊/自摸/花糊) whenever one is legal, so
    random play reaches settlements often; 0 keeps it uniform.
    """

    def __init__(self, seed: int | str | bytes | None = None, *, win_bias: float = 0.0) -> None:
        if not 0.0 <= win_bias <= 1.0:
            raise ValueError(f"win_bias must be between 0 and 1, got {win_bias}")
        self.rng = random.Random(seed)
        self.win_bias = win_bias

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """A random legal action (a win first with probability ``win_bias``)."""
        if self.win_bias:
            wins = [a for a in legal if a.kind in _WINS]
            if wins and self.rng.random() < self.win_bias:
                return wins[0]
        return legal[self.rng.randrange(len(legal))]

    def __repr__(self) -> str:
        return f"RandomPlayer(win_bias={self.win_bias})"


class FirstPlayer:
    """Always the first legal action (``legal_actions`` is sorted): a deterministic dummy."""

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The first legal action."""
        return legal[0]


_WINS = frozenset({ActionKind.WIN, ActionKind.SELF_DRAW, ActionKind.BONUS_WIN})


def _is_one_of(choice: Action, legal: Sequence[Action]) -> bool:
    """``choice in legal`` by identity (actions are interned, equality is identity): ``in``
    would go through ``Action``'s rich comparison (defined for sorting) for every other item."""
    for a in legal:  # noqa: SIM110 (any() over a generator is slower interpreted)
        if a is choice:
            return True
    return False


def check_choice(choice: object, legal: Sequence[Action], who: str) -> Action:
    """The controller's ``choice`` if it is one of ``legal``.

    :raises IllegalActionError: naming the controller, its choice and the legal actions.
    """
    if isinstance(choice, Action) and choice in legal:
        return choice
    shown = ", ".join(a.text for a in legal)
    raise IllegalActionError(f"{who} chose {choice!r}, which is not legal; legal: {shown}")


# --------------------------------------------------------------------------------------------
# running hands and matches
# --------------------------------------------------------------------------------------------
def play_hand(
    state: HandState,
    controllers: Sequence[Controller],
    *,
    hand: HandRecord | None = None,
    max_actions: int = 10_000,
) -> list[Event]:
    """Play one hand to its end: ``controllers[seat]`` decides for each seat; returns every event.

    In a claim window each seat decides on its own view, which never shows the others' decisions.
    With ``hand`` given, each action and the digest of its events are appended to it.

    :raises IllegalActionError: when a controller returns an action that is not legal.
    :raises MahjongError: when the hand does not end within ``max_actions`` actions.
    """
    events = list(state.initial_events)
    for _ in range(max_actions):
        if state.is_over:
            return events
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        who = controllers[seat]
        choice = who.choose(state.view(seat), legal)
        if choice.__class__ is not Action or not _is_one_of(choice, legal):  # message if needed
            choice = check_choice(choice, legal, f"{who!r} at {seat.letter}")
        new = state.apply(seat, choice)
        if hand is not None:
            hand.actions.append(ActionRecord(seat, choice.text, digest_of(new)))
        events.extend(new)
    raise MahjongError(f"the hand did not end within {max_actions} actions")


def run_match(
    match: Match,
    ruleset: Ruleset,
    controllers: Sequence[Controller],
    *,
    match_seed: bytes | None = None,
    on_hand: Callable[[HandRecord, Match], None] | None = None,
    physical_table: bool = False,
    max_actions: int = 10_000,
    write: Callable[[str], object] | None = None,
    keep: bool = True,
) -> GameRecord:
    """Play a whole match; ``controllers[i]`` plays player ``i`` wherever that player sits.

    A loop over :class:`~hkmahjong.engine.runner.MatchRunner`: the first seat still to act
    decides, on its own view. The match seed comes from :mod:`secrets` unless given (simulations
    pass one to reproduce). Returns the complete :class:`GameRecord`; ``on_hand`` is called after
    each hand. ``physical_table`` lets seats declare false wins (詐糊, docs/rules.md §11).

    ``write`` gets each record line (with its newline) as soon as it is emitted, so a long
    simulation streams its record to a file. With ``keep=False`` memory stays flat: the returned
    record then holds only the last hand, and ``match.ledger`` only its last entry (see
    :class:`~hkmahjong.engine.runner.MatchRunner`).

    :raises IllegalActionError: when a controller returns an action that is not legal.
    :raises MahjongError: when a hand does not end within ``max_actions`` actions.
    """
    if len(controllers) != 4:
        raise MahjongError(f"a match needs 4 controllers, got {len(controllers)}")
    seed = new_match_seed() if match_seed is None else match_seed
    runner = MatchRunner(match, ruleset, seed, physical_table=physical_table, keep=keep)
    while not runner.match_over:
        step = runner.start_hand()
        if write is not None:
            for line in step.lines:
                write(line + "\n")
        for _ in range(max_actions):
            if runner.hand_over:
                break
            seat = runner.to_act[0]
            legal = runner.legal(seat)
            who = controllers[runner.player_at(seat)]
            choice = who.choose(runner.view(seat), legal)
            if choice.__class__ is not Action or not _is_one_of(choice, legal):
                choice = check_choice(choice, legal, f"{who!r} at {seat.letter}")
            step = runner.apply(seat, choice)
            if write is not None:
                for line in step.lines:
                    write(line + "\n")
        else:
            raise MahjongError(f"the hand did not end within {max_actions} actions")
        end = runner.last_hand_end
        if on_hand is not None and end is not None:
            on_hand(end.hand, match)
    return runner.record
