"""台例 as TOML: preset + overrides, full tables, clear errors, and a writer that round-trips."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hkmahjong.errors import RulesetError
from hkmahjong.rules import (
    PRESETS,
    SWITCHES,
    DealBonusWin,
    FanId,
    LastTileRule,
    PassRule,
    Ruleset,
    get_preset,
    load_ruleset,
    loads_ruleset,
    ruleset_to_toml,
)
from hkmahjong.rules.payment import FalseWinPenalty, GunScheme, LiabilityScope
from hkmahjong.rules.ruleset import MATCH_LENGTHS

F = FanId


def test_preset_plus_overrides() -> None:
    """The brief's example: a preset, min_fan, a [fan] value, a switch and a [payment] key."""
    r = loads_ruleset(
        """
        preset = "parlor"
        min_fan = 1
        [fan]
        ALL_PUNGS = 4
        [switches]
        multiple_winners = true
        [payment]
        gun = "half_gun"
        """
    )
    parlor = get_preset("parlor")
    assert r.min_fan == 1 and r.fan[F.ALL_PUNGS] == 4 and r.multiple_winners
    assert r.payment.gun is GunScheme.HALF_GUN
    assert r.payment.discarder_shares == parlor.payment.discarder_shares
    assert r.fan[F.HALF_FLUSH] == parlor.fan[F.HALF_FLUSH]
    assert r.name == "parlor+custom"
    assert loads_ruleset('preset = "parlor"') == get_preset("parlor")


def test_patterns_by_chinese_name_off_and_limit() -> None:
    """[fan] keys may be Chinese names; false / "off" removes a pattern; an inline table marks a
    limit hand; limit = "none" is the no-limit switch (W1 無限番)."""
    r = loads_ruleset(
        """
        preset = "parlor"
        limit = "none"
        [fan]
        "七對子" = 3
        BONUS_REPLACEMENT = false
        HUMAN = "off"
        ALL_GREEN = { fan = 13, limit = true }
        """
    )
    assert r.limit is None
    assert r.fan[F.SEVEN_PAIRS] == 3 and r.seven_pairs  # the 七對子 switch follows its value
    assert F.BONUS_REPLACEMENT not in r.fan and F.HUMAN not in r.fan
    assert F.HUMAN not in r.limit_hands
    assert r.fan[F.ALL_GREEN] == 13 and F.ALL_GREEN in r.limit_hands


def test_limit_hands_and_exclusions_tables() -> None:
    """limit_hands replaces the 例牌 list; [exclusions] replaces one pattern's list, [] clears it
    (C: 小四喜 without wind 番牌)."""
    r = loads_ruleset(
        """
        preset = "parlor"
        limit_hands = ["HEAVENLY", "EARTHLY"]
        [exclusions]
        SMALL_WINDS = ["SEAT_WIND", "PREVAILING_WIND", "THREE_WIND_PUNGS"]
        KONG_REPLACEMENT = []
        """
    )
    assert r.limit_hands == {F.HEAVENLY, F.EARTHLY}
    assert r.exclusions[F.SMALL_WINDS] == {F.SEAT_WIND, F.PREVAILING_WIND, F.THREE_WIND_PUNGS}
    assert F.KONG_REPLACEMENT not in r.exclusions


def test_full_table_without_preset() -> None:
    """Without `preset` only the listed patterns are played (a table copied from elsewhere)."""
    r = loads_ruleset(
        """
        name = "chicken table"
        min_fan = 0
        limit = 8
        limit_hands = ["THIRTEEN_ORPHANS"]
        [fan]
        CHICKEN = 0
        SELF_DRAWN = 1
        ALL_PUNGS = 2
        THIRTEEN_ORPHANS = 8
        """
    )
    assert r.name == "chicken table" and set(r.fan) == {
        F.CHICKEN, F.SELF_DRAWN, F.ALL_PUNGS, F.THIRTEEN_ORPHANS,
    }  # fmt: skip
    assert r.exclusions == {} and r.limit == 8 and r.min_fan == 0


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        ("preset = 'parlor'\nmin_fan = -1", ["min_fan = -1", "allowed"]),
        ("preset = 'parlor'\nmin_fan = 'three'", ["min_fan = 'three'", "allowed"]),
        ("preset = 'parlor'\n[fan]\nALL_PUNGS = -3", ["fan.ALL_PUNGS = -3", "allowed"]),
        ("preset = 'parlor'\n[fan]\nALL_PUNGS = 'x'", ["fan.ALL_PUNGS = 'x'", "allowed"]),
        ("preset = 'parlor'\n[fan]\nBIG_HAND = 3", ["'BIG_HAND'", "unknown pattern id"]),
        ("preset = 'parlor'\nlimit_hands = ['NOPE']", ["'NOPE'", "unknown pattern id"]),
        ("preset = 'parlor'\nlimit_hands = 'HEAVENLY'", ["limit_hands = 'HEAVENLY'", "list"]),
        ("preset = 'parlor'\nlimit = 'big'", ["limit = 'big'", '"none"']),
        ("preset = 'parlor'\nmultiple_winners = true", ["multiple_winners", "[switches]"]),
        ("preset = 'parlor'\nALL_PUNGS = 4", ["ALL_PUNGS", "[fan]"]),
        ("preset = 'parlor'\ngun = 'half_gun'", ["gun", "[payment]"]),
        ("preset = 'parlor'\ncolour = 'red'", ["colour = 'red'", "unknown key", "allowed"]),
        ("preset = 'parlor'\n[switches]\nfast = true", ["switches.fast", "unknown switch"]),
        (
            "preset = 'parlor'\n[switches]\nmultiple_winners = 'yes'",
            ["switches.multiple_winners = 'yes'", "true or false"],
        ),
        (
            "preset = 'parlor'\n[switches]\npass_rule = 'sometimes'",
            ["switches.pass_rule = 'sometimes'", "'same_tile'"],
        ),
        (
            "preset = 'parlor'\n[switches]\ndead_wall = 14.5",
            ["switches.dead_wall = 14.5", "whole number"],
        ),
        (
            "preset = 'parlor'\n[switches]\nmatch_lengths = ['forever']",
            ["match_lengths = ['forever']", "four-rounds"],
        ),
        ("preset = 'parlor'\n[switches]\nseven_pairs = true", ["seven_pairs", "SEVEN_PAIRS"]),
        ("preset = 'parlor'\n[payment]\ngun = 'no_gun'", ["payment.gun = 'no_gun'", "allowed"]),
        ("preset = 'parlor'\n[payment]\ntip = 1", ["payment.tip", "unknown key"]),
        ("preset = 'parlor'\n[exclusions]\nALL_PUNGS = 'X'", ["exclusions.ALL_PUNGS", "list"]),
        ("preset = 'parlor'\nfan = 3", ["fan = 3", "[fan]"]),
        ("preset = 'nowhere'", ["'nowhere'", "parlor", "qingzhang"]),
        # docs/ruleset-toml.md: a file with neither a preset nor [fan] would score nothing
        ("limit = 'none'\n[switches]\nseven_pairs = false", ["no preset and no [fan]", "parlor"]),
        ("preset = 'parlor'\n[fan\n", ["not valid TOML"]),
        ("preset = 'parlor'\n[fan]\nNEW = { limit = true }", ["'NEW'", "unknown"]),
        ("preset = 'parlor'\n[fan]\nTHREE_KONGS = { limit = true }", ["needs fan = N"]),
    ],
)
def test_bad_file_names_key_value_and_what_is_allowed(text: str, fragments: list[str]) -> None:
    """A bad ruleset file raises RulesetError naming the source, key, value and what is allowed."""
    with pytest.raises(RulesetError) as info:
        loads_ruleset(text, source="table.toml")
    message = str(info.value)
    assert message.startswith("table.toml: ")
    for fragment in fragments:
        assert fragment in message


def test_load_ruleset_from_file_name_or_value(tmp_path: Path) -> None:
    """load_ruleset takes a TOML path, a preset name or alias, or a Ruleset."""
    path = tmp_path / "our-table.toml"
    path.write_text('preset = "清章"\nmin_fan = 2\n', encoding="utf-8")
    r = load_ruleset(path)
    assert r.min_fan == 2 and r.limit == 13
    assert load_ruleset(str(path)) == r
    assert load_ruleset("w2") is get_preset("qingzhang")
    assert load_ruleset(r) is r
    with pytest.raises(RulesetError, match="no such ruleset file"):
        load_ruleset(tmp_path / "missing.toml")
    with pytest.raises(RulesetError, match="neither a preset"):
        load_ruleset("not-a-preset")
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"\xff\xfe")
    with pytest.raises(RulesetError, match=r"bad\.toml"):
        load_ruleset(bad)


@pytest.mark.parametrize("name", list(PRESETS))
def test_presets_round_trip(name: str) -> None:
    """Every preset written as a full table or as a diff against the parlor loads back equal."""
    r = PRESETS[name]
    assert loads_ruleset(ruleset_to_toml(r)) == r
    diff = ruleset_to_toml(r, base=get_preset("parlor"))
    assert loads_ruleset(diff) == r
    assert diff.count("\n") < ruleset_to_toml(r).count("\n") or name == "ml"


def test_diff_against_itself_is_just_the_preset() -> None:
    """A preset written against itself has no override section."""
    text = ruleset_to_toml(get_preset("qingzhang"), base=get_preset("qingzhang"))
    assert "[fan]" not in text and "[switches]" not in text and 'preset = "qingzhang"' in text


# --- property: any ruleset written out loads back equal ----------------------------------------
_ENUMS = {
    "pass_rule": PassRule,
    "last_tile": LastTileRule,
    "bonus_win_at_deal": DealBonusWin,
}
_names = st.text(min_size=1, max_size=20).filter(lambda s: s.strip() != "")


@st.composite
def rulesets(draw: st.DrawFn) -> Ruleset:
    """Random valid rulesets: any preset with random fan table, limits, exclusions, switches,
    names (quotes, backslashes, control characters, CJK) and payment changes."""
    base = draw(st.sampled_from(list(PRESETS.values())))
    ids = draw(st.sets(st.sampled_from(list(FanId))))
    fan = {f: draw(st.integers(0, 64)) for f in ids}
    limit_hands = (
        draw(st.sets(st.sampled_from(sorted(ids, key=list(FanId).index)))) if ids else set()
    )
    limit = draw(st.one_of(st.none(), st.integers(1, 64)))
    min_fan = draw(st.integers(0, limit if limit is not None else 64))
    exclusions = {}
    for f in draw(st.sets(st.sampled_from(list(FanId)), max_size=6)):
        inner = draw(st.sets(st.sampled_from([g for g in FanId if g is not f]), max_size=4))
        if inner:
            exclusions[f] = frozenset(inner)
    changes: dict[str, object] = {
        "name": draw(_names),
        "description": draw(st.text(max_size=30)),
        "min_fan": min_fan,
        "limit": limit,
        "fan": fan,
        "limit_hands": frozenset(limit_hands),
        "exclusions": exclusions,
        "seven_pairs": F.SEVEN_PAIRS in fan,
        "bonus_win_seven": F.SEVEN_BONUS in fan and draw(st.booleans()),
        "dead_wall": draw(st.sampled_from([0, 14, 16])),
        "match_lengths": tuple(
            draw(st.lists(st.sampled_from(MATCH_LENGTHS), min_size=1, max_size=4, unique=True))
        ),
    }
    for key in SWITCHES:
        if key in changes:
            continue
        if key in _ENUMS:
            changes[key] = draw(st.sampled_from(list(_ENUMS[key])))
        elif isinstance(getattr(base, key), bool):
            changes[key] = draw(st.booleans())
    payment = dataclasses.replace(
        base.payment,
        gun=draw(st.sampled_from(list(GunScheme))),
        discarder_shares=draw(st.integers(2, 4)),
        false_win=draw(st.sampled_from(list(FalseWinPenalty))),
        liability_scope=draw(st.sampled_from(list(LiabilityScope))),
        zero_fan_share=draw(st.sampled_from([0, 0.5, 1, 1.5])),
        stake=draw(st.one_of(st.none(), st.integers(1, 10_000))),
    )
    changes["payment"] = payment
    return dataclasses.replace(base, **changes)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rulesets())
def test_any_ruleset_round_trips(r: Ruleset) -> None:
    """ruleset_to_toml writes TOML that tomllib reads back to an equal Ruleset."""
    assert loads_ruleset(ruleset_to_toml(r)) == r


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rulesets(), st.sampled_from(list(PRESETS)))
def test_any_ruleset_round_trips_as_a_diff(r: Ruleset, base: str) -> None:
    """Written as `preset = …` plus differences it also loads back equal."""
    assert loads_ruleset(ruleset_to_toml(r, base=get_preset(base))) == r
