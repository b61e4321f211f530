"""Research environment (PettingZoo AEC, self-play dict stepping, single-seat Gymnasium) over the engine.

Needs the ``env`` extra (NumPy, PettingZoo, Gymnasium). No rules live here: every decision is the
engine's. Versions: ``ACTION_SPACE_VERSION`` and ``OBSERVATION_VERSION`` in :mod:`.encoding`.
"""

from __future__ import annotations

import gymnasium as _gym

from hkmahjong.env.aec import (
    AGENTS,
    REWARDS,
    HKMahjongAEC,
    ShapingFn,
    ShapingStep,
    env,
    hand_seed,
    match_seed,
    raw_env,
)
from hkmahjong.env.encoding import (
    ACTION_SPACE_VERSION,
    NUM_ACTIONS,
    NUM_ORACLE_PLANES,
    NUM_PLANES,
    OBSERVATION_VERSION,
    PLANES,
    action_index,
    action_mask,
    describe_action,
    index_action,
    observation,
    oracle_observation,
)
from hkmahjong.env.hints import HINT_PLANES, NUM_HINT_PLANES, hint_bounds, hint_planes
from hkmahjong.env.parallel import HKMahjongParallel, parallel_env
from hkmahjong.env.rollout import Episode, RolloutConfig, selfplay_episodes
from hkmahjong.env.selfplay import SelfPlayEnv
from hkmahjong.env.shaping import shanten_shaping
from hkmahjong.env.single import SingleSeatEnv

GYM_IDS = {
    "hkmahjong/SingleSeat-v1": {},
    "hkmahjong/SingleSeatFlat-v1": {"observation": "flat", "illegal": "terminate"},
}
"""Gymnasium ids registered on import (``gym.make("hkmahjong/SingleSeat-v1", rules="ml")``, or
``gym.make("hkmahjong.env:hkmahjong/SingleSeat-v1")`` without importing first)."""

for _id, _kwargs in GYM_IDS.items():
    if _id not in _gym.registry:
        _gym.register(id=_id, entry_point="hkmahjong.env.single:SingleSeatEnv", kwargs=_kwargs)

__all__ = [
    "ACTION_SPACE_VERSION",
    "AGENTS",
    "GYM_IDS",
    "HINT_PLANES",
    "NUM_ACTIONS",
    "NUM_HINT_PLANES",
    "NUM_ORACLE_PLANES",
    "NUM_PLANES",
    "OBSERVATION_VERSION",
    "PLANES",
    "REWARDS",
    "Episode",
    "HKMahjongAEC",
    "HKMahjongParallel",
    "RolloutConfig",
    "SelfPlayEnv",
    "ShapingFn",
    "ShapingStep",
    "SingleSeatEnv",
    "action_index",
    "action_mask",
    "describe_action",
    "env",
    "hand_seed",
    "hint_bounds",
    "hint_planes",
    "index_action",
    "match_seed",
    "observation",
    "oracle_observation",
    "parallel_env",
    "raw_env",
    "selfplay_episodes",
    "shanten_shaping",
]
