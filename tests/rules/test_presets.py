"""Each preset follows the seed docs/rules.md names for it, clause by clause; where seeds disagree, each test
says which preset follows which seed. Seeds: W1 000, C 001, ML 002, P 003, W2 004."""

from __future__ import annotations

import pytest

from hkmahjong.errors import RulesetError
from hkmahjong.rules import (
    PRESETS,
    DealBonusWin,
    FanCategory,
    FanId,
    LastTileRule,
    PassRule,
    get_preset,
    preset_names,
)
from hkmahjong.rules.presets import OPTIONAL_LIMIT_HANDS, OPTIONAL_VALUES

F = FanId
DRAGONS = {F.RED_DRAGON, F.GREEN_DRAGON, F.WHITE_DRAGON}

# docs/rules.md §8 table, the parlor default: (pattern, fan, clause)
PARLOR_TABLE = [
    (F.CHICKEN, 0, "W2 正統 零番 雞糊"),
    (F.ALL_CHOWS, 1, "W2 正統 一番 平糊"),
    (F.SELF_DRAWN, 1, "W2 正統 一番 自摸"),
    (F.CONCEALED_HAND, 1, "W2 正統 一番 門前清"),
    (F.RED_DRAGON, 1, "W2 番牌 三元牌"),
    (F.GREEN_DRAGON, 1, "W2 番牌 三元牌"),
    (F.WHITE_DRAGON, 1, "W2 番牌 三元牌"),
    (F.SEAT_WIND, 1, "P 门风 计一番"),
    (F.PREVAILING_WIND, 1, "P 圈风 计一番"),
    (F.ROBBING_KONG, 1, "P 抢杠 计 1 番"),
    (F.LAST_DRAW, 1, "P 海底捞月 1 番"),
    (F.LAST_DISCARD, 1, "P 海底炮 1 番"),
    (F.SEAT_BONUS, 1, "P 正花 每只 1 番"),
    (F.NO_BONUS, 1, "P 无花 1 番"),
    (F.BONUS_REPLACEMENT, 1, "P 花上自摸 1 番，另加自摸"),
    (F.KONG_REPLACEMENT, 1, "P 杠上开花 1 番，另加自摸"),
    (F.BONUS_SET, 2, "P 一台花 每台 2 番"),
    (F.ALL_PUNGS, 3, "W2 三番 對對糊"),
    (F.HALF_FLUSH, 3, "W2 三番 混一色"),
    (F.MIXED_TERMINALS, 4, "W2 四番 花幺九"),
    (F.SMALL_DRAGONS, 5, "W2 五番 小三元"),
    (F.SMALL_WINDS, 6, "W2 六番 小四喜"),
    (F.FULL_FLUSH, 7, "W2 七番 清一色"),
    (F.GREAT_DRAGONS, 8, "W2 八番 大三元"),
    (F.DOUBLE_KONG_REPLACEMENT, 8, "W2 八番 連槓開花"),
    (F.FOUR_CONCEALED_PUNGS, 8, "W2 八番 坎坎胡"),
    (F.EIGHT_BONUS, 8, "P 八仙过海 8 番"),
    (F.ALL_HONOURS, 10, "W2 十番（例牌）字一色"),
    (F.ALL_TERMINALS, 10, "W2 十番（例牌）清幺九"),
    (F.NINE_GATES, 10, "W2 十番（例牌）九蓮寶燈"),
    (F.HEAVENLY, 13, "W2 十三番（例牌）天糊"),
    (F.EARTHLY, 13, "W2 十三番（例牌）地糊"),
    (F.HUMAN, 13, "W2 十三番（例牌）人糊"),
    (F.GREAT_WINDS, 13, "W2 十三番（例牌）大四喜"),
    (F.THIRTEEN_ORPHANS, 13, "W2 十三番（例牌）十三幺"),
    (F.FOUR_KONGS, 13, "W2 十三番（例牌）十八羅漢"),
]
W2_LIMITS = {
    F.ALL_HONOURS, F.ALL_TERMINALS, F.NINE_GATES, F.HEAVENLY, F.EARTHLY, F.HUMAN,
    F.GREAT_WINDS, F.THIRTEEN_ORPHANS, F.FOUR_KONGS,
}  # fmt: skip


@pytest.mark.parametrize(("fid", "fan", "clause"), PARLOR_TABLE, ids=[c for *_, c in PARLOR_TABLE])
def test_parlor_fan_table(fid: FanId, fan: int, clause: str) -> None:
    """docs/rules.md §8 table: the parlor's value of each pattern (clause in the test id)."""
    assert get_preset("parlor").fan[fid] == fan


def test_parlor_plays_exactly_the_table() -> None:
    """docs/rules.md §8: 花糊 off in the parlor (P's bonus list is complete); every 自訂 pattern off."""
    parlor = get_preset("parlor")
    assert set(parlor.fan) == {f for f, _, _ in PARLOR_TABLE}
    assert F.SEVEN_BONUS not in parlor.fan and not parlor.bonus_win_seven
    assert not any(f.category is FanCategory.OPTIONAL for f in parlor.fan)


def test_parlor_limit_hands_and_limit() -> None:
    """P 上限十番, 三番起糊; W2 例牌 list; P "天胡…地胡…两者都是爆棚牌"."""
    parlor = get_preset("parlor")
    assert (parlor.min_fan, parlor.limit) == (3, 10)
    assert parlor.limit_hands == W2_LIMITS
    assert all(parlor.limit_value(f) == 10 for f in W2_LIMITS)


def test_parlor_play_switches_follow_p() -> None:
    """P: 截胡 (no 一炮多響, no 十三幺 exemption); no dead wall; no win-過水; 十三幺 robs a
    concealed kong; 七對子 not a win; bonus tiles played; P's match lengths."""
    p = get_preset("parlor")
    assert not p.multiple_winners  # P "由出牌者之后最先轮到的一家食（截胡）"
    assert not p.thirteen_orphans_head_bump_exempt  # P 截胡 without exception (W2 differs)
    assert p.dead_wall == 0  # P "麻雀馆不留牌尾"
    assert p.pass_rule is PassRule.NONE  # P "放过一次食胡，亦不影响你之后再食"
    assert p.rob_concealed_kong_thirteen  # P "唯一例外是等十三么的玩家"
    assert not p.seven_pairs  # P "七对子并非港式麻雀的胡牌"
    assert p.bonus_tiles
    assert p.match_lengths == ("four-rounds", "8-hands", "16-hands", "bankruptcy", "online")


def test_parlor_where_p_is_silent_follows_w2() -> None:
    """P silent → W2 正統: 海底 however won (P names both cases); 天糊 not after a concealed kong
    (W2 天糊). (Pung 過水 and 食替 are not "P silent": P "每只打出的牌，其余三家都可以取" turns them
    off, issue 31 item 8 — tests/rules/test_preset_versions.py.)"""
    p = get_preset("parlor")
    assert not p.pung_pass_rule and not p.no_swap_discard
    assert p.last_tile is LastTileRule.ANY
    assert not p.heavenly_after_concealed_kong
    assert p.bonus_win_at_deal is DealBonusWin.HEAVENLY_EARTHLY


def test_seeds_disagree_on_concealed_kongs() -> None:
    """坎坎糊 with concealed kongs: parlor follows P ("暗杠计算坎坎胡时仍当暗刻"), qingzhang W2
    ("沒有碰、槓過"). 門前清 after a concealed kong: lost in both (P standard, W2 包括暗槓)."""
    assert get_preset("parlor").four_concealed_pungs_kongs
    assert not get_preset("qingzhang").four_concealed_pungs_kongs
    assert not get_preset("parlor").concealed_kong_keeps_concealed
    assert not get_preset("qingzhang").concealed_kong_keeps_concealed


def test_seeds_disagree_on_head_bump() -> None:
    """十三幺 head bump: parlor follows P (截胡 without exception), qingzhang W2 (不能被截糊)."""
    assert not get_preset("parlor").thirteen_orphans_head_bump_exempt
    assert get_preset("qingzhang").thirteen_orphans_head_bump_exempt


def test_seeds_disagree_on_kankan_self_draw() -> None:
    """坎坎糊 self-drawn only: all presets follow C fn. 25 / ML / W1 fn. 22 (docs/rules.md §8)."""
    for r in PRESETS.values():
        assert not r.four_concealed_pungs_any_win
        assert not r.four_concealed_pungs_single_wait_discard


def test_seeds_disagree_on_all_chows_pair() -> None:
    """平糊 honour pair: parlor/qingzhang follow C fn. 3 (allowed), ml follows ML (suit pair)."""
    assert get_preset("parlor").all_chows_honour_pair
    assert get_preset("qingzhang").all_chows_honour_pair
    assert not get_preset("ml").all_chows_honour_pair


# --- exclusions: docs/rules.md §8 notes and its last paragraph ---------------------------------------
@pytest.mark.parametrize(
    ("hand", "included"),
    [
        # "a hand that must be concealed does not add 門前清"
        (F.THIRTEEN_ORPHANS, {F.CONCEALED_HAND}),
        (F.NINE_GATES, {F.CONCEALED_HAND, F.FULL_FLUSH}),  # "九蓮寶燈 does not add 清一色"
        (F.HEAVENLY, {F.CONCEALED_HAND, F.SELF_DRAWN}),
        (F.EARTHLY, {F.CONCEALED_HAND}),
        (F.HUMAN, {F.CONCEALED_HAND, F.SELF_DRAWN}),
        # "a hand that includes a self-draw (坎坎糊, 槓上槓, 八仙過海) does not add 自摸 again"
        (F.FOUR_CONCEALED_PUNGS, {F.ALL_PUNGS, F.CONCEALED_HAND, F.SELF_DRAWN}),
        (F.DOUBLE_KONG_REPLACEMENT, {F.KONG_REPLACEMENT, F.SELF_DRAWN}),
        (F.EIGHT_BONUS, {F.SELF_DRAWN, F.SEAT_BONUS, F.BONUS_SET}),  # P/W2 "8 in total"
        # "an all-pung hand (大四喜, 十八羅漢, 坎坎糊, 字一色, 清幺九, 花幺九) does not add 對對糊"
        (F.GREAT_WINDS, {F.ALL_PUNGS}),
        (F.FOUR_KONGS, {F.ALL_PUNGS}),
        (F.ALL_HONOURS, {F.ALL_PUNGS}),
        (F.ALL_TERMINALS, {F.ALL_PUNGS}),
        (F.MIXED_TERMINALS, {F.ALL_PUNGS}),
        # 小三元 includes those two pungs' 番牌 (W1); 大三元 its 番牌
        (F.SMALL_DRAGONS, DRAGONS),
        (F.GREAT_DRAGONS, DRAGONS),
        # 槓上開花 on the last tile does not add 海底撈月 (W1, W2); nor 花上自摸 (decision)
        (F.KONG_REPLACEMENT, {F.LAST_DRAW}),
        (F.BONUS_REPLACEMENT, {F.LAST_DRAW}),
    ],
)
def test_parlor_exclusions(hand: FanId, included: set[FanId]) -> None:
    """docs/rules.md §8 exclusions, as data in the parlor preset."""
    assert included <= get_preset("parlor").exclusions[hand]


@pytest.mark.parametrize(
    ("hand", "added"),
    [
        (F.MIXED_TERMINALS, DRAGONS | {F.SEAT_WIND, F.PREVAILING_WIND, F.HALF_FLUSH}),  # W1, W2
        (F.SMALL_DRAGONS, {F.HALF_FLUSH, F.ALL_PUNGS, F.ALL_HONOURS}),  # W2 小三元 可另計
        (F.SMALL_WINDS, {F.HALF_FLUSH, F.ALL_PUNGS, F.SEAT_WIND, F.PREVAILING_WIND} | DRAGONS),
        (F.FULL_FLUSH, {F.ALL_CHOWS, F.ALL_PUNGS}),  # W2 清一色 可另計平糊、對對糊
        (F.GREAT_DRAGONS, {F.HALF_FLUSH, F.ALL_PUNGS}),  # W2 大三元 可另計
        (F.DOUBLE_KONG_REPLACEMENT, DRAGONS | {F.ALL_PUNGS, F.HALF_FLUSH, F.FULL_FLUSH}),
        (F.KONG_REPLACEMENT, {F.SELF_DRAWN}),  # P "1 番，另加自摸"
        (F.BONUS_REPLACEMENT, {F.SELF_DRAWN}),  # P "1 番，另加自摸"
    ],
)
def test_parlor_patterns_that_stack(hand: FanId, added: set[FanId]) -> None:
    """docs/rules.md §8 "adds …": these are NOT excluded (W1/W2 "可另計")."""
    assert not (added & get_preset("parlor").exclusions.get(hand, frozenset()))


# --- qingzhang ---------------------------------------------------------------------------------
def test_qingzhang_is_w2_as_written() -> None:
    """docs/rules.md "Other presets": W2 正統 as written — 13-fan limit hands, 花糊 on (2 + 自摸),
    十三幺 not head-bumped, 海底 however won, 坎坎糊 without kongs."""
    q = get_preset("qingzhang")
    assert (q.min_fan, q.limit) == (3, 13)  # W2 三番起糊, 十三番（例牌）
    assert q.limit_hands == W2_LIMITS
    assert q.limit_value(F.HEAVENLY) == 13 and q.limit_value(F.ALL_HONOURS) == 10  # W2 headings
    assert q.bonus_win_seven and q.fan[F.SEVEN_BONUS] == 2  # W2 花糊 "計兩番加自摸一番"
    assert F.SELF_DRAWN not in q.exclusions.get(F.SEVEN_BONUS, frozenset())
    assert q.bonus_win_kong_replacement  # W2 花糊牌規 "槓上自摸花糊計四番自摸"
    assert q.bonus_win_decline  # W2 花糊牌規 1st bullet
    assert q.last_tile is LastTileRule.ANY  # W2 海底撈月 "食全局最後一隻牌"
    assert F.BONUS_REPLACEMENT not in q.fan  # 花上自摸 is P's, not W2's
    assert q.pass_rule is PassRule.SAME_WAIT  # W2 過水 bullets 2–3
    assert not q.false_win_below_minimum  # W2 詐糊 "番數不足不會被視為詐糊"
    for f, fan, _ in PARLOR_TABLE:
        if f is not F.BONUS_REPLACEMENT:
            assert q.fan[f] == fan, f


# --- ml ----------------------------------------------------------------------------------------
ML_TABLE = {
    F.CHICKEN: 0, F.ALL_CHOWS: 1, F.ALL_PUNGS: 3, F.HALF_FLUSH: 3, F.SMALL_DRAGONS: 5,
    F.FULL_FLUSH: 7, F.GREAT_DRAGONS: 8,
    # 額外番數表
    F.RED_DRAGON: 1, F.GREEN_DRAGON: 1, F.WHITE_DRAGON: 1, F.SEAT_WIND: 1, F.PREVAILING_WIND: 1,
    F.NO_BONUS: 1, F.SELF_DRAWN: 1, F.LAST_DRAW: 1, F.LAST_DISCARD: 1, F.KONG_REPLACEMENT: 1,
    F.ROBBING_KONG: 1, F.SEAT_BONUS: 1, F.MIXED_TERMINALS: 1, F.BONUS_SET: 2,
}  # fmt: skip
ML_LIMITS = {
    F.FOUR_CONCEALED_PUNGS, F.FOUR_KONGS, F.SMALL_WINDS, F.GREAT_WINDS, F.ALL_HONOURS,
    F.ALL_TERMINALS, F.NINE_GATES, F.THIRTEEN_ORPHANS, F.HEAVENLY, F.EARTHLY,
}  # fmt: skip


def test_ml_follows_seed_002() -> None:
    """ML 番數計番表 + 額外番數表: values, the 無限 list as 例牌, no 門前清, 海底撈月 either way."""
    m = get_preset("ml")
    assert {f: m.fan[f] for f in ML_TABLE} == ML_TABLE
    assert m.limit_hands == ML_LIMITS
    assert set(m.fan) == set(ML_TABLE) | ML_LIMITS  # nothing else: no 門前清, 八仙過海, 人糊 …
    assert F.CONCEALED_HAND not in m.fan
    assert all(m.limit_value(f) == m.limit for f in ML_LIMITS)
    assert m.min_fan == 1  # ML "1-4番是指一定要有一番牌才能胡牌"
    assert m.limit == m.min_fan + 10  # ML 付錢表 最低 … 最低+10
    assert not m.multiple_winners  # ML "只有一個玩家可以胡牌"
    assert m.last_tile is LastTileRule.ANY  # ML 海底撈月 "自摸或其他玩家打出…最後一隻牌"
    assert not m.seven_pairs and not m.bonus_win_seven
    assert {"one-hand", "east-round", "four-rounds"} == set(m.match_lengths)  # ML 單局 東圈 四圈
    assert m.exclusions[F.SMALL_DRAGONS] >= DRAGONS  # decision, as W1 (docs/rules.md)


# --- cuhk --------------------------------------------------------------------------------------
CUHK_LIMITS = {
    F.SMALL_WINDS, F.FOUR_CONCEALED_PUNGS, F.DOUBLE_KONG_REPLACEMENT, F.EIGHT_BONUS,
    F.ALL_HONOURS, F.ALL_TERMINALS, F.NINE_GATES, F.HEAVENLY, F.EARTHLY, F.THIRTEEN_ORPHANS,
    F.GREAT_WINDS, F.FOUR_KONGS,
}  # fmt: skip


def test_cuhk_lists_its_hands_as_10_fan_limits() -> None:
    """W1/W2 外部連結 中大雀皇之皇: 小四喜、坎坎糊、連槓開花、大花糊、字一色、清幺九、九子連環、
    天糊、地糊、十三幺、大四喜、十八羅漢 are all 10-fan limits; the rest is W2 正統."""
    c = get_preset("cuhk")
    assert c.limit == 10 and c.limit_hands == CUHK_LIMITS
    assert all(c.fan[f] == 10 for f in CUHK_LIMITS)
    assert F.HUMAN not in c.fan  # not in the competition's list (reading)
    assert c.fan[F.FULL_FLUSH] == 7 and c.fan[F.GREAT_DRAGONS] == 8  # W2 正統
    assert c.thirteen_orphans_head_bump_exempt  # W2 正統


# --- all presets -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("parlor", "parlor"), ("default", "parlor"), ("麻雀館", "parlor"), ("HK", "parlor"),
        ("qingzhang", "qingzhang"), ("清章", "qingzhang"), ("w2", "qingzhang"),
        ("ml", "ml"), ("ML", "ml"), ("cuhk", "cuhk"), ("中大", "cuhk"),
    ],
)  # fmt: skip
def test_get_preset_by_name_or_alias(alias: str, name: str) -> None:
    """Presets are found by name or alias, case-insensitive."""
    assert get_preset(alias) is PRESETS[name]


def test_unknown_preset_lists_the_allowed_names() -> None:
    """An unknown preset name raises RulesetError naming it and listing the presets."""
    with pytest.raises(RulesetError) as info:
        get_preset("mahjong-soul")
    message = str(info.value)
    assert "'mahjong-soul'" in message and all(n in message for n in preset_names())


def test_parlor_is_the_default_and_listed_first() -> None:
    """docs/rules.md: the parlor preset is the default."""
    assert preset_names()[0] == "parlor" and get_preset("default").name == "parlor"


def test_optional_values_cover_every_optional_pattern() -> None:
    """docs/rules.md §8 自訂 list: every optional pattern has its seed value ready for a table."""
    optional = {f for f in FanId if f.category is FanCategory.OPTIONAL}
    assert set(OPTIONAL_VALUES) == optional
    assert OPTIONAL_VALUES[F.SEVEN_PAIRS] == 3  # W2 自訂 三番
    assert OPTIONAL_VALUES[F.TERMINAL_PUNGS_HONOUR_PAIR] == 9  # C 混幺九 計九番
    assert OPTIONAL_VALUES[F.ALL_GREEN] == 13  # W2 自訂 十三番
    assert optional >= OPTIONAL_LIMIT_HANDS


def test_every_pattern_can_be_enabled_on_the_parlor() -> None:
    """Turning on every 自訂 pattern (and 花糊) gives a valid ruleset."""
    r = get_preset("parlor").with_fan(
        {**OPTIONAL_VALUES, F.SEVEN_BONUS: 2}, limit_hands=OPTIONAL_LIMIT_HANDS
    )
    assert set(r.fan) == set(FanId) and r.seven_pairs
