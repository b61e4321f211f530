"""PlayerView: what one seat may see of a hand — never another seat's concealed tiles or the wall.

Bots, the terminal game, the web parlor and the research env all read a hand through this view,
so no client can cheat by construction. :class:`PublicView` is what a spectator (旁觀) may see:
what every seat sees, and no concealed tile at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from hkmahjong.hand.hand import Hand
from hkmahjong.hand.meld import Meld
from hkmahjong.tiles import Tile, Wind

if TYPE_CHECKING:
    from hkmahjong.engine.events import HandOutcome

__all__ = ["Phase", "PlayerView", "PublicView"]


class Phase(Enum):
    """Where a hand is."""

    TURN = "turn"
    """A seat holds 14 tiles (kongs count 3) and must discard, kong or win (own turn)."""
    CLAIM = "claim"
    """A discard lies on the table; the seats that can claim it decide (win / pung / kong / chow)."""
    ROB = "rob"
    """An added (or, by ruleset, concealed) kong was declared; seats that can win on it decide."""
    OVER = "over"
    """The hand has ended (win, false win or exhaustive draw)."""


@dataclass(frozen=True, slots=True)
class PlayerView:
    """玩家視角: everything ``seat`` may see. Per-seat tuples are indexed by seat (東 南 西 北)."""

    seat: Wind
    prevailing_wind: Wind
    hand_number: int
    phase: Phase
    to_act: tuple[Wind, ...]
    """Seats that must decide now, as far as this seat may know: on a turn the current seat; in a
    claim or robbing window only this seat, if it must decide — who else may claim (which would
    reveal a pair or a ready hand) and who has decided are hidden."""
    current: Wind
    """Whose turn it is (the discarder during a claim window, the kong declarer while robbing)."""
    concealed: tuple[Tile, ...]
    """This seat's own concealed tiles, sorted."""
    last_drawn: Tile | None
    """The tile this seat drew last in this turn (None when it did not draw this turn)."""
    melds: tuple[tuple[Meld, ...], ...]
    bonus: tuple[tuple[Tile, ...], ...]
    discards: tuple[tuple[Tile, ...], ...]
    """Every tile each seat discarded, in order, claimed ones included."""
    claimed: tuple[tuple[bool, ...], ...]
    """Parallel to ``discards``: True where that discard was claimed by another seat."""
    concealed_counts: tuple[int, ...]
    """How many concealed tiles each seat holds (a public fact)."""
    tiles_left: int
    """Tiles that may still be drawn (the reserved tail excluded)."""
    pending_tile: Tile | None
    """The discard being claimed or the kong tile that may be robbed, else None."""
    pending_from: Wind | None
    scores: tuple[int | float, ...] | None
    """Payments of this hand per seat once it is over, else None."""
    outcome: HandOutcome | None
    """The outcome once the hand is over (every hand is revealed then), else None."""

    @property
    def hand(self) -> Hand:
        """This seat's hand: its concealed tiles, melds and bonus tiles."""
        return Hand(self.concealed, self.melds[self.seat], self.bonus[self.seat])

    @property
    def dealer(self) -> Wind:
        """莊家: always East (seats are winds of this hand)."""
        return Wind.EAST

    def visible_counts(self) -> list[int]:
        """34-count of every tile this seat can see: own concealed, all melds and unclaimed discards."""
        counts = [0] * 34
        for t in self.concealed:
            counts[t] += 1
        for seat_melds in self.melds:
            for m in seat_melds:
                for t in m.tiles:
                    counts[t] += 1
        for river, flags in zip(self.discards, self.claimed, strict=True):
            for t, taken in zip(river, flags, strict=True):
                if not taken:
                    counts[t] += 1
        if self.pending_tile is not None and self.phase is Phase.ROB:
            counts[self.pending_tile] += 1
        return counts


@dataclass(frozen=True, slots=True)
class PublicView:
    """旁觀視角: what anyone at the table can see — discards, melds, bonus tiles, counts, scores.

    No concealed tile of any seat, no wall. Per-seat tuples are indexed by seat (東 南 西 北).
    Inside a claim or robbing window the phase itself tells whether some seat may claim (the
    window stays open only then), so a stream to spectators takes this view only where
    :attr:`settled` holds (a turn has begun, or the hand is over).
    """

    prevailing_wind: Wind
    hand_number: int
    phase: Phase
    to_act: tuple[Wind, ...]
    """On a turn the current seat; in a window or when the hand is over nobody (who may claim is
    hidden)."""
    current: Wind
    melds: tuple[tuple[Meld, ...], ...]
    bonus: tuple[tuple[Tile, ...], ...]
    discards: tuple[tuple[Tile, ...], ...]
    claimed: tuple[tuple[bool, ...], ...]
    concealed_counts: tuple[int, ...]
    tiles_left: int
    pending_tile: Tile | None
    pending_from: Wind | None
    scores: tuple[int | float, ...] | None
    outcome: HandOutcome | None
    """The outcome once the hand is over (the winners' hands are shown then), else None."""

    @property
    def settled(self) -> bool:
        """No window is open: a seat is on its turn, or the hand is over."""
        return self.phase is Phase.TURN or self.phase is Phase.OVER

    @classmethod
    def of(cls, view: PlayerView) -> PublicView:
        """The public part of a seat's view (its concealed tiles and last draw dropped)."""
        return cls(
            prevailing_wind=view.prevailing_wind,
            hand_number=view.hand_number,
            phase=view.phase,
            to_act=(view.current,) if view.phase is Phase.TURN else (),
            current=view.current,
            melds=view.melds,
            bonus=view.bonus,
            discards=view.discards,
            claimed=view.claimed,
            concealed_counts=view.concealed_counts,
            tiles_left=view.tiles_left,
            pending_tile=view.pending_tile,
            pending_from=view.pending_from,
            scores=view.scores,
            outcome=view.outcome,
        )
