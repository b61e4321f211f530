"""Vectorised self-play: many seeded :class:`~hkmahjong.env.SelfPlayEnv` episodes played by bots, in
this process, in local worker processes or as Ray tasks — with the same results everywhere.

Each episode is ``SelfPlayEnv(rules, hands=...).reset(seed=s)`` stepped with the four seats' bots
(seeded by ``(s, seat)``) deciding together in claim windows; what it returns (the returns per
agent, and with ``collect`` every real decision's observation planes, mask and chosen index) is a
function of ``s`` alone. :func:`selfplay_episodes` sends chunks of seeds to the backend
(:mod:`hkmahjong.bots.backend`) and gives the episodes back in the order of the seeds.

>>> from hkmahjong.env.rollout import RolloutConfig, selfplay_episodes
>>> eps = selfplay_episodes([1, 2], RolloutConfig(bots=("random",) * 4, collect=False))
>>> [e.seed for e in eps], sum(eps[0].returns.values())
([1, 2], 0.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from hkmahjong.bots.backend import Backend, imap_indexed
from hkmahjong.bots.registry import get_bot
from hkmahjong.env.aec import AGENTS, pending_tile
from hkmahjong.env.encoding import NUM_ACTIONS, NUM_PLANES, action_index
from hkmahjong.env.selfplay import SelfPlayEnv
from hkmahjong.errors import MahjongError

__all__ = ["Episode", "RolloutConfig", "selfplay_episodes"]


@dataclass(frozen=True)
class RolloutConfig:
    """How the episodes are played: ruleset, the four seats' bots, hands per episode, reward."""

    rules: str = "parlor"
    bots: tuple[str, str, str, str] = ("efficient", "efficient", "efficient", "efficient")
    hands: int = 1
    reward: str = "points"
    collect: bool = True
    """Keep each decision with more than one legal action (planes, mask, index, seat)."""
    time_budget: float = 0.05
    """Seconds per decision for bots that search (a budget hit makes a choice time-dependent)."""

    def __post_init__(self) -> None:
        if len(self.bots) != 4:
            raise MahjongError(f"self-play needs 4 bots, got {len(self.bots)}: {self.bots}")
        for name in self.bots:
            get_bot(name)


@dataclass
class Episode:
    """One self-play episode: its seed, each agent's return, the steps taken and (with
    ``collect``) the decisions: ``observations[i]`` (planes), ``masks[i]``, ``actions[i]`` (the
    index chosen) and ``seats[i]`` (0–3: ``player_0`` … ``player_3``)."""

    seed: int
    returns: dict[str, float]
    steps: int
    observations: npt.NDArray[np.float32] = field(repr=False)
    masks: npt.NDArray[np.int8] = field(repr=False)
    actions: npt.NDArray[np.int16] = field(repr=False)
    seats: npt.NDArray[np.int8] = field(repr=False)

    def same_as(self, other: Episode) -> bool:
        """Whether ``other`` is the same episode, decision for decision."""
        return (
            self.seed == other.seed
            and self.returns == other.returns
            and self.steps == other.steps
            and all(
                np.array_equal(a, b)
                for a, b in (
                    (self.observations, other.observations),
                    (self.masks, other.masks),
                    (self.actions, other.actions),
                    (self.seats, other.seats),
                )
            )
        )


def _play_episode(cfg: RolloutConfig, env: SelfPlayEnv, seed: int) -> Episode:
    aec = env.aec
    bots = {
        a: get_bot(name, seed=f"{seed}:{i}", ruleset=aec.ruleset, time_budget=cfg.time_budget)
        for i, (a, name) in enumerate(zip(AGENTS, cfg.bots, strict=True))
    }
    seat_of = {a: i for i, a in enumerate(AGENTS)}
    obs, _ = env.reset(seed=seed)
    returns = dict.fromkeys(AGENTS, 0.0)
    xs: list[npt.NDArray[np.float32]] = []
    ms: list[npt.NDArray[np.int8]] = []
    ys: list[int] = []
    ss: list[int] = []
    steps = 0
    while obs:
        st = aec.state_
        assert st is not None
        pending = pending_tile(st)
        actions: dict[str, int | np.integer[Any]] = {}
        for agent, o in obs.items():
            mask = o["action_mask"]
            legal = aec.legal_actions(agent)
            if len(legal) == 1:
                actions[agent] = action_index(legal[0], pending)
                continue
            choice = bots[agent].choose(aec.player_view(agent), legal)
            index = actions[agent] = action_index(choice, pending)
            if cfg.collect:
                xs.append(np.array(o["observation"], dtype=np.float32))
                ms.append(np.array(mask, dtype=np.int8))
                ys.append(index)
                ss.append(seat_of[agent])
        obs, rewards, *_ = env.step(actions)
        for agent, r in rewards.items():
            returns[agent] += r
        steps += 1
        if steps > 5000 * cfg.hands:
            raise MahjongError(f"self-play episode {seed} did not end")
    planes = (NUM_PLANES, 34)
    return Episode(
        seed,
        returns,
        steps,
        np.stack(xs) if xs else np.zeros((0, *planes), np.float32),
        np.stack(ms) if ms else np.zeros((0, NUM_ACTIONS), np.int8),
        np.array(ys, dtype=np.int16),
        np.array(ss, dtype=np.int8),
    )


def _play_chunk(args: tuple[RolloutConfig, list[int]]) -> list[Episode]:
    cfg, seeds = args
    env = SelfPlayEnv(cfg.rules, hands=cfg.hands, reward=cfg.reward)
    return [_play_episode(cfg, env, s) for s in seeds]


def selfplay_episodes(
    seeds: Sequence[int],
    config: RolloutConfig | None = None,
    *,
    backend: Backend | None = None,
    chunk: int | None = None,
) -> list[Episode]:
    """Play one episode per seed (in chunks of ``chunk`` seeds per task) on ``backend``
    (default: this process); the episodes come back in the order of ``seeds``.

    :raises BackendError: when the backend cannot run (Ray not installed, no cluster).
    """
    cfg = config or RolloutConfig()
    backend = backend or Backend()
    size = chunk or max(1, min(50, len(seeds) // (backend.workers() * 8) or 1))
    tasks = [(cfg, list(seeds[i : i + size])) for i in range(0, len(seeds), size)]
    parts: dict[int, list[Episode]] = dict(imap_indexed(_play_chunk, tasks, backend))
    return [e for i in range(len(tasks)) for e in parts[i]]
