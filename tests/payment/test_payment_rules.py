"""PaymentRules: presets, the TOML [payment] table and its errors (docs/rules.md §9–§11)."""

from __future__ import annotations

import dataclasses

import pytest

from hkmahjong.errors import RulesetError
from hkmahjong.rules.payment import (
    ML_TABLE,
    ExposedKongPayment,
    FalseWinPenalty,
    GunScheme,
    KongFeedRule,
    LiabilityScope,
    PaymentRules,
    RobbedKongPayment,
    ScoreTable,
)
from hkmahjong.rules.presets import get_preset

PRESETS = ("parlor", "qingzhang", "ml", "cuhk")


def test_parlor_is_p_full_gun_three_shares_half_spicy() -> None:
    """docs/rules.md §9 / P 全銃 "出铳者独付三份", 半辣上; §10 P 包牌; §11 P 詐糊."""
    p = PaymentRules.parlor()
    assert p.score_table is ScoreTable.HALF_SPICY
    assert p.gun is GunScheme.FULL_GUN and p.discarder_shares == 3
    assert p.robbed_kong is RobbedKongPayment.AS_DISCARD
    assert p.parlor_liability and p.liability_scope is LiabilityScope.TO_THE_END
    assert p.false_win is FalseWinPenalty.PARLOR
    assert not (p.twelve_tiles or p.nine_tiles or p.landed or p.big_dragons_self_draw)


def test_qingzhang_is_w2_full_gun_table_and_liability() -> None:
    """docs/rules.md §9 / W2 分數計算（全銃制）: 出銃 = 2 × 自摸 share; W2 全銃版 包牌 list."""
    p = PaymentRules.qingzhang()
    assert p.discarder_shares == 2 and p.gun is GunScheme.FULL_GUN
    assert p.twelve_tiles and p.big_dragons_self_draw and p.kong_feed is KongFeedRule.LIABLE
    assert not p.parlor_liability
    assert p.false_win is FalseWinPenalty.FULL_GUN


def test_ml_is_relative_table_settled_at_end() -> None:
    """docs/rules.md §9 / ML 付錢表 (自摸 2, 8, 16 … 512; 出沖 twice) and settle-at-end stakes."""
    p = PaymentRules.ml()
    assert p.score_table is ScoreTable.RELATIVE and p.table == ML_TABLE
    assert ML_TABLE == (2, 8, 16, 24, 32, 48, 64, 96, 128, 256, 512)
    assert p.discarder_shares == 2 and p.settle_at_end


@pytest.mark.parametrize("name", PRESETS)
def test_presets_hold_their_payment_rules(name: str) -> None:
    """Each preset's Ruleset.payment is the named constructor (rules workstream's presets)."""
    assert get_preset(name).payment == getattr(PaymentRules, name)()


@pytest.mark.parametrize("name", PRESETS)
def test_dict_round_trip_and_hashable(name: str) -> None:
    """The TOML [payment] table round-trips; the value is hashable (it sits in a frozen Ruleset)."""
    p = getattr(PaymentRules, name)()
    assert PaymentRules.from_dict(p.to_dict()) == p
    assert hash(p) == hash(PaymentRules.from_dict(p.to_dict()))
    assert all(isinstance(v, str | int | float | bool | list) for v in p.to_dict().values())


def test_from_dict_overrides_a_base() -> None:
    """A table's 台例: preset plus overrides, e.g. 半銃 with 包九張 and 包先不包後 (W1/W2 陪銃版)."""
    p = PaymentRules.from_dict(
        {
            "gun": "half_gun",
            "nine_tiles": True,
            "first_not_later": True,
            "liability_scope": "immediate",
        },
        base=PaymentRules.qingzhang(),
    )
    assert p.gun is GunScheme.HALF_GUN and p.nine_tiles and p.first_not_later
    assert p.liability_scope is LiabilityScope.IMMEDIATE
    assert p.discarder_shares == 2  # kept from the base
    custom = PaymentRules.from_dict({"score_table": "custom", "table": [1, 2, 4, 8]})
    assert custom.table == (1, 2, 4, 8)
    assert PaymentRules.from_dict({"exposed_kong": "AS_DISCARD"}).exposed_kong is (
        ExposedKongPayment.AS_DISCARD
    )


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        ({"gun": "quarter_gun"}, ["payment.gun", "'quarter_gun'", "'full_gun'", "'half_gun'"]),
        ({"discarder_shares": 5}, ["payment.discarder_shares", "5", "2, 3 or 4"]),
        ({"discarder_shares": True}, ["payment.discarder_shares", "True"]),
        ({"stake": -1}, ["payment.stake", "-1"]),
        ({"unit": 0}, ["payment.unit", "0", "at least 1"]),
        ({"zero_fan_share": 0.3}, ["payment.zero_fan_share", "0.3", "0.5"]),
        ({"table": [4, 2]}, ["payment.table", "[4, 2]", "non-decreasing"]),
        ({"table": "1,2"}, ["payment.table", "'1,2'"]),
        ({"score_table": "custom"}, ["payment.table", "custom"]),
        ({"twelve_tiles": "yes"}, ["payment.twelve_tiles", "'yes'", "true or false"]),
        ({"bogus": 1}, ["payment.bogus", "unknown key", "gun"]),
    ],
)
def test_bad_values_name_key_value_and_allowed(bad: dict[str, object], words: list[str]) -> None:
    """A bad [payment] table names the key, the value and what is allowed (house rule: clear errors)."""
    with pytest.raises(RulesetError) as err:
        PaymentRules.from_dict(bad)
    for word in words:
        assert word in str(err.value)


def test_direct_construction_is_checked_too() -> None:
    """dataclasses.replace with a wrong type is refused, never silently stored."""
    with pytest.raises(RulesetError, match=r"payment\.false_win"):
        dataclasses.replace(PaymentRules.parlor(), false_win="parlor")  # type: ignore[arg-type]
    with pytest.raises(RulesetError, match=r"\[payment\]"):
        PaymentRules.from_dict([("gun", "half_gun")])  # type: ignore[arg-type]
