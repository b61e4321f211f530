"""策略機械人: any policy over observation planes and a mask, playing as a bot.

A policy is a function ``policy(planes, mask) -> index`` (the env's observation and action space).
:class:`PolicyBot` gives it the bots' interface, ``choose(view, legal) -> Action``, so it can play in
the arena, in ``hkmj sim`` and against people — seeing exactly what an env agent sees.

>>> import numpy as np
>>> from hkmahjong.env.policy import PolicyBot
>>> bot = PolicyBot(lambda planes, mask: int(np.flatnonzero(mask)[-1]))
>>> bot.name
'policy'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from hkmahjong.engine import Action, PlayerView
from hkmahjong.env.encoding import describe_action, mask_and_actions, observation
from hkmahjong.env.hints import hint_planes
from hkmahjong.errors import IllegalActionError
from hkmahjong.rules import Ruleset

__all__ = ["Policy", "PolicyBot"]

Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], int]
"""A policy: (observation planes, legal-action mask) → flat action index."""


class PolicyBot:
    """A :data:`Policy` as a bot: ``choose(view, legal)`` encodes the view, asks the policy, and
    returns the legal action it names."""

    def __init__(
        self,
        policy: Policy,
        name: str = "policy",
        ruleset: Ruleset | None = None,
        *,
        hints: bool = False,
    ) -> None:
        """Wrap ``policy``; ``name`` is how the arena reports it. With ``hints`` the policy sees
        the planes of ``SingleSeatEnv(hints=True)``: the hint planes of the view appended (they
        need the ruleset: pass it or let the arena :meth:`bind` it)."""
        self.policy = policy
        self.name = name
        self.ruleset = ruleset
        self.hints = hints

    def bind(self, ruleset: Ruleset) -> None:
        """Remember the table's ruleset (the policy itself sees only planes)."""
        self.ruleset = ruleset

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The legal action the policy picks for ``view``.

        :raises IllegalActionError: when the policy names an index outside the mask.
        """
        pending = None if view.pending_tile is None else int(view.pending_tile)
        mask, by_index = mask_and_actions(legal, pending)
        planes = observation(view)
        if self.hints:
            if self.ruleset is None:
                raise IllegalActionError(f"policy {self.name!r} needs the ruleset for its hints")
            planes = np.concatenate([planes, hint_planes(view, self.ruleset, legal)])
        index = int(self.policy(planes, mask))
        action = by_index.get(index)
        if action is None:
            raise IllegalActionError(
                f"policy {self.name!r} chose {index} ({describe_action(index)}), not legal; "
                f"legal: {', '.join(f'{i}={a.text}' for i, a in sorted(by_index.items()))}"
            )
        return action

    def __repr__(self) -> str:
        return f"PolicyBot({self.name!r})"

    def explain(self, *_: Any) -> str:
        """A policy has no explanation beyond its choice."""
        return f"{self.name}: a learned policy over the env's observation planes"
