"""Score tables: fan -> one share (一份) in jade (docs/rules.md §9)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest

from hkmahjong.rules import Ruleset
from hkmahjong.rules.payment import PaymentRules, ScoreTable
from hkmahjong.scoring.payment import (
    PaymentError,
    payment_summary,
    share_for,
    share_jade,
    share_points,
    table_stake,
)

Table = Callable[..., Ruleset]

# W1/W2 分數計算: the 自摸 column is three payers; the 出銃 column is the 全銃制 discarder's two shares.
W_SELF_DRAW_TOTAL = {1: 3, 2: 6, 3: 12, 4: 24, 5: 36, 6: 48, 7: 72, 8: 96, 9: 144, 10: 192}
W_SELF_DRAW_TOTAL.update({11: 288, 12: 384, 13: 576})
W_DISCARD = {0: 1, 1: 2, 2: 4, 3: 8, 4: 16, 5: 24, 6: 32, 7: 48, 8: 64, 9: 96, 10: 128}
W_DISCARD.update({11: 192, 12: 256, 13: 384})


def test_parlor_three_fan_is_4_six_is_16_ten_is_64(table: Table) -> None:
    """docs/rules.md §9 / P "三番是 4 分、六番是 16 分、十番是 64 分" (半辣上)."""
    parlor = table("parlor")
    assert [share_for(f, parlor) for f in (3, 6, 10)] == [4, 16, 64]
    assert share_for(10, parlor, is_limit=True) == 64


def test_half_spicy_matches_w1_w2_table(table: Table) -> None:
    """docs/rules.md §9 / W1, W2 分數計算: 自摸 = 3 × share; 出銃 (全銃制 table) = 2 × share."""
    qz = table("qingzhang", min_fan=0, limit=13)
    for fan, total in W_SELF_DRAW_TOTAL.items():
        assert 3 * share_for(fan, qz) == total, fan
    for fan, discard in W_DISCARD.items():
        assert 2 * share_for(fan, qz) == discard, fan
    assert share_for(0, qz) == 0.5  # 雞糊 = ½ share (W1/W2 出銃 1 at two shares)


def test_half_spicy_continues_past_13_under_no_limit(table: Table) -> None:
    """docs/rules.md §8 無限番 (W1): the table keeps doubling every two fan past 13."""
    rules = table("parlor", limit=None)
    assert [share_for(f, rules) for f in (13, 14, 15, 16)] == [192, 256, 384, 512]


def test_full_spicy_doubles_every_fan(table: Table) -> None:
    """docs/rules.md §9 / W1, W2 辣辣上 "每一番跳一倍"."""
    rules = table("parlor", score_table=ScoreTable.FULL_SPICY, limit=13)
    assert [share_for(f, rules) for f in range(1, 9)] == [1, 2, 4, 8, 16, 32, 64, 128]
    assert share_for(0, rules) == 0.5


def test_traditional_full_price_double_and_triple(table: Table) -> None:
    """docs/rules.md §9 / W1, W2 "四番為滿糊…清一色「雙辣」，例牌「三辣」"."""
    rules = table("parlor", score_table=ScoreTable.TRADITIONAL, min_fan=0)
    assert [share_for(f, rules) for f in (1, 2, 3, 4, 5, 9)] == [1, 2, 4, 8, 8, 8]
    assert share_for(7, rules, full_flush=True) == 16
    assert share_for(10, rules, is_limit=True) == 24
    assert share_for(10, rules, is_limit=True, full_flush=True) == 24


def test_ml_table_is_relative_to_minimum_fan(table: Table) -> None:
    """docs/rules.md §9 / ML 付錢表: 最低 2 (自摸) / 4 (出沖), 最低+1 8/16 … +10 512/1024."""
    ml = table("ml")
    assert ml.min_fan == 1
    assert share_for(1, ml) == 2 and share_for(2, ml) == 8 and share_for(11, ml) == 512
    assert payment_summary(1, ml)["discarder_full_gun"] == 4
    assert payment_summary(2, ml)["discarder_full_gun"] == 16
    assert payment_summary(11, ml)["discarder_full_gun"] == 1024
    one_to_four = table("ml", min_fan=1, limit=4)  # ML's "1-4番" table
    assert share_for(4, one_to_four, is_limit=True) == 24
    assert share_for(9, one_to_four) == 24  # never above the table's top fan
    assert table_stake(one_to_four) == 48  # 出沖最高番 is the table's value


def test_custom_list_and_its_end(table: Table) -> None:
    """docs/rules.md §9 "any custom list": table[fan], the last entry beyond the list."""
    rules = table("parlor", score_table=ScoreTable.CUSTOM, table=(1, 1, 2, 3, 5, 8), limit=None)
    assert [share_for(f, rules) for f in range(6)] == [1, 1, 2, 3, 5, 8]
    assert share_for(20, rules) == 8 and share_for(3, rules, is_limit=True) == 8


def test_unit_scales_every_amount_and_halves_round_up(table: Table) -> None:
    """Jade amounts are whole: unit 2 makes 雞糊's ½ share exact; at unit 1 it rounds up."""
    two = table("parlor", unit=2, min_fan=0)
    assert share_for(0, two) == 1 and share_for(3, two) == 8
    one = table("parlor", min_fan=0)
    assert share_for(0, one) == 0.5 and share_jade(0, one) == 1
    assert payment_summary(0, one) == {
        "share": 1,
        "self_draw_each": 1,
        "discarder_full_gun": 2,  # 1.5 rounded up
        "discarder_half_gun": 1,
        "others_half_gun": 1,
    }


def test_batch_formats_payment_example(table: Table) -> None:
    """docs/calculator.md, *Batches* example output: a 4-fan parlor win, share 8, full gun 24, half gun 16/8."""
    summary = payment_summary(4, table("parlor"))
    assert summary == {
        "share": 8,
        "self_draw_each": 8,
        "discarder_full_gun": 24,
        "discarder_half_gun": 16,
        "others_half_gun": 8,
    }


def test_share_points_plain_arguments() -> None:
    """share_points takes plain arguments (no Ruleset), as the engine may call it."""
    assert share_points(0, is_limit=False, payment=PaymentRules.parlor()) == Fraction(1, 2)
    with pytest.raises(PaymentError, match="fan must be"):
        share_points(-1, is_limit=False, payment=PaymentRules.parlor())
