"""Research environment (PettingZoo AEC, self-play dict stepping, single-seat Gymnasium) over the engine.

Needs the ``env`` extra (NumPy, PettingZoo, Gymnasium). No rules live here: every decision is the
engine's. Versions: ``ACTION_SPACE_VERSION`` and ``OBSERVATION_VERSION`` in :mod:`.encoding`.
"""

from __future__ import annotations

from hkmahjong.env.aec import AGENTS, REWARDS, HKMahjongAEC, env, hand_seed, raw_env
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
from hkmahjong.env.selfplay import SelfPlayEnv
from hkmahjong.env.single import SingleSeatEnv

__all__ = [
    "ACTION_SPACE_VERSION",
    "AGENTS",
    "NUM_ACTIONS",
    "NUM_ORACLE_PLANES",
    "NUM_PLANES",
    "OBSERVATION_VERSION",
    "PLANES",
    "REWARDS",
    "HKMahjongAEC",
    "SelfPlayEnv",
    "SingleSeatEnv",
    "action_index",
    "action_mask",
    "describe_action",
    "env",
    "hand_seed",
    "index_action",
    "observation",
    "oracle_observation",
    "raw_env",
]
