"""The scoring case table (cases.toml): every row scored and compared, plus the meta-test.

docs/rules.md §8: each row names the seed clause it checks; the meta-test fails when a pattern enabled
in any preset (or any 自訂 pattern) lacks a positive and a negative case.
"""

from __future__ import annotations

import pytest

from hkmahjong.hand import Hand
from hkmahjong.rules import FanId
from hkmahjong.rules.presets import get_preset
from hkmahjong.scoring import score_hand

from .casetable import Case, case_ruleset, load_cases, parse_ctx

CASES = load_cases()
PRESETS = ("parlor", "qingzhang", "ml", "cuhk")


def _describe(case: Case, result: object) -> str:
    return f"case {case.id} [{case.src}] hand {case.hand!r} ctx {case.ctx!r}: got {result!r}"


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case(case: Case) -> None:
    """One row of the table: validity, reason, total, the exact items, and its negatives."""
    rules = case_ruleset(case)
    result = score_hand(Hand.from_text(case.hand, allow_any_count=True), parse_ctx(case.ctx), rules)
    got_items = {i.fan_id: i.fan for i in result.items}
    msg = _describe(case, result)
    assert result.valid_win == case.valid, msg
    assert result.reason == case.reason, msg
    assert result.total_fan == case.total, msg
    assert got_items == case.items, msg
    if case.is_limit is not None:
        assert result.is_limit == case.is_limit, msg
    for neg in case.neg:
        assert neg in rules.fan, f"case {case.id}: negative {neg.value} is not played by its rules"
        assert neg not in got_items, msg
    assert sum(i.fan for i in result.items) >= result.total_fan or not result.items, msg


def test_table_is_large_and_unique() -> None:
    """≥ 220 rows with unique ids, each naming a seed clause."""
    ids = [c.id for c in CASES]
    assert len(ids) >= 220, len(ids)
    assert len(set(ids)) == len(ids), sorted({i for i in ids if ids.count(i) > 1})
    seeds = ("W1", "W2", "C ", "C fn", "P ", "ML", "docs/rules.md", "CUHK", "BATCH", "HolidaySmart")
    for c in CASES:
        assert any(s in c.src or c.src.startswith(s.strip()) for s in seeds), c.id


def test_every_preset_has_cases() -> None:
    """Each preset is exercised by at least ten rows."""
    for name in PRESETS:
        assert sum(1 for c in CASES if c.rules == name) >= 10, name


def test_meta_every_pattern_has_positive_and_negative() -> None:
    """OpenSpiel-style meta-test: every pattern enabled in a preset, and every 自訂 pattern, has a
    positive row (it is counted) and a negative row (enabled, not counted)."""
    enabled: set[FanId] = set()
    for name in PRESETS:
        enabled |= set(get_preset(name).fan)
    wanted = enabled | set(FanId)
    positive = {f for c in CASES for f in c.items}
    negative = {f for c in CASES for f in c.neg}
    missing_pos = sorted(f.value for f in wanted - positive)
    missing_neg = sorted(f.value for f in wanted - negative)
    assert not missing_pos, f"patterns without a positive case: {missing_pos}"
    assert not missing_neg, f"patterns without a negative case: {missing_neg}"


def test_meta_every_exclusion_is_exercised() -> None:
    """Every exclusion pair of the parlor preset whose both sides can co-occur shows up in a row
    where the including pattern is counted and the included one is not."""
    parlor = get_preset("parlor")
    seen: set[tuple[FanId, FanId]] = set()
    for c in CASES:
        if c.rules != "parlor" or c.overrides:
            continue
        for f in c.items:
            for g in parlor.exclusions.get(f, ()):
                if g not in c.items:
                    seen.add((f, g))
    wanted = {
        (FanId.MIXED_TERMINALS, FanId.ALL_PUNGS),
        (FanId.SMALL_DRAGONS, FanId.WHITE_DRAGON),
        (FanId.GREAT_DRAGONS, FanId.RED_DRAGON),
        (FanId.FOUR_CONCEALED_PUNGS, FanId.ALL_PUNGS),
        (FanId.FOUR_CONCEALED_PUNGS, FanId.SELF_DRAWN),
        (FanId.DOUBLE_KONG_REPLACEMENT, FanId.KONG_REPLACEMENT),
        (FanId.EIGHT_BONUS, FanId.BONUS_SET),
        (FanId.EIGHT_BONUS, FanId.SELF_DRAWN),
        (FanId.NINE_GATES, FanId.FULL_FLUSH),
        (FanId.KONG_REPLACEMENT, FanId.LAST_DRAW),
    }
    assert wanted <= seen, sorted((a.value, b.value) for a, b in wanted - seen)
