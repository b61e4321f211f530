"""計番結果 ScoreResult and FanItem: the itemised breakdown of a scored hand."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from hkmahjong.rules.fan import FanId
from hkmahjong.tiles import Tile

if TYPE_CHECKING:
    from hkmahjong.hand.groups import Arrangement

__all__ = ["REASONS", "FanItem", "NoWinReason", "ScoreResult"]


class NoWinReason(StrEnum):
    """不成糊的原因: why a scored hand is not a valid win; the value is the wire code."""

    NOT_COMPLETE = "not_complete"
    BELOW_MINIMUM_FAN = "below_minimum_fan"
    INVALID_HAND = "invalid_hand"
    INVALID_TILE_COUNT = "invalid_tile_count"
    INVALID_CONTEXT = "invalid_context"
    BAD_NOTATION = "bad_notation"


REASONS: dict[str, str] = {
    NoWinReason.NOT_COMPLETE: "the tiles do not form four sets and a pair (or a special hand) "
    "— 未成糊",
    NoWinReason.BELOW_MINIMUM_FAN: "complete, but below the table's minimum fan — 番數不足",
    NoWinReason.INVALID_HAND: "the hand cannot exist or the winning tile is not in it — 牌不合法",
    NoWinReason.INVALID_TILE_COUNT: "a winning hand has 14 tiles (kongs count 3) "
    "— 相公 (tile count)",
    NoWinReason.INVALID_CONTEXT: "the win context contradicts the hand or itself — 情況不合",
    NoWinReason.BAD_NOTATION: "the hand text cannot be read — 記法錯誤",
}
"""Every non-win reason code with what it means."""


@dataclass(frozen=True, slots=True)
class FanItem:
    """番種項目: one counted pattern and the fan it adds (``count`` occurrences, e.g. two 正花)."""

    fan_id: FanId
    fan: int
    count: int = 1

    @property
    def zh(self) -> str:
        """Traditional Chinese name."""
        return self.fan_id.zh

    @property
    def en(self) -> str:
        """English name."""
        return self.fan_id.en


@dataclass(frozen=True, slots=True)
class ScoreResult:
    """計番結果: whether the hand is a valid win, the total, the itemised fan and the arrangement."""

    valid_win: bool
    reason: str | None
    message: str
    total_fan: int
    is_limit: bool
    items: tuple[FanItem, ...] = ()
    arrangement: Arrangement | None = None
    winning_tile: Tile | None = None
    limit: int | None = None
    """The table's limit (None = no limit) used for this result."""
    raw_fan: int = 0
    """The sum before capping at the limit (limit hands count their listed value)."""
    all_candidates: tuple[tuple[int, str], ...] = field(default=())
    """Every interpretation tried: (total, short description), best first."""

    @property
    def fan_counted(self) -> bool:
        """True when a fan total was computed: a win, or a complete hand below the minimum.

        For ``not_complete`` and the ``invalid_*`` reasons ``total_fan`` is 0 and means nothing
        (the batch output gives ``null`` there).
        """
        return self.valid_win or self.reason == "below_minimum_fan"

    @property
    def fan_ids(self) -> frozenset[FanId]:
        """The ids of every counted pattern."""
        return frozenset(i.fan_id for i in self.items)

    def fan_of(self, fan_id: FanId) -> int:
        """Fan contributed by ``fan_id`` (0 when not counted)."""
        return sum(i.fan for i in self.items if i.fan_id is fan_id)
