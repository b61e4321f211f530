"""Matches played through the real engine: run_match, players, bankruptcy capping — docs/rules.md §2, §9."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from types import ModuleType

import pytest

from hkmahjong.engine.actions import Action, ActionKind
from hkmahjong.engine.match import Match, MatchLength
from hkmahjong.engine.players import Controller, FirstPlayer, RandomPlayer, run_match
from hkmahjong.engine.record import GameRecord, RecordError, seed_from_text, verify
from hkmahjong.engine.state import HandState
from hkmahjong.engine.view import Phase, PlayerView
from hkmahjong.errors import IllegalActionError
from hkmahjong.rules import Ruleset, get_preset
from hkmahjong.tiles import Wind


def chicken() -> Ruleset:
    """The parlor with 雞糊 allowed (min fan 0), so random players win often."""
    return dataclasses.replace(get_preset("parlor"), min_fan=0)


def winners(seed: str) -> list[Controller]:
    return [RandomPlayer(f"{seed}/{i}", win_bias=1.0) for i in range(4)]


def test_east_round_through_the_engine() -> None:
    """docs/rules.md §2: an East round ends after four passes of the deal; the ledger sums to zero."""
    match = Match(("A", "B", "C", "D"), MatchLength.EAST_ROUND, max_hands=300)
    record = run_match(match, chicken(), winners("east"), match_seed=seed_from_text("east"))
    assert match.finished and match.deals_passed == 4 and match.prevailing.zh == "南"
    assert sum(match.totals().values()) == 0
    assert [h.prevailing.zh for h in record.hands] == ["東"] * len(record.hands)
    stays = sum(1 for e in match.ledger if e.result.dealer_stays)
    assert stays == len(match.ledger) - 4
    for hand, entry in zip(record.hands, match.ledger, strict=True):
        assert hand.dealer == entry.dealer and hand.result == entry.result
    assert verify(GameRecord.loads(record.dumps())).hands == len(record.hands)


def test_bankruptcy_caps_payments_and_replays() -> None:
    """docs/rules.md §9 (P): a payer pays what it holds; the match ends when someone is broke."""
    match = Match(length=MatchLength.BANKRUPTCY, starting_balance=5, max_hands=300)
    record = run_match(match, chicken(), winners("broke"), match_seed=seed_from_text("broke"))
    assert match.finished and min(match.balances) == 0
    assert all(b >= 0 for e in match.ledger for b in e.balances)
    assert sum(match.balances) == 20
    verify(GameRecord.loads(record.dumps()))


def test_bankruptcy_without_cap_runs_into_debt() -> None:
    """A table whose payment rules have no bankrupt cap lets a balance go below zero."""
    base = chicken()
    rules = dataclasses.replace(base, payment=dataclasses.replace(base.payment, bankrupt_cap=False))
    match = Match(length=MatchLength.BANKRUPTCY, starting_balance=1, max_hands=300)
    record = run_match(match, rules, winners("debt"), match_seed=seed_from_text("debt"))
    assert match.finished and min(match.balances) < 0
    verify(GameRecord.loads(record.dumps()))


def test_players_are_seeded_and_controllers_checked() -> None:
    """RandomPlayer is reproducible from its seed; an illegal choice names the controller."""
    legal = [Action.from_text(t) for t in ("pass", "pung", "discard 1m", "discard 2p")]
    a, b = RandomPlayer(7), RandomPlayer(7)
    view: PlayerView = None  # type: ignore[assignment]  # random players never look at it
    assert [a.choose(view, legal) for _ in range(20)] == [b.choose(view, legal) for _ in range(20)]
    assert FirstPlayer().choose(view, legal) == legal[0]

    class Cheat:
        def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
            return Action.from_text("self_draw")

        def __repr__(self) -> str:
            return "Cheat()"

    with pytest.raises(IllegalActionError, match=r"Cheat\(\) at E chose .*self_draw.*not legal"):
        run_match(Match(length=MatchLength.ONE_HAND), get_preset("parlor"), [Cheat()] * 4)
    with pytest.raises(ValueError, match="win_bias"):
        RandomPlayer(1, win_bias=2)


def test_live_match_seed_comes_from_secrets() -> None:
    """Live play (no seed given) gets a fresh secret seed: two matches differ."""
    one = run_match(Match(length=MatchLength.ONE_HAND), get_preset("parlor"), winners("x"))
    two = run_match(Match(length=MatchLength.ONE_HAND), get_preset("parlor"), winners("x"))
    assert one.match_seed != two.match_seed and one.commitment != two.commitment


def test_physical_table_false_wins_move_the_deal() -> None:
    """docs/rules.md §2 / §11: on a physical table a dealer's false win (詐糊) ends the deal; another
    seat's false win does not; the record keeps the mode and replays exactly."""
    match = Match(length=MatchLength.OPEN, max_hands=12)
    players = [RandomPlayer(i) for i in range(4)]
    record = run_match(
        match, get_preset("parlor"), players, match_seed=seed_from_text("fw"), physical_table=True
    )
    assert any(e.result.false_winners for e in match.ledger)
    for before, after in zip(match.ledger, match.ledger[1:], strict=False):
        dealer_false = Wind.EAST in before.result.false_winners
        dealer_won = Wind.EAST in before.result.winners
        passes = dealer_false or (bool(before.result.winners) and not dealer_won)
        assert (after.dealer != before.dealer) == passes
    text = record.dumps()
    assert '"physical_table":true' in text.splitlines()[0]
    assert verify(GameRecord.loads(text)).hands == 12
    with pytest.raises(RecordError):
        verify(GameRecord.loads(text.replace(',"physical_table":true', "", 1)))


def test_bankrupt_resettlement_keeps_who_fed_the_kong(
    script: Callable[[str, str], ModuleType],
) -> None:
    """docs/rules.md §6 出槓 (W2 switch) with §9 bankruptcy: re-settled with balances, a win on an
    exposed kong's replacement is still paid by whoever discarded the kong tile."""
    from hkmahjong.engine.players import play_hand
    from hkmahjong.engine.record import match_result
    from hkmahjong.engine.state import HandState
    from hkmahjong.engine.wall import stacked_wall
    from hkmahjong.rules.payment import ExposedKongPayment

    golden = script("tools/golden.py", "golden_for_kong")
    sc = next(s for s in golden.SCENARIOS if s.name == "liability_four_kongs")
    base = get_preset("parlor")
    rules = dataclasses.replace(
        base,
        payment=dataclasses.replace(
            base.payment, parlor_liability=False, exposed_kong=ExposedKongPayment.AS_DISCARD
        ),
    )
    state = HandState.new(rules, seed=b"k", wall=stacked_wall(sc.deals, sc.draws, sc.replacements))

    class Script:
        def __init__(self) -> None:
            self.queue = [(seat, Action.from_text(text)) for seat, text in sc.script]

        def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
            if self.queue and self.queue[0][0] == view.seat and self.queue[0][1] in legal:
                return self.queue.pop(0)[1]
            return golden.quiet_policy(state, view.seat, list(legal))

    script = Script()
    events = play_hand(state, [script] * 4)
    outcome = state.outcome
    assert outcome is not None and outcome.winners == (Wind.WEST,)
    assert outcome.deltas[Wind.EAST] < 0 and outcome.deltas[Wind.SOUTH] == 0  # E pays alone
    match = Match(length=MatchLength.BANKRUPTCY, starting_balance=50)
    capped = match_result(outcome, rules, match, events)
    assert capped.deltas == (-50, 0, 50, 0)
    # the win record itself carries who fed the kong: events are only a fallback
    assert outcome.wins[0].kong_discarder == Wind.EAST
    assert match_result(outcome, rules, match) == capped


def _false_win_state(seed: bytes) -> HandState:
    """A physical-table hand in which South declares a false win (詐糊) on its first turn."""
    state = HandState.new(get_preset("parlor"), seed=seed, physical_table=True)
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        false_win = Action.from_text("false_win")
        if seat == Wind.SOUTH and state.phase is Phase.TURN and false_win in legal:
            state.apply(seat, false_win)
        else:
            state.apply(seat, next(a for a in legal if a.kind is not ActionKind.FALSE_WIN))
    return state


def test_bankrupt_false_win_pays_what_it_holds() -> None:
    """docs/rules.md §9 (P: 打到破產, a payer who cannot cover pays what it holds) with §11 詐糊: a
    false win the offender cannot cover is paid up to its balance, not refused."""
    from hkmahjong.engine.record import match_result

    state = _false_win_state(b"false-win")
    outcome = state.outcome
    assert outcome is not None and outcome.false_winners == (Wind.SOUTH,)
    assert outcome.false_wins[0].self_drawn and outcome.deltas[Wind.SOUTH] < -10
    match = Match(length=MatchLength.BANKRUPTCY, starting_balance=10)
    capped = match_result(outcome, get_preset("parlor"), match)
    assert capped.deltas[Wind.SOUTH] == -10 and sum(capped.deltas) == 0
    assert all(capped.deltas[s] >= 0 for s in Wind if s != Wind.SOUTH)
    assert capped.false_winners == (Wind.SOUTH,)
    entry = match.record(capped)  # no MatchError: South is bankrupt at 0
    assert entry.balances[match.player_at(Wind.SOUTH)] == 0 and match.finished
    # a balance that covers the penalty is charged in full
    rich = Match(length=MatchLength.BANKRUPTCY, starting_balance=10_000)
    assert match_result(outcome, get_preset("parlor"), rich).deltas == outcome.deltas


def test_physical_table_bankruptcy_match_replays() -> None:
    """docs/rules.md §9 / §11: a physical-table match until bankruptcy with false wins plays to its
    end (false wins capped at what the offender holds) and its record verifies."""
    match = Match(length=MatchLength.BANKRUPTCY, starting_balance=40)
    players = [RandomPlayer(f"bk{i}") for i in range(4)]
    record = run_match(
        match, get_preset("parlor"), players, match_seed=seed_from_text("bk"), physical_table=True
    )
    assert match.finished and min(match.balances) == 0 and sum(match.balances) == 160
    assert any(e.result.false_winners for e in match.ledger)
    assert verify(GameRecord.loads(record.dumps())).hands == len(match.ledger)
