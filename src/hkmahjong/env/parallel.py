"""PettingZoo **parallel** env: every live agent observes and answers each step.

>>> from hkmahjong.env import parallel_env
>>> p = parallel_env(rules="parlor")
>>> obs, infos = p.reset(seed=3)
>>> sorted(obs) == p.agents == ['player_0', 'player_1', 'player_2', 'player_3']
True

A turn-based game in the parallel API: each step every live agent gets an observation; only the
seats that must act now (the current player, or every seat that may claim in a claim window,
deciding together) have a non-zero ``action_mask``. ``step`` takes an action for every live agent
and applies those of the acting seats; the others' actions are ignored, whatever they are. When
the episode ends every agent terminates and ``agents`` becomes empty.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import ParallelEnv  # type: ignore[import-untyped]

from hkmahjong.env.aec import AGENTS, HKMahjongAEC, RewardFn, ShapingFn
from hkmahjong.env.selfplay import SelfPlayEnv
from hkmahjong.errors import IllegalActionError, MahjongError
from hkmahjong.rules import Ruleset

__all__ = ["HKMahjongParallel", "parallel_env"]

Obs = dict[str, npt.NDArray[Any]]


class HKMahjongParallel(ParallelEnv):  # type: ignore[misc]
    """香港麻雀 in PettingZoo's parallel API (``parallel_api_test`` passes)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads it from the class)
        "render_modes": ["ansi"],
        "name": "hkmahjong_parallel_v1",
    }

    def __init__(
        self,
        rules: str | Ruleset = "parlor",
        *,
        hands: int = 1,
        reward: str | RewardFn = "points",
        reward_scale: float = 1.0,
        shaping: ShapingFn | None = None,
        render_mode: str | None = None,
    ) -> None:
        """Create the env; arguments as :class:`~hkmahjong.env.aec.HKMahjongAEC`."""
        self._play = SelfPlayEnv(
            rules, hands=hands, reward=reward, reward_scale=reward_scale, shaping=shaping
        )
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self.render_mode = render_mode
        self._acting: list[str] = []

    @property
    def aec(self) -> HKMahjongAEC:
        """The underlying AEC env (views, legal actions, oracle observations)."""
        return self._play.aec

    @functools.cache  # noqa: B019 (the same space object for every call)
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """As the AEC env's: ``observation`` planes and ``action_mask``."""
        return self.aec.observation_space(agent)

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(110)``, as the AEC env's."""
        return self.aec.action_space(agent)

    def _all_obs(self, acting: dict[str, Obs]) -> dict[str, Obs]:
        observe = self.aec.observe
        return {a: acting[a] if a in acting else observe(a) for a in self.agents}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Obs], dict[str, dict[str, Any]]]:
        """Start an episode: observations and infos for all four agents."""
        acting, _ = self._play.reset(seed=seed, options=options)
        self.agents = list(AGENTS)
        self._acting = list(acting)
        infos = {a: dict(self.aec.infos[a]) for a in self.agents}
        return self._all_obs(acting), infos

    def step(
        self, actions: dict[str, int | np.integer[Any]]
    ) -> tuple[
        dict[str, Obs],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Apply the actions of the seats that must act (the others' are ignored).

        :raises IllegalActionError: when an acting seat has no action or an illegal one (naming
            it and the legal set); nothing is applied then.
        :raises MahjongError: when the episode is over (call ``reset``).
        """
        if not self.agents:
            raise MahjongError("the episode is over (or not started): call reset()")
        missing = [a for a in self._acting if a not in actions]
        if missing:
            raise IllegalActionError(f"step needs an action for each seat that must act: {missing}")
        acting, rewards, terms, truncs, infos = self._play.step(
            {a: actions[a] for a in self._acting}
        )
        live = list(self.agents)
        obs = self._all_obs(acting)
        self._acting = list(acting)
        if all(terms.values()):
            self.agents = []
        out = (
            obs,
            {a: rewards[a] for a in live},
            {a: terms[a] for a in live},
            {a: truncs[a] for a in live},
            {a: infos[a] for a in live},
        )
        return out

    def render(self) -> str | None:
        """The referee's text picture of the table."""
        return self.aec.render()

    def close(self) -> None:
        """Nothing to release."""

    def state(self) -> npt.NDArray[np.float32]:
        """Not offered: the full state is hidden information (use ``aec.oracle_observe``)."""
        raise NotImplementedError("use aec.oracle_observe(agent) for full-information planes")


def parallel_env(**kwargs: Any) -> HKMahjongParallel:
    """The parallel env (keyword arguments as :class:`HKMahjongParallel`)."""
    return HKMahjongParallel(**kwargs)
