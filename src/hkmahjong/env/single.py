"""Single-seat Gymnasium env: you play one seat, named bots play the other three.

>>> import gymnasium as gym
>>> from hkmahjong.env import SingleSeatEnv
>>> e = SingleSeatEnv(opponents=("random", "random", "random"))
>>> obs, info = e.reset(seed=0)
>>> bool(obs["action_mask"].sum() > 0)
True

Works with action-masking learners: the mask is in the observation and in :meth:`action_masks`.
``observation="flat"`` gives the planes alone as one ``Box`` (for Stable-Baselines3's
``MlpPolicy``); ``illegal="terminate"`` or ``"penalize"`` lets checkers that step random actions run
(``gymnasium.utils.env_checker.check_env``). See ``docs/env.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt

from hkmahjong.bots import get_bot
from hkmahjong.env.aec import AGENTS, HKMahjongAEC, RewardFn, ShapingFn
from hkmahjong.env.encoding import observation_bounds
from hkmahjong.env.hints import NUM_HINT_PLANES, hint_bounds, hint_planes
from hkmahjong.errors import IllegalActionError, MahjongError
from hkmahjong.rules import Ruleset

__all__ = ["ILLEGAL_MODES", "OBSERVATION_MODES", "SingleSeatEnv"]

ILLEGAL_MODES = ("raise", "terminate", "penalize")
"""What an illegal action does: raise ``IllegalActionError`` (nothing applied); end the episode
with ``illegal_reward``; or apply nothing, give ``illegal_reward`` and ask again."""
OBSERVATION_MODES = ("dict", "flat")
"""``dict``: ``{"observation": planes, "action_mask": mask}``; ``flat``: the planes alone as a
``Box`` of ``NUM_PLANES * 34`` (the mask through :meth:`SingleSeatEnv.action_masks`)."""
_RESET_TRIES = 1000


class SingleSeatEnv(gym.Env[Any, int]):
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
        shaping: ShapingFn | None = None,
        illegal: str = "raise",
        illegal_reward: float = -1.0,
        observation: str = "dict",
        hints: bool = False,
        render_mode: str | None = None,
    ) -> None:
        """Create the env; ``opponents`` are three bot names or levels (``hkmahjong.bots``);
        ``illegal`` one of :data:`ILLEGAL_MODES`, ``observation`` one of :data:`OBSERVATION_MODES`.
        ``hints=True`` appends the :data:`~hkmahjong.env.hints.HINT_PLANES` (牌效 and 番路
        look-ahead of the learner's own view) to the planes: ``(NUM_PLANES + NUM_HINT_PLANES, 34)``.

        :raises MahjongError: for a bad seat, a wrong number of opponents, an unknown bot, an
            unknown illegal-action or observation mode.
        """
        if len(opponents) != 3:
            raise MahjongError(f"opponents needs three bot names, got {list(opponents)}")
        if not (seat == "random" or (isinstance(seat, int) and 0 <= seat < 4)):
            raise MahjongError(f"seat must be 0-3 or 'random', got {seat!r}")
        if illegal not in ILLEGAL_MODES:
            raise MahjongError(
                f"illegal must be one of {', '.join(ILLEGAL_MODES)}, got {illegal!r}"
            )
        if observation not in OBSERVATION_MODES:
            raise MahjongError(
                f"observation must be one of {', '.join(OBSERVATION_MODES)}, got {observation!r}"
            )
        for name in opponents:
            get_bot(name, 0)  # validates the name now, not mid-episode
        self._aec = HKMahjongAEC(
            rules, hands=hands, reward=reward, reward_scale=reward_scale, shaping=shaping
        )
        self.opponent_names = tuple(opponents)
        self.seat_choice = seat
        self.render_mode = render_mode
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.flat = observation == "flat"
        self.hints = bool(hints)
        low, high = observation_bounds(self._aec.score_limit)
        if self.hints:
            hlow, hhigh = hint_bounds()
            low, high = np.concatenate([low, hlow]), np.concatenate([high, hhigh])
        if self.flat:
            self.observation_space: gym.spaces.Space[Any] = gym.spaces.Box(
                low.reshape(-1), high.reshape(-1), (low.size,), dtype=np.float32
            )
        elif self.hints:
            self.observation_space = gym.spaces.Dict(
                {
                    "observation": gym.spaces.Box(low, high, low.shape, dtype=np.float32),
                    "action_mask": self._aec.observation_space(AGENTS[0])["action_mask"],  # type: ignore[index]
                }
            )
        else:
            self.observation_space = self._aec.observation_space(AGENTS[0])
        self.action_space = self._aec.action_space(AGENTS[0])
        self.agent = AGENTS[0]
        self._bots: dict[str, Any] = {}
        self._episode_reward = 0.0
        self._carried = 0.0
        """Reward of hands the learner had no decision in, paid with its next step."""
        self._started = False
        self._ended_illegally = False

    @property
    def aec(self) -> HKMahjongAEC:
        """The underlying AEC env."""
        return self._aec

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Start an episode and play the bots until the learner must act.

        The returned state always holds a decision for the learner: an episode that ends before
        the learner has one (e.g. a 天糊) is played and the next one dealt, its reward carried to
        the learner's first step (``info["carried_reward"]``).
        """
        super().reset(seed=seed)
        self._ended_illegally = False
        carried = 0.0
        for _ in range(_RESET_TRIES):
            self._deal()
            carried += self._episode_reward
            if not self._done():
                break
        else:  # pragma: no cover - would need 1000 hands in a row without a learner decision
            raise MahjongError(f"no decision for the learner in {_RESET_TRIES} episodes")
        self._episode_reward = 0.0
        self._carried = carried
        self._started = True
        info = self._info()
        info["carried_reward"] = carried
        return self._observe(), info

    def _deal(self) -> None:
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

    def _observe(self) -> Any:
        obs = self._aec.observe(self.agent)
        if self.hints:
            obs["observation"] = np.concatenate([obs["observation"], self._hints(obs)])
        return obs["observation"].reshape(-1) if self.flat else obs

    def _hints(self, obs: dict[str, npt.NDArray[Any]]) -> npt.NDArray[np.float32]:
        """The hint planes of the learner's view (zeros when it has no decision)."""
        st = self._aec.state_
        if st is None or self._done() or not obs["action_mask"].any():
            return np.zeros((NUM_HINT_PLANES, 34), dtype=np.float32)
        seat = self._aec.seat_of(self.agent)
        return hint_planes(st.view(seat), self._aec.ruleset, st.legal_actions(seat))

    def _info(self) -> dict[str, Any]:
        info = dict(self._aec.infos[self.agent])
        info["agent"] = self.agent
        return info

    def _done(self) -> bool:
        return self._ended_illegally or all(self._aec.terminations.values())

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

    def _require_started(self) -> None:
        if not self._started:
            raise MahjongError("SingleSeatEnv: call reset() before step() or action_masks()")

    def step(self, action: int | np.integer[Any]) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Apply the learner's action, then the bots'; reward = the learner's jade this step.

        An illegal action follows ``illegal`` (:data:`ILLEGAL_MODES`); ``info["illegal"]`` is True
        on such a step.

        :raises IllegalActionError: naming the action and the legal set (``illegal="raise"``).
        :raises MahjongError: before ``reset()`` and after the episode ended.
        """
        self._require_started()
        if self._done():
            raise MahjongError("the episode is over: call reset()")
        before = self._episode_reward
        try:
            self._aec.step(int(action))
        except IllegalActionError:
            if self.illegal == "raise":
                raise
            self._ended_illegally = self.illegal == "terminate"
            info = self._info()
            info["illegal"] = True
            return self._observe(), self.illegal_reward, self._done(), False, info
        self._advance()
        reward = self._episode_reward - before + self._carried
        self._carried = 0.0
        return self._observe(), reward, self._done(), False, self._info()

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The legal-action mask (for maskable learners).

        :raises MahjongError: before ``reset()``.
        """
        self._require_started()
        return self._aec.action_mask(self.agent)

    def render(self) -> str | None:
        """The referee's text picture of the table."""
        return self._aec.render()
