"""The ``Bot`` protocol: what the arena, the parlor and the env ask of a bot.

A module of its own (re-exported by :mod:`hkmahjong.bots.base`) so the bots' modules can be
compiled: a ``runtime_checkable`` protocol must stay an interpreted class.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from hkmahjong.engine import Action, PlayerView

if TYPE_CHECKING:
    from hkmahjong.bots.base import Decision

__all__ = ["Bot"]


@runtime_checkable
class Bot(Protocol):
    """機械人: ``choose(view, legal) -> Action``, deterministic for a seed, with an explanation."""

    name: str

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """One of ``legal`` (never empty)."""
        ...

    def decide(
        self, view: PlayerView, legal: Sequence[Action], *, explain: bool = False
    ) -> Decision:
        """The chosen action and, with ``explain=True``, the candidates and their scores."""
        ...
