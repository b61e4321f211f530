"""HandState: the state machine of one hand (一局) — wall, deal, turns, claims, kongs, settlement.

Internal module (bots may not import it; they get a :class:`PlayerView` and legal actions).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hkmahjong.engine.actions import Action
from hkmahjong.engine.events import Event, HandOutcome
from hkmahjong.engine.view import Phase, PlayerView
from hkmahjong.tiles import Tile, Wind

if TYPE_CHECKING:
    from hkmahjong.rules import Ruleset

__all__ = ["HandState"]


class HandState:
    """一局: the whole state of one hand; change it only through :meth:`apply`."""

    @classmethod
    def new(
        cls,
        ruleset: Ruleset,
        *,
        seed: bytes,
        prevailing_wind: Wind = Wind.EAST,
        hand_number: int = 0,
        wall: list[Tile] | None = None,
        physical_table: bool = False,
    ) -> HandState:
        """開局: shuffle (or take ``wall``, in draw order), roll, break, deal, replace bonus tiles.

        :raises WallError: when ``wall`` is not a full tile set.
        """
        raise NotImplementedError

    @property
    def phase(self) -> Phase:
        """Where the hand is: TURN, CLAIM, ROB or OVER."""
        raise NotImplementedError

    @property
    def to_act(self) -> tuple[Wind, ...]:
        """Seats that must decide now (several in a claim window; empty when over)."""
        raise NotImplementedError

    def legal_actions(self, seat: Wind) -> list[Action]:
        """Every legal action of ``seat`` now, sorted (empty when it need not act)."""
        raise NotImplementedError

    def apply(self, seat: Wind, action: Action) -> list[Event]:
        """Play ``action`` for ``seat``; the events that follow, up to the next decision.

        :raises IllegalActionError: naming the action, seat, phase and the legal actions; the
            state is unchanged.
        """
        raise NotImplementedError

    def view(self, seat: Wind) -> PlayerView:
        """What ``seat`` may see."""
        raise NotImplementedError

    def clone(self) -> HandState:
        """An independent copy."""
        raise NotImplementedError

    def to_json(self) -> str:
        """The whole state as JSON (exact round trip with :meth:`from_json`)."""
        raise NotImplementedError

    @classmethod
    def from_json(cls, text: str, ruleset: Ruleset | None = None) -> HandState:
        """Rebuild a state from :meth:`to_json`.

        :raises MahjongError: when the text is not a valid state.
        """
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        """True when the hand has ended."""
        raise NotImplementedError

    @property
    def outcome(self) -> HandOutcome | None:
        """The outcome once over (winners, payments or exhaustive draw), else None."""
        raise NotImplementedError
