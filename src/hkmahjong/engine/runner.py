"""對局進行 (match runner): a whole match, one step at a time — hands, ledger and record lines.

:class:`MatchRunner` drives a :class:`Match` through engine hands without controllers: the caller
asks who is to act, gives each decision with :meth:`MatchRunner.apply` whenever it arrives, and
gets back a :class:`StepResult` holding the step's events and the exact record lines (JSON Lines of
the :class:`GameRecord`) that step appended. A server commits those lines before it broadcasts
the events; :meth:`MatchRunner.resume` rebuilds the runner from the lines, checking each one.
``players.run_match`` and the terminal game are loops over this class. See ``docs/engine.md``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hkmahjong.engine.actions import Action
from hkmahjong.engine.events import Event, HandOutcome
from hkmahjong.engine.match import HandResult, LedgerEntry, Match, MatchError
from hkmahjong.engine.record import (
    ActionRecord,
    GameRecord,
    HandRecord,
    RecordError,
    commitment,
    digest_of,
    hand_seed,
    match_result,
    rules_from_spec,
    rules_spec,
)
from hkmahjong.engine.state import HandState
from hkmahjong.engine.view import Phase, PlayerView, PublicView
from hkmahjong.errors import IllegalActionError, MahjongError
from hkmahjong.rules import Ruleset
from hkmahjong.tiles import Tile, Wind

__all__ = ["HandEnd", "MatchRunner", "StepResult"]

Who = Wind | int
"""A seat (a :class:`Wind`) or a player index (a plain ``int`` 0–3, fixed for the match)."""


@dataclass(frozen=True)
class HandEnd:
    """一局完: what a finished hand gives the match — its record, outcome, result and ledger line."""

    hand: HandRecord
    outcome: HandOutcome
    result: HandResult
    entry: LedgerEntry


@dataclass(frozen=True)
class StepResult:
    """What one step did: the events (filter them per seat with ``event.for_seat``), the record
    lines it appended (commit them before showing the events), and whether a hand or the match
    ended.

    A hand start has ``seat``/``player``/``action`` ``None`` and the hand's opening events.
    """

    hand_number: int
    seat: Wind | None
    player: int | None
    action: Action | None
    events: tuple[Event, ...]
    lines: tuple[str, ...]
    hand_end: HandEnd | None = None
    match_over: bool = False


class MatchRunner:
    """一場對局: a resumable, step-driven match on the engine (no controllers needed).

    Usage::

        runner = MatchRunner(match, ruleset, match_seed)
        while not runner.match_over:
            runner.start_hand()              # explicit: a hand starts only when asked
            while not runner.hand_over:
                seat = runner.to_act[0]      # several seats may be deciding in a claim window
                step = runner.apply(seat, choose(runner.view(seat), runner.legal(seat)))

    The runner records each finished hand in ``match`` (it owns that object from now on) and
    builds :attr:`record`; every record line appears in exactly one step's ``lines`` (the header
    in the first hand start's), so their concatenation is ``record.dumps()``. Not thread-safe:
    one caller (a table's actor) drives it.

    ``walls(hand_number)`` (tests, tutorials) may stack a hand's wall (in draw order) instead of
    shuffling it from the hand seed; a record of such a hand does not verify.

    With ``keep=False`` (long simulations that stream each step's ``lines`` to a file) memory stays
    flat: :attr:`record` holds only the hand in play (or the last one), :attr:`lines` only the
    lines not yet handed out, and the match's ledger only its last entry.
    """

    def __init__(
        self,
        match: Match,
        ruleset: Ruleset,
        match_seed: bytes,
        *,
        physical_table: bool = False,
        walls: Callable[[int], list[Tile] | None] | None = None,
        keep: bool = True,
    ) -> None:
        if not isinstance(match_seed, bytes | bytearray) or not match_seed:
            raise MahjongError(f"the match seed must be non-empty bytes, not {match_seed!r}")
        self.match = match
        self.ruleset = ruleset
        self._seed = bytes(match_seed)
        self.physical_table = physical_table
        self.walls = walls
        self.keep = keep
        self._keep_ledger = keep
        self.record = GameRecord(
            rules_spec(ruleset),
            match.config_json(),
            commitment(self._seed),
            physical_table=physical_table,
        )
        self._lines: list[str] = [_dumps(self.record.header_json())]
        self._handed = (
            0  # lines already handed out in a StepResult (the header goes with the first)
        )
        self._state: HandState | None = None
        self._hand: HandRecord | None = None
        self._hand_seed = b""
        self._events: list[Event] = []
        self._seats: tuple[int, int, int, int] = (0, 1, 2, 3)
        self._end: HandEnd | None = None

    def forget(self) -> None:
        """From now on keep no more of the record than play needs (a parlor's live tables,
        whose record is in their store): as with ``keep=False``, :attr:`lines` holds only the
        lines not yet handed out and :attr:`record` only the hand in play (or the last one);
        the match's ledger stays whole."""
        self.keep = False
        del self._lines[: self._handed]
        self._handed = 0
        del self.record.hands[:-1]

    # --- where the match is -----------------------------------------------------------------
    @property
    def lines(self) -> tuple[str, ...]:
        """Every record line emitted so far, in order (the header first); with ``keep=False``,
        only those not yet handed out in a :class:`StepResult`."""
        return tuple(self._lines)

    @property
    def hand_number(self) -> int:
        """The current (or last) hand's number, 0-based; -1 before the first hand."""
        return -1 if self._hand is None else self._hand.number

    @property
    def in_hand(self) -> bool:
        """A hand is being played (started and not over)."""
        return self._state is not None and not self._state.is_over

    @property
    def hand_over(self) -> bool:
        """No hand is being played: none started yet, or the last one ended."""
        return not self.in_hand

    @property
    def match_over(self) -> bool:
        """The match has ended (its footer line is emitted); no hand may start."""
        return self.record.match_seed is not None

    @property
    def can_start(self) -> bool:
        """:meth:`start_hand` may be called now."""
        return self.hand_over and not self.match_over

    @property
    def last_hand_end(self) -> HandEnd | None:
        """The end of the last finished hand (None before the first hand ends)."""
        return self._end

    @property
    def outcome(self) -> HandOutcome | None:
        """The current hand's outcome once it is over (None while it is played)."""
        return None if self._state is None else self._state.outcome

    @property
    def phase(self) -> Phase | None:
        """The current (or last) hand's phase, as every view shows it (None before any hand):
        the cheap way to ask what ``view(seat).phase`` says."""
        return None if self._state is None else self._state.phase

    @property
    def to_act(self) -> tuple[Wind, ...]:
        """The seats that must decide now (several in a claim window; empty between hands)."""
        return () if self._state is None else self._state.to_act

    @property
    def to_act_players(self) -> tuple[int, ...]:
        """The players (0–3) that must decide now, in the order of :attr:`to_act`."""
        return tuple(self._seats[seat] for seat in self.to_act)

    def player_at(self, seat: Wind) -> int:
        """The player sitting at ``seat`` in the current (or last) hand; before any: the first."""
        return self._seats[Wind(seat)]

    def seat_of(self, player: int) -> Wind:
        """The seat wind of ``player`` (0–3) in the current (or last) hand.

        :raises MahjongError: when ``player`` is not 0–3.
        """
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < 4:
            raise MahjongError(f"a player is 0-3, not {player!r}")
        return Wind(self._seats.index(player))

    def _seat(self, who: Who) -> Wind:
        if isinstance(who, Wind):
            return who
        return self.seat_of(who)

    def legal(self, who: Who) -> list[Action]:
        """The legal actions of a seat (a :class:`Wind`) or player (an ``int``) now, sorted.

        Empty when it need not act (or between hands).
        """
        if self._state is None:
            return []
        return self._state.legal_actions(self._seat(who))

    def view(self, who: Who) -> PlayerView:
        """What a seat (:class:`Wind`) or player (``int``) may see of the current (or last) hand.

        :raises MahjongError: before the first hand starts.
        """
        if self._state is None:
            raise MahjongError("no hand has started yet: call start_hand()")
        return self._state.view(self._seat(who))

    def public_view(self) -> PublicView:
        """What a spectator (旁觀) may see of the current (or last) hand: no concealed tile.

        :raises MahjongError: before the first hand starts.
        """
        if self._state is None:
            raise MahjongError("no hand has started yet: call start_hand()")
        return self._state.public_view()

    # --- steps ------------------------------------------------------------------------------
    def start_hand(self) -> StepResult:
        """開局: deal the next hand; its record line publishes the wall's commitment (not its seed).

        :raises MahjongError: while a hand is being played, or when the match is over.
        """
        if self.match_over:
            raise MahjongError(f"the match is over after {self.match.hand_number} hands")
        if self.in_hand:
            raise MahjongError(f"hand {self.hand_number} is still being played")
        match = self.match
        self._hand_seed = hand_seed(self._seed, match.hand_number)
        state = HandState.new(
            self.ruleset,
            seed=self._hand_seed,
            prevailing_wind=match.prevailing,
            hand_number=match.hand_number,
            wall=None if self.walls is None else self.walls(match.hand_number),
            physical_table=self.physical_table,
        )
        self._seats = (
            match.player_at(Wind.EAST),
            match.player_at(Wind.SOUTH),
            match.player_at(Wind.WEST),
            match.player_at(Wind.NORTH),
        )
        self._events = list(state.initial_events)
        hand = HandRecord(
            match.hand_number,
            match.dealer,
            match.prevailing,
            commitment(self._hand_seed),
            digest_of(self._events),
        )
        if not self.keep:
            self.record.hands.clear()
        self.record.hands.append(hand)
        self._state, self._hand = state, hand
        self._lines.append(_dumps(hand.start_json()))
        return self._step(None, None, tuple(self._events), None)

    def apply(self, who: Who, action: Action | str) -> StepResult:
        """Play ``action`` for a seat (:class:`Wind`) or player (``int``); the step's events and lines.

        When the action ends the hand, the hand's end line (seed revealed, result) is emitted and
        the hand entered in the ledger; when that ends the match, the footer line too. The next
        hand starts only with :meth:`start_hand`.

        :raises IllegalActionError: when ``action`` is not legal for that seat now, or no hand is
            being played; nothing changes.
        """
        state, hand = self._state, self._hand
        if state is None or hand is None or state.is_over:
            raise IllegalActionError("no hand is being played: nothing to decide now")
        if isinstance(action, str):
            action = Action.from_text(action)
        seat = self._seat(who)
        events = state.apply(seat, action)
        hand.actions.append(ActionRecord(seat, action.text, digest_of(events)))
        self._events.extend(events)
        self._lines.append(_dumps(hand.action_json(len(hand.actions) - 1)))
        end = self._finish_hand(state, hand) if state.is_over else None
        return self._step(seat, action, tuple(events), end)

    def _finish_hand(self, state: HandState, hand: HandRecord) -> HandEnd:
        outcome = state.outcome
        assert outcome is not None
        result = match_result(outcome, self.ruleset, self.match, self._events)
        entry = self.match.record(result, allow_debt=not self.ruleset.payment.bankrupt_cap)
        if not self._keep_ledger:
            del self.match.ledger[:-1]
        hand.seed = self._hand_seed
        hand.result = result
        hand.end_digest = digest_of(self._events)
        self._lines.append(_dumps(hand.end_json()))
        if self.match.finished:
            self.record.match_seed = self._seed
            self.record.totals = list(self.match.totals().values())
            self._lines.append(_dumps(self.record.footer_json()))
        self._end = HandEnd(hand, outcome, result, entry)
        return self._end

    def _step(
        self,
        seat: Wind | None,
        action: Action | None,
        events: tuple[Event, ...],
        end: HandEnd | None,
    ) -> StepResult:
        new = tuple(self._lines[self._handed :])
        if self.keep:
            self._handed = len(self._lines)
        else:
            self._lines.clear()
        return StepResult(
            self.hand_number,
            seat,
            None if seat is None else self._seats[seat],
            action,
            events,
            new,
            end,
            self.match_over,
        )

    # --- rebuilding -------------------------------------------------------------------------
    @classmethod
    def resume(
        cls,
        source: GameRecord | str | Iterable[str],
        match_seed: bytes,
        *,
        name: str = "record",
        before_action: Callable[[MatchRunner, Wind, Action], None] | None = None,
        on_step: Callable[[MatchRunner, StepResult], None] | None = None,
    ) -> MatchRunner:
        """The runner of a partial (or complete) record, replayed step by step to where it stops.

        ``source`` is the record's text, its lines, or a :class:`GameRecord`. Every line is
        regenerated and must equal the one given (same JSON object): the header's ruleset (its
        digest is required) and settings, each hand's commitment and deal, each action and the
        digest of its events, each hand end (seed, result, digest) and the footer.
        ``before_action(runner, seat, action)`` is called before each recorded action is applied
        (e.g. to let a bot make the same decision again, so its own random state goes on), and
        ``on_step(runner, step)`` after each step (hand start or action), as in live play.

        :raises RecordError: naming the first line that does not parse, is illegal, or differs
            from the replay (e.g. an action whose ``ev`` digest does not match); or the line after
            the last when the record stops inside a step.
        """
        if isinstance(source, GameRecord):
            name = source.source
            given = list(source.iter_lines())
        elif isinstance(source, str):
            given = source.split("\n")
            if given and given[-1] == "":
                given.pop()
        else:
            given = [line.rstrip("\n") for line in source]
        record = GameRecord.loads("\n".join(given), source=name, partial=True)
        ruleset = rules_from_spec(record.rules, source=name)
        try:
            match = Match.from_config(record.match)
        except MatchError as exc:
            raise RecordError(f"bad match settings: {exc}", 1, name) from None
        if commitment(bytes(match_seed)) != record.commitment:
            raise RecordError(
                "the match seed does not match the header's commitment (another match's key?)",
                1,
                name,
            )
        runner = cls(match, ruleset, match_seed, physical_table=record.physical_table)
        check = _LineCheck(given, name)
        check.take(runner._lines[0], skip=("rules",))  # the rules: loaded and digest-checked above
        runner._handed = 1
        for hand in record.hands:
            if runner.match_over:
                raise RecordError(f"hand {hand.number} after the match was over", hand.line, name)
            start = runner.start_hand()
            check.take_all(start.lines)
            if on_step is not None:
                on_step(runner, start)
            for act in hand.actions:
                try:
                    action = Action.from_text(act.action)
                    if before_action is not None:
                        before_action(runner, act.seat, action)
                    step = runner.apply(act.seat, action)
                except MahjongError as exc:
                    raise RecordError(f"hand {hand.number}: {exc}", act.line, name) from None
                check.take_all(step.lines)
                if on_step is not None:
                    on_step(runner, step)
            if hand.seed is not None and runner.in_hand:
                raise RecordError(
                    f"hand {hand.number} ends here but the replayed hand is not over",
                    hand.end_line,
                    name,
                )
        check.done()
        return runner


def _dumps(obj: Mapping[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


class _LineCheck:
    """Compares regenerated record lines with the given ones, naming the first that differs."""

    def __init__(self, given: Sequence[str], name: str) -> None:
        self.given = given
        self.name = name
        self.n = 0

    def take(self, line: str, skip: tuple[str, ...] = ()) -> None:
        n = self.n + 1
        if n > len(self.given):
            raise RecordError(
                f"truncated: the record stops inside a step (its {_kind(line)} line is missing)",
                n,
                self.name,
            )
        given = json.loads(self.given[n - 1])
        want = json.loads(line)
        keys = (set(given) | set(want)) - set(skip)
        fields = sorted(k for k in keys if given.get(k) != want.get(k))
        if fields:
            raise RecordError(
                f"this {_kind(line)} line differs from the replay (field {', '.join(fields)})",
                n,
                self.name,
            )
        self.n = n

    def take_all(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.take(line)

    def done(self) -> None:
        if self.n != len(self.given):
            raise RecordError("a line the replay did not produce", self.n + 1, self.name)


def _kind(line: str) -> str:
    return str(json.loads(line).get("t", "?"))
