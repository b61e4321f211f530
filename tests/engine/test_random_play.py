"""Random-play invariants of HandState (docs/dev/architecture.md practice 7; docs/rules.md §3–§12 as a whole).

For every preset and a grid of house-rule switches, random legal players play whole hands; at
every step: all tiles accounted for, every seat to act has legal actions, the chosen legal action
is accepted, views leak nothing hidden, the JSON round trip is exact (sampled), and at the end the
payments sum to zero. 2,000+ hands in all.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hkmahjong.engine import ActionKind, Phase
from hkmahjong.engine.state import HandState
from hkmahjong.rules import Ruleset
from hkmahjong.tiles import Wind

_WIN_KINDS = (ActionKind.WIN, ActionKind.SELF_DRAW, ActionKind.BONUS_WIN)


HANDS_PER_CONFIG = 115  # 18 configs -> 2,070 hands
Scramble = Callable[[HandState, int, random.Random], HandState]


def _check_step(
    state: HandState, expected: list[int], rng: random.Random, deep: bool, scramble: Scramble
) -> None:
    assert state.census() == expected, "a tile was lost or invented"
    for seat in state.to_act:
        assert state.legal_actions(seat), f"{seat} is to act but has no legal action"
    for seat in Wind:
        if seat not in state.to_act:
            assert state.legal_actions(seat) == []
    if not deep:
        return
    text = state.to_json()
    back = HandState.from_json(text, state.ruleset)
    assert back.to_json() == text
    for seat in Wind:
        assert back.legal_actions(seat) == state.legal_actions(seat)
        assert back.view(seat) == state.view(seat)
    if state.phase is not Phase.OVER:
        seat = rng.choice(list(Wind))
        view = state.view(seat)
        assert sorted(view.concealed) == sorted(state.hand_of(seat).concealed)
        scrambled = scramble(state, int(seat), rng)
        assert scrambled.view(seat) == view, "the view depends on hidden tiles"


def _play(
    rs: Ruleset, physical: bool, seed: bytes, rng: random.Random, deep: bool, scramble: Scramble
) -> HandState:
    state = HandState.new(rs, seed=seed, physical_table=physical, hand_number=rng.randrange(9))
    n = 144 if rs.bonus_tiles else 136
    expected = [4] * 34 + ([1] * 8 if rs.bonus_tiles else [0] * 8)
    assert sum(expected) == n
    _check_step(state, expected, rng, deep, scramble)
    steps = 0
    while not state.is_over:
        seat = rng.choice(state.to_act)
        legal = state.legal_actions(seat)
        wins = [a for a in legal if a.kind in _WIN_KINDS]
        if wins and rng.random() < 0.8:
            action = wins[0]
        elif physical and rng.random() < 0.998:
            action = rng.choice([a for a in legal if a.kind is not ActionKind.FALSE_WIN])
        else:
            action = rng.choice(legal)
        events = state.apply(seat, action)
        assert events, "every accepted action produces an event"
        steps += 1
        assert steps < 1000, "a hand must end"
        _check_step(state, expected, rng, deep and steps % 7 == 0, scramble)
    outcome = state.outcome
    assert outcome is not None
    assert sum(outcome.deltas) == 0
    assert outcome.drawn or outcome.wins or outcome.false_winners
    if outcome.drawn:
        assert all(d == 0 for d in outcome.deltas)
    for win in outcome.wins:
        assert win.result.valid_win
        assert win.result.total_fan >= rs.min_fan
        assert outcome.deltas[win.seat] > 0 or win.liable is not None or outcome.false_winners
    _check_step(state, expected, rng, True, scramble)
    return state


def test_random_play_invariants(
    grid_config: tuple[str, Ruleset, bool], scrambled: Scramble
) -> None:
    """docs/rules.md §3–§12: conservation, legality, views, JSON and zero-sum payments hold always."""
    label, rs, physical = grid_config
    rng = random.Random(label)
    outcomes = {"win": 0, "draw": 0, "false": 0}
    for h in range(HANDS_PER_CONFIG):
        state = _play(rs, physical, f"{label}/{h}".encode(), rng, h % 11 == 0, scrambled)
        out = state.outcome
        assert out is not None
        outcomes["win" if out.wins else "false" if out.false_winners else "draw"] += 1
    assert outcomes["draw"] > 0
    if rs.min_fan == 0 or physical:
        assert outcomes["win"] + outcomes["false"] > 0, outcomes
