"""獎勵塑形 (reward shaping): ready-made hooks for the envs' ``shaping=`` argument.

A hook is any callable ``(ShapingStep) -> float``; it sees one agent's events of the step and its
view after it (never another seat's hidden tiles). :func:`shanten_shaping` is potential-based
(Ng, Harada & Russell 1999): the reward ``weight * (Φ(after) − Φ(before))`` with Φ = −shanten of
the agent's own hand, and Φ = 0 once the hand is over, so it speeds learning without changing
which policy is best.

>>> from hkmahjong.env import SingleSeatEnv, shanten_shaping
>>> e = SingleSeatEnv(opponents=("random",) * 3, shaping=shanten_shaping(0.5), seat=0)
>>> _ = e.reset(seed=1)
"""

from __future__ import annotations

from hkmahjong.env.aec import ShapingFn, ShapingStep
from hkmahjong.hand import shanten

__all__ = ["ShantenShaping", "shanten_shaping"]


class ShantenShaping:
    """向聽塑形: ``weight`` per step of shanten gained (lost: the same, negative)."""

    def __init__(self, weight: float = 1.0) -> None:
        self.weight = float(weight)
        self._last: dict[str, tuple[int, tuple[object, ...], float]] = {}
        """Per agent: (hand number, concealed tiles, Φ) when Φ was last computed."""

    def potential(self, step: ShapingStep) -> float:
        """Φ: minus the shanten of the agent's hand (0 once the hand is over)."""
        view = step.view
        if view.outcome is not None:
            return 0.0
        return -float(shanten(view.hand))

    def __call__(self, step: ShapingStep) -> float:
        """The shaped reward of ``step`` for its agent."""
        view = step.view
        key = (view.hand_number, (*view.concealed, *view.melds[view.seat]))
        last = self._last.get(step.agent)
        if last is not None and last[0] == key[0] and last[1] == key[1] and view.outcome is None:
            return 0.0  # the agent's hand did not change
        phi = self.potential(step)
        self._last[step.agent] = (key[0], key[1], phi)
        if last is None or last[0] != key[0]:
            return 0.0  # the first look at a new hand: no "before" to compare with
        return self.weight * (phi - last[2])


def shanten_shaping(weight: float = 1.0) -> ShapingFn:
    """A fresh :class:`ShantenShaping` hook (one per env: it remembers each agent's last Φ)."""
    return ShantenShaping(weight)
