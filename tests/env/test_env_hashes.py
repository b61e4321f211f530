"""Recorded hashes of what the AEC and self-play envs hand out over random play in every preset —
every observation's planes and mask, every reward, termination and final score — taken before the
issue 16 speed work: a faster env must hand out exactly the same bytes."""

from __future__ import annotations

import hashlib
import random

import numpy as np
import pytest

from hkmahjong.env import SelfPlayEnv, raw_env

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

AEC_HASHES = {
    "parlor": "cfcea0e95d8d636e439f30b5a07c242fc9767e70b5f496ad57685e7d478cbcd3",
    "qingzhang": "9545a532692a0956d7d180c4506f091a3ce8096f8bd9355ce5563819976c9fad",
    "ml": "110c8a196bb211a1544b60a7905791c3a57bcfc785ac56ad2cf80614f3ac6e21",
    "cuhk": "a8c059ef552cfef42dc8da13c16cc9cf511bb90449486a0c02220a7dde7ea266",
}
SELFPLAY_HASHES = {
    "parlor": "248d039efb051478d64920c1b4af628c889e39a2d5ca838c5370c81379ef4441",
    "qingzhang": "5381c13bbabe9824ce833a1d921cea20ebf3499b84d9cc4818a9435e44573d64",
    "ml": "0df5cc36990ae66bfacf5f3827134cd9822bdb3d5e98e437807bb38790d00b19",
    "cuhk": "8e5db58d9bb019ccfc5530ab98cc4b3e90fdba1367c0f6ee02bcc5bd34554123",
}


def aec_digest(rules: str) -> str:
    """Random agents (preferring claims, kongs and wins) through two-hand episodes."""
    h = hashlib.sha256()
    e = raw_env(rules=rules, hands=2)
    rng = random.Random(rules)
    for seed in range(4):
        e.reset(seed=seed)
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            h.update(agent.encode())
            h.update(obs["observation"].tobytes())
            h.update(obs["action_mask"].tobytes())
            h.update(repr((reward, term, trunc, sorted(e.rewards.items()))).encode())
            if term or trunc:
                h.update(repr((info.get("match_scores"), info["seat"])).encode())
                e.step(None)
                continue
            legal = [int(i) for i in np.flatnonzero(obs["action_mask"])]
            bold = [i for i in legal if i >= 34 and i != 109]
            e.step(rng.choice(bold) if bold and rng.random() < 0.7 else rng.choice(legal))
    return h.hexdigest()


def selfplay_digest(rules: str) -> str:
    h = hashlib.sha256()
    sp = SelfPlayEnv(rules=rules, hands=2)
    rng = random.Random(rules)
    for seed in range(4):
        obs, _ = sp.reset(seed=seed)
        while obs:
            acts = {}
            for a in sorted(obs):
                o = obs[a]
                h.update(a.encode() + o["observation"].tobytes() + o["action_mask"].tobytes())
                legal = [int(i) for i in np.flatnonzero(o["action_mask"])]
                bold = [i for i in legal if i >= 34 and i != 109]
                acts[a] = rng.choice(bold) if bold and rng.random() < 0.7 else rng.choice(legal)
            obs, rewards, terms, truncs, _ = sp.step(acts)
            h.update(repr((sorted(rewards.items()), sorted(terms.items()))).encode())
            h.update(repr(sorted(truncs.items())).encode())
    return h.hexdigest()


@pytest.mark.parametrize("rules", sorted(AEC_HASHES))
def test_aec_output_hash(rules: str) -> None:
    assert aec_digest(rules) == AEC_HASHES[rules]


@pytest.mark.parametrize("rules", sorted(SELFPLAY_HASHES))
def test_selfplay_output_hash(rules: str) -> None:
    assert selfplay_digest(rules) == SELFPLAY_HASHES[rules]


if __name__ == "__main__":
    for r in AEC_HASHES:
        print(r, aec_digest(r), selfplay_digest(r))
