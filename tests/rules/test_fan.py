"""FanId: a stable id with 繁/简/English names for every pattern of docs/rules.md §8."""

from __future__ import annotations

import pytest

from hkmahjong.rules import FanCategory, FanId, fan_id_from_text

# Every pattern name docs/rules.md §8 lists: the parlor table, the ML list (seed 002), the bonus-tile
# wins and the optional 自訂 list (W1/W2/C). Each must resolve to exactly the id given.
RULES_MD_8_NAMES: dict[str, FanId] = {
    # §8 table (parlor default)
    "雞糊": FanId.CHICKEN,
    "平糊": FanId.ALL_CHOWS,
    "自摸": FanId.SELF_DRAWN,
    "門前清": FanId.CONCEALED_HAND,
    "中": FanId.RED_DRAGON,
    "發": FanId.GREEN_DRAGON,
    "白": FanId.WHITE_DRAGON,
    "門風": FanId.SEAT_WIND,
    "圈風": FanId.PREVAILING_WIND,
    "搶槓": FanId.ROBBING_KONG,
    "海底撈月": FanId.LAST_DRAW,
    "海底炮": FanId.LAST_DISCARD,
    "正花": FanId.SEAT_BONUS,
    "無花": FanId.NO_BONUS,
    "花上自摸": FanId.BONUS_REPLACEMENT,
    "槓上開花": FanId.KONG_REPLACEMENT,
    "一台花": FanId.BONUS_SET,
    "對對糊": FanId.ALL_PUNGS,
    "混一色": FanId.HALF_FLUSH,
    "花幺九": FanId.MIXED_TERMINALS,
    "混老頭": FanId.MIXED_TERMINALS,
    "小三元": FanId.SMALL_DRAGONS,
    "小四喜": FanId.SMALL_WINDS,
    "清一色": FanId.FULL_FLUSH,
    "大三元": FanId.GREAT_DRAGONS,
    "槓上槓": FanId.DOUBLE_KONG_REPLACEMENT,
    "連槓開花": FanId.DOUBLE_KONG_REPLACEMENT,
    "坎坎糊": FanId.FOUR_CONCEALED_PUNGS,
    "八仙過海": FanId.EIGHT_BONUS,
    "大花糊": FanId.EIGHT_BONUS,
    "字一色": FanId.ALL_HONOURS,
    "清幺九": FanId.ALL_TERMINALS,
    "九蓮寶燈": FanId.NINE_GATES,
    "天糊": FanId.HEAVENLY,
    "地糊": FanId.EARTHLY,
    "人糊": FanId.HUMAN,
    "大四喜": FanId.GREAT_WINDS,
    "十三幺": FanId.THIRTEEN_ORPHANS,
    "十八羅漢": FanId.FOUR_KONGS,
    # bonus-tile wins
    "花糊": FanId.SEVEN_BONUS,
    # ML list (seed 002) under its own spellings
    "雞胡": FanId.CHICKEN,
    "平胡": FanId.ALL_CHOWS,
    "對對胡": FanId.ALL_PUNGS,
    "簡簡糊": FanId.FOUR_CONCEALED_PUNGS,
    "清么九": FanId.ALL_TERMINALS,
    "十三么": FanId.THIRTEEN_ORPHANS,
    "天胡": FanId.HEAVENLY,
    "地胡": FanId.EARTHLY,
    "花么": FanId.MIXED_TERMINALS,
    # optional 自訂 patterns
    "一般高": FanId.TWO_IDENTICAL_CHOWS,
    "一般低": FanId.TWO_SHIFTED_CHOWS,
    "缺門": FanId.MISSING_SUIT,
    "冚手糊": FanId.EARLY_READY,
    "冧手糊": FanId.EARLY_READY,
    "三般高": FanId.THREE_IDENTICAL_CHOWS,
    "三般低": FanId.THREE_SHIFTED_CHOWS,
    "一條龍": FanId.PURE_STRAIGHT,
    "人糊 (食出銃)": FanId.HUMAN_DISCARD,
    "鐘鼓齊鳴": FanId.LAST_TILE_KONG,
    "鏡糊糊": FanId.MIRRORED_CHOWS,
    "兩般高": FanId.TWO_DOUBLE_CHOWS,
    "兩般低": FanId.TWO_DOUBLE_SHIFTED_CHOWS,
    "四般高": FanId.FOUR_IDENTICAL_CHOWS,
    "四般低": FanId.FOUR_SHIFTED_CHOWS,
    "三喜臨門": FanId.THREE_WIND_PUNGS,
    "七對子": FanId.SEVEN_PAIRS,
    "三槓子": FanId.THREE_KONGS,
    "雙色同刻": FanId.TWO_SUIT_SAME_PUNGS,
    "四歸四": FanId.FOUR_IN_CHOWS,
    "混幺九": FanId.TERMINAL_PUNGS_HONOUR_PAIR,
    "萬綠叢中一點紅": FanId.GREEN_WITH_RED,
    "百萬石": FanId.MILLION_STONES,
    "藍一色": FanId.ALL_BLUE,
    "綠一色": FanId.ALL_GREEN,
    "紅孔雀": FanId.RED_PEACOCK,
}


@pytest.mark.parametrize(("name", "expected"), sorted(RULES_MD_8_NAMES.items()))
def test_every_rules_md_8_pattern_has_an_id(name: str, expected: FanId) -> None:
    """docs/rules.md §8: every listed pattern (standard, ML, bonus, 自訂) resolves to its own id."""
    assert fan_id_from_text(name) is expected


def test_every_id_is_named_by_rules_md() -> None:
    """No id without a docs/rules.md §8 pattern behind it."""
    assert set(RULES_MD_8_NAMES.values()) == set(FanId)


def test_values_are_stable_names() -> None:
    """Stable string values equal the member names (they appear in TOML and JSON output)."""
    for f in FanId:
        assert f.value == f.name
        assert FanId(f.value) is f


def test_batch_formats_example_ids() -> None:
    """docs/calculator.md, *Batches* output example: RED_DRAGON 中, LAST_DISCARD 海底炮, SEAT_BONUS 正花."""
    assert (FanId.RED_DRAGON.zh, FanId.RED_DRAGON.en) == ("中", "Red dragon pung")
    assert (FanId.LAST_DISCARD.zh, FanId.LAST_DISCARD.en) == ("海底炮", "Win on the last discard")
    assert (FanId.SEAT_BONUS.zh, FanId.SEAT_BONUS.en) == ("正花", "Own bonus tile")


def test_wind_and_dragon_ids_are_separate() -> None:
    """Seat and prevailing wind pungs, and each dragon, are separate ids (雙番東 = two items)."""
    ids = {FanId.SEAT_WIND, FanId.PREVAILING_WIND, FanId.RED_DRAGON, FanId.GREEN_DRAGON}
    assert len(ids | {FanId.WHITE_DRAGON}) == 5


@pytest.mark.parametrize("f", list(FanId))
def test_names_and_metadata_present(f: FanId) -> None:
    """Each id has 繁體, 简体 and English names, a description and a seed source."""
    assert f.zh and f.zh_hans and f.en and f.description and f.source
    assert f.label("zh") == f.zh and f.label("zh_hans") == f.zh_hans and f.label("en") == f.en
    assert any(tag in f.source for tag in ("W1", "W2", "C ", "ML", "P "))


def test_names_are_unique() -> None:
    """No two ids share a 繁體 or English name (the calculator prints them side by side)."""
    assert len({f.zh for f in FanId}) == len(FanId)
    assert len({f.en for f in FanId}) == len(FanId)


def test_simplified_names_differ_where_traditional() -> None:
    """简体 uses simplified characters: 門前清 → 门前清, 槓上開花 → 杠上开花, 十八羅漢 → 十八罗汉."""
    assert FanId.CONCEALED_HAND.zh_hans == "门前清"
    assert FanId.KONG_REPLACEMENT.zh_hans == "杠上开花"
    assert FanId.FOUR_KONGS.zh_hans == "十八罗汉"
    assert fan_id_from_text("杠上开花") is FanId.KONG_REPLACEMENT


def test_categories() -> None:
    """The 自訂 list is OPTIONAL, 花糊/八仙過海 BONUS, the rest STANDARD."""
    assert FanId.SEVEN_PAIRS.category is FanCategory.OPTIONAL
    assert FanId.SEVEN_BONUS.category is FanCategory.BONUS
    assert FanId.EIGHT_BONUS.category is FanCategory.BONUS
    assert FanId.ALL_PUNGS.category is FanCategory.STANDARD
    assert sum(f.category is FanCategory.OPTIONAL for f in FanId) == 25


def test_per_occurrence() -> None:
    """P: 正花 "每只 1 番" and 一台花 "每台 2 番" are valued per occurrence; nothing else is."""
    assert {f for f in FanId if f.per_occurrence} == {FanId.SEAT_BONUS, FanId.BONUS_SET}


def test_lookup_is_case_insensitive_and_rejects_unknown() -> None:
    """Ids and English names resolve in any case; unknown text gives None."""
    assert fan_id_from_text(" all_pungs ") is FanId.ALL_PUNGS
    assert fan_id_from_text("all pungs") is FanId.ALL_PUNGS
    assert fan_id_from_text("NOT_A_PATTERN") is None
