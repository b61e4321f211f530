"""和牌時刻: the special moments of a win, read from a hand's state for the scorer.

A :class:`~hkmahjong.scoring.WinContext` holds everything ``score_hand`` cannot read from the
tiles: self-drawn or not, the seat and prevailing winds, 海底 (the last tile), 搶槓, 槓上開花 and
槓上槓 (with whether the second kong came from the first one's replacement), 花上自摸, 天糊, 地糊,
人糊, 花糊 and 八仙過海, a concealed kong before a first-turn win, a declined 花糊.
:func:`win_context` reads them from the engine's counters at the moment of a win; the engine asks
for it whenever it checks or scores one (docs/engine.md, *Winning, special contexts*).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from hkmahjong.engine.fields import DrawSource
from hkmahjong.scoring import WinContext
from hkmahjong.tiles import Tile, Wind, is_thirteen_orphans

if TYPE_CHECKING:
    from hkmahjong.engine.state import HandState

__all__ = ["thirteen_wait", "win_context"]

_T: Final = [Tile(i) for i in range(42)]
_W: Final = list(Wind)
_KONG: Final = DrawSource.KONG
_BONUS: Final = DrawSource.BONUS


def win_context(
    state: HandState,
    s: int,
    *,
    tile: int,
    self_drawn: bool,
    robbing: bool = False,
    seven: bool = False,
    eight: bool = False,
) -> WinContext:
    """Every special moment of seat ``s`` winning now, on ``tile`` (-1: none, a 花糊/八仙過海):
    self-drawn, on a discard, robbing a kong, or by seven or eight bonus tiles."""
    first_turn = state.turns_done[s] == 0 and not state.any_claim
    heavenly = earthly = first_go = False
    kong_before = state.kong_declared[s]
    if self_drawn:
        if s == 0:
            heavenly = first_turn
        else:
            first_go = first_turn
        if (seven or eight) and s != 0 and first_turn and state.deal_bonus[s] >= 7:
            earthly = True
    elif not robbing:
        if s != 0 and state.pending_from == 0 and state.turns_done[0] == 1 and not state.any_claim:
            earthly = True
            kong_before = state.dealer_konged
        elif s != 0 and first_turn:
            first_go = True
    chain = state.kong_chain if self_drawn else 0
    src = state.draw_source
    bonus_win = seven or eight  # after a kong: the kong's replacement brought bonus tiles
    return WinContext(
        self_drawn=self_drawn,
        seat_wind=_W[s],
        prevailing_wind=state.prevailing_wind,
        winning_tile=_T[tile] if tile >= 0 and not (seven or eight) else None,
        robbing_kong=robbing,
        last_tile=state.tiles_left == 0 and not robbing,
        kong_replacement=chain >= 1 and (src is _KONG or chain >= 2 or bonus_win),
        double_kong_replacement=chain >= 2,
        second_kong_from_replacement=state.chain_from_rep if chain >= 2 else True,
        bonus_replacement=self_drawn and src is _BONUS and chain < 2 and not bonus_win,
        heavenly=heavenly,
        earthly=earthly,
        first_go_around=first_go,
        seven_bonus=seven,
        eight_bonus=eight,
        concealed_kong_before=kong_before,
        declined_bonus_win=state.declined[s],
    )


def thirteen_wait(counts: list[int], meld_count: int, tile: int) -> bool:
    """True when ``counts`` plus ``tile`` make 十三幺 (to rob a concealed kong: docs/engine.md, *Kongs, robbing*)."""
    if meld_count:
        return False
    counts[tile] += 1
    try:
        return is_thirteen_orphans(counts)
    finally:
        counts[tile] -= 1
