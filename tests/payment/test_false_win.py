"""詐糊 penalties (docs/rules.md §11): P, C, W1/W2 half gun, W1/W2 full gun, own fan (house rule)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from hkmahjong.rules import Ruleset
from hkmahjong.rules.payment import FalseWinPenalty, GunScheme
from hkmahjong.scoring.payment import PaymentError, settle_false_win
from hkmahjong.tiles import Wind

Table = Callable[..., Ruleset]
E, S, W, N = Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH


def test_parlor_as_if_all_three_won_a_limit_hand(table: Table) -> None:
    """docs/rules.md §11 / P "当作三家都食了爆棚牌般赔付": each gets a 10-fan full-gun win (3 × 64)."""
    s = settle_false_win(S, table("parlor"), self_drawn=False, would_be_discarder=E)
    assert s.as_json() == {"E": 192, "S": -576, "W": 192, "N": 192}
    assert s == settle_false_win(S, table("parlor"), self_drawn=True)


def test_parlor_penalty_under_half_gun_is_the_whole_win(table: Table) -> None:
    """P's reading under 半銃: each receives the whole limit win off the offender (2+1+1 shares)."""
    s = settle_false_win(S, table("parlor", gun=GunScheme.HALF_GUN), self_drawn=True)
    assert s.as_json() == {"E": 256, "S": -768, "W": 256, "N": 256}


def test_c_limit_self_draw_to_each(table: Table) -> None:
    """docs/rules.md §11 / C "食詐糊是要賠自摸最大番數": one limit share to each of the three."""
    rules = table("parlor", false_win=FalseWinPenalty.LIMIT_SELF_DRAW)
    assert settle_false_win(N, rules, self_drawn=False).as_json() == {
        "E": 64,
        "S": 64,
        "W": 64,
        "N": -192,
    }


def w1_example(table: Table, **kw: object) -> Ruleset:
    """W1/W2's "一二蚊" 8-fan table: 8 fan discard 256, others 128 (half-spicy 32 × unit 4)."""
    return table("parlor", limit=8, unit=4, **kw)


def test_w1_w2_half_gun_discard_false_win(table: Table) -> None:
    """docs/rules.md §11 / W1, W2 陪銃: "乙要向甲賠償八番的款額即256元，同時要向丙和丁賠償128元"."""
    rules = w1_example(table, gun=GunScheme.HALF_GUN, false_win=FalseWinPenalty.HALF_GUN)
    s = settle_false_win(S, rules, self_drawn=False, would_be_discarder=E)
    assert s.as_json() == {"E": 256, "S": -512, "W": 128, "N": 128}


def test_w1_w2_half_gun_self_drawn_false_win(table: Table) -> None:
    """docs/rules.md §11 / W1, W2 陪銃: "若玩家乙是「自摸」詐糊，則要向甲、丙和丁各支付128元"."""
    rules = w1_example(table, gun=GunScheme.HALF_GUN, false_win=FalseWinPenalty.HALF_GUN)
    s = settle_false_win(S, rules, self_drawn=True)
    assert s.as_json() == {"E": 128, "S": -384, "W": 128, "N": 128}
    with pytest.raises(PaymentError, match="would_be_discarder"):
        settle_false_win(S, rules, self_drawn=False)


def test_w1_w2_full_gun_each_gets_the_limit_discard_amount(table: Table) -> None:
    """docs/rules.md §11 / W1, W2 全銃: "均須向其餘三個玩家支付最高番數的金額…乙須向丙和丁賠償256元"."""
    rules = w1_example(table, discarder_shares=2, false_win=FalseWinPenalty.FULL_GUN)
    for self_drawn in (True, False):
        s = settle_false_win(S, rules, self_drawn=self_drawn, would_be_discarder=E)
        assert s.as_json() == {"E": 256, "S": -768, "W": 256, "N": 256}


def test_own_fan_at_least_three(table: Table) -> None:
    """docs/rules.md §11 / W1, W2 自訂 "最少三番的金額…清一色詐糊…7番的金額"."""
    rules = table("qingzhang", false_win=FalseWinPenalty.OWN_FAN)
    low = settle_false_win(W, rules, self_drawn=True, claimed_fan=1)
    assert low.as_json() == {"E": 8, "S": 8, "W": -24, "N": 8}  # 3 fan: 2 × 4
    flush = settle_false_win(W, rules, self_drawn=True, claimed_fan=7)
    assert flush.as_json() == {"E": 48, "S": 48, "W": -144, "N": 48}  # 7 fan: 2 × 24
    capped = settle_false_win(W, rules, self_drawn=True, claimed_fan=40)
    assert capped.delta(E) == 2 * 192  # capped at the 13-fan limit


def test_no_limit_table_uses_13_fan(table: Table) -> None:
    """Under no limit (W1 無限番) the penalty's top fan is ``no_limit_fan`` (13 by default)."""
    rules = table("parlor", limit=None)
    assert settle_false_win(E, rules, self_drawn=True).delta(S) == 3 * 192


def test_bankrupt_offender_pays_what_it_holds(table: Table) -> None:
    """docs/rules.md §9 破產: an offender short of jade pays seats in turn until it has nothing."""
    s = settle_false_win(S, table("parlor"), self_drawn=True, balances={S: 300})
    assert s.as_json() == {"E": 0, "S": -300, "W": 192, "N": 108}
    assert sum(s.deltas.values()) == 0


def test_bad_seats(table: Table) -> None:
    """The offender cannot be its own would-be discarder; seats must be winds."""
    with pytest.raises(PaymentError, match="own discard"):
        settle_false_win(S, table("parlor"), self_drawn=False, would_be_discarder=S)
    with pytest.raises(PaymentError, match="must be a Wind"):
        settle_false_win("S", table("parlor"), self_drawn=True)  # type: ignore[arg-type]
