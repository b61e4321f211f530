"""番表 the calculator's view of a Ruleset: enabled patterns, values, limit hands, exclusions, switches.

Built once per ruleset object and cached. Values, exclusions and switches are read from the
ruleset only. :data:`DEFAULT_IMPLIES` is the calculator's reading of RULES.md §8 ("patterns implied
by another are not counted twice"); the tests check every preset's ``exclusions`` against it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from hkmahjong.rules.fan import FanId
from hkmahjong.rules.ruleset import DealBonusWin, LastTileRule, Ruleset
from hkmahjong.scoring.patterns import HAND_LEVEL, PATTERNS, Pattern, Switches

__all__ = ["DEFAULT_IMPLIES", "FanTable", "table_for"]

F = FanId
_DRAGON_PUNGS = (F.WHITE_DRAGON, F.GREEN_DRAGON, F.RED_DRAGON)

DEFAULT_IMPLIES: dict[FanId, frozenset[FanId]] = {
    k: frozenset(v)
    for k, v in {
        # W2 正統: "必定門清…不另計", "全刻子…不另計對對糊"; W1 小三元/大三元 include their 番牌.
        F.MIXED_TERMINALS: (F.ALL_PUNGS,),
        F.SMALL_DRAGONS: _DRAGON_PUNGS,
        F.GREAT_DRAGONS: _DRAGON_PUNGS,
        F.SMALL_WINDS: (F.THREE_WIND_PUNGS,),
        F.GREAT_WINDS: (F.ALL_PUNGS, F.THREE_WIND_PUNGS),
        F.FOUR_KONGS: (F.ALL_PUNGS, F.THREE_KONGS, F.DOUBLE_KONG_REPLACEMENT),
        F.DOUBLE_KONG_REPLACEMENT: (F.KONG_REPLACEMENT, F.SELF_DRAWN),
        F.FOUR_CONCEALED_PUNGS: (F.ALL_PUNGS, F.CONCEALED_HAND, F.SELF_DRAWN),
        F.ALL_HONOURS: (F.ALL_PUNGS,),
        F.ALL_TERMINALS: (F.ALL_PUNGS,),
        F.NINE_GATES: (F.FULL_FLUSH, F.CONCEALED_HAND),
        F.THIRTEEN_ORPHANS: (F.CONCEALED_HAND,),
        F.HEAVENLY: (F.SELF_DRAWN, F.CONCEALED_HAND),
        F.EARTHLY: (F.CONCEALED_HAND,),
        F.HUMAN: (F.SELF_DRAWN, F.CONCEALED_HAND),
        F.EIGHT_BONUS: (F.BONUS_SET, F.SEAT_BONUS, F.SELF_DRAWN, F.SEVEN_BONUS),
        F.LAST_TILE_KONG: (F.KONG_REPLACEMENT, F.SELF_DRAWN, F.LAST_DRAW),
        F.MILLION_STONES: (F.FULL_FLUSH,),
        F.GREEN_WITH_RED: (F.HALF_FLUSH, F.FULL_FLUSH),
        F.ALL_GREEN: (F.HALF_FLUSH, F.FULL_FLUSH),
        F.ALL_BLUE: (F.HALF_FLUSH, F.ALL_HONOURS, F.ALL_PUNGS),
        F.RED_PEACOCK: (F.HALF_FLUSH, F.FULL_FLUSH, F.ALL_PUNGS),
        F.THREE_IDENTICAL_CHOWS: (F.TWO_IDENTICAL_CHOWS,),
        F.FOUR_IDENTICAL_CHOWS: (
            F.THREE_IDENTICAL_CHOWS,
            F.TWO_IDENTICAL_CHOWS,
            F.TWO_DOUBLE_CHOWS,
        ),
        F.TWO_DOUBLE_CHOWS: (F.TWO_IDENTICAL_CHOWS,),
        F.THREE_SHIFTED_CHOWS: (F.TWO_SHIFTED_CHOWS, F.ALL_CHOWS),
        F.FOUR_SHIFTED_CHOWS: (
            F.THREE_SHIFTED_CHOWS,
            F.TWO_SHIFTED_CHOWS,
            F.TWO_DOUBLE_SHIFTED_CHOWS,
        ),
        F.TWO_DOUBLE_SHIFTED_CHOWS: (F.TWO_SHIFTED_CHOWS,),
        F.TERMINAL_PUNGS_HONOUR_PAIR: (F.MIXED_TERMINALS, F.ALL_PUNGS),
        F.SEVEN_PAIRS: (F.CONCEALED_HAND,),
        F.EARLY_READY: (F.CONCEALED_HAND,),
        F.FULL_FLUSH: (F.HALF_FLUSH,),
    }.items()
}
"""RULES.md §8 exclusions as the calculator reads them (A implies B: B is not counted with A)."""


@dataclass(frozen=True, slots=True)
class FanTable:
    """The calculator's compiled view of one ruleset."""

    name: str
    values: Mapping[FanId, int]
    limit_hands: frozenset[FanId]
    implies: Mapping[FanId, frozenset[FanId]]
    limit: int | None
    min_fan: int
    seven_pairs: bool
    bonus_win_seven: bool
    bonus_win_kong_replacement: bool
    bonus_win_at_deal: bool
    switches: Switches
    hand_patterns: tuple[Pattern, ...]
    arrangement_patterns: tuple[Pattern, ...]

    def limit_value(self, fan_id: FanId) -> int:
        """What a limit hand scores: its listed value capped at the limit."""
        v = self.values[fan_id]
        return v if self.limit is None else min(v, self.limit)


_CACHE: dict[int, tuple[Ruleset, FanTable]] = {}


def table_for(ruleset: Ruleset) -> FanTable:
    """The compiled :class:`FanTable` of ``ruleset`` (cached per ruleset object)."""
    hit = _CACHE.get(id(ruleset))
    if hit is not None and hit[0] is ruleset:
        return hit[1]
    table = _compile(ruleset)
    if len(_CACHE) > 256:
        _CACHE.clear()
    _CACHE[id(ruleset)] = (ruleset, table)
    return table


def _compile(rs: Ruleset) -> FanTable:
    values = dict(rs.fan)
    sw = Switches(
        all_chows_honour_pair=rs.all_chows_honour_pair,
        all_chows_any_wait=rs.all_chows_any_wait,
        concealed_kong_keeps_concealed=rs.concealed_kong_keeps_concealed,
        concealed_hand_with_bonus_tiles=rs.concealed_hand_with_bonus_tiles,
        bonus_tiles=rs.bonus_tiles,
        four_concealed_kongs=rs.four_concealed_pungs_kongs,
        four_concealed_single_wait_discard=rs.four_concealed_pungs_single_wait_discard,
        four_concealed_any_win=rs.four_concealed_pungs_any_win,
        double_kong_from_replacement=rs.double_kong_from_replacement,
        nine_gates_discard_nine_sided_only=rs.nine_gates_discard_nine_sided_only,
        last_discard_scores=rs.last_tile is LastTileRule.ANY,
        heavenly_after_concealed_kong=rs.heavenly_after_concealed_kong,
        earthly_after_dealer_kong=rs.earthly_after_dealer_kong,
        bonus_win_decline=rs.bonus_win_decline,
    )
    enabled = [PATTERNS[f] for f in FanId if f in values]
    return FanTable(
        name=rs.name,
        values=values,
        limit_hands=frozenset(rs.limit_hands),
        implies=dict(rs.exclusions),
        limit=rs.limit,
        min_fan=rs.min_fan,
        seven_pairs=rs.seven_pairs,
        bonus_win_seven=rs.bonus_win_seven,
        bonus_win_kong_replacement=rs.bonus_win_kong_replacement,
        bonus_win_at_deal=rs.bonus_win_at_deal is DealBonusWin.HEAVENLY_EARTHLY,
        switches=sw,
        hand_patterns=tuple(p for p in enabled if p.fan_id in HAND_LEVEL),
        arrangement_patterns=tuple(p for p in enabled if p.fan_id not in HAND_LEVEL),
    )
