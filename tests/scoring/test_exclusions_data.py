"""Issue 13 item 8: exclusions are data — ``[exclusions] X = []`` really removes a rule.

The replacement-win rules that ``scoring/patterns.py`` once hard-coded (no 海底撈月 on a kong or
bonus replacement; 槓上槓 with a bonus replacement after the second kong is not also 花上自摸) are
the preset's exclusion data, so a TOML file can lift them (tables that pay 槓上開花 + 海底撈月 exist).
"""

from __future__ import annotations

import pytest

from hkmahjong.hand import Hand
from hkmahjong.rules import FanId, loads_ruleset
from hkmahjong.scoring import WinContext, score_hand

KONG_LAST = (
    "123m456p789s55s [2222p] 3f",
    WinContext(self_drawn=True, last_tile=True, kong_replacement=True),
)
BONUS_LAST = (
    "123m456p789s55s [222p] 3f",
    WinContext(self_drawn=True, last_tile=True, bonus_replacement=True),
)
TWO_KONGS = "123m456m55s [2222p][3333s] 3f"


def _fan(toml: str, hand: str, ctx: WinContext) -> frozenset[FanId]:
    return score_hand(Hand.from_text(hand), ctx, loads_ruleset(toml)).fan_ids


@pytest.mark.parametrize(
    ("key", "case", "lifted"),
    [
        ("KONG_REPLACEMENT", KONG_LAST, FanId.LAST_DRAW),
        ("BONUS_REPLACEMENT", BONUS_LAST, FanId.LAST_DRAW),
    ],
)
def test_empty_exclusion_lifts_the_rule(
    key: str, case: tuple[str, WinContext], lifted: FanId
) -> None:
    """W2 槓上開花 "海底開花的話不另計海底撈月" holds by default and goes with `KEY = []`."""
    hand, ctx = case
    assert lifted not in _fan('preset = "parlor"', hand, ctx)
    assert lifted in _fan(f'preset = "parlor"\n[exclusions]\n{key} = []', hand, ctx)


def test_double_kong_exclusions_are_data() -> None:
    """槓上槓: 海底 and 花上自摸 are inside it by the preset's data (W1, W2), lifted by TOML."""
    ctx = WinContext(
        self_drawn=True, last_tile=True, double_kong_replacement=True, bonus_replacement=True
    )
    base = _fan('preset = "parlor"', TWO_KONGS, ctx)
    assert FanId.LAST_DRAW not in base and FanId.BONUS_REPLACEMENT not in base
    lifted = _fan(
        'preset = "parlor"\n[exclusions]\nKONG_REPLACEMENT = []\nBONUS_REPLACEMENT = []\n'
        'DOUBLE_KONG_REPLACEMENT = ["KONG_REPLACEMENT", "SELF_DRAWN"]',
        TWO_KONGS,
        ctx,
    )
    assert {FanId.DOUBLE_KONG_REPLACEMENT, FanId.LAST_DRAW, FanId.BONUS_REPLACEMENT} <= lifted
