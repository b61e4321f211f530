"""Shared engine fixtures: the preset/switch grid, random-play states, hidden-tile shuffles."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import replace

import pytest

from hkmahjong.engine import ActionKind
from hkmahjong.engine.state import HandState
from hkmahjong.engine.view import Phase
from hkmahjong.rules import FanId, PassRule, Ruleset
from hkmahjong.rules.presets import get_preset, preset_names

_WIN_KINDS = (ActionKind.WIN, ActionKind.SELF_DRAW, ActionKind.BONUS_WIN)


def _grid() -> list[tuple[str, Ruleset, bool]]:
    """(label, ruleset, physical_table) for every preset and a grid of switches."""
    out: list[tuple[str, Ruleset, bool]] = []
    for name in preset_names():
        out.append((name, get_preset(name), False))
    p = get_preset("parlor")
    q = get_preset("qingzhang")
    out += [
        ("parlor+multiple_winners", replace(p, multiple_winners=True), False),
        ("parlor+same_tile", replace(p, pass_rule=PassRule.SAME_TILE), False),
        ("parlor+same_wait", replace(p, pass_rule=PassRule.SAME_WAIT), False),
        ("parlor+dead_wall14", replace(p, dead_wall=14), False),
        ("parlor+dead_wall16", replace(p, dead_wall=16, min_fan=0), False),
        ("parlor+min0", replace(p, min_fan=0), False),
        ("parlor+no_bonus", replace(p, bonus_tiles=False, min_fan=1), False),
        (
            "parlor+loose",
            replace(p, no_swap_discard=False, pung_pass_rule=False, min_fan=0),
            False,
        ),
        ("parlor+no_rob_concealed", replace(p, rob_concealed_kong_thirteen=False), False),
        (
            "parlor+seven_pairs",
            replace(p, seven_pairs=True, fan=p.fan.set(FanId.SEVEN_PAIRS, 3), min_fan=0),
            False,
        ),
        ("parlor+physical", p, True),
        ("parlor+physical+below_min_not_false", replace(p, false_win_below_minimum=False), True),
        ("qingzhang+multiple+min0", replace(q, multiple_winners=True, min_fan=0), False),
        (
            "qingzhang+decline_off",
            replace(q, bonus_win_decline=False, min_fan=0),
            False,
        ),
    ]
    return out


GRID = _grid()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrize every test that takes ``grid_config`` over :data:`GRID`."""
    if "grid_config" in metafunc.fixturenames:
        metafunc.parametrize("grid_config", GRID, ids=[g[0] for g in GRID])


def scramble_hidden(state: HandState, seat: int, rng: random.Random) -> HandState:
    """A copy in which what ``seat`` cannot see is shuffled: the other seats' concealed tiles and
    the unseen wall trade places (each seat keeps its count; the current seat keeps the tile it
    just drew). Claim and robbing windows are reopened, as after loading a save."""
    other = state.clone()
    slots = [i for i in range(other.head, other.tail) if other.wall[i] < 34]
    pool = [other.wall[i] for i in slots]
    keep = [[0] * 34 for _ in range(4)]
    if other.phase is Phase.TURN and other.current != seat and other.last_drawn >= 0:
        keep[other.current][other.last_drawn] = 1
    for s in range(4):
        if s != seat:
            for k in range(34):
                pool.extend([k] * (other.hands[s][k] - keep[s][k]))
    rng.shuffle(pool)
    for i in slots:
        other.wall[i] = pool.pop()
    for s in range(4):
        if s != seat:
            counts = keep[s][:]
            for _ in range(sum(other.hands[s]) - sum(keep[s])):
                counts[pool.pop()] += 1
            other.hands[s] = counts
    assert not pool
    return HandState.from_json(other.to_json(), other.ruleset)


def random_states(label: str, hands_per_config: int, every: int = 1) -> Iterator[HandState]:
    """States met in seeded random play over :data:`GRID` (every ``every``-th step of each hand,
    every claim and robbing window, and each hand's end). The live state is yielded: do not
    change it."""
    rng = random.Random(label)
    for name, rs, physical in GRID:
        for h in range(hands_per_config):
            seed = f"{label}/{name}/{h}".encode()
            state = HandState.new(rs, seed=seed, physical_table=physical, hand_number=h % 9)
            steps = 0
            while True:
                if state.is_over or state.phase is not Phase.TURN or steps % every == 0:
                    yield state
                if state.is_over:
                    break
                seat = rng.choice(state.to_act)
                legal = state.legal_actions(seat)
                wins = [a for a in legal if a.kind in _WIN_KINDS]
                if wins and rng.random() < 0.5:
                    action = wins[0]
                elif physical and rng.random() < 0.99:
                    action = rng.choice([a for a in legal if a.kind is not ActionKind.FALSE_WIN])
                else:
                    action = rng.choice(legal)
                state.apply(seat, action)
                steps += 1


@pytest.fixture(scope="session")
def scrambled() -> Callable[[HandState, int, random.Random], HandState]:
    """:func:`scramble_hidden` for tests."""
    return scramble_hidden


@pytest.fixture(scope="session")
def play_states() -> Callable[..., Iterator[HandState]]:
    """:func:`random_states` for tests."""
    return random_states
