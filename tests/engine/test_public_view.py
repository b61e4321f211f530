"""A spectator's view (旁觀) and one hand replayed alone (issue 18, *Spectating*, *Replays*).

``Event.public`` and ``PublicView`` are what every seat sees and nothing more: a spectator never
learns a concealed tile. ``replay_hand`` replays one hand of a record as ``replay`` does, for the
replay pages (a hand still being played only with the server's seed).
"""

from __future__ import annotations

import random

import pytest

from hkmahjong.engine import Event, EventKind, Phase, PublicView, Visibility
from hkmahjong.engine.match import Match, MatchLength
from hkmahjong.engine.players import RandomPlayer, run_match
from hkmahjong.engine.record import (
    GameRecord,
    RecordError,
    hand_seed,
    replay,
    replay_hand,
    seed_from_text,
)
from hkmahjong.engine.runner import MatchRunner
from hkmahjong.engine.state import HandState
from hkmahjong.rules import get_preset, preset_names
from hkmahjong.tiles import Tile, Wind


def test_public_events_are_what_another_seat_sees() -> None:
    """EVERYONE whole, SEAT redacted exactly as for another seat, REFEREE not at all."""
    state = HandState.new(get_preset("parlor"), seed=b"public-events")
    rng = random.Random(3)
    seen = {v: 0 for v in Visibility}
    events: list[Event] = list(state.initial_events)
    while not state.is_over:
        seat = rng.choice(state.to_act)
        events += state.apply(seat, rng.choice(state.legal_actions(seat)))
    for e in events:
        seen[e.visibility] += 1
        shown = e.public()
        if e.visibility is Visibility.REFEREE:
            assert shown is None
            continue
        other = next(s for s in Wind if s != e.seat)
        assert shown == e.for_seat(other)
        if e.visibility is Visibility.SEAT:
            assert shown is not None and shown.tile is None and shown.tiles == ()
    assert all(seen.values())


@pytest.mark.parametrize("preset", preset_names())
def test_public_view_is_the_part_every_seat_shares(preset: str) -> None:
    """At every step the public view equals the shared part of all four seats' views; it holds
    no concealed tile (there is no field for one), and ``settled`` is a turn or the end."""
    rules = get_preset(preset)
    rng = random.Random(preset)
    windows = 0
    for h in range(8):
        state = HandState.new(rules, seed=f"pv/{preset}/{h}".encode())
        while True:
            public = state.public_view()
            for seat in Wind:
                mine = PublicView.of(state.view(seat))
                assert mine.melds == public.melds and mine.discards == public.discards
                assert mine.bonus == public.bonus and mine.claimed == public.claimed
                assert mine.concealed_counts == public.concealed_counts
                assert mine.tiles_left == public.tiles_left and mine.phase == public.phase
            assert not hasattr(public, "concealed") and not hasattr(public, "last_drawn")
            assert public.settled == (public.phase in (Phase.TURN, Phase.OVER))
            if public.phase is Phase.TURN:
                assert public.to_act == (public.current,)
            else:
                windows += public.phase is not Phase.OVER
                assert public.to_act == ()
            if state.is_over:
                assert public.outcome is not None
                break
            seat = rng.choice(state.to_act)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert windows > 0


def test_runner_public_view_before_and_during_a_hand() -> None:
    runner = MatchRunner(Match(length=MatchLength.ONE_HAND), get_preset("parlor"), b"runner-pv")
    with pytest.raises(Exception, match="no hand has started"):
        runner.public_view()
    runner.start_hand()
    view = runner.public_view()
    assert view.hand_number == 0 and view.phase is Phase.TURN and view.current is Wind.EAST
    assert sum(view.concealed_counts) == 14 + 13 * 3


def _record(seed: str, hands: int = 3) -> GameRecord:
    players = [RandomPlayer(f"{seed}/{i}", win_bias=0.5) for i in range(4)]
    match = Match(length=MatchLength.OPEN, max_hands=hands)
    return run_match(match, get_preset("parlor"), players, match_seed=seed_from_text(seed))


def test_replay_hand_gives_the_steps_of_replay() -> None:
    """Each hand replayed alone makes the same steps and events as the whole record's replay."""
    record = GameRecord.loads(_record("one-hand-alone").dumps())
    whole = [(s.hand.number, s.seat, s.action, s.events) for s in replay(record)]
    alone = [
        (s.hand.number, s.seat, s.action, s.events)
        for n in range(len(record.hands))
        for s in replay_hand(record, n)
    ]
    assert alone == whole


def test_replay_hand_of_a_hand_in_progress_needs_the_servers_seed() -> None:
    """A hand still being played has no seed in the record: only the server's (checked against
    the commitment) deals it; a wrong seed or none is refused."""
    match_seed = seed_from_text("in-progress")
    runner = MatchRunner(
        Match(length=MatchLength.OPEN, max_hands=2), get_preset("parlor"), match_seed
    )
    runner.start_hand()
    for _ in range(12):
        seat = runner.to_act[0]
        runner.apply(seat, runner.legal(seat)[-1])
    record = GameRecord.loads("".join(line + "\n" for line in runner.lines), partial=True)
    with pytest.raises(RecordError, match="being played"):
        list(replay_hand(record, 0))
    with pytest.raises(RecordError, match="commitment"):
        list(replay_hand(record, 0, seed=hand_seed(match_seed, 1)))
    with pytest.raises(RecordError, match="no hand 1"):
        list(replay_hand(record, 1))
    steps = []
    for step in replay_hand(record, 0, seed=hand_seed(match_seed, 0)):
        steps.append(step.state.view(Wind.EAST))
    assert len(steps) == 13 and steps[-1] == runner.view(Wind.EAST)


def test_replay_hand_catches_a_tampered_action() -> None:
    record = _record("tampered-alone", hands=1)
    lines = record.dumps().splitlines()
    n = next(i for i, line in enumerate(lines) if '"discard' in line)
    lines[n] = lines[n].replace('"ev":"', '"ev":"0', 1)
    bad = GameRecord.loads("\n".join(lines) + "\n")
    with pytest.raises(RecordError, match="differ") as err:
        list(replay_hand(bad, 0))
    assert err.value.line == n + 1


def test_a_deal_event_is_public_only_as_a_count() -> None:
    state = HandState.new(get_preset("parlor"), seed=b"deal-count")
    deal = next(e for e in state.initial_events if e.kind is EventKind.DEAL)
    shown = deal.public()
    assert shown is not None and shown.tiles == () and shown.detail.endswith("tiles")
    assert all(isinstance(t, Tile) for t in deal.tiles)
