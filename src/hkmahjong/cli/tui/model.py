"""What the parlor screen shows (枱面): plain snapshots the widgets draw, built by the controller.

The widgets never touch the engine: the controller folds the human seat's ``PlayerView`` into these
frozen snapshots, so the screen can only show what that seat may see.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hkmahjong.bots.advice import Advice
from hkmahjong.hand import Meld
from hkmahjong.tiles import Tile, Wind

__all__ = [
    "ClaimChoice",
    "HandEndInfo",
    "HintInfo",
    "MatchEndInfo",
    "Options",
    "SeatInfo",
    "TableInfo",
    "WinScore",
]


@dataclass(frozen=True)
class SeatInfo:
    """One seat (座位) as the human sees it: public sets, bonus tiles, discards, score."""

    wind: Wind
    name: str
    is_dealer: bool
    is_human: bool
    score: float
    melds: tuple[Meld, ...] = ()
    bonus: tuple[Tile, ...] = ()
    discards: tuple[Tile, ...] = ()
    claimed: tuple[bool, ...] = ()
    concealed_count: int = 13
    concealed: tuple[Tile, ...] | None = None


@dataclass(frozen=True)
class TableInfo:
    """The whole table from the human seat: seats in wind order, own hand, wall, turn."""

    seats: tuple[SeatInfo, ...]
    me: Wind
    prevailing: Wind
    hand_number: int
    dealer_repeat: int
    wall_left: int
    concealed: tuple[Tile, ...]
    drawn: Tile | None
    to_act: Wind | None
    last_discard: tuple[Wind, int] | None
    ruleset: str = ""
    length: str = ""
    last_action: str = ""
    """What another seat did last (``電腦2: 碰``), for the message line."""


@dataclass(frozen=True)
class ClaimChoice:
    """One chow (上) choice: the tiles used from the hand and the chow it makes."""

    first: Tile
    action: object


@dataclass(frozen=True)
class Options:
    """What the human may do now (always a subset of the engine's legal actions)."""

    mode: str = "wait"
    """``turn`` (own turn: discard / kong / self-draw), ``claim`` (a discard or kong to claim on),
    ``wait`` (bots are playing), ``hand_over`` or ``match_over``."""
    discard: dict[Tile, object] = field(default_factory=dict)
    win: object | None = None
    pung: object | None = None
    kongs: dict[Tile, object] = field(default_factory=dict)
    chows: tuple[ClaimChoice, ...] = ()
    pass_: object | None = None
    claim_tile: Tile | None = None
    claim_from: Wind | None = None
    claim_kind: str = "discard"


@dataclass(frozen=True)
class HintInfo:
    """Help on demand (提示): the advice (data, :class:`~hkmahjong.bots.advice.Advice`) and the
    advisor bot's raw trace, which the screen shows only with ``--debug-hints``."""

    advice: Advice
    trace: str = ""


@dataclass(frozen=True)
class WinScore:
    """One winner's fan: the hand as sets and pair, each item (zh, en, fan), the total."""

    name: str
    shape: str
    items: tuple[tuple[str, str, int], ...]
    total: int
    limit: bool = False


@dataclass(frozen=True)
class HandEndInfo:
    """End of a hand (結算): every hand revealed, the fan breakdown, payments, totals."""

    title: str
    hands: tuple[tuple[Wind, str, str], ...]
    """(seat wind, player name, the hand's text rendered for the screen)"""
    winners: tuple[str, ...]
    scores: tuple[WinScore, ...]
    """Each win's itemised fan (several with 一炮多響)."""
    payments: tuple[tuple[str, float], ...]
    totals: tuple[tuple[str, float], ...]
    match_over: bool
    settlement: tuple[str, ...] = ()
    """Who paid whom and why (from the payments layer)."""


@dataclass(frozen=True)
class MatchEndInfo:
    """End of the match (終局): standings and the per-hand history."""

    standings: tuple[tuple[str, float], ...]
    history: tuple[str, ...]
