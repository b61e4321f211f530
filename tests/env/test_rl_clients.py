"""The env works with the RL libraries people use, unmodified (issue 15): Gymnasium's checker,
PettingZoo's parallel API test, ``gym.make`` ids, flat observations, resets that always hold a
decision, unseeded entropy, real score bounds, clear errors, reward hooks."""

from __future__ import annotations

import argparse
import warnings
from collections.abc import Callable
from types import ModuleType

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import parallel_api_test

from hkmahjong.engine import EventKind
from hkmahjong.env import (
    GYM_IDS,
    NUM_PLANES,
    ShapingStep,
    SingleSeatEnv,
    parallel_env,
    raw_env,
    shanten_shaping,
)
from hkmahjong.env.aec import hand_swing
from hkmahjong.errors import IllegalActionError, MahjongError
from hkmahjong.rules import get_preset
from hkmahjong.tiles import Wind

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")
Script = Callable[[str, str], ModuleType]


@pytest.mark.parametrize(("illegal", "observation"), [("terminate", "dict"), ("penalize", "flat")])
def test_gymnasium_checker_passes(illegal: str, observation: str) -> None:
    """The checker steps random (mostly illegal) actions: it passes in the documented setups."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no checker warning either (e.g. infinite bounds)
        check_env(SingleSeatEnv(illegal=illegal, observation=observation), skip_render_check=True)


def test_illegal_modes() -> None:
    e = SingleSeatEnv(opponents=("random",) * 3, seat=0)
    e.reset(seed=5)
    bad = int(np.flatnonzero(e.action_masks() == 0)[0])
    with pytest.raises(IllegalActionError):
        e.step(bad)
    p = SingleSeatEnv(opponents=("random",) * 3, seat=0, illegal="penalize", illegal_reward=-3)
    obs, _ = p.reset(seed=5)
    obs2, reward, term, _, info = p.step(bad)
    assert (reward, term, info["illegal"]) == (-3.0, False, True)
    assert np.array_equal(obs["observation"], obs2["observation"])  # nothing applied
    t = SingleSeatEnv(opponents=("random",) * 3, seat=0, illegal="terminate")
    t.reset(seed=5)
    _, reward, term, _, _ = t.step(bad)
    assert (reward, term) == (-1.0, True)
    with pytest.raises(MahjongError, match="episode is over"):
        t.step(0)
    with pytest.raises(MahjongError, match="illegal must be one of"):
        SingleSeatEnv(illegal="ignore")


def test_reset_always_gives_the_learner_a_decision() -> None:
    """An episode over before the learner acts (a bot's 天糊, ...) is played out and the next one
    dealt, its reward carried to the first step (issue 15.2; it used to crash a long SB3 run)."""
    e = SingleSeatEnv(opponents=("fan",) * 3)
    deals = 0
    deal = e._deal

    def first_one_over() -> None:
        nonlocal deals
        deals += 1
        deal()
        if deals == 1:  # as if the hand had ended at the deal: the learner lost 7 jade
            for agent in e.aec.terminations:
                e.aec.terminations[agent] = True
            e._episode_reward = -7.0

    e._deal = first_one_over  # type: ignore[method-assign]
    _, info = e.reset(seed=108)
    assert deals == 2 and e.action_masks().sum() > 0
    assert info["carried_reward"] == -7.0
    assert e._episode_reward == 0.0
    _, reward, *_ = e.step(int(np.flatnonzero(e.action_masks())[0]))
    assert reward == pytest.approx(e._episode_reward - 7.0)  # the carried -7 is paid once
    assert e._carried == 0.0


def test_reset_decision_over_many_seeds() -> None:
    e = SingleSeatEnv(opponents=("random",) * 3)
    for seed in range(300):
        e.reset(seed=seed)
        assert e.action_masks().sum() > 0, seed


def test_flat_observation_for_mlp_policies() -> None:
    e = SingleSeatEnv(observation="flat")
    obs, _ = e.reset(seed=2)
    assert isinstance(e.observation_space, gym.spaces.Box)
    assert obs.shape == (NUM_PLANES * 34,) and e.observation_space.contains(obs)
    d = SingleSeatEnv(observation="dict")
    dobs, _ = d.reset(seed=2)
    assert np.array_equal(dobs["observation"].reshape(-1), obs)
    with pytest.raises(MahjongError, match="observation must be one of"):
        SingleSeatEnv(observation="image")


def test_score_planes_have_real_bounds() -> None:
    a = raw_env(rules="ml", hands=4)
    space = a.observation_space("player_0")["observation"]
    assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
    assert a.score_limit == 4 * hand_swing(get_preset("ml"))
    a.reset(seed=1)
    a.match_scores = [1e9, -1e9, 0.0, 0.0]  # beyond any real match: clipped into the space
    assert space.contains(a.observe("player_0")["observation"])


def test_action_masks_before_reset_is_a_clear_error() -> None:
    with pytest.raises(MahjongError, match="call reset"):
        SingleSeatEnv().action_masks()
    with pytest.raises(MahjongError, match="call reset"):
        SingleSeatEnv().step(0)


@pytest.mark.parametrize("rules", ["parlor", "ml"])
def test_parallel_api_test(rules: str) -> None:
    parallel_api_test(parallel_env(rules=rules), num_cycles=400)


def test_parallel_env_plays_the_same_game_as_selfplay() -> None:
    p = parallel_env(rules="parlor")
    obs, _ = p.reset(seed=9)
    steps = 0
    while p.agents:
        acts = {}
        for a in p.agents:
            legal = np.flatnonzero(obs[a]["action_mask"])
            acts[a] = int(legal[-1]) if len(legal) else 0
        obs, rewards, terms, _, _ = p.step(acts)
        steps += 1
    assert steps > 10 and all(terms.values())
    assert sum(rewards.values()) == 0  # zero-sum hand end
    with pytest.raises(MahjongError, match="call reset"):
        p.step({})


def test_gym_make_ids() -> None:
    for gym_id in GYM_IDS:
        e = gym.make(gym_id, rules="ml")
        obs, _ = e.reset(seed=0)
        assert e.observation_space.contains(obs)
        e.close()


def test_unseeded_resets_differ_between_envs() -> None:
    """Unseeded resets draw OS entropy: two fresh envs do not deal the same walls (issue 15.6)."""
    a, b = raw_env(), raw_env()
    a.reset()
    b.reset()
    assert a.render() != b.render()
    c, d = raw_env(), raw_env()
    c.reset(seed=4)
    d.reset(seed=4)
    assert c.render() == d.render()


def test_shaping_hook_sees_only_the_seats_events_and_view() -> None:
    seen: list[ShapingStep] = []

    def hook(step: ShapingStep) -> float:
        seen.append(step)
        return 0.25 if step.seat is Wind.EAST and step.actor is Wind.EAST else 0.0

    a = raw_env(rules="parlor", shaping=hook)
    a.reset(seed=3)
    total = 0.0
    for agent in a.agent_iter():
        obs, reward, term, trunc, _ = a.last()
        total += reward if agent == "player_0" else 0.0
        if term or trunc:
            a.step(None)
            continue
        a.step(int(np.flatnonzero(obs["action_mask"])[0]))
    own = sum(1 for s in seen if s.seat is Wind.EAST and s.actor is Wind.EAST)
    assert own > 0
    assert total == pytest.approx(0.25 * own + a.match_scores[0])  # player_0 sits at 東
    for step in seen:
        assert step.view.seat is step.seat
        for ev in step.events:  # another seat's draw reaches this seat redacted
            if ev.kind is EventKind.DRAW and ev.seat is not step.seat:
                assert ev.tile is None


def test_shanten_shaping_is_potential_based() -> None:
    """Φ = −shanten, Φ = 0 at the end: a hand's shaped rewards telescope to its first shanten."""
    e = SingleSeatEnv(opponents=("random",) * 3, seat=0, shaping=shanten_shaping(1.0))
    plain = SingleSeatEnv(opponents=("random",) * 3, seat=0)
    for env_ in (e, plain):
        env_.reset(seed=11)
    diff = 0.0
    done = False
    while not done:
        action = int(np.flatnonzero(plain.action_masks())[0])
        _, r1, done, _, _ = e.step(action)
        _, r2, _, _, _ = plain.step(action)
        diff += r1 - r2
    assert diff == pytest.approx(round(diff)) and diff >= 0  # = the shanten of the first look


def test_evaluate_policy_takes_a_factory_with_defaults(script: Script) -> None:
    evaluate = script("examples/evaluate_policy.py", "evaluate_policy")

    def factory(greedy: bool = True) -> Callable[[object, np.ndarray], int]:
        return lambda planes, mask: int(np.flatnonzero(mask)[0 if greedy else -1])

    assert evaluate.is_factory(factory)
    assert not evaluate.is_factory(lambda planes, mask: 0)
    assert not evaluate.is_factory(evaluate.lowest_index)
    module = ModuleType("policy_mod")
    module.make = factory  # type: ignore[attr-defined]
    import sys

    sys.modules["policy_mod"] = module
    try:
        policy = evaluate.load_policy(argparse.Namespace(weights=None, policy="policy_mod:make"))
    finally:
        del sys.modules["policy_mod"]
    assert policy(None, np.array([0, 1, 1])) == 1
