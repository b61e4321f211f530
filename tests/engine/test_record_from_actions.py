"""record_from_actions (the arena's and the env's records) plays the hands through MatchRunner:
the record it rebuilds is byte for byte the one the runner wrote while the match was played
(issue 32 item 5), and actions that do not fit are a RecordError naming the hand."""

from __future__ import annotations

import pytest

from hkmahjong.engine.match import Match, MatchLength
from hkmahjong.engine.players import RandomPlayer, run_match
from hkmahjong.engine.record import RecordError, record_from_actions, seed_from_text, verify
from hkmahjong.rules import get_preset
from hkmahjong.tiles import Wind


def _match(length: MatchLength, start: int) -> Match:
    return Match(length=length, starting_balance=start, max_hands=8)


@pytest.mark.parametrize("preset", ["parlor", "ml", "qingzhang"])
@pytest.mark.parametrize(
    ("length", "start", "physical"),
    [(MatchLength.EAST_ROUND, 0, False), (MatchLength.BANKRUPTCY, 40, False), (MatchLength.ONE_HAND, 0, True)],
)  # fmt: skip
def test_the_rebuilt_record_is_the_played_one(
    preset: str, length: MatchLength, start: int, physical: bool
) -> None:
    ruleset = get_preset(preset)
    seed = seed_from_text(f"from-actions/{preset}/{length.value}")
    players = [RandomPlayer(f"p{i}") for i in range(4)]
    played = run_match(
        _match(length, start), ruleset, players, match_seed=seed, physical_table=physical
    )
    hands = [[(a.seat, a.action) for a in hand.actions] for hand in played.hands]
    rebuilt = record_from_actions(
        ruleset, _match(length, start), seed, hands, physical_table=physical
    )
    assert rebuilt.dumps() == played.dumps()
    assert verify(rebuilt).hands == len(played.hands)


def _one_hand() -> tuple[bytes, list[tuple[Wind, str]]]:
    seed = seed_from_text("from-actions/errors")
    played = run_match(
        Match(length=MatchLength.ONE_HAND),
        get_preset("parlor"),
        [RandomPlayer(f"q{i}") for i in range(4)],
        match_seed=seed,
    )
    return seed, [(a.seat, a.action) for a in played.hands[0].actions]


def test_actions_that_do_not_fit_name_the_hand() -> None:
    seed, actions = _one_hand()
    parlor = get_preset("parlor")
    with pytest.raises(RecordError, match="hand 0 does not end after its"):
        record_from_actions(parlor, Match(length=MatchLength.ONE_HAND), seed, [actions[:-1]])
    with pytest.raises(RecordError, match="hand 0 ended before its"):
        record_from_actions(
            parlor, Match(length=MatchLength.ONE_HAND), seed, [[*actions, actions[-1]]]
        )
    with pytest.raises(RecordError, match="hand 0: illegal action"):
        record_from_actions(
            parlor, Match(length=MatchLength.ONE_HAND), seed, [[(actions[0][0], "pung")]]
        )
    with pytest.raises(RecordError, match="hand 1: the match is over"):
        record_from_actions(parlor, Match(length=MatchLength.ONE_HAND), seed, [actions, actions])
