"""和牌情況 WinContext: how a hand was won (self-drawn or not, winds, bonus tiles, special moments)."""

from __future__ import annotations

from dataclasses import dataclass, fields

from hkmahjong.tiles import Tile, Wind

__all__ = ["SPECIAL_FLAGS", "WinContext"]


@dataclass(frozen=True, slots=True)
class WinContext:
    """和牌情況: the circumstances of a win, everything ``score_hand`` cannot read from the tiles.

    The bonus tiles themselves live on the :class:`~hkmahjong.hand.Hand` (``hand.bonus``).

    >>> WinContext(self_drawn=True, seat_wind=Wind.SOUTH).seat_wind
    Wind.SOUTH
    """

    self_drawn: bool = False
    seat_wind: Wind = Wind.EAST
    prevailing_wind: Wind = Wind.EAST
    winning_tile: Tile | None = None
    """None: the calculator picks the best interpretation among the concealed tiles."""
    robbing_kong: bool = False
    """搶槓."""
    last_tile: bool = False
    """海底撈月 (self-drawn) / 海底炮 (last discard)."""
    kong_replacement: bool = False
    """槓上開花."""
    double_kong_replacement: bool = False
    """槓上槓: two or more consecutive kongs, no bonus replacement between them (one after the
    second kong is fine, W1); also set ``bonus_replacement`` when the win came after one."""
    second_kong_from_replacement: bool = True
    """槓上槓: the second kong was made with the first kong's replacement (C, W1 fn.17 switch)."""
    bonus_replacement: bool = False
    """花上自摸."""
    heavenly: bool = False
    """天糊."""
    earthly: bool = False
    """地糊."""
    first_go_around: bool = False
    """人糊 (W2: a non-dealer's self-draw in its first turn; C/W1: a discard win in the first go-around)."""
    seven_bonus: bool = False
    """花糊: a win by seven bonus tiles."""
    eight_bonus: bool = False
    """八仙過海: a win by all eight bonus tiles."""
    concealed_kong_before: bool = False
    """A concealed kong was declared before a 天糊/人糊 (it then counts only 槓上開花, W2/C)."""
    early_ready: bool = False
    """冚手糊: a concealed ready hand declared at the start (自訂)."""
    declined_bonus_win: bool = False
    """The winner declined a 花糊 earlier; its fan is added to this win (W2 花糊牌規)."""

    @property
    def is_dealer(self) -> bool:
        """The winner sits East (莊家)."""
        return self.seat_wind is Wind.EAST


SPECIAL_FLAGS: dict[str, str] = {
    "last_tile": "last_tile",
    "kong_replacement": "kong_replacement",
    "double_kong_replacement": "double_kong_replacement",
    "bonus_replacement": "bonus_replacement",
    "robbing_kong": "robbing_kong",
    "heavenly": "heavenly",
    "earthly": "earthly",
    "first_go_around": "first_go_around",
    "seven_bonus": "seven_bonus",
    "eight_bonus": "eight_bonus",
    "early_ready": "early_ready",
    "declined_bonus_win": "declined_bonus_win",
    "concealed_kong_before": "concealed_kong_before",
}
"""The ``special`` words of the batch format (docs/calculator.md, *Batches*) and the field each sets."""

assert set(SPECIAL_FLAGS.values()) <= {f.name for f in fields(WinContext)}
