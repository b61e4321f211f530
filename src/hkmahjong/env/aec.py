"""PettingZoo AEC environment over the HK engine: one episode = one hand (or a run of hands).

>>> from hkmahjong.env import env
>>> e = env(rules="parlor")
>>> e.reset(seed=1)
>>> e.agent_selection
'player_0'

Agents ``player_0``–``player_3`` sit at 東 南 西 北 of the first hand (``player_0`` deals). In a
claim window several seats may claim the same discard; the AEC order asks them one at a time, but
the engine resolves the window only when all have decided, and no seat's view shows another's
decision — so the window stays simultaneous. :class:`hkmahjong.env.SelfPlayEnv` offers the same
game as a "dict of seats who must act" step.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from hkmahjong.engine import Action, Event, HandOutcome, Phase, PlayerView
from hkmahjong.engine.match import Match, MatchLength
from hkmahjong.engine.record import GameRecord, record_from_actions, seed_from_text
from hkmahjong.engine.record import hand_seed as record_hand_seed
from hkmahjong.engine.state import HandState
from hkmahjong.env.encoding import (
    ACTION_SPACE_VERSION,
    NUM_ACTIONS,
    NUM_ORACLE_PLANES,
    NUM_PLANES,
    OBSERVATION_VERSION,
    StateEncoder,
    index_action,
    mask_and_keys,
    observation_bounds,
    oracle_observation,
)
from hkmahjong.errors import MahjongError
from hkmahjong.rules import Ruleset, load_ruleset
from hkmahjong.scoring.payment import payment_summary
from hkmahjong.tiles import Wind

__all__ = [
    "AGENTS",
    "HKMahjongAEC",
    "RewardFn",
    "ShapingFn",
    "ShapingStep",
    "env",
    "hand_seed",
    "match_seed",
    "raw_env",
]

AGENTS: tuple[str, ...] = ("player_0", "player_1", "player_2", "player_3")
_CLAIM, _ROB = Phase.CLAIM, Phase.ROB
_NOT_SHOWN = -2  # StateEncoder.play: the index is not one of the mask shown (nothing applied)
RewardFn = Callable[[HandOutcome, int], float]
"""A reward function: (hand outcome, seat) → reward for that seat."""


def _points(outcome: HandOutcome, seat: int) -> float:
    return float(outcome.deltas[seat])


def _sign(outcome: HandOutcome, seat: int) -> float:
    d = outcome.deltas[seat]
    return 1.0 if d > 0 else -1.0 if d < 0 else 0.0


REWARDS: dict[str, RewardFn] = {"points": _points, "sign": _sign}
"""Named reward functions: ``points`` (jade won or paid in the hand, the default), ``sign``
(+1 for a net gain, −1 for a net loss, 0 otherwise)."""


@dataclass(frozen=True)
class ShapingStep:
    """獎勵塑形: what a reward hook sees for one agent after one applied action."""

    agent: str
    seat: Wind
    """The agent's seat in the current hand."""
    actor: Wind
    """The seat whose action was applied."""
    events: tuple[Event, ...]
    """The step's events as this seat may see them (``Event.for_seat``)."""
    view: PlayerView
    """The agent's view after the step."""


ShapingFn = Callable[[ShapingStep], float]
"""A reward hook: called for every agent after every applied action; its value is added to that
agent's reward of the step (on top of the hand-end reward, before nothing: it is not scaled)."""


def match_seed(seed: int) -> bytes:
    """The match seed of an episode reset with ``seed``: the episode is a match (牌譜) record."""
    return seed_from_text(f"env:{seed}")


def hand_seed(seed: int, hand: int) -> bytes:
    """The engine seed of hand ``hand`` of an episode reset with ``seed``: the record's derivation
    (:func:`hkmahjong.engine.record.hand_seed`) from :func:`match_seed`."""
    return record_hand_seed(match_seed(seed), hand)


def _resolve_rules(rules: str | Ruleset) -> Ruleset:
    return rules if isinstance(rules, Ruleset) else load_ruleset(rules)


def hand_swing(ruleset: Ruleset) -> int:
    """The most jade one seat can win or pay in one hand under ``ruleset``: three limit wins
    paid by one seat (一炮多響 or 包牌), a generous bound for the score planes."""
    fan = ruleset.limit if ruleset.limit is not None else ruleset.payment.no_limit_fan
    pay = payment_summary(fan, ruleset, is_limit=True)
    return 3 * max(pay["discarder_full_gun"], pay["discarder_half_gun"], 3 * pay["self_draw_each"])


class HKMahjongAEC(AECEnv):  # type: ignore[misc]
    """香港麻雀 AEC environment. See the module docstring and ``docs/env.md``."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "hkmahjong_v1",
        "is_parallelizable": False,
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
        """Create the env: ``rules`` (preset name or TOML path), ``hands`` per episode (≥ 1),
        ``reward`` (``points``, ``sign`` or a callable) times ``reward_scale``, plus ``shaping``
        (a :data:`ShapingFn` called for every agent after every action) when given.

        :raises MahjongError: for an unknown ruleset, reward or a bad hand count.
        """
        super().__init__()
        self.ruleset = _resolve_rules(rules)
        if hands < 1:
            raise MahjongError(f"hands per episode must be at least 1, got {hands}")
        if isinstance(reward, str):
            if reward not in REWARDS:
                raise MahjongError(f"unknown reward {reward!r}; known: {', '.join(REWARDS)}")
            self._reward_fn = REWARDS[reward]
        else:
            self._reward_fn = reward
        self.hands_per_episode = hands
        self.reward_scale = reward_scale
        self._shaping = shaping
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agent_name_mapping = {a: i for i, a in enumerate(AGENTS)}
        self.score_limit = float(hands * hand_swing(self.ruleset))
        """Match scores in the observation are clipped to ±this many jade (its declared bounds)."""
        low, high = observation_bounds(self.score_limit)
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low, high, (NUM_PLANES, 34), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self._obs_spaces = {a: obs_space for a in AGENTS}
        self._act_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in AGENTS}
        olow = np.concatenate([low, np.zeros((NUM_ORACLE_PLANES - NUM_PLANES, 34), np.float32)])
        ohigh = np.concatenate([high, np.ones((NUM_ORACLE_PLANES - NUM_PLANES, 34), np.float32)])
        self.oracle_space = spaces.Box(olow, ohigh, dtype=np.float32)
        self.state_: HandState | None = None
        self._played: list[list[tuple[Wind, Action]]] = []
        """Per hand of this episode: every (seat, action) applied, for :meth:`game_record`."""
        self._agent_at_seat: list[str] = list(AGENTS)
        self._seat_of_agent: dict[str, Wind] = {a: Wind(i) for i, a in enumerate(AGENTS)}
        self._encoder = StateEncoder(follow_events=True)
        self._shown_at = [-1, -1, -1, -1]
        """Per seat: the apply count when its last mask was shown (no tuple per step: less GC)."""
        self._shown_legal: list[list[Action]] = [[], [], [], []]
        """Per seat: the legal actions behind its last mask."""
        self._shown_keys: list[list[int]] = [[], [], [], []]
        """Per seat: the flat index of each of those actions."""
        self._rewards_set = False
        """True after a payout until the next step zeroes the rewards."""
        self._steps = 0
        """Actions applied since the episode started."""
        self._rewards_at = 0
        """The step count when ``rewards`` last started to be filled."""
        self._applies = 0
        """Actions applied (and hands dealt) so far: tells a mask or a "who acts now" shown
        since the last change from a stale one."""
        self._infos_version = 0
        """Counts every change of ``infos`` (the self-play env copies them only then)."""
        self._seed = 0
        self._hand = 0
        self._dealer_player = 0
        self._prevailing = Wind.EAST
        self._dealer_turns = 0
        self.match_scores = [0.0, 0.0, 0.0, 0.0]
        self._scores_key: tuple[list[float], int] = ([], -1)
        self._scores = [0.0, 0.0, 0.0, 0.0]

    # --- spaces ----------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """Dict of ``observation`` planes ``(NUM_PLANES, 34)`` and ``action_mask`` ``(110,)``."""
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(110)``: see :mod:`hkmahjong.env.encoding`."""
        return self._act_spaces[agent]

    # --- seats -----------------------------------------------------------------------------
    def seat_of(self, agent: str) -> Wind:
        """The seat (wind) ``agent`` holds in the current hand."""
        return Wind((self.agent_name_mapping[agent] - self._dealer_player) % 4)

    def agent_at(self, seat: Wind | int) -> str:
        """The agent sitting at ``seat`` in the current hand."""
        return AGENTS[(int(seat) + self._dealer_player) % 4]

    # --- lifecycle -------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode; the same ``seed`` gives the same walls and the same game. Without a
        seed the walls come from the operating system's entropy, so unseeded envs in different
        processes never deal the same games."""
        if seed is None:
            seed = secrets.randbits(62)
        self._seed = int(seed)
        self._hand = 0
        self._dealer_player = 0
        self._prevailing = Wind.EAST
        self._dealer_turns = 0
        self.match_scores = [0.0, 0.0, 0.0, 0.0]
        self._played = []
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in self.agents}
        self._rewards_set = False
        self._steps = self._rewards_at = 0
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._start_hand()

    def _start_hand(self) -> None:
        self._applies += 1  # a new hand: every mask shown before is stale
        self._played.append([])
        self.state_ = HandState.new(
            self.ruleset,
            seed=hand_seed(self._seed, self._hand),
            prevailing_wind=self._prevailing,
            hand_number=self._hand,
        )
        self._agent_at_seat = [self.agent_at(s) for s in range(4)]
        self._seat_of_agent = {a: self.seat_of(a) for a in AGENTS}
        for a in self.agents:
            self.infos[a] = {"seat": self.seat_of(a).letter, "hand": self._hand}
        self._infos_version += 1
        self._after_step()

    def _after_step(self) -> None:
        st = self.state_
        assert st is not None
        if st.is_over:
            self._end_hand()
            return
        self.agent_selection = self._agent_at_seat[st.to_act[0]]

    def _end_hand(self) -> None:
        st = self.state_
        assert st is not None and st.outcome is not None
        outcome = st.outcome
        self._fresh_rewards()
        for a in self.agents:
            s = int(self.seat_of(a))
            value = self.reward_scale * self._reward_fn(outcome, s)
            self.rewards[a] += value  # (the step's shaping, if any, is already in both)
            self._cumulative_rewards[a] += value
            self.match_scores[self.agent_name_mapping[a]] += float(outcome.deltas[s])
        self._rewards_set = True
        self._hand += 1
        if self._hand >= self.hands_per_episode:
            for a in self.agents:
                self.terminations[a] = True
                self.infos[a] = {
                    "seat": self.seat_of(a).letter,
                    "outcome": outcome,
                    "match_scores": list(self.match_scores),
                }
            self._infos_version += 1
            self.agent_selection = self.agents[0]
            return
        if not outcome.dealer_stays:
            self._dealer_player = (self._dealer_player + 1) % 4
            self._dealer_turns += 1
            if self._dealer_turns % 4 == 0:
                self._prevailing = self._prevailing.next()
        self._start_hand()

    # --- observe / step --------------------------------------------------------------------
    def _view(self, agent: str) -> PlayerView:
        assert self.state_ is not None
        return self.state_.view(self.seat_of(agent))

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """The agent's planes and legal-action mask (all zeros when it need not act)."""
        st = self.state_
        assert st is not None
        key_scores, key_dealer = self._scores_key
        if key_dealer != self._dealer_player or key_scores != self.match_scores:
            self._current_scores()
        return self._encoder.observe(  # (the mask as action_mask's, and the planes, in one call)
            st,
            self._seat_of_agent[agent],
            self._scores,
            self._applies,
            self._shown_at,
            self._shown_legal,
            self._shown_keys,
        )

    def last(
        self, observe: bool = True
    ) -> tuple[dict[str, npt.NDArray[Any]] | None, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last``: (observation, cumulative reward, terminated, truncated, info) of
        the selected agent (the same tuple, without a call through the base class)."""
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def action_mask(self, agent: str) -> npt.NDArray[np.int8]:
        """Only the legal-action mask of ``agent`` (cheaper than :meth:`observe`); remembers the
        action behind each index so :meth:`step` need not search the legal list again."""
        st = self.state_
        assert st is not None
        seat = self._seat_of_agent[agent]
        legal = st.legal_actions(seat)
        phase = st.phase
        pending = st.pending_tile if phase is _CLAIM or phase is _ROB else None
        mask, keys = mask_and_keys(legal, pending)
        self._shown_at[seat] = self._applies
        self._shown_legal[seat] = legal
        self._shown_keys[seat] = keys
        return mask

    def _chosen(self, agent: str, seat: Wind, action: int | np.integer[Any]) -> Action:
        """The legal action behind flat index ``action`` for ``agent``.

        :raises IllegalActionError: naming the action and the legal set when it is not legal.
        """
        index = int(action)
        if self._shown_at[seat] == self._applies:  # nothing applied since the mask
            try:
                return self._shown_legal[seat][self._shown_keys[seat].index(index)]
            except ValueError:
                pass
        st = self.state_
        assert st is not None
        return index_action(index, st.legal_actions(seat), pending_tile(st), who=self._who(agent))

    def _seat_scores(self) -> list[float]:
        """Match scores by seat of the current hand, clipped to ``±score_limit``."""
        d, lim = self._dealer_player, self.score_limit
        return [min(lim, max(-lim, self.match_scores[(s + d) % 4])) for s in range(4)]

    def _current_scores(self) -> list[float]:
        """:meth:`_seat_scores`, recomputed only when the scores or the dealer changed."""
        key_scores, key_dealer = self._scores_key
        if key_dealer != self._dealer_player or key_scores != self.match_scores:
            self._scores_key = (list(self.match_scores), self._dealer_player)
            self._scores = self._seat_scores()
        return self._scores

    def oracle_observe(self, agent: str) -> npt.NDArray[np.float32]:
        """Full-information planes (every hand and the wall) — for training only."""
        assert self.state_ is not None
        return oracle_observation(self.state_, int(self.seat_of(agent)), self._seat_scores())

    def player_view(self, agent: str) -> PlayerView:
        """The engine's :class:`~hkmahjong.engine.PlayerView` for ``agent``."""
        return self._view(agent)

    def legal_actions(self, agent: str) -> list[Action]:
        """The engine actions ``agent`` may take now."""
        assert self.state_ is not None
        return self.state_.legal_actions(self.seat_of(agent))

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Apply the selected agent's action (a flat index).

        :raises IllegalActionError: naming the action and the legal set when it is not legal.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.state_
        assert st is not None
        seat = self._seat_of_agent[agent]
        if action is None:
            legal = st.legal_actions(seat)
            raise MahjongError(f"{agent} must act (legal: {', '.join(a.text for a in legal)})")
        index = int(action)
        if self._shaping is None:  # the hot path: the index of the mask shown, applied natively
            to_act = self._encoder.play(
                st,
                seat,
                index,
                self._applies,
                self._shown_at,
                self._shown_legal,
                self._shown_keys,
                self._played[-1],
            )
            if to_act != _NOT_SHOWN:
                self._applies += 1
                self._steps += 1
                self._cumulative_rewards[agent] = 0.0  # (as _fresh_step, inlined)
                if self._rewards_set:
                    self._fresh_step(agent)
                if to_act < 0:
                    self._end_hand()
                else:
                    self.agent_selection = self._agent_at_seat[to_act]
                return
        chosen = self._chosen(agent, seat, index)
        self._fresh_step(agent)
        self._apply(seat, chosen)
        self._after_step()

    def _fresh_step(self, agent: str) -> None:
        """A step of ``agent`` is applied: its cumulative reward and the last payout are spent."""
        self._cumulative_rewards[agent] = 0.0
        if self._rewards_set:
            rewards = self.rewards
            for a in rewards:
                rewards[a] = 0.0
            self._rewards_set = False

    def _apply(self, seat: Wind, action: Action) -> None:
        """Apply ``action`` for ``seat`` to the hand and let the encoder follow its events (the
        hand changes only this way)."""
        st = self.state_
        assert st is not None
        self._applies += 1
        self._steps += 1
        self._played[-1].append((seat, action))
        events = st.apply(seat, action)
        self._encoder.applied(st, events)
        if self._shaping is not None:
            self._shape(seat, events)

    def _shape(self, actor: Wind, events: list[Event]) -> None:
        """Add the reward hook's value for every agent to its reward of this step."""
        st = self.state_
        assert st is not None and self._shaping is not None
        self._fresh_rewards()
        for a in self.agents:
            seat = self._seat_of_agent[a]
            seen = tuple(e for e in (ev.for_seat(seat) for ev in events) if e is not None)
            value = float(self._shaping(ShapingStep(a, seat, actor, seen, st.view(seat))))
            self.rewards[a] += value
            self._cumulative_rewards[a] += value
        self._rewards_set = True

    def _fresh_rewards(self) -> None:
        """Zero ``rewards`` once per applied action, before its first reward is added."""
        if self._rewards_at != self._steps:
            self._rewards_at = self._steps
            for a in self.agents:
                self.rewards[a] = 0.0

    def game_record(self) -> GameRecord:
        """牌譜 of this episode's finished hands: a record that ``hkmj replay --verify`` checks.

        The episode is an open match (不限) of the agents, capped at the hands played so far.

        :raises MahjongError: when no hand of the episode has ended yet.
        """
        finished = self._played[: self._hand]
        if not finished:
            raise MahjongError("no hand of this episode has ended yet: nothing to record")
        players = (AGENTS[0], AGENTS[1], AGENTS[2], AGENTS[3])
        match = Match(players, MatchLength.OPEN, max_hands=len(finished))
        return record_from_actions(self.ruleset, match, match_seed(self._seed), finished)

    def _who(self, agent: str) -> str:
        st = self.state_
        assert st is not None
        return f"{agent} (seat {self.seat_of(agent).letter}) in phase {st.phase.value}"

    def render(self) -> str | None:
        """A text picture of the table from the referee's side (``ansi``) or printed (``human``)."""
        if self.state_ is None:
            return None
        lines = []
        for s in range(4):
            hand = self.state_.hand_of(Wind(s))
            lines.append(f"{Wind(s).zh} {self.agent_at(s)}: {hand.text}")
        lines.append(f"tiles left {self.state_.tiles_left}, phase {self.state_.phase.value}")
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    # --- info -------------------------------------------------------------------------------
    @staticmethod
    def versions() -> dict[str, int]:
        """The action-space and observation versions this env speaks."""
        return {"action_space": ACTION_SPACE_VERSION, "observation": OBSERVATION_VERSION}

    def legal_indices(self, agent: str) -> Sequence[int]:
        """Indices of the legal actions of ``agent``."""
        return [int(i) for i in np.flatnonzero(self.observe(agent)["action_mask"])]


def pending_tile(state: HandState) -> int | None:
    """The tile being claimed or robbed (what a chow index is relative to), else ``None``."""
    return state.pending_tile if state.phase in (Phase.CLAIM, Phase.ROB) else None


def raw_env(**kwargs: Any) -> HKMahjongAEC:
    """The unwrapped AEC env (keyword arguments as :class:`HKMahjongAEC`)."""
    return HKMahjongAEC(**kwargs)


def env(*, illegal: str = "raise", illegal_reward: float = -1.0, **kwargs: Any) -> AECEnv:
    """The AEC env with PettingZoo's standard wrappers.

    ``illegal="raise"`` (default): an illegal action raises ``IllegalActionError`` naming it and the
    legal set. ``illegal="terminate"``: PettingZoo's ``TerminateIllegalWrapper`` ends the game and
    gives the offender ``illegal_reward``.
    """
    e: AECEnv = raw_env(**kwargs)
    if illegal == "terminate":
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=illegal_reward)
    elif illegal != "raise":
        raise MahjongError(f"illegal must be 'raise' or 'terminate', got {illegal!r}")
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
