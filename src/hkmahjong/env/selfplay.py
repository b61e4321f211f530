"""Self-play stepping with a "dict of seats who must act": claim windows are simultaneous.

>>> from hkmahjong.env import SelfPlayEnv
>>> sp = SelfPlayEnv(rules="parlor")
>>> obs, infos = sp.reset(seed=3)
>>> list(obs)
['player_0']

``step`` takes one action (flat index) for **every** agent in the last observation dict — in a
claim window that is every seat that may claim, deciding together — and returns the observations
of the seats that must act next, with everyone's rewards, terminations and truncations.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from hkmahjong.env.aec import AGENTS, HKMahjongAEC, RewardFn, ShapingFn
from hkmahjong.errors import IllegalActionError, MahjongError
from hkmahjong.rules import Ruleset

__all__ = ["SelfPlayEnv"]

Obs = dict[str, npt.NDArray[Any]]


class SelfPlayEnv:
    """The AEC game stepped by "who must act": ``reset`` → ``(obs, infos)``, ``step(actions)``."""

    def __init__(
        self,
        rules: str | Ruleset = "parlor",
        *,
        hands: int = 1,
        reward: str | RewardFn = "points",
        reward_scale: float = 1.0,
        shaping: ShapingFn | None = None,
    ) -> None:
        """Create the env; arguments as :class:`~hkmahjong.env.aec.HKMahjongAEC`."""
        self._aec = HKMahjongAEC(
            rules, hands=hands, reward=reward, reward_scale=reward_scale, shaping=shaping
        )
        self.possible_agents = list(AGENTS)
        self.observation_space = self._aec.observation_space
        self.action_space = self._aec.action_space
        self._acting_at = -1
        """The env's apply count when the last observations were returned ..."""
        self._acting_now: list[str] = []
        """... and the agents they went to."""
        self._infos_at = -1
        """The env's infos version when ``_info_copies`` were made."""
        self._info_copies: dict[str, dict[str, Any]] = {}

    @property
    def aec(self) -> HKMahjongAEC:
        """The underlying AEC env (views, legal actions, oracle observations)."""
        return self._aec

    def _acting(self) -> list[str]:
        aec = self._aec
        st = aec.state_
        if st is None or st.is_over or aec.terminations.get(AGENTS[0], True):
            return []  # (every agent terminates together)
        at = aec._agent_at_seat
        return [at[s] for s in st.to_act]

    def _obs(self) -> dict[str, Obs]:
        acting = self._acting()
        self._acting_at = self._aec._applies
        self._acting_now = acting
        observe = self._aec.observe
        return {a: observe(a) for a in acting}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Obs], dict[str, dict[str, Any]]]:
        """Start an episode; returns the observations of the seats that must act, and infos."""
        self._aec.reset(seed=seed, options=options)
        obs = self._obs()
        return obs, {a: dict(self._aec.infos[a]) for a in obs}

    @staticmethod
    def _new_step(aec: HKMahjongAEC) -> None:
        """The rewards of the last step (a payout) are spent: zero them."""
        for agent in AGENTS:
            aec._cumulative_rewards[agent] = 0.0
            aec.rewards[agent] = 0.0
        aec._rewards_set = False

    @staticmethod
    def _wrong_agents(acting: list[str], actions: dict[str, Any]) -> IllegalActionError:
        return IllegalActionError(
            f"step needs exactly one action for each seat that must act: {acting}, "
            f"got {sorted(actions)}"
        )

    def step(
        self, actions: dict[str, int | np.integer[Any]]
    ) -> tuple[
        dict[str, Obs],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Apply one action per acting seat; returns (obs, rewards, terminations, truncations, infos).

        :raises IllegalActionError: when ``actions`` misses an acting seat, names a seat that need
            not act, or holds an illegal action (naming it and the legal set). Nothing is applied then.
        :raises MahjongError: when the episode is over (the hand would otherwise be paid twice).
        """
        aec = self._aec
        acting = self._acting_now
        if self._acting_at != aec._applies:  # something was applied since the last observations
            acting = self._acting()
        if not acting:
            raise MahjongError("the episode is over (or not started): call reset()")
        seats = aec._seat_of_agent
        st = aec.state_
        assert st is not None
        if len(acting) == 1 and len(actions) == 1:  # most steps: no set, no list of choices
            a = acting[0]
            if a not in actions:
                raise self._wrong_agents(acting, actions)
            seat = seats[a]
            action = aec._chosen(a, seat, actions[a])
            if aec._rewards_set:
                self._new_step(aec)
            aec._apply(seat, action)
        else:
            if actions.keys() != set(acting):
                raise self._wrong_agents(acting, actions)
            chosen = []
            for a in acting:  # every action checked before any is applied
                chosen.append((seats[a], aec._chosen(a, seats[a], actions[a])))
            if aec._rewards_set:
                self._new_step(aec)
            for seat, action in chosen:
                aec._apply(seat, action)
        if st.is_over:
            aec._after_step()  # pays the hand (and deals the next one of the episode)
            obs = self._obs()
        else:  # as aec._after_step + self._obs, reading who acts once
            at = aec._agent_at_seat
            to_act = st.to_act
            first = at[to_act[0]]
            aec.agent_selection = first
            observe = aec.observe
            if len(to_act) == 1:  # (most steps: no comprehension to run)
                acting = [first]
                obs = {first: observe(first)}
            else:
                acting = [at[s] for s in to_act]
                obs = {a: observe(a) for a in acting}
            self._acting_at = aec._applies
            self._acting_now = acting
        if aec._rewards_set:
            cumulative = aec._cumulative_rewards
            rewards = {agent: float(cumulative[agent]) for agent in AGENTS}
        else:
            rewards = dict.fromkeys(AGENTS, 0.0)
        if self._infos_at != aec._infos_version:
            self._infos_at = aec._infos_version
            self._info_copies = {a: dict(i) for a, i in aec.infos.items()}
        return obs, rewards, dict(aec.terminations), dict(aec.truncations), dict(self._info_copies)
