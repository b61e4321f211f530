"""Table pace (節奏): hand length from the table minimum, the cost of a distance step, and
``strong``'s speed-vs-value weight following both.

Rules behind the numbers: docs/rules.md §7 (the table minimum: P 三番起糊, ml 1 番起糊) — a higher
minimum makes hands last longer, measured with ``tools/table_pace.py`` (docs/bots.md).
"""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hkmahjong.bots import get_bot
from hkmahjong.bots.arena import hand_seed
from hkmahjong.bots.pace import ADVANCE_CHANCE, hand_turns, step_cost
from hkmahjong.bots.strong import StrongBot, Style
from hkmahjong.engine import ActionKind, PlayerView
from hkmahjong.engine.state import HandState
from hkmahjong.rules import get_preset


def test_hands_last_longer_at_a_higher_minimum() -> None:
    parlor = get_preset("parlor")
    lengths = [hand_turns(replace(parlor, min_fan=m)) for m in range(parlor.limit + 1)]
    assert lengths == sorted(lengths)
    assert lengths[3] > lengths[1] + 3  # 三番起糊 vs 1 番: measured 14.2 vs 9.8 own turns
    assert all(8.0 < x <= 21.0 for x in lengths)
    assert hand_turns(get_preset("ml")) < hand_turns(get_preset("parlor"))
    assert hand_turns(get_preset("qingzhang")) == hand_turns(get_preset("parlor"))


@given(
    turn=st.integers(0, 30),
    turns=st.floats(1.0, 25.0),
    later=st.integers(0, 5),
    longer=st.floats(0.0, 10.0),
)
def test_a_step_costs_more_later_and_at_a_faster_table(
    turn: int, turns: float, later: int, longer: float
) -> None:
    cost = step_cost(turn, turns)
    assert 0.0 < cost <= step_cost(turn + later, turns)
    assert step_cost(turn, turns + longer) <= cost
    assert cost <= step_cost(turns, turns) == step_cost(turns + 3, turns)  # hazard at most 1


def test_last_turn_costs_log2_of_one_plus_one_over_the_advance_chance() -> None:
    """At (or past) the expected end of the hand the hazard is one: q / (q + 1)."""
    assert step_cost(14, 14) == pytest.approx(math.log2(1 + 1 / ADVANCE_CHANCE))
    assert step_cost(0, 14) == pytest.approx(math.log2(1 + 1 / (14 * ADVANCE_CHANCE)))


def _views_by_turn(preset: str) -> dict[int, PlayerView]:
    """One view of East per own turn count, from a hand of four ``fan`` bots."""
    ruleset = get_preset(preset)
    bots = [get_bot("fan", seed=i, ruleset=ruleset) for i in range(4)]
    state = HandState.new(ruleset, seed=hand_seed("pace", 3), hand_number=3)
    views: dict[int, PlayerView] = {}
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        view = state.view(seat)
        if seat == 0 and any(a.kind is ActionKind.DISCARD for a in legal):
            views.setdefault(len(view.discards[0]), view)
        state.apply(seat, legal[0] if len(legal) == 1 else bots[seat].choose(view, legal))
    return views


def test_strong_weighs_value_less_as_the_hand_goes_on_and_at_a_faster_table() -> None:
    parlor = StrongBot(0, ruleset=get_preset("parlor"))
    ml = StrongBot(0, ruleset=get_preset("ml"))
    views = _views_by_turn("parlor")
    assert len(views) >= 4
    steps = [parlor.value_steps_now(v) for _, v in sorted(views.items())]
    assert steps == sorted(steps, reverse=True) and steps[0] > steps[-1]
    for turn, v in views.items():
        assert ml.value_steps_now(v) <= parlor.value_steps_now(v)
        if turn < 9:  # before both tables' expected end (9.8 and 14.2 own turns)
            assert ml.value_steps_now(v) < parlor.value_steps_now(v)
    plain = StrongBot(0, ruleset=get_preset("parlor"), style=Style(value_steps=0.0))
    assert all(plain.value_steps_now(v) == 0.0 for v in views.values())
