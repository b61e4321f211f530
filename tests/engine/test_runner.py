"""MatchRunner: a step-driven, resumable match (issue 13 item 21); run_match is a loop over it.

docs/dev/architecture.md practice 14 (the table's log is its game record): each step hands out the exact record
lines it appended; replaying them rebuilds the runner; an illegal choice is an error.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from hkmahjong.engine import Action, ActionKind
from hkmahjong.engine.match import Match, MatchLength
from hkmahjong.engine.players import Controller, RandomPlayer, check_choice, run_match
from hkmahjong.engine.record import (
    ActionRecord,
    GameRecord,
    HandRecord,
    RecordError,
    commitment,
    digest_of,
    hand_seed,
    match_result,
    rules_spec,
    seed_from_text,
    verify,
)
from hkmahjong.engine.runner import MatchRunner
from hkmahjong.engine.state import HandState
from hkmahjong.errors import IllegalActionError, MahjongError
from hkmahjong.rules import Ruleset, get_preset, preset_names
from hkmahjong.tiles import Wind


def _reference_run_match(
    match: Match,
    ruleset: Ruleset,
    controllers: Sequence[Controller],
    match_seed: bytes,
    physical_table: bool = False,
) -> GameRecord:
    """run_match as it was before MatchRunner (its own bookkeeping), the oracle for the loop."""
    record = GameRecord(
        rules_spec(ruleset),
        match.config_json(),
        commitment(match_seed),
        physical_table=physical_table,
    )
    while not match.finished:
        hs = hand_seed(match_seed, match.hand_number)
        hand = HandRecord(match.hand_number, match.dealer, match.prevailing, commitment(hs), "")
        record.hands.append(hand)
        state = HandState.new(
            ruleset,
            seed=hs,
            prevailing_wind=match.prevailing,
            hand_number=match.hand_number,
            physical_table=physical_table,
        )
        hand.start_digest = digest_of(state.initial_events)
        events = list(state.initial_events)
        while not state.is_over:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            who = controllers[match.player_at(seat)]
            choice = check_choice(who.choose(state.view(seat), legal), legal, "x")
            new = state.apply(seat, choice)
            hand.actions.append(ActionRecord(seat, choice.text, digest_of(new)))
            events.extend(new)
        outcome = state.outcome
        assert outcome is not None
        hand.seed = hs
        hand.result = match_result(outcome, ruleset, match, events)
        hand.end_digest = digest_of(events)
        match.record(hand.result, allow_debt=not ruleset.payment.bankrupt_cap)
    record.match_seed = match_seed
    record.totals = list(match.totals().values())
    return record


def _players(tag: str, bias: float = 0.5) -> list[RandomPlayer]:
    return [RandomPlayer(f"{tag}/{i}", win_bias=bias) for i in range(4)]


def _match(kind: str) -> Match:
    if kind == "bankrupt":
        return Match(length=MatchLength.BANKRUPTCY, starting_balance=60, max_hands=6)
    return Match(length=MatchLength.OPEN, max_hands=3)


@pytest.mark.parametrize("preset", preset_names())
@pytest.mark.parametrize("kind", ["open", "bankrupt", "physical"])
def test_run_match_output_is_unchanged(preset: str, kind: str) -> None:
    """run_match over MatchRunner writes the same record text as its former own loop."""
    seed = seed_from_text(f"same/{preset}/{kind}")
    physical = kind == "physical"
    before = _reference_run_match(
        _match(kind), get_preset(preset), _players(kind, 0.7), seed, physical
    )
    after = run_match(
        _match(kind),
        get_preset(preset),
        _players(kind, 0.7),
        match_seed=seed,
        physical_table=physical,
    )
    assert after.dumps() == before.dumps()


def _drive(runner: MatchRunner, players: Sequence[Controller]) -> list[str]:
    """Play the runner to the end of its match; the record lines its steps hand out."""
    lines: list[str] = []
    while not runner.match_over:
        if runner.can_start:
            lines += runner.start_hand().lines
        seat = runner.to_act[0]
        legal = runner.legal(seat)
        choice = players[runner.player_at(seat)].choose(runner.view(seat), legal)
        lines += runner.apply(seat, choice).lines
    return lines


def test_step_lines_concatenate_to_the_record_and_verify() -> None:
    """Each line is handed out once; all of them are record.dumps() and pass verify."""
    seed = seed_from_text("lines")
    runner = MatchRunner(_match("open"), get_preset("parlor"), seed)
    lines = _drive(runner, _players("lines"))
    text = "".join(line + "\n" for line in lines)
    assert text == runner.record.dumps()
    expected = run_match(_match("open"), get_preset("parlor"), _players("lines"), match_seed=seed)
    assert text == expected.dumps()
    assert verify(GameRecord.loads(text)).hands == 3
    assert lines[0].startswith('{"t":"header"') and lines[-1].startswith('{"t":"match_end"')


def test_a_runner_that_forgets_hands_out_the_same_lines_and_keeps_its_ledger() -> None:
    """``forget()`` (a parlor's live table: its record is in the store) drops the lines handed
    out and the finished hands, and plays on exactly as before; the ledger stays whole."""
    seed = seed_from_text("lines")
    kept = MatchRunner(_match("open"), get_preset("parlor"), seed)
    expected = _drive(kept, _players("lines"))
    runner = MatchRunner(_match("open"), get_preset("parlor"), seed)
    runner.forget()
    assert _drive(runner, _players("lines")) == expected
    assert runner.lines == () and len(runner.record.hands) == 1
    assert runner.record.hands[0].number == kept.record.hands[-1].number
    assert len(runner.match.ledger) == len(kept.match.ledger) == 3
    resumed = MatchRunner.resume(expected[:-5], seed)  # inside the last hand
    resumed.forget()
    assert resumed.lines == () and len(resumed.record.hands) == 1
    assert len(resumed.match.ledger) == 2


def test_step_result_reports_the_hand_end_and_the_match_end() -> None:
    """A hand's last action carries its end (result, ledger line); the match end its footer."""
    runner = MatchRunner(Match(length=MatchLength.ONE_HAND), get_preset("parlor"), b"one")
    start = runner.start_hand()
    assert start.action is None and start.events[0].kind.value == "hand_start"
    assert [line[:12] for line in start.lines] == ['{"t":"header', '{"t":"hand",']
    assert '"seed"' not in start.lines[1]  # the wall's seed is revealed only at the hand's end
    players = _players("end")
    while True:
        seat = runner.to_act[0]
        step = runner.apply(seat, players[int(seat)].choose(runner.view(seat), runner.legal(seat)))
        if step.hand_end is not None:
            break
        assert not step.match_over and len(step.lines) == 1
    assert step.match_over and runner.match_over and not runner.can_start
    assert [line[:8] for line in step.lines] == ['{"t":"ac', '{"t":"en', '{"t":"ma']
    assert step.hand_end.entry.hand_number == 0 and step.hand_end.hand.seed is not None
    with pytest.raises(MahjongError, match="match is over"):
        runner.start_hand()


def test_seats_and_players_address_the_same_decider() -> None:
    """who is to act as seats and as players; legal/view/apply accept either."""
    match = Match(length=MatchLength.OPEN, max_hands=3, dealer=2)  # player 2 deals first
    runner = MatchRunner(match, get_preset("parlor"), b"seats")
    runner.start_hand()
    seat = runner.to_act[0]
    player = runner.to_act_players[0]
    assert player != int(seat) and runner.seat_of(player) is seat
    assert runner.legal(player) == runner.legal(seat)
    assert runner.view(player) == runner.view(seat)
    step = runner.apply(player, runner.legal(player)[0])
    assert step.seat is seat and step.player == player


def test_an_illegal_choice_raises_and_changes_nothing() -> None:
    """An illegal choice is an error (never replaced by a legal one); no line is emitted."""
    runner = MatchRunner(Match(length=MatchLength.ONE_HAND), get_preset("parlor"), b"illegal")
    runner.start_hand()
    seat = runner.to_act[0]
    other = Wind((int(seat) + 1) % 4)
    lines = runner.lines
    view = runner.view(seat)
    with pytest.raises(IllegalActionError):
        runner.apply(other, runner.legal(seat)[0])
    with pytest.raises(IllegalActionError):
        runner.apply(seat, Action(ActionKind.PUNG))
    assert runner.lines == lines and runner.view(seat) == view and runner.to_act == (seat,)

    class Cheat:
        def choose(self, view: object, legal: Sequence[Action]) -> Action:
            return Action(ActionKind.PUNG)

    with pytest.raises(IllegalActionError, match="not legal"):
        run_match(Match(length=MatchLength.ONE_HAND), get_preset("parlor"), [Cheat()] * 4)


def _replaying(players: Sequence[Controller]):  # type: ignore[no-untyped-def]
    def before(runner: MatchRunner, seat: Wind, action: Action) -> None:
        players[runner.player_at(seat)].choose(runner.view(seat), runner.legal(seat))

    return before


@pytest.mark.parametrize(
    ("preset", "hands", "each"), [("parlor", 1, True), ("ml", 1, True), ("cuhk", 2, False)]
)
def test_resume_at_every_step_continues_identically(preset: str, hands: int, each: bool) -> None:
    """Resumed from the lines up to any step, a match goes on the same: at every step (``each``:
    one-hand matches) the same deciders, and the next action emits the same lines; from every
    15th step and each hand boundary it plays on to the very same record (the whole set is
    quadratic, so the two-hand match is checked at those points only)."""
    seed = seed_from_text(f"resume/{preset}")
    ruleset = get_preset(preset)
    runner = MatchRunner(Match(length=MatchLength.OPEN, max_hands=hands), ruleset, seed)
    players = _players("resume", 1.0)
    steps: list[list[str]] = []
    moves: list[tuple[Wind, Action] | None] = []  # the step after each step (None: a hand start)
    deciders: list[tuple[Wind, ...]] = []
    boundaries: set[int] = set()  # a hand's end and the next hand's start
    while not runner.match_over:
        if runner.can_start:
            boundaries.add(len(steps))
            moves.append(None)
            steps.append(list(runner.start_hand().lines))
            deciders.append(runner.to_act)
        seat = runner.to_act[0]
        choice = players[runner.player_at(seat)].choose(runner.view(seat), runner.legal(seat))
        moves.append((seat, choice))
        done = runner.apply(seat, choice)
        if done.hand_end is not None:
            boundaries.add(len(steps))
        steps.append(list(done.lines))
        deciders.append(runner.to_act)
    every = [line for step in steps for line in step]
    cut = 0
    for k, step in enumerate(steps):
        cut += len(step)
        if k % 15 == 0 or k in boundaries:
            again = _players("resume", 1.0)
            resumed = MatchRunner.resume(every[:cut], seed, before_action=_replaying(again))
            assert _drive(resumed, again) == every[cut:], f"after step {k}"
            assert resumed.record.dumps() == runner.record.dumps()
            continue
        if not each:
            continue
        resumed = MatchRunner.resume(every[:cut], seed)
        assert resumed.lines == tuple(every[:cut])
        assert resumed.to_act == deciders[k], f"after step {k}"
        seat, action = moves[k + 1] or (None, None)
        assert seat is not None and action is not None
        assert seat in resumed.to_act
        assert list(resumed.apply(seat, action).lines) == steps[k + 1], f"after step {k}"


def test_resume_gives_the_same_to_act_and_views() -> None:
    """A resumed runner shows the same deciders and the same view to each seat."""
    seed = b"views"
    runner = MatchRunner(Match(length=MatchLength.ONE_HAND), get_preset("parlor"), seed)
    runner.start_hand()
    players = _players("views")
    for _ in range(40):
        seat = runner.to_act[0]
        runner.apply(seat, players[int(seat)].choose(runner.view(seat), runner.legal(seat)))
        if runner.hand_over:
            break
    resumed = MatchRunner.resume(runner.record.dumps(), seed)
    assert resumed.to_act == runner.to_act and resumed.to_act_players == runner.to_act_players
    for seat in Wind:
        assert resumed.view(seat) == runner.view(seat)
        assert resumed.legal(seat) == runner.legal(seat)


def _short_record(seed: bytes) -> list[str]:
    runner = MatchRunner(Match(length=MatchLength.ONE_HAND), get_preset("parlor"), seed)
    runner.start_hand()
    for _ in range(12):
        seat = runner.to_act[0]
        runner.apply(seat, runner.legal(seat)[-1])
    return list(runner.lines)


def test_resume_refuses_a_wrong_digest_naming_the_line() -> None:
    """An action whose ``ev`` does not match its events is refused at its line."""
    lines = _short_record(b"digest")
    lines[5] = lines[5].replace('"ev":"', '"ev":"0')[:-3] + '"}'
    with pytest.raises(
        RecordError, match=r"line 6: .*act line differs from the replay \(field ev\)"
    ):
        MatchRunner.resume(lines, b"digest")


def test_resume_refuses_an_edited_action_naming_the_line() -> None:
    """A legal but different action (with the old digest) is refused at its line."""
    lines = _short_record(b"edit")
    runner = MatchRunner.resume(lines[:6], b"edit")
    seat = runner.to_act[0]
    other = next(a for a in runner.legal(seat) if a.text not in lines[6])
    import json

    obj = json.loads(lines[6])
    obj["action"] = other.text
    lines[6] = json.dumps(obj, separators=(",", ":"))
    with pytest.raises(RecordError, match=r"line 7: .*differs from the replay \(field ev\)"):
        MatchRunner.resume(lines, b"edit")


def test_resume_refuses_an_illegal_action_another_seed_and_extra_lines() -> None:
    """Illegal recorded action, the wrong match seed, and a hand start that was not made."""
    lines = _short_record(b"bad")
    illegal = [*lines[:3], lines[3].replace('"action":"', '"action":"x')]
    with pytest.raises(RecordError, match="line 4: "):
        MatchRunner.resume(illegal, b"bad")
    with pytest.raises(RecordError, match="line 1: the match seed does not match"):
        MatchRunner.resume(lines, b"other")
    with pytest.raises(RecordError, match="line 3: hand 0 has no end line"):
        MatchRunner.resume([*lines[:2], lines[1]], b"bad")
