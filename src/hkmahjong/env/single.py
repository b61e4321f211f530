"""Single-seat Gymnasium env: you play one seat, named bots play the other three.

>>> import gymnasium as gym
>>> from hkmahjong.env import SingleSeatEnv
>>> e = SingleSeatEnv(opponents=("random", "random", "random"))
>>> obs, info = e.reset(seed=0)
>>> bool(obs["action_mask"].sum() > 0)
True

Works with action-masking learners: the mask is in the observation and in :meth:`action_masks`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt

from hkmahjong.bots import get_bot
from hkmahjong.env.aec import AGENTS, HKMahjongAEC, RewardFn
from hkmahjong.errors import MahjongError
from hkmahjong.rules import Ruleset

__all__ = ["SingleSeatEnv"]


class SingleSeatEnv(gym.Env[dict[str, npt.NDArray[Any]], int]):
    """香港麻雀 for one learner: ``seat`` is 0–3 (0 deals first) or ``"random"`` per episode."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (gymnasium declares it an instance variable)

    def __init__(
        self,
        rules: str | Ruleset = "parlor",
        *,
        opponents: Sequence[str] = ("fan", "fan", "fan"),
        seat: int | str = "random",
        hands: int = 1,
        reward: str | RewardFn = "points",
        reward_scale: float = 1.0,
        render_mode: str | None = None,
    ) -> None:
        """Create the env; ``opponents`` are three bot names or levels (``hkmahjong.bots``).

        :raises MahjongError: for a bad seat, a wrong number of opponents or an unknown bot.
        """
        if len(opponents) != 3:
            raise MahjongError(f"opponents needs three bot names, got {list(opponents)}")
        if not (seat == "random" or (isinstance(seat, int) and 0 <= seat < 4)):
            raise MahjongError(f"seat must be 0-3 or 'random', got {seat!r}")
        for name in opponents:
            get_bot(name, 0)  # validates the name now, not mid-episode
        self._aec = HKMahjongAEC(rules, hands=hands, reward=reward, reward_scale=reward_scale)
        self.opponent_names = tuple(opponents)
        self.seat_choice = seat
        self.render_mode = render_mode
        self.observation_space = self._aec.observation_space(AGENTS[0])
        self.action_space = self._aec.action_space(AGENTS[0])
        self.agent = AGENTS[0]
        self._bots: dict[str, Any] = {}
        self._episode_reward = 0.0

    @property
    def aec(self) -> HKMahjongAEC:
        """The underlying AEC env."""
        return self._aec

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]]:
        """Start an episode and play the bots until the learner must act."""
        super().reset(seed=seed)
        episode_seed = int(self.np_random.integers(0, 2**62))
        self._aec.reset(seed=episode_seed)
        if self.seat_choice == "random":
            self.agent = AGENTS[int(self.np_random.integers(0, 4))]
        else:
            self.agent = AGENTS[int(self.seat_choice)]
        others = [a for a in AGENTS if a != self.agent]
        self._bots = {
            a: get_bot(n, episode_seed + i, ruleset=self._aec.ruleset)
            for i, (a, n) in enumerate(zip(others, self.opponent_names, strict=True))
        }
        self._episode_reward = 0.0
        self._advance()
        return self._aec.observe(self.agent), self._info()

    def _info(self) -> dict[str, Any]:
        info = dict(self._aec.infos[self.agent])
        info["agent"] = self.agent
        return info

    def _done(self) -> bool:
        return all(self._aec.terminations.values())

    def _advance(self) -> None:
        """Let the bots act until the learner must act or the episode ends."""
        aec = self._aec
        while not self._done() and aec.agent_selection != self.agent:
            a = aec.agent_selection
            st = aec.state_
            assert st is not None
            seat = aec.seat_of(a)
            view = st.view(seat)
            action = self._bots[a].choose(view, st.legal_actions(seat))
            aec._cumulative_rewards[a] = 0.0
            aec._apply(seat, action)
            aec._after_step()
        self._episode_reward += float(aec._cumulative_rewards[self.agent])
        aec._cumulative_rewards[self.agent] = 0.0

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[dict[str, npt.NDArray[Any]], float, bool, bool, dict[str, Any]]:
        """Apply the learner's action, then the bots'; reward = the learner's jade this step.

        :raises IllegalActionError: naming the action and the legal set.
        """
        if self._done():
            raise MahjongError("the episode is over: call reset()")
        before = self._episode_reward
        self._aec.step(int(action))
        self._advance()
        reward = self._episode_reward - before
        return self._aec.observe(self.agent), reward, self._done(), False, self._info()

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The legal-action mask (for maskable learners)."""
        return self._aec.observe(self.agent)["action_mask"]

    def render(self) -> str | None:
        """The referee's text picture of the table."""
        return self._aec.render()
