"""Hint planes (issue 15, the RL example's features): shape, bounds, agreement with the legal
actions, the env and PolicyBot options, and no hidden information (another seat's concealed tiles
and the wall swapped never change a hint)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from hkmahjong.env import NUM_PLANES, SingleSeatEnv, raw_env
from hkmahjong.env.encoding import observation
from hkmahjong.env.hints import HINT_PLANES, NUM_HINT_PLANES, hint_bounds, hint_planes
from hkmahjong.env.policy import PolicyBot

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")
_H = {n: i for i, n in enumerate(HINT_PLANES)}


def _decisions(rules: str, seeds: range):  # type: ignore[no-untyped-def]
    """(env, agent, mask) at every decision with a choice of random games."""
    e = raw_env(rules=rules)
    for seed in seeds:
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            mask = obs["action_mask"]
            legal = np.flatnonzero(mask)
            if len(legal) > 1:
                yield e, agent, mask
            e.step(int(rng.choice(legal)))


@pytest.mark.parametrize("rules", ["parlor", "qingzhang"])
def test_hint_planes_shape_bounds_and_legal_actions(rules: str) -> None:
    low, high = hint_bounds()
    n = 0
    claims = 0
    for e, agent, mask in _decisions(rules, range(6)):
        st = e.state_
        seat = e.seat_of(agent)
        h = hint_planes(st.view(seat), e.ruleset, st.legal_actions(seat))
        assert h.shape == (NUM_HINT_PLANES, 34) and h.dtype == np.float32
        assert (h >= low).all() and (h <= high).all()
        # the discard planes cover exactly the legal discards, the kong plane the legal kongs
        assert (h[_H["discard_possible"]] == mask[:34]).all()
        kongs = np.maximum(mask[34:68], mask[68:102])
        assert (h[_H["kong_possible"]] == kongs).all()
        for i, name in enumerate(("chow_low", "chow_mid", "chow_high", "pung", "exposed_kong")):
            assert (h[_H[f"{name}_possible"]] == mask[102 + i]).all()
        claims += int(mask[102:107].any())
        if mask[:34].any():  # at least one discard keeps the best shanten and the best route
            assert h[_H["discard_min_shanten"]].max() == 1.0
            assert h[_H["discard_route_best"]].max() == 1.0
        n += 1
    assert n > 100 and claims > 5


def test_hints_see_no_hidden_information() -> None:
    """Swapping another seat's concealed tile with a wall tile never changes a seat's hints."""
    rnd = random.Random(7)
    cases = 0
    for e, agent, _mask in _decisions("parlor", range(8)):
        st = e.state_
        seat = int(e.seat_of(agent))
        before = hint_planes(st.view(seat), e.ruleset, st.legal_actions(seat))
        for _ in range(3):
            other = st.clone()
            j = rnd.choice([s for s in range(4) if s != seat])
            held = [t for t in range(34) if other.hands[j][t]]
            wall = [p for p in range(other.head, other.tail) if other.wall[p] < 34]
            if not held or not wall:
                continue
            a, p = rnd.choice(held), rnd.choice(wall)
            b = other.wall[p]
            other.hands[j][a] -= 1
            other.hands[j][b] += 1
            other.wall[p] = a
            after = hint_planes(other.view(seat), e.ruleset, other.legal_actions(seat))
            assert (before == after).all()
            cases += 1
    assert cases > 300


def test_single_seat_env_hints_option() -> None:
    plain = SingleSeatEnv(opponents=("efficient",) * 3, observation="flat")
    hinted = SingleSeatEnv(opponents=("efficient",) * 3, observation="flat", hints=True)
    assert hinted.observation_space.shape == ((NUM_PLANES + NUM_HINT_PLANES) * 34,)
    assert plain.observation_space.shape == (NUM_PLANES * 34,)  # the default is unchanged
    o1, _ = plain.reset(seed=3)
    o2, _ = hinted.reset(seed=3)
    done = False
    steps = 0
    while not done:
        assert hinted.observation_space.contains(o2)
        assert (o2[: NUM_PLANES * 34] == o1).all()
        h = o2[NUM_PLANES * 34 :].reshape(NUM_HINT_PLANES, 34)
        assert (h[_H["discard_possible"]] == hinted.action_masks()[:34]).all()
        action = int(np.flatnonzero(hinted.action_masks())[0])
        o1, _, _, _, _ = plain.step(action)
        o2, _, done, _, _ = hinted.step(action)
        steps += 1
    assert steps > 3
    d = SingleSeatEnv(opponents=("efficient",) * 3, hints=True)
    obs, _ = d.reset(seed=3)
    assert obs["observation"].shape == (NUM_PLANES + NUM_HINT_PLANES, 34)
    assert d.observation_space.contains(obs)


def test_policy_bot_with_hints_sees_the_env_planes() -> None:
    e = raw_env()
    e.reset(seed=11)
    agent = e.agent_selection
    st = e.state_
    seat = e.seat_of(agent)
    view, legal = st.view(seat), st.legal_actions(seat)
    seen: list[np.ndarray] = []

    def policy(planes: np.ndarray, mask: np.ndarray) -> int:
        seen.append(planes)
        return int(np.flatnonzero(mask)[0])

    PolicyBot(policy, ruleset=e.ruleset, hints=True).choose(view, legal)
    want = np.concatenate([observation(view), hint_planes(view, e.ruleset, legal)])
    assert seen[0].shape == want.shape and (seen[0] == want).all()
