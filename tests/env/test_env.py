"""Research env (issue 7): PettingZoo API and seed tests, action/observation encoding, self-play and
single-seat stepping, illegal actions. The env holds no rules: results are compared with the engine."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from hkmahjong.engine import Action, ActionKind
from hkmahjong.engine.record import GameRecord, verify
from hkmahjong.engine.record import hand_seed as record_hand_seed
from hkmahjong.engine.state import HandState
from hkmahjong.env import (
    NUM_ACTIONS,
    NUM_ORACLE_PLANES,
    NUM_PLANES,
    PLANES,
    HKMahjongAEC,
    SelfPlayEnv,
    SingleSeatEnv,
    action_index,
    describe_action,
    env,
    hand_seed,
    match_seed,
    observation,
    raw_env,
)
from hkmahjong.errors import IllegalActionError, MahjongError
from hkmahjong.rules import get_preset
from hkmahjong.tiles import Tile, Wind

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize("rules", ["parlor", "qingzhang", "ml", "cuhk"])
def test_pettingzoo_api_test_every_preset(rules: str) -> None:
    api_test(env(rules=rules), num_cycles=300)


def test_pettingzoo_api_test_multi_hand_episode() -> None:
    api_test(env(rules="parlor", hands=3), num_cycles=600)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env(rules="parlor"), num_cycles=300)


def _random_episode(e: HKMahjongAEC, seed: int) -> tuple[list[int], dict[str, float]]:
    rng = random.Random(seed)
    e.reset(seed=seed)
    taken: list[int] = []
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        a = int(rng.choice(list(legal)))
        taken.append(a)
        e.step(a)
    return taken, totals


def test_same_seed_same_game_and_zero_sum_rewards() -> None:
    a1, r1 = _random_episode(raw_env(hands=2), 7)
    a2, r2 = _random_episode(raw_env(hands=2), 7)
    assert a1 == a2 and r1 == r2
    assert sum(r1.values()) == pytest.approx(0.0)


def test_an_env_episode_is_a_verifiable_record() -> None:
    """Env hands are dealt by the record's seed derivation: an episode is a 牌譜 that verifies."""
    e = raw_env(hands=3)
    _random_episode(e, 5)
    record = GameRecord.loads(e.game_record().dumps())
    assert verify(record).hands == 3
    assert record.match_seed == match_seed(5)
    assert [h.seed for h in record.hands] == [hand_seed(5, n) for n in range(3)]
    assert [h.seed for h in record.hands] == [record_hand_seed(match_seed(5), n) for n in range(3)]
    assert record.totals == e.match_scores
    with pytest.raises(MahjongError, match="no hand"):
        fresh = raw_env()
        fresh.reset(seed=1)
        fresh.game_record()


def test_env_hand_matches_bare_engine() -> None:
    """The env adds no rules: replaying its choices on a bare HandState gives the same payments."""
    e = raw_env()
    rng = random.Random(3)
    e.reset(seed=11)
    st = HandState.new(get_preset("parlor"), seed=hand_seed(11, 0))
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, _, _ = e.last()
        totals[agent] += reward
        if term:
            e.step(None)
            continue
        seat = e.seat_of(agent)
        assert st.to_act[0] == seat
        view = st.view(seat)
        by_index = {action_index(x, view.pending_tile): x for x in st.legal_actions(seat)}
        assert sorted(by_index) == [int(i) for i in np.flatnonzero(obs["action_mask"])]
        idx = rng.choice(sorted(by_index))
        st.apply(seat, by_index[idx])
        e.step(idx)
    assert st.outcome is not None
    assert [totals[a] for a in e.possible_agents] == pytest.approx(
        [float(d) for d in st.outcome.deltas]
    )


def test_action_space_encoding_round_trip() -> None:
    assert action_index(Action.discard(Tile.P5), None) == 13
    assert action_index(Action.concealed_kong(Tile.RED), None) == 34 + 33
    assert action_index(Action.added_kong(Tile.M1), None) == 68
    # chow positions are relative to the claimed tile (3p): 345p low, 234p middle, 123p high
    assert action_index(Action.chow(Tile.P3), Tile.P3) == 102
    assert action_index(Action.chow(Tile.P2), Tile.P3) == 103
    assert action_index(Action.chow(Tile.P1), Tile.P3) == 104
    assert action_index(Action.plain(ActionKind.SELF_DRAW), None) == action_index(
        Action.plain(ActionKind.WIN), Tile.M1
    )
    assert describe_action(109) == "pass"
    assert {describe_action(i) for i in range(NUM_ACTIONS)}.__len__() == NUM_ACTIONS
    with pytest.raises(IllegalActionError, match="no index"):
        action_index(Action.plain(ActionKind.FALSE_WIN), None)


def test_observation_shapes_and_no_hidden_information() -> None:
    e = raw_env()
    e.reset(seed=5)
    agent = e.agent_selection
    obs = e.observe(agent)["observation"]
    assert obs.shape == (NUM_PLANES, 34) == (len(PLANES), 34)
    view = e.player_view(agent)
    own = np.zeros(34)
    for t in view.concealed:
        own[t] += 1
    assert (obs[:4].sum(axis=0) == own).all()
    # another seat's observation differs only through its own concealed tiles, never ours
    other = next(a for a in e.possible_agents if a != agent)
    st = e.state_
    assert st is not None
    before = e.observe(other)["observation"].copy()
    hidden = st.hands[int(e.seat_of(agent))]
    n = sum(hidden)
    hidden[:] = [0] * 34  # tamper with `agent`'s concealed tiles only, keeping their number
    for i in range(n):
        hidden[i % 34] += 1
    after = e.observe(other)["observation"]
    assert (before == after).all()
    assert e.oracle_observe(agent).shape == (NUM_ORACLE_PLANES, 34)


def test_illegal_action_raises_naming_it_and_the_legal_set() -> None:
    e = raw_env()
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match=r"not legal.*legal: "):
        e.step(bad)
    # the state is unchanged: a legal action still works
    e.step(int(np.flatnonzero(mask)[0]))


def test_terminate_illegal_wrapper() -> None:
    e = env(illegal="terminate", illegal_reward=-5.0)
    e.reset(seed=1)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    e.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(e.terminations.values())
    assert e.rewards[agent] == -5.0


def test_bad_configuration_errors() -> None:
    with pytest.raises(MahjongError, match="hands per episode"):
        raw_env(hands=0)
    with pytest.raises(MahjongError, match="unknown reward"):
        raw_env(reward="money")
    with pytest.raises(MahjongError):
        raw_env(rules="no-such-preset")
    with pytest.raises(MahjongError, match="three bot names"):
        SingleSeatEnv(opponents=("fan",))
    with pytest.raises(MahjongError, match="unknown bot"):
        SingleSeatEnv(opponents=("fan", "fan", "wizard"))


def test_selfplay_dict_step_claim_windows_are_simultaneous() -> None:
    sp = SelfPlayEnv()
    rng = random.Random(0)
    saw_window = False
    for seed in range(6):
        obs, _ = sp.reset(seed=seed)
        totals = dict.fromkeys(sp.possible_agents, 0.0)
        while obs:
            saw_window |= len(obs) > 1
            actions = {
                a: int(rng.choice(list(np.flatnonzero(o["action_mask"])))) for a, o in obs.items()
            }
            obs, rewards, terms, _, _ = sp.step(actions)
            for a, r in rewards.items():
                totals[a] += r
        assert all(terms.values())
        assert sum(totals.values()) == pytest.approx(0.0)
        with pytest.raises(MahjongError, match="reset"):  # not paid a second time
            sp.step({})
    assert saw_window
    sp.reset(seed=0)
    with pytest.raises(IllegalActionError, match="exactly one action"):
        sp.step({})


def test_single_seat_env_with_bots() -> None:
    e = SingleSeatEnv(opponents=("random", "efficient", "fan"), seat=2)
    obs, info = e.reset(seed=4)
    assert info["agent"] == "player_2"
    total = 0.0
    rng = random.Random(1)
    done = False
    while not done:
        mask = e.action_masks()
        assert (mask == obs["action_mask"]).all() and mask.sum() > 0
        obs, r, done, _trunc, info = e.step(int(rng.choice(list(np.flatnonzero(mask)))))
        total += r
    assert "outcome" in info
    seat = Wind.parse(info["seat"])
    assert total == pytest.approx(float(info["outcome"].deltas[seat]))
    with pytest.raises(MahjongError, match="reset"):
        e.step(0)


@pytest.mark.parametrize("rules", ["parlor", "qingzhang"])
def test_fast_state_encoder_equals_view_observation(rules: str) -> None:
    """The env's referee-side encoder reads only what a PlayerView shows: on random play, its
    planes equal observation(view) for every seat at every step (incl. claims, kongs, new hands)."""
    e = raw_env(rules=rules, hands=3)
    rng = random.Random(9)
    steps = 0
    for seed in range(4):
        e.reset(seed=seed)
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            scores = e._seat_scores()
            for other in e.possible_agents:
                view = e.player_view(other)
                fast = e.observe(other)["observation"]
                assert np.array_equal(fast, observation(view, scores)), (other, steps)
            e.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
            steps += 1
    assert steps > 300


def test_every_observation_is_inside_the_observation_space() -> None:
    """Scores can go negative once a hand is paid (ml: 1-fan minimum, random players do win)."""
    e = raw_env(rules="ml", hands=3)
    rng = random.Random(0)
    space = e.observation_space("player_0")
    negative_seen = False
    for seed in range(40):
        if negative_seen and seed >= 3:
            break
        e.reset(seed=seed)
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            assert space.contains(obs), agent
            negative_seen |= bool((obs["observation"] < 0).any())
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
    assert negative_seen


def test_selfplay_illegal_action_names_it_and_applies_nothing() -> None:
    """An illegal index in a self-play step raises with the legal set; the hand does not move."""
    sp = SelfPlayEnv()
    obs, _ = sp.reset(seed=2)
    (agent, o), *_ = obs.items()
    bad = int(np.flatnonzero(o["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match=r"not legal.*legal: "):
        sp.step({agent: bad})
    good = int(np.flatnonzero(o["action_mask"])[0])
    obs2, *_ = sp.step({agent: good})  # the same decision is still pending
    assert obs2
