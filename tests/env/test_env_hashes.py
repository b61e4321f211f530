"""Recorded hashes of what the AEC and self-play envs hand out over random play in every preset —
every observation's planes and mask, every reward, termination and final score — taken before the
issue 16 speed work: a faster env must hand out exactly the same bytes."""

from __future__ import annotations

import hashlib
import random

import numpy as np
import pytest

from hkmahjong.env import SelfPlayEnv, raw_env
from hkmahjong.rules import Ruleset
from hkmahjong.rules.presets import PAST_VERSIONS

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

AEC_HASHES = {
    "parlor": "4c370a413ee13da84bb3be9e2f1b453d5c9a26813b11ea8fa57e5540b247c99b",
    "qingzhang": "9545a532692a0956d7d180c4506f091a3ce8096f8bd9355ce5563819976c9fad",
    "ml": "1186649fc169ccdf67c388af420d28df431e1e897ae4f2b675a4085d237baf6a",
    "cuhk": "a8c059ef552cfef42dc8da13c16cc9cf511bb90449486a0c02220a7dde7ea266",
}
SELFPLAY_HASHES = {
    "parlor": "b7308c231ddf9a1cf59ac97537a7c490ebcad2d5f18139349cc3f8b16b37bdeb",
    "qingzhang": "5381c13bbabe9824ce833a1d921cea20ebf3499b84d9cc4818a9435e44573d64",
    "ml": "87e779448876219a3610f545241efacfe36447c54bb6a8cafd3c3b38780dd53a",
    "cuhk": "8e5db58d9bb019ccfc5530ab98cc4b3e90fdba1367c0f6ee02bcc5bd34554123",
}

BEFORE_ISSUE_31 = {
    "parlor": (
        "cfcea0e95d8d636e439f30b5a07c242fc9767e70b5f496ad57685e7d478cbcd3",
        "248d039efb051478d64920c1b4af628c889e39a2d5ca838c5370c81379ef4441",
    ),
    "ml": (
        "110c8a196bb211a1544b60a7905791c3a57bcfc785ac56ad2cf80614f3ac6e21",
        "0df5cc36990ae66bfacf5f3827134cd9822bdb3d5e98e437807bb38790d00b19",
    ),
}
"""The (AEC, self-play) hashes of parlor and ml recorded before issue 31 item 8 turned off W2's
pung 過水 and 食替 ban there (seed 003 "每只打出的牌，其余三家都可以取"): the frozen earlier
versions (``rules.presets.PAST_VERSIONS``) still hand out exactly those bytes."""


def aec_digest(rules: str | Ruleset) -> str:
    """Random agents (preferring claims, kongs and wins) through two-hand episodes."""
    h = hashlib.sha256()
    e = raw_env(rules=rules, hands=2)
    rng = random.Random(rules if isinstance(rules, str) else rules.name)
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


def selfplay_digest(rules: str | Ruleset) -> str:
    h = hashlib.sha256()
    sp = SelfPlayEnv(rules=rules, hands=2)
    rng = random.Random(rules if isinstance(rules, str) else rules.name)
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


@pytest.mark.parametrize("rules", sorted(BEFORE_ISSUE_31))
def test_the_earlier_presets_still_give_their_recorded_hashes(rules: str) -> None:
    (past,) = PAST_VERSIONS[rules]
    assert (aec_digest(past), selfplay_digest(past)) == BEFORE_ISSUE_31[rules]
