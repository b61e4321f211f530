"""事件 Event: what happened in a hand, each with who may see it, and the hand's outcome.

Events are the truth of a hand; a seat's :class:`~hkmahjong.engine.view.PlayerView` shows only
what the events it may see reveal. Visibility:

* ``EVERYONE`` — every seat sees the whole event (a discard, a meld, an exposed bonus tile).
* ``SEAT`` — ``seat`` sees the whole event; the others see it happened but not its tiles
  (:meth:`Event.for_seat` returns that redacted copy): the deal, a draw, a replacement draw.
* ``REFEREE`` — no seat sees it (a claim decision while the window is open, the wall).

A spectator (旁觀) sees what every seat sees and nothing more: :meth:`Event.public` is the event
as a seat other than its own sees it, so a spectator never learns a concealed tile.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, IntEnum
from typing import TYPE_CHECKING

from hkmahjong.hand.meld import Meld
from hkmahjong.tiles import Tile, Wind, format_tiles

if TYPE_CHECKING:
    from hkmahjong.hand.hand import Hand
    from hkmahjong.scoring import ScoreResult, WinContext
    from hkmahjong.scoring.payment import PaymentLine

__all__ = ["Event", "EventKind", "HandOutcome", "Visibility", "WinRecord"]


class Visibility(IntEnum):
    """Who may see an event."""

    EVERYONE = 0
    SEAT = 1
    REFEREE = 2


class EventKind(Enum):
    """What happened."""

    HAND_START = "hand_start"
    """開局: prevailing wind, hand number, dice and the wall break (``detail``)."""
    DEAL = "deal"
    """配牌: the seat's 13 (dealer 14) tiles as dealt, bonus tiles included (SEAT)."""
    BONUS = "bonus"
    """補花: the seat exposes bonus ``tile`` (EVERYONE); its replacement is a DRAW event."""
    DRAW = "draw"
    """摸牌: the seat draws ``tile``; ``detail`` is ``head``, ``kong`` or ``bonus`` (SEAT)."""
    DISCARD = "discard"
    """打牌: the seat discards ``tile`` (EVERYONE); ``detail`` is ``drawn`` when it is the tile the
    seat just drew (摸切), empty when it comes from the hand (手切)."""
    DECISION = "decision"
    """A seat's decision in a claim/robbing window, ``detail`` = the action text (REFEREE)."""
    CLAIM = "claim"
    """上/碰/明槓: the seat claims the discard of ``source`` into ``meld`` (EVERYONE)."""
    CONCEALED_KONG = "concealed_kong"
    """暗槓 of ``tile`` (EVERYONE)."""
    ADDED_KONG = "added_kong"
    """加槓: ``tile`` added to the seat's exposed pung; it may still be robbed (EVERYONE)."""
    KONG_DONE = "kong_done"
    """The kong of ``tile`` stands (nobody robbed it) (EVERYONE)."""
    DECLINE_BONUS_WIN = "decline_bonus_win"
    """The seat declined a 花糊 (EVERYONE)."""
    WIN = "win"
    """糊: the seat wins; ``source`` discarded / kong-declared the tile, ``None`` = self-drawn."""
    FALSE_WIN = "false_win"
    """詐糊 (physical tables): the seat declared a win that is not valid."""
    EXHAUSTIVE_DRAW = "exhaustive_draw"
    """流局: no tile left to draw (or to replace a kong/bonus tile)."""
    HAND_END = "hand_end"
    """The hand is over; ``detail`` = the payments per seat (EVERYONE)."""


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened; ``visibility`` says who may see it (see the module doc)."""

    kind: EventKind
    seat: Wind | None = None
    tile: Tile | None = None
    tiles: tuple[Tile, ...] = ()
    meld: Meld | None = None
    source: Wind | None = None
    detail: str = ""
    visibility: Visibility = Visibility.EVERYONE

    def visible_to(self, seat: Wind) -> bool:
        """True when ``seat`` may see this event in full."""
        if self.visibility is Visibility.EVERYONE:
            return True
        return self.visibility is Visibility.SEAT and self.seat == seat

    def for_seat(self, seat: Wind) -> Event | None:
        """The event as ``seat`` sees it: whole, redacted (tiles hidden), or ``None`` (hidden)."""
        if self.visible_to(seat):
            return self
        if self.visibility is Visibility.REFEREE:
            return None
        return self._redacted()

    def _redacted(self) -> Event:
        """This event with its tiles hidden (built directly: ``dataclasses.replace`` walks the
        fields on every call, and every draw is redacted for three seats)."""
        return Event(
            self.kind,
            self.seat,
            None,
            (),
            self.meld,
            self.source,
            _redacted_detail(self),
            self.visibility,
        )

    def public(self) -> Event | None:
        """The event as a spectator (旁觀) sees it: what every seat sees, no concealed tile.

        ``EVERYONE`` events whole, ``SEAT`` events redacted (their tiles hidden, as for the other
        seats), ``REFEREE`` events not at all (``None``).
        """
        if self.visibility is Visibility.EVERYONE:
            return self
        if self.visibility is Visibility.REFEREE:
            return None
        return self._redacted()

    @property
    def text(self) -> str:
        """One line, e.g. ``S discard 5p`` or ``E draw 3s (head)``."""
        parts: list[str] = []
        if self.seat is not None:
            parts.append(self.seat.letter)
        parts.append(self.kind.value)
        if self.meld is not None:
            parts.append(self.meld.text)
        elif self.tile is not None:
            parts.append(self.tile.mpsz)
        if self.tiles:
            parts.append(format_tiles(self.tiles))
        if self.source is not None:
            parts.append(f"from {self.source.letter}")
        if self.detail:
            parts.append(f"({self.detail})")
        return " ".join(parts)

    def __str__(self) -> str:
        return self.text


def _redacted_detail(event: Event) -> str:
    if event.kind is EventKind.DRAW:
        return event.detail  # head/kong/bonus is public: everyone sees where the tile came from
    if event.kind is EventKind.DEAL:
        return f"{len(event.tiles)} tiles"
    return ""


@dataclass(frozen=True, slots=True)
class WinRecord:
    """One win of a hand: who, off whom, with which hand, context and score."""

    seat: Wind
    discarder: Wind | None
    """Who discarded the tile (or declared the robbed kong); ``None`` for a self-draw."""
    hand: Hand
    context: WinContext
    result: ScoreResult
    liable: Wind | None = None
    """包牌: the seat that pays the whole amount, when a liability trigger applies."""
    liable_half_discard: bool = False
    """The liable seat pays only the discard half (the liability decision's ``half_discard``)."""
    kong_discarder: Wind | None = None
    """出槓: who discarded the tile of the exposed kong whose replacement won, else None."""

    @property
    def self_drawn(self) -> bool:
        """自摸 (including 花糊/八仙過海, paid as a self-draw)."""
        return self.discarder is None


@dataclass(frozen=True, slots=True)
class FalseWinRecord:
    """詐糊 of a hand: who declared it, self-drawn or on whose discard (to price it, docs/rules.md §11)."""

    seat: Wind
    self_drawn: bool
    would_be_discarder: Wind | None = None


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """一局的結果: winners (with their score), false winners, or an exhaustive draw; payments.

    ``deltas`` are indexed by seat (東 南 西 北) and sum to zero. ``lines`` explain them (who pays
    whom and why), from the scoring layer's settlements.
    """

    deltas: tuple[int | float, int | float, int | float, int | float]
    wins: tuple[WinRecord, ...] = ()
    false_winners: tuple[Wind, ...] = ()
    drawn: bool = False
    lines: tuple[str, ...] = field(default=())
    false_wins: tuple[FalseWinRecord, ...] = ()
    """Details of each false win (parallel to ``false_winners``), to re-price it with balances."""
    payments: tuple[PaymentLine, ...] = ()
    """The payment lines behind ``lines`` (payer, payee, amount, reason in zh and en)."""

    @property
    def winners(self) -> tuple[Wind, ...]:
        """The seats that won, in turn order from the discarder."""
        return tuple(w.seat for w in self.wins)

    @property
    def dealer_stays(self) -> bool:
        """連莊: the dealer won, or nobody won (a draw, a non-dealer's false win); no dealer 詐糊.

        docs/rules.md §2 and §11: a dealer's false win ends the deal; a non-dealer's does not.
        """
        if Wind.EAST in self.false_winners:
            return False
        return not self.wins or Wind.EAST in self.winners
