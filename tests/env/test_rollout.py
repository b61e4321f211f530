"""Vectorised self-play (:mod:`hkmahjong.env.rollout`): seeded episodes, the same in any process."""

from __future__ import annotations

import numpy as np
import pytest

from hkmahjong.bots.backend import Backend
from hkmahjong.env import AGENTS, NUM_ACTIONS, NUM_PLANES, RolloutConfig, selfplay_episodes
from hkmahjong.errors import MahjongError


def test_episodes_are_a_function_of_their_seed() -> None:
    """One process or two, chunks of 1 or 3: the same episodes, in the order of the seeds."""
    # a budget that never binds: a wall-clock budget hit on a loaded machine changes a choice
    cfg = RolloutConfig(bots=("efficient", "random", "fan", "random"), hands=2, time_budget=60.0)
    seeds = [11, 3, 11, 40]
    one = selfplay_episodes(seeds, cfg, chunk=1)
    two = selfplay_episodes(seeds, cfg, backend=Backend(jobs=2), chunk=3)
    assert [e.seed for e in two] == seeds
    assert all(a.same_as(b) for a, b in zip(one, two, strict=True))
    assert one[0].same_as(one[2]) and not one[0].same_as(one[1])
    for e in one:
        n = len(e.actions)
        assert e.observations.shape == (n, NUM_PLANES, 34) and e.masks.shape == (n, NUM_ACTIONS)
        assert set(e.seats.tolist()) <= {0, 1, 2, 3} and set(e.returns) == set(AGENTS)
        assert abs(sum(e.returns.values())) < 1e-9  # payments are zero-sum
        # every recorded choice was legal
        assert np.all(e.masks[np.arange(n), e.actions.astype(np.intp)] == 1)


def test_without_collect_no_decisions_are_kept() -> None:
    (e,) = selfplay_episodes([2], RolloutConfig(bots=("random",) * 4, collect=False))
    assert e.steps > 0 and len(e.actions) == 0 and e.observations.shape == (0, NUM_PLANES, 34)


def test_a_bad_line_up_is_refused() -> None:
    with pytest.raises(MahjongError, match="4 bots"):
        RolloutConfig(bots=("random",) * 3)  # type: ignore[arg-type]
