"""番表 the calculator's view of a Ruleset: enabled patterns, values, limit hands, exclusions, switches.

Built once per ruleset object and cached. Values, exclusions and switches are read from the
ruleset only (``Ruleset.fan``, ``limit_hands``, ``exclusions`` and the switches).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from hkmahjong.rules.fan import FanId
from hkmahjong.rules.memo import IdentityMemo
from hkmahjong.rules.ruleset import BonusWinHand, DealBonusWin, LastTileRule, Ruleset
from hkmahjong.scoring.patterns import (
    FAN_INDEX,
    FANS,
    HAND_LEVEL,
    PATTERNS,
    Detector,
    Pattern,
    Switches,
)

__all__ = ["FanTable", "table_for"]


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
    bonus_win_hand: BonusWinHand
    chicken: bool
    switches: Switches
    vals: tuple[int, ...]
    """Fan per occurrence by pattern index (0 when not played)."""
    impl: tuple[frozenset[int], ...]
    """Excluded pattern indexes by pattern index."""
    limit_flags: tuple[bool, ...]
    """Whether each pattern index is a limit hand of this table."""
    limit_vals: tuple[int, ...]
    """What each limit hand scores (its value capped at the limit)."""
    placement: tuple[tuple[bool, bool, bool], tuple[bool, bool, bool]]
    """By ``self_drawn``: whether the winning tile's place matters for (平糊 wait, 坎坎糊, 九蓮)."""
    hand_patterns: tuple[Pattern, ...]
    arrangement_patterns: tuple[Pattern, ...]
    arrangement_detectors: tuple[tuple[Detector, int], ...]
    """(detector, pattern index) of the arrangement-level patterns, for the hot loop."""

    def limit_value(self, fan_id: FanId) -> int:
        """What a limit hand scores: its listed value capped at the limit."""
        v = self.values[fan_id]
        return v if self.limit is None else min(v, self.limit)


_CACHE: IdentityMemo[Ruleset, FanTable] = IdentityMemo(limit=256)


def table_for(ruleset: Ruleset) -> FanTable:
    """The compiled :class:`FanTable` of ``ruleset`` (cached per ruleset object)."""
    table = _CACHE.get(ruleset)
    if table is None:
        table = _CACHE.put(ruleset, None, _compile(ruleset))
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
        bonus_set_played=FanId.BONUS_SET in values,
        bonus_set_adds_seat_bonus=rs.bonus_set_adds_seat_bonus,
        nine_gates_with_melds=rs.nine_gates_with_melds,
        mixed_terminals_all_honours=rs.mixed_terminals_all_honours,
    )
    excl = rs.exclusions_in_force()
    enabled = [PATTERNS[f] for f in FanId if f in values and f is not FanId.CHICKEN]
    return FanTable(
        name=rs.name,
        values=values,
        limit_hands=frozenset(rs.limit_hands),
        implies=excl,
        limit=rs.limit,
        min_fan=rs.min_fan,
        seven_pairs=rs.seven_pairs,
        bonus_win_seven=rs.bonus_win_seven,
        bonus_win_kong_replacement=rs.bonus_win_kong_replacement,
        bonus_win_at_deal=rs.bonus_win_at_deal is DealBonusWin.HEAVENLY_EARTHLY,
        bonus_win_hand=rs.bonus_win_hand,
        chicken=FanId.CHICKEN in values,
        switches=sw,
        vals=tuple(values.get(f, 0) for f in FANS),
        impl=tuple(frozenset(FAN_INDEX[g] for g in excl.get(f, ())) for f in FANS),
        limit_flags=tuple(f in rs.limit_hands for f in FANS),
        placement=(_placement(values, sw, False), _placement(values, sw, True)),
        limit_vals=tuple(
            values.get(f, 0) if rs.limit is None else min(values.get(f, 0), rs.limit) for f in FANS
        ),
        hand_patterns=tuple(p for p in enabled if p.fan_id in HAND_LEVEL),
        arrangement_patterns=tuple(p for p in enabled if p.fan_id not in HAND_LEVEL),
        arrangement_detectors=tuple(
            (p.detect, p.idx) for p in enabled if p.fan_id not in HAND_LEVEL
        ),
    )


def _placement(
    values: Mapping[FanId, int], sw: Switches, self_drawn: bool
) -> tuple[bool, bool, bool]:
    chows = FanId.ALL_CHOWS in values and not sw.all_chows_any_wait
    discard = not self_drawn
    pungs = discard and FanId.FOUR_CONCEALED_PUNGS in values and not sw.four_concealed_any_win
    nine = discard and FanId.NINE_GATES in values and sw.nine_gates_discard_nine_sided_only
    return chows, pungs, nine
