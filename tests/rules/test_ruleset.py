"""Ruleset: a frozen, hashable value that checks itself; FrozenMap; reading the fan table."""

from __future__ import annotations

import dataclasses

import pytest

from hkmahjong.errors import RulesetError
from hkmahjong.rules import (
    SWITCHES,
    FanId,
    FrozenMap,
    PassRule,
    PaymentRules,
    Ruleset,
    get_preset,
)
from hkmahjong.rules.ruleset import field_doc

F = FanId


def test_frozen_and_hashable() -> None:
    """A preset can be a dict key and cannot be mutated."""
    r = get_preset("parlor")
    assert {r: 1}[get_preset("parlor")] == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.min_fan = 1  # type: ignore[misc]


def test_replace_keeps_value_semantics() -> None:
    """dataclasses.replace gives an equal value when nothing changes, and a different one when
    something does; a plain dict for ``fan`` is normalised to a FrozenMap."""
    r = get_preset("parlor")
    assert dataclasses.replace(r) == r
    assert hash(dataclasses.replace(r)) == hash(r)
    r1 = dataclasses.replace(r, min_fan=1)
    assert r1 != r and r1.min_fan == 1
    r2 = dataclasses.replace(r, fan={**r.fan, F.ALL_PUNGS: 4})
    assert isinstance(r2.fan, FrozenMap) and r2.fan[F.ALL_PUNGS] == 4
    assert r.fan[F.ALL_PUNGS] == 3


def test_frozen_map() -> None:
    """FrozenMap: order-independent hash and equality, equal to a dict, no item assignment."""
    a = FrozenMap({F.ALL_PUNGS: 3, F.HALF_FLUSH: 3})
    b = FrozenMap([(F.HALF_FLUSH, 3), (F.ALL_PUNGS, 3)])
    assert a == b and hash(a) == hash(b)
    assert a == {F.ALL_PUNGS: 3, F.HALF_FLUSH: 3}
    assert a.set(F.ALL_PUNGS, 4)[F.ALL_PUNGS] == 4 and a[F.ALL_PUNGS] == 3
    assert F.ALL_PUNGS not in a.without(F.ALL_PUNGS)
    with pytest.raises(TypeError):
        a[F.ALL_PUNGS] = 5  # type: ignore[index]


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"min_fan": -1}, "min_fan = -1"),
        ({"min_fan": "3"}, "min_fan = '3'"),
        ({"limit": 0}, "limit = 0"),
        ({"min_fan": 11}, "min_fan = 11: allowed at most the limit"),
        ({"fan": {F.ALL_PUNGS: -2}}, "fan.ALL_PUNGS = -2"),
        ({"fan": {F.ALL_PUNGS: True}}, "fan.ALL_PUNGS = True"),
        ({"fan": {"NOT_AN_ID": 3}}, "'NOT_AN_ID': unknown pattern id"),
        ({"limit_hands": frozenset({F.SEVEN_PAIRS})}, "limit_hands = ['SEVEN_PAIRS']"),
        ({"seven_pairs": True}, "switches.seven_pairs = true"),
        ({"multiple_winners": 1}, "switches.multiple_winners = 1: allowed true or false"),
        ({"pass_rule": "same_tile"}, "switches.pass_rule = 'same_tile': allowed"),
        ({"dead_wall": -14}, "dead_wall = -14"),
        ({"match_lengths": ("forever",)}, "match_lengths = ['forever']"),
        ({"exclusions": {F.ALL_PUNGS: frozenset({F.ALL_PUNGS})}}, "cannot exclude itself"),
        ({"payment": "parlor"}, "payment = 'parlor'"),
        ({"name": " "}, "name = ' '"),
    ],
)
def test_bad_values_are_rejected_with_key_and_value(
    changes: dict[str, object], fragment: str
) -> None:
    """A bad value raises RulesetError naming the key and the value (and what is allowed)."""
    with pytest.raises(RulesetError) as info:
        dataclasses.replace(get_preset("parlor"), **changes)
    assert fragment in str(info.value)


def test_bonus_win_needs_its_value() -> None:
    """花糊 on (bonus_win_seven) needs a SEVEN_BONUS value to score it."""
    with pytest.raises(RulesetError, match="SEVEN_BONUS"):
        dataclasses.replace(get_preset("parlor"), bonus_win_seven=True)


def test_limit_value_is_capped_listed_value() -> None:
    """docs/rules.md §8: a 例牌 scores the limit (10 in the parlor, even for 13-fan 天糊); under the
    no-limit switch it counts its listed value (W1)."""
    parlor = get_preset("parlor")
    assert parlor.limit_value(F.HEAVENLY) == 10
    assert parlor.limit_value(F.ALL_HONOURS) == 10
    no_limit = dataclasses.replace(parlor, limit=None)
    assert no_limit.limit_value(F.HEAVENLY) == 13
    assert no_limit.cap(40) == 40 and parlor.cap(40) == 10 and parlor.cap(7) == 7
    with pytest.raises(RulesetError, match="SEVEN_PAIRS"):
        parlor.limit_value(F.SEVEN_PAIRS)


def test_counted_applies_exclusions_and_drops_unplayed() -> None:
    """docs/rules.md §8 / W2: 坎坎糊 includes 對對糊, 門前清, 自摸; an unplayed pattern never counts."""
    parlor = get_preset("parlor")
    present = [F.FOUR_CONCEALED_PUNGS, F.ALL_PUNGS, F.CONCEALED_HAND, F.SELF_DRAWN, F.HALF_FLUSH]
    assert parlor.counted(present) == (F.FOUR_CONCEALED_PUNGS, F.HALF_FLUSH)
    assert parlor.counted([F.ALL_PUNGS, F.SEVEN_PAIRS]) == (F.ALL_PUNGS,)
    assert parlor.excluded_by([F.GREAT_DRAGONS]) == {F.RED_DRAGON, F.GREEN_DRAGON, F.WHITE_DRAGON}


def test_with_and_without_fan() -> None:
    """with_fan/without_fan keep the 七對子 switch in step with its value."""
    r = get_preset("parlor").with_fan({F.SEVEN_PAIRS: 3})
    assert r.seven_pairs and r.fan[F.SEVEN_PAIRS] == 3
    back = r.without_fan(F.SEVEN_PAIRS)
    assert not back.seven_pairs and F.SEVEN_PAIRS not in back.fan
    assert back == get_preset("parlor")
    q = get_preset("qingzhang").without_fan(F.SEVEN_BONUS)
    assert not q.bonus_win_seven


def test_contract_fields_exist() -> None:
    """docs/dev/contracts.md fixes these Ruleset field names (the engine reads them)."""
    names = {f.name for f in dataclasses.fields(Ruleset)}
    contract = {
        "name", "min_fan", "limit", "seven_pairs", "thirteen_orphans_head_bump_exempt",
        "multiple_winners", "dead_wall", "pass_rule", "pung_pass_rule", "no_swap_discard",
        "rob_concealed_kong_thirteen", "bonus_tiles", "bonus_win_seven",
        "false_win_below_minimum", "payment",
    }  # fmt: skip
    assert contract <= names
    assert isinstance(get_preset("parlor").payment, PaymentRules)
    assert isinstance(get_preset("parlor").pass_rule, PassRule)


def test_every_switch_documents_its_source() -> None:
    """Each switch carries a one-line description naming a seed (shown by `hkmj rules`)."""
    for key in SWITCHES:
        doc = field_doc(key)
        assert doc, key
        assert any(tag in doc for tag in ("P", "W1", "W2", "C", "ML")), key


def test_small_winds_wind_pungs_follows_exclusions() -> None:
    """小四喜 adds wind 番牌 (W2, the parlor); C "不再計門風或圈風" is the exclusion that turns it off."""
    parlor = get_preset("parlor")
    assert parlor.small_winds_wind_pungs
    c_style = dataclasses.replace(
        parlor,
        exclusions=parlor.exclusions.set(
            F.SMALL_WINDS, frozenset({F.SEAT_WIND, F.PREVAILING_WIND, F.THREE_WIND_PUNGS})
        ),
    )
    assert not c_style.small_winds_wind_pungs
    assert c_style.counted([F.SMALL_WINDS, F.SEAT_WIND]) == (F.SMALL_WINDS,)
    assert parlor.counted([F.SMALL_WINDS, F.SEAT_WIND]) == (F.SMALL_WINDS, F.SEAT_WIND)


def test_frozen_map_get_and_contains() -> None:
    """FrozenMap.get / in behave like a dict's."""
    m = FrozenMap({F.ALL_PUNGS: 3})
    assert m.get(F.ALL_PUNGS) == 3 and m.get(F.HALF_FLUSH) is None and m.get(F.HALF_FLUSH, 0) == 0
    assert F.ALL_PUNGS in m and F.HALF_FLUSH not in m and "ALL_PUNGS" not in m
