"""計番教學: every played pattern has a live-scored example; the score table is the ruleset's."""

from __future__ import annotations

import pytest

from hkmahjong.rules import FanId
from hkmahjong.rules.presets import get_preset, preset_names
from hkmahjong.scoring import score_hand
from hkmahjong.scoring.payment import payment_summary
from hkmahjong.server.tutorial import (
    EXAMPLES,
    example_for,
    parse_context,
    played,
    score_rows,
    worked_examples,
)


@pytest.mark.parametrize("preset", preset_names())
def test_every_played_pattern_has_an_example_that_scores_it(preset: str) -> None:
    ruleset = get_preset(preset)
    for fan_id, ex in worked_examples(preset):
        assert ex is not None, f"{preset}: no example in EXAMPLES scores {fan_id.value}"
        assert fan_id in ex.result.fan_ids
        assert ex.result.valid_win, f"{preset} {fan_id.value}: {ex.result.message}"
        again = score_hand(ex.hand, ex.ctx, ruleset)
        assert again == ex.result


def test_played_is_the_rulesets_fan_table() -> None:
    ruleset = get_preset("ml")
    assert set(played(ruleset)) == {f for f in FanId if ruleset.plays(f)}
    assert FanId.CONCEALED_HAND not in played(ruleset)


def test_an_example_not_scoring_its_pattern_is_skipped() -> None:
    # 平糊 with an honour pair is no 平糊 under ml (ML 平胡 needs a suit pair), so an example
    # table holding only such a hand has no example for it under ml.
    ruleset = get_preset("ml")
    assert example_for(FanId.ALL_CHOWS, ruleset) is not None
    saved = EXAMPLES[FanId.ALL_CHOWS]
    try:
        from hkmahjong.server.tutorial import Example

        EXAMPLES[FanId.ALL_CHOWS] = (Example("123m456p789s234m11z"),)
        assert example_for(FanId.ALL_CHOWS, ruleset) is None
        assert example_for(FanId.ALL_CHOWS, get_preset("parlor")) is not None
    finally:
        EXAMPLES[FanId.ALL_CHOWS] = saved


def test_parlor_score_table_matches_the_seed() -> None:
    # P 付款: "在标准的半辣上表中，三番是 4 分、六番是 16 分、十番是 64 分"; 自摸 三家各付一份;
    # 全铳 出铳者独付三份; 半铳 出铳者付两份，其余两家各付一份.
    rows = {(r.fan, r.is_limit): r for r in score_rows(get_preset("parlor"))}
    assert [rows[(f, False)].share for f in (3, 6, 10)] == [4, 16, 64]
    r6 = rows[(6, False)]
    assert (r6.self_draw_each, r6.full_gun, r6.half_gun_discarder, r6.half_gun_others) == (
        16,
        48,
        32,
        16,
    )
    assert min(f for f, _ in rows) == 3 and rows[(10, True)].share == 64


@pytest.mark.parametrize("preset", preset_names())
def test_score_rows_come_from_payment_summary(preset: str) -> None:
    ruleset = get_preset(preset)
    for row in score_rows(ruleset):
        p = payment_summary(row.fan, ruleset, is_limit=row.is_limit)
        assert (row.share, row.full_gun, row.half_gun_discarder) == (
            p["share"],
            p["discarder_full_gun"],
            p["discarder_half_gun"],
        )


def test_context_tokens() -> None:
    ctx = parse_context("self seat=S round=W win=5s last")
    assert ctx.self_drawn and ctx.last_tile and ctx.winning_tile is not None
    with pytest.raises(ValueError, match="unknown example context token 'fly'"):
        parse_context("fly")
