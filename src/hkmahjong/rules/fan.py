"""番種 fan patterns: a stable id for every pattern of docs/rules.md §8 with its names and source.

Every pattern the seeds name has one :class:`FanId`. Its string value is stable (it appears in TOML
rulesets and in the JSON output of ``hkmj score``), so never rename one. Names come in 繁體 as in the
seeds (``.zh``), 简体 (``.zh_hans``) and English (``.en``); ``.description`` says what the pattern
is, ``.category`` which list it comes from and ``.source`` the seed clause that defines it.

Some ids are counted per occurrence; their value in a ruleset is the fan of ONE occurrence
(``per_occurrence``): 正花 per matching bonus tile, 一台花 per complete set.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

__all__ = ["FanCategory", "FanId", "FanInfo", "fan_id_from_text"]


class FanCategory(Enum):
    """Which list of docs/rules.md §8 a pattern belongs to (番種分類); ML patterns are standard ones."""

    STANDARD = "standard"  # W2 正統牌型 / the parlor list
    BONUS = "bonus"  # 花糊 and other bonus-tile wins
    OPTIONAL = "optional"  # 自訂牌型 (W1/W2/C), off by default


@dataclass(frozen=True, slots=True)
class FanInfo:
    """Names, description and source of one 番種."""

    zh: str
    zh_hans: str
    en: str
    description: str
    category: FanCategory
    source: str
    aliases: tuple[str, ...] = ()
    per_occurrence: bool = False


class FanId(Enum):
    """番種 id: one stable string per pattern of docs/rules.md §8 (standard, ML, bonus, 自訂)."""

    # --- standard list (W2 正統 / parlor) ---
    CHICKEN = "CHICKEN"
    ALL_CHOWS = "ALL_CHOWS"
    SELF_DRAWN = "SELF_DRAWN"
    CONCEALED_HAND = "CONCEALED_HAND"
    RED_DRAGON = "RED_DRAGON"
    GREEN_DRAGON = "GREEN_DRAGON"
    WHITE_DRAGON = "WHITE_DRAGON"
    SEAT_WIND = "SEAT_WIND"
    PREVAILING_WIND = "PREVAILING_WIND"
    ROBBING_KONG = "ROBBING_KONG"
    LAST_DRAW = "LAST_DRAW"
    LAST_DISCARD = "LAST_DISCARD"
    SEAT_BONUS = "SEAT_BONUS"
    NO_BONUS = "NO_BONUS"
    BONUS_REPLACEMENT = "BONUS_REPLACEMENT"
    KONG_REPLACEMENT = "KONG_REPLACEMENT"
    BONUS_SET = "BONUS_SET"
    ALL_PUNGS = "ALL_PUNGS"
    HALF_FLUSH = "HALF_FLUSH"
    MIXED_TERMINALS = "MIXED_TERMINALS"
    SMALL_DRAGONS = "SMALL_DRAGONS"
    SMALL_WINDS = "SMALL_WINDS"
    FULL_FLUSH = "FULL_FLUSH"
    GREAT_DRAGONS = "GREAT_DRAGONS"
    DOUBLE_KONG_REPLACEMENT = "DOUBLE_KONG_REPLACEMENT"
    FOUR_CONCEALED_PUNGS = "FOUR_CONCEALED_PUNGS"
    ALL_HONOURS = "ALL_HONOURS"
    ALL_TERMINALS = "ALL_TERMINALS"
    NINE_GATES = "NINE_GATES"
    HEAVENLY = "HEAVENLY"
    EARTHLY = "EARTHLY"
    HUMAN = "HUMAN"
    GREAT_WINDS = "GREAT_WINDS"
    THIRTEEN_ORPHANS = "THIRTEEN_ORPHANS"
    FOUR_KONGS = "FOUR_KONGS"
    # --- bonus-tile wins ---
    SEVEN_BONUS = "SEVEN_BONUS"
    EIGHT_BONUS = "EIGHT_BONUS"
    # --- optional 自訂 patterns (W1/W2/C) ---
    TWO_IDENTICAL_CHOWS = "TWO_IDENTICAL_CHOWS"
    TWO_SHIFTED_CHOWS = "TWO_SHIFTED_CHOWS"
    MISSING_SUIT = "MISSING_SUIT"
    EARLY_READY = "EARLY_READY"
    THREE_IDENTICAL_CHOWS = "THREE_IDENTICAL_CHOWS"
    THREE_SHIFTED_CHOWS = "THREE_SHIFTED_CHOWS"
    PURE_STRAIGHT = "PURE_STRAIGHT"
    HUMAN_DISCARD = "HUMAN_DISCARD"
    LAST_TILE_KONG = "LAST_TILE_KONG"
    MIRRORED_CHOWS = "MIRRORED_CHOWS"
    TWO_DOUBLE_CHOWS = "TWO_DOUBLE_CHOWS"
    TWO_DOUBLE_SHIFTED_CHOWS = "TWO_DOUBLE_SHIFTED_CHOWS"
    FOUR_IDENTICAL_CHOWS = "FOUR_IDENTICAL_CHOWS"
    FOUR_SHIFTED_CHOWS = "FOUR_SHIFTED_CHOWS"
    THREE_WIND_PUNGS = "THREE_WIND_PUNGS"
    SEVEN_PAIRS = "SEVEN_PAIRS"
    THREE_KONGS = "THREE_KONGS"
    TWO_SUIT_SAME_PUNGS = "TWO_SUIT_SAME_PUNGS"
    FOUR_IN_CHOWS = "FOUR_IN_CHOWS"
    TERMINAL_PUNGS_HONOUR_PAIR = "TERMINAL_PUNGS_HONOUR_PAIR"
    GREEN_WITH_RED = "GREEN_WITH_RED"
    MILLION_STONES = "MILLION_STONES"
    ALL_BLUE = "ALL_BLUE"
    ALL_GREEN = "ALL_GREEN"
    RED_PEACOCK = "RED_PEACOCK"

    @property
    def info(self) -> FanInfo:
        """All the metadata (names, description, source) of this 番種."""
        return _INFO[self]

    @property
    def zh(self) -> str:
        """Traditional Chinese name (繁體, as in the seeds)."""
        return _INFO[self].zh

    @property
    def zh_hans(self) -> str:
        """Simplified Chinese name (简体)."""
        return _INFO[self].zh_hans

    @property
    def en(self) -> str:
        """English name."""
        return _INFO[self].en

    @property
    def description(self) -> str:
        """One-sentence English description of the pattern."""
        return _INFO[self].description

    @property
    def category(self) -> FanCategory:
        """Which list (standard, bonus, ML, optional) the pattern comes from."""
        return _INFO[self].category

    @property
    def source(self) -> str:
        """The seed clause that defines the pattern (e.g. "W2 正統 三番")."""
        return _INFO[self].source

    @property
    def per_occurrence(self) -> bool:
        """True when the ruleset value is per occurrence (正花 per tile, 一台花 per set)."""
        return _INFO[self].per_occurrence

    def label(self, lang: str = "zh") -> str:
        """The name in ``lang`` ("zh", "zh_hans" or "en"); unknown languages fall back to English."""
        if lang == "zh":
            return self.zh
        if lang in ("zh_hans", "zh-hans", "zh_cn"):
            return self.zh_hans
        return self.en


S, B, OPT = FanCategory.STANDARD, FanCategory.BONUS, FanCategory.OPTIONAL

_INFO: dict[FanId, FanInfo] = {
    FanId.CHICKEN: FanInfo(
        "雞糊",
        "鸡糊",
        "Chicken hand",
        "A complete hand with no other pattern (bonus tiles aside).",
        S,
        "W2 正統 零番; ML 雞胡",
        ("雞胡",),
    ),
    FanId.ALL_CHOWS: FanInfo(
        "平糊",
        "平糊",
        "All chows",
        "Four chows and a pair, no pung or kong.",
        S,
        "W2 正統 一番; C 平糊 fn.3 (honour pair allowed); ML 平胡",
        ("平胡",),
    ),
    FanId.SELF_DRAWN: FanInfo(
        "自摸",
        "自摸",
        "Self-drawn",
        "The winning tile was drawn by the winner.",
        S,
        "W2 正統 一番; P 胡牌方式",
    ),
    FanId.CONCEALED_HAND: FanInfo(
        "門前清",
        "门前清",
        "Concealed hand",
        "No chow, pung or kong (concealed kong included) was declared.",
        S,
        "W2 正統 一番 門前清; P 暗槓 note",
        ("門清",),
    ),
    FanId.RED_DRAGON: FanInfo(
        "中",
        "中",
        "Red dragon pung",
        "A pung or kong of 紅中.",
        S,
        "W2 正統 一番 番牌 三元牌; ML 中/發/白刻子",
        ("紅中",),
    ),
    FanId.GREEN_DRAGON: FanInfo(
        "發",
        "发",
        "Green dragon pung",
        "A pung or kong of 發財.",
        S,
        "W2 正統 一番 番牌 三元牌; ML 中/發/白刻子",
        ("發財",),
    ),
    FanId.WHITE_DRAGON: FanInfo(
        "白",
        "白",
        "White dragon pung",
        "A pung or kong of 白板.",
        S,
        "W2 正統 一番 番牌 三元牌; ML 中/發/白刻子",
        ("白板",),
    ),
    FanId.SEAT_WIND: FanInfo(
        "門風",
        "门风",
        "Seat wind pung",
        "A pung or kong of the winner's seat wind.",
        S,
        "W2 正統 一番 番牌 風牌; P 门风; ML 門風刻子",
    ),
    FanId.PREVAILING_WIND: FanInfo(
        "圈風",
        "圈风",
        "Prevailing wind pung",
        "A pung or kong of the round's prevailing wind.",
        S,
        "W2 正統 一番 番牌 風牌; P 圈风; ML 圈風刻子",
    ),
    FanId.ROBBING_KONG: FanInfo(
        "搶槓",
        "抢杠",
        "Robbing the kong",
        "Win on the tile another player adds to a pung.",
        S,
        "W2 正統 一番 搶槓; P 抢杠; ML 搶槓",
    ),
    FanId.LAST_DRAW: FanInfo(
        "海底撈月",
        "海底捞月",
        "Win on the last draw",
        "Self-drawn win on the last tile of the wall.",
        S,
        "W2 正統 一番 海底撈月; P 海底捞月; ML 海底撈月",
    ),
    FanId.LAST_DISCARD: FanInfo(
        "海底炮",
        "海底炮",
        "Win on the last discard",
        "Win on the discard of the last tile.",
        S,
        "P 海底炮; W2 正統 海底撈月 (食全局最後一隻牌); ML 海底撈月",
    ),
    FanId.SEAT_BONUS: FanInfo(
        "正花",
        "正花",
        "Own bonus tile",
        "Each flower or season whose number matches the seat (東1 南2 西3 北4).",
        S,
        "W2 正統 一番 正花; P 正花; ML 正花",
        per_occurrence=True,
    ),
    FanId.NO_BONUS: FanInfo(
        "無花",
        "无花",
        "No bonus tiles",
        "The winner holds no flower or season.",
        S,
        "W2 正統 一番 無花; P 无花; ML 無花",
        ("無花季",),
    ),
    FanId.BONUS_REPLACEMENT: FanInfo(
        "花上自摸",
        "花上自摸",
        "Win on a bonus replacement",
        "Self-drawn win on the tile drawn to replace a flower or season.",
        S,
        "P 花上自摸",
        ("花上",),
    ),
    FanId.KONG_REPLACEMENT: FanInfo(
        "槓上開花",
        "杠上开花",
        "Win on a kong replacement",
        "Self-drawn win on the tile drawn after declaring a kong.",
        S,
        "W2 正統 兩番 槓上開花; P 杠上开花; ML 槓上開花",
        ("槓上自摸",),
    ),
    FanId.BONUS_SET: FanInfo(
        "一台花",
        "一台花",
        "Complete bonus set",
        "All four flowers (梅蘭菊竹) or all four seasons (春夏秋冬); per set.",
        S,
        "W2 正統 兩番 一檯花; P 一台花; ML 一台花 / 一台季節",
        ("一檯花",),
        per_occurrence=True,
    ),
    FanId.ALL_PUNGS: FanInfo(
        "對對糊",
        "对对糊",
        "All pungs",
        "Four pungs or kongs and a pair.",
        S,
        "W2 正統 三番 對對糊; ML 對對胡",
        ("碰碰糊", "對對胡"),
    ),
    FanId.HALF_FLUSH: FanInfo(
        "混一色",
        "混一色",
        "Half flush",
        "One suit plus honours.",
        S,
        "W2 正統 三番 混一色; ML 混一色",
    ),
    FanId.MIXED_TERMINALS: FanInfo(
        "花幺九",
        "花幺九",
        "Mixed terminals",
        "Only terminals and honours, all pungs.",
        S,
        "W2 正統 四番 花幺九; W1 花幺九; C 花幺; ML 花么",
        ("混老頭", "花幺", "花么"),
    ),
    FanId.SMALL_DRAGONS: FanInfo(
        "小三元",
        "小三元",
        "Small three dragons",
        "Two dragon pungs and a pair of the third dragon.",
        S,
        "W2 正統 五番 小三元; ML 小三元",
    ),
    FanId.SMALL_WINDS: FanInfo(
        "小四喜",
        "小四喜",
        "Small four winds",
        "Three wind pungs and a pair of the fourth wind.",
        S,
        "W2 正統 六番 小四喜; ML 小四喜 (limit)",
    ),
    FanId.FULL_FLUSH: FanInfo(
        "清一色",
        "清一色",
        "Full flush",
        "One suit only, no honours.",
        S,
        "W2 正統 七番 清一色; ML 清一色",
    ),
    FanId.GREAT_DRAGONS: FanInfo(
        "大三元",
        "大三元",
        "Great three dragons",
        "Pungs or kongs of all three dragons.",
        S,
        "W2 正統 八番 大三元; ML 大三元",
    ),
    FanId.DOUBLE_KONG_REPLACEMENT: FanInfo(
        "槓上槓",
        "杠上杠",
        "Win on a double kong replacement",
        "Self-drawn win after two or more consecutive kongs.",
        S,
        "W2 正統 八番 連槓開花; W1 槓上槓自摸 fn.16-17; C 槓上槓自摸",
        ("連槓開花", "槓上槓自摸"),
    ),
    FanId.FOUR_CONCEALED_PUNGS: FanInfo(
        "坎坎糊",
        "坎坎糊",
        "Four concealed pungs",
        "Four concealed pungs (concealed kongs count, per P) and a pair, self-drawn.",
        S,
        "W2 正統 八番 坎坎胡; C 坎坎糊 fn.24-25; W1 fn.22; ML 簡簡糊",
        ("坎坎胡", "四暗刻", "簡簡糊"),
    ),
    FanId.ALL_HONOURS: FanInfo(
        "字一色",
        "字一色",
        "All honours",
        "Only winds and dragons.",
        S,
        "W2 正統 十番 字一色; ML 字一色",
        ("全字糊",),
    ),
    FanId.ALL_TERMINALS: FanInfo(
        "清幺九",
        "清幺九",
        "All terminals",
        "Only 1s and 9s of the suits, all pungs.",
        S,
        "W2 正統 十番 清幺九; ML 清么九",
        ("清老頭", "清么九"),
    ),
    FanId.NINE_GATES: FanInfo(
        "九蓮寶燈",
        "九莲宝灯",
        "Nine gates",
        "Concealed 1112345678999 of one suit plus any tile of that suit.",
        S,
        "W2 正統 十番 九蓮寶燈; C 九子連環 fn.26-27; ML 九蓮寶燈",
        ("九子連環",),
    ),
    FanId.HEAVENLY: FanInfo(
        "天糊",
        "天糊",
        "Heavenly hand",
        "The dealer's first fourteen tiles are complete.",
        S,
        "W2 正統 十三番 天糊; C 天糊; ML 天胡",
        ("天胡",),
    ),
    FanId.EARTHLY: FanInfo(
        "地糊",
        "地糊",
        "Earthly hand",
        "A non-dealer wins on the dealer's first discard.",
        S,
        "W2 正統 十三番 地糊; C 地糊; ML 地胡",
        ("地胡",),
    ),
    FanId.HUMAN: FanInfo(
        "人糊",
        "人糊",
        "Human hand",
        "A non-dealer self-draws in its first turn, with no claim before it (W2 sense).",
        S,
        "W2 正統 十三番 人糊",
    ),
    FanId.GREAT_WINDS: FanInfo(
        "大四喜",
        "大四喜",
        "Great four winds",
        "Pungs or kongs of all four winds.",
        S,
        "W2 正統 十三番 大四喜; ML 大四喜",
    ),
    FanId.THIRTEEN_ORPHANS: FanInfo(
        "十三幺",
        "十三幺",
        "Thirteen orphans",
        "One of each terminal and honour plus a pair of one of them.",
        S,
        "W2 正統 十三番 十三幺; C 十三幺; ML 十三么",
        ("國士無雙", "十三么"),
    ),
    FanId.FOUR_KONGS: FanInfo(
        "十八羅漢",
        "十八罗汉",
        "Four kongs",
        "Four kongs and a pair (eighteen tiles).",
        S,
        "W2 正統 十三番 十八羅漢; ML 十八羅漢",
        ("四槓子",),
    ),
    FanId.SEVEN_BONUS: FanInfo(
        "花糊",
        "花糊",
        "Seven bonus tiles",
        "Seven flowers and seasons: may win at once.",
        B,
        "W2 三番 花糊 and 花糊牌規; C 花糊; W1 花糊",
    ),
    FanId.EIGHT_BONUS: FanInfo(
        "八仙過海",
        "八仙过海",
        "Eight bonus tiles",
        "All eight flowers and seasons: wins at once, paid as self-drawn.",
        B,
        "P 八仙过海 (8 番, 当自摸计); W2 八番 大花糊; C 大花糊",
        ("大花糊",),
    ),
    FanId.TWO_IDENTICAL_CHOWS: FanInfo(
        "一般高",
        "一般高",
        "Two identical chows",
        "Two identical chows of the same suit.",
        OPT,
        "W2 自訂 一番 一般高; W1 二同順",
        ("二同順",),
    ),
    FanId.TWO_SHIFTED_CHOWS: FanInfo(
        "一般低",
        "一般低",
        "Two shifted chows",
        "Two chows of one suit, the second starting one higher.",
        OPT,
        "W2 自訂 一番 一般低; W1 二步高",
        ("二步高",),
    ),
    FanId.MISSING_SUIT: FanInfo(
        "缺門",
        "缺门",
        "Missing suit",
        "One of the three suits is absent.",
        OPT,
        "W2 自訂 一番 缺門; W1 缺門",
        ("缺一門",),
    ),
    FanId.EARLY_READY: FanInfo(
        "冚手糊",
        "冚手糊",
        "Early concealed ready",
        "A concealed ready hand declared at the start (like a double riichi), won concealed.",
        OPT,
        "C 冚手糊 (2); W2 自訂 二番 冧手胡",
        ("冧手糊", "冧手胡"),
    ),
    FanId.THREE_IDENTICAL_CHOWS: FanInfo(
        "三般高",
        "三般高",
        "Three identical chows",
        "Three identical chows of the same suit.",
        OPT,
        "W2 自訂 二番 三般高; W1 三同順",
        ("三同順",),
    ),
    FanId.THREE_SHIFTED_CHOWS: FanInfo(
        "三般低",
        "三般低",
        "Three shifted chows",
        "Three chows of one suit, each starting one higher than the last.",
        OPT,
        "W2 自訂 二番 三般低; W1 三步高",
        ("三步高",),
    ),
    FanId.PURE_STRAIGHT: FanInfo(
        "一條龍",
        "一条龙",
        "Pure straight",
        "Chows 123, 456 and 789 of one suit.",
        OPT,
        "W2 自訂 二番 一條龍; W1 一條龍",
        ("一氣通貫",),
    ),
    FanId.HUMAN_DISCARD: FanInfo(
        "人糊 (食出銃)",
        "人糊 (食出铳)",
        "Human hand (on a discard)",
        "A win on a discard in the first go-around (C / W1 sense of 人糊).",
        OPT,
        "C 人糊 (三番或例牌); W1 自訂 三番 人糊",
    ),
    FanId.LAST_TILE_KONG: FanInfo(
        "鐘鼓齊鳴",
        "钟鼓齐鸣",
        "Kong replacement on the last tile",
        "槓上開花 on the last tile of the wall (海底 + 槓上開花).",
        OPT,
        "W2 自訂 三番 鐘鼓齊鳴; C 鐘鼓齊鳴; W1 鐘鼓齊鳴",
        ("槓爆",),
    ),
    FanId.MIRRORED_CHOWS: FanInfo(
        "鏡糊糊",
        "镜糊糊",
        "Mirrored chows",
        "Two identical chow pairs in two suits (two suits, the same two chows).",
        OPT,
        "W2 自訂 三番 鏡糊糊; W1 鏡糊糊",
    ),
    FanId.TWO_DOUBLE_CHOWS: FanInfo(
        "兩般高",
        "两般高",
        "Two double chows",
        "Two separate 一般高 (two pairs of identical chows).",
        OPT,
        "W2 自訂 三番 兩般高; W1 雙龍抱",
        ("雙龍抱", "二般高"),
    ),
    FanId.TWO_DOUBLE_SHIFTED_CHOWS: FanInfo(
        "兩般低",
        "两般低",
        "Two double shifted chows",
        "Two separate 一般低.",
        OPT,
        "W2 自訂 三番 兩般低; W1 雙蛇抱",
        ("雙蛇抱", "二般低"),
    ),
    FanId.FOUR_IDENTICAL_CHOWS: FanInfo(
        "四般高",
        "四般高",
        "Four identical chows",
        "Four identical chows of the same suit.",
        OPT,
        "W2 自訂 三番 四般高; W1 四同順",
        ("四同順", "全同順"),
    ),
    FanId.FOUR_SHIFTED_CHOWS: FanInfo(
        "四般低",
        "四般低",
        "Four shifted chows",
        "Four chows of one suit, each starting one higher than the last.",
        OPT,
        "W2 自訂 三番 四般低; W1 四步高",
        ("四步高", "步步高"),
    ),
    FanId.THREE_WIND_PUNGS: FanInfo(
        "三喜臨門",
        "三喜临门",
        "Three wind pungs",
        "Three pungs or kongs of winds.",
        OPT,
        "W2 自訂 三番 三喜臨門; W1 三風刻",
        ("三風刻",),
    ),
    FanId.SEVEN_PAIRS: FanInfo(
        "七對子",
        "七对子",
        "Seven pairs",
        "Seven different pairs (four alike are not two pairs).",
        OPT,
        "W2 自訂 三番 七對子; C 七對子 (三番或例牌)",
        ("嚦咕嚦咕",),
    ),
    FanId.THREE_KONGS: FanInfo(
        "三槓子",
        "三杠子",
        "Three kongs",
        "Three kongs declared.",
        OPT,
        "W2 自訂 三番 三槓子; W1 三槓子",
    ),
    FanId.TWO_SUIT_SAME_PUNGS: FanInfo(
        "雙色同刻",
        "双色同刻",
        "Same pungs in two suits",
        "Two pungs of the same number in two suits, and no chow in the hand.",
        OPT,
        "W2 自訂 三番 雙色同刻; W1 雙色同刻",
    ),
    FanId.FOUR_IN_CHOWS: FanInfo(
        "四歸四",
        "四归四",
        "Four tiles in chows",
        "All four copies of a tile used in the hand's chows.",
        OPT,
        "W2 自訂 三番 四歸四; W1 四歸四",
    ),
    FanId.TERMINAL_PUNGS_HONOUR_PAIR: FanInfo(
        "混幺九",
        "混幺九",
        "Terminal pungs with an honour pair",
        "Four pungs of 1s and 9s and a pair of honours.",
        OPT,
        "C 混幺九 (九番)",
    ),
    FanId.GREEN_WITH_RED: FanInfo(
        "萬綠叢中一點紅",
        "万绿丛中一点红",
        "Green with a red spot",
        "綠一色 with 5s or 中 in it (not both).",
        OPT,
        "W2 自訂 十番 萬綠叢中一點紅; W1 萬綠叢中一點紅",
    ),
    FanId.MILLION_STONES: FanInfo(
        "百萬石",
        "百万石",
        "Million stones",
        "A full flush whose tile numbers add up to 100 or more.",
        OPT,
        "W2 自訂 十番 百萬石",
        ("百萬雄兵",),
    ),
    FanId.ALL_BLUE: FanInfo(
        "藍一色",
        "蓝一色",
        "All blue",
        "Only winds, 白 and 8p.",
        OPT,
        "W2 自訂 十三番 藍一色; W1 藍一色",
    ),
    FanId.ALL_GREEN: FanInfo(
        "綠一色",
        "绿一色",
        "All green",
        "Only 2, 3, 4, 6, 8 of bamboo and 發.",
        OPT,
        "W2 自訂 十三番 綠一色; W1 綠一色",
    ),
    FanId.RED_PEACOCK: FanInfo(
        "紅孔雀",
        "红孔雀",
        "Red peacock",
        "Only 1, 5, 7, 9 of bamboo and 中.",
        OPT,
        "W2 自訂 十三番 紅孔雀; W1 紅孔雀",
    ),
}

del S, B, OPT

_BY_TEXT: dict[str, FanId] = {}
for _f in FanId:
    _BY_TEXT[_f.value.upper()] = _f
    for _name in (_f.zh, _f.zh_hans, _f.en, *_INFO[_f].aliases):
        _BY_TEXT.setdefault(_name.upper(), _f)


def fan_id_from_text(text: str) -> FanId | None:
    """Find a 番種 by its id, 繁/简 name, English name or alias; None when unknown."""
    return _BY_TEXT.get(text.strip().upper())
