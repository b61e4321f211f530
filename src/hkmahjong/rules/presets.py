"""預設台例 presets: parlor (麻雀館, the default), qingzhang (清章), ml and cuhk (docs/rules.md §8).

Each preset is built clause by clause; the comment on each line names the seed clause behind it.
Seeds: W1 = ``seeds/000`` (older Wikipedia list), C = ``001`` (常用番種), ML = ``002`` (online
platform), P = ``003`` (this parlor's rules page), W2 = ``004`` (newer Wikipedia list, 正統 + 自訂).

Precedence for ``parlor`` (docs/rules.md): P first; where P is silent, W2's 正統 rules; where W2 is
silent, C/W1. Where seeds disagree the docstring of each preset says which one it follows.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from hkmahjong.errors import RulesetError
from hkmahjong.rules.fan import FanId
from hkmahjong.rules.payment import PaymentRules
from hkmahjong.rules.ruleset import DealBonusWin, FrozenMap, LastTileRule, PassRule, Ruleset

__all__ = ["ALIASES", "PAST_VERSIONS", "PRESETS", "get_preset", "preset_names", "preset_versions"]

F = FanId
_DRAGONS = frozenset({F.RED_DRAGON, F.GREEN_DRAGON, F.WHITE_DRAGON})
_WIND_PUNGS = frozenset({F.SEAT_WIND, F.PREVAILING_WIND})

# --- the parlor fan table: docs/rules.md §8 table = P's bonus list + W2 正統牌型 -------------------------
_PARLOR_FAN: dict[FanId, int] = {
    F.CHICKEN: 0,  # W2 正統 零番 雞糊
    F.ALL_CHOWS: 1,  # W2 正統 一番 平糊 (pair may be honours: C fn. 3)
    F.SELF_DRAWN: 1,  # W2 正統 一番 自摸; P 胡牌方式
    F.CONCEALED_HAND: 1,  # W2 正統 一番 門前清 (包括暗槓); P 暗杠 "按标准规则会失去门前清"
    F.RED_DRAGON: 1,  # W2 正統 一番 番牌 三元牌 "凡擁有一副…的刻子即加算一番"
    F.GREEN_DRAGON: 1,  # idem
    F.WHITE_DRAGON: 1,  # idem
    F.SEAT_WIND: 1,  # P 门风 "碰自己的门风…计一番"; W2 番牌 風牌
    F.PREVAILING_WIND: 1,  # P 圈风; W2 番牌 風牌 (both: 雙番東 = 2)
    F.ROBBING_KONG: 1,  # P 抢杠 "计 1 番"; W2 正統 一番 搶槓
    F.LAST_DRAW: 1,  # P "摸最后一只牌自摸是海底捞月…1 番"
    F.LAST_DISCARD: 1,  # P "食最后一只打出的牌是海底炮…1 番"
    F.SEAT_BONUS: 1,  # P 正花 "每只 1 番"
    F.NO_BONUS: 1,  # P 无花 1 番
    F.BONUS_REPLACEMENT: 1,  # P 花上自摸 "1 番，另加自摸"
    F.KONG_REPLACEMENT: 1,  # P 杠上开花 "1 番，另加自摸"
    F.BONUS_SET: 2,  # P 一台花 "每台 2 番（已包括该台的正花）"
    F.ALL_PUNGS: 3,  # W2 正統 三番 對對糊
    F.HALF_FLUSH: 3,  # W2 正統 三番 混一色
    F.MIXED_TERMINALS: 4,  # W2 正統 四番 花幺九 (W1: 1 + 對對糊 3 = 4, same total)
    F.SMALL_DRAGONS: 5,  # W2 正統 五番 小三元 (W1: 3 + its two 番牌)
    F.SMALL_WINDS: 6,  # W2 正統 六番 小四喜
    F.FULL_FLUSH: 7,  # W2 正統 七番 清一色
    F.GREAT_DRAGONS: 8,  # W2 正統 八番 大三元 (W1: 5 + its three 番牌)
    F.DOUBLE_KONG_REPLACEMENT: 8,  # W2 正統 八番 連槓開花
    F.FOUR_CONCEALED_PUNGS: 8,  # W2 正統 八番 坎坎胡
    F.EIGHT_BONUS: 8,  # P 八仙过海 "当自摸计，8 番"
    F.ALL_HONOURS: 10,  # W2 正統 十番（例牌）字一色
    F.ALL_TERMINALS: 10,  # W2 正統 十番（例牌）清幺九
    F.NINE_GATES: 10,  # W2 正統 十番（例牌）九蓮寶燈
    F.HEAVENLY: 13,  # W2 正統 十三番（例牌）天糊; P "天胡…爆棚牌"
    F.EARTHLY: 13,  # W2 正統 十三番（例牌）地糊; P "地胡…爆棚牌"
    F.HUMAN: 13,  # W2 正統 十三番（例牌）人糊 (self-draw in the first turn)
    F.GREAT_WINDS: 13,  # W2 正統 十三番（例牌）大四喜
    F.THIRTEEN_ORPHANS: 13,  # W2 正統 十三番（例牌）十三幺
    F.FOUR_KONGS: 13,  # W2 正統 十三番（例牌）十八羅漢
}
_W2_LIMIT_HANDS = frozenset(
    {
        F.ALL_HONOURS,  # W2 十番（例牌）
        F.ALL_TERMINALS,
        F.NINE_GATES,
        F.HEAVENLY,  # W2 十三番（例牌）
        F.EARTHLY,
        F.HUMAN,
        F.GREAT_WINDS,
        F.THIRTEEN_ORPHANS,
        F.FOUR_KONGS,
    }
)

# --- exclusions: docs/rules.md §8 notes and last paragraph (W2 "必然並存…不重複計分") -----------------
_CONCEALED_ONLY = frozenset({F.CONCEALED_HAND})
_EXCLUSIONS: dict[FanId, frozenset[FanId]] = {
    # a hand that must be concealed does not add 門前清 (W2 "必定門清（天和、地和、十三幺、九蓮寶燈、
    # 坎坎糊）不另計自摸" — read as 門前清, docs/rules.md §8 last paragraph)
    F.THIRTEEN_ORPHANS: _CONCEALED_ONLY,
    F.NINE_GATES: frozenset({F.CONCEALED_HAND, F.FULL_FLUSH}),  # 九蓮 does not add 清一色 (W2)
    F.EARTHLY: _CONCEALED_ONLY,
    F.SEVEN_PAIRS: _CONCEALED_ONLY,  # 七對子 is concealed by nature (C "門清取得七對眼")
    F.EARLY_READY: _CONCEALED_ONLY,  # 冚手糊 "叫糊後門清" (C)
    # a hand that includes a self-draw does not add 自摸 again (docs/rules.md §8)
    F.HEAVENLY: frozenset({F.CONCEALED_HAND, F.SELF_DRAWN}),
    F.HUMAN: frozenset({F.CONCEALED_HAND, F.SELF_DRAWN}),
    # 坎坎糊 includes 對對糊, 門前清, 自摸 (W2 "不另計門前清、對對糊"; C fn. 25)
    F.FOUR_CONCEALED_PUNGS: frozenset({F.ALL_PUNGS, F.CONCEALED_HAND, F.SELF_DRAWN}),
    # 槓上槓 includes 槓上開花 and 自摸 (docs/rules.md §8); 槓上開花 on the last tile adds no 海底 (W1, W2);
    # a bonus replacement after the second kong is still 槓上槓, not 花上自摸 as well (W1
    # "補花後能連槓牌兩次以上才算槓上槓自摸")
    F.DOUBLE_KONG_REPLACEMENT: frozenset(
        {F.KONG_REPLACEMENT, F.SELF_DRAWN, F.LAST_DRAW, F.BONUS_REPLACEMENT}
    ),
    F.KONG_REPLACEMENT: frozenset({F.LAST_DRAW}),  # W2 槓上開花 "海底開花的話不另計海底撈月"
    F.BONUS_REPLACEMENT: frozenset({F.LAST_DRAW}),  # docs/rules.md §7 (decision, by analogy)
    # 八仙過海: 8 in total, the two 一台花, 正花 and 自摸 inside it (P "当自摸计，8 番"; W2)
    F.EIGHT_BONUS: frozenset({F.SELF_DRAWN, F.SEAT_BONUS, F.BONUS_SET, F.SEVEN_BONUS, F.NO_BONUS}),
    # 花糊: 2 + 自摸 (W2 "計兩番加自摸一番"); its bonus tiles are the win, not added again (decision)
    F.SEVEN_BONUS: frozenset({F.SEAT_BONUS, F.BONUS_SET, F.NO_BONUS}),
    # all-pung hands do not add 對對糊 (W2 "全刻子（大四喜、十八羅漢、坎坎糊、字一色）不另計對對糊")
    F.GREAT_WINDS: frozenset(
        {F.ALL_PUNGS, F.SMALL_WINDS, F.THREE_WIND_PUNGS, *_WIND_PUNGS}  # W1 fn. 28 不另計門風、圈風
    ),
    F.FOUR_KONGS: frozenset({F.ALL_PUNGS, F.THREE_KONGS, F.DOUBLE_KONG_REPLACEMENT}),
    F.ALL_HONOURS: frozenset({F.ALL_PUNGS, F.MIXED_TERMINALS}),
    F.ALL_TERMINALS: frozenset({F.ALL_PUNGS, F.MIXED_TERMINALS}),
    F.MIXED_TERMINALS: frozenset({F.ALL_PUNGS}),  # docs/rules.md §8 花幺九 "includes 對對糊"
    F.TERMINAL_PUNGS_HONOUR_PAIR: frozenset({F.ALL_PUNGS, F.MIXED_TERMINALS}),  # C 混幺九
    # 小三元 includes those two pungs' 番牌 (W1), 大三元 its three (W1, C "不再計三元牌")
    F.SMALL_DRAGONS: _DRAGONS,
    F.GREAT_DRAGONS: _DRAGONS,
    F.SMALL_WINDS: frozenset({F.THREE_WIND_PUNGS}),  # the three wind pungs are inside it
    # optional chow patterns: the bigger includes the smaller (W2 自訂)
    F.TWO_DOUBLE_CHOWS: frozenset({F.TWO_IDENTICAL_CHOWS}),
    F.THREE_IDENTICAL_CHOWS: frozenset({F.TWO_IDENTICAL_CHOWS}),
    F.FOUR_IDENTICAL_CHOWS: frozenset(
        {F.TWO_IDENTICAL_CHOWS, F.THREE_IDENTICAL_CHOWS, F.TWO_DOUBLE_CHOWS}
    ),
    F.TWO_DOUBLE_SHIFTED_CHOWS: frozenset({F.TWO_SHIFTED_CHOWS}),
    F.THREE_SHIFTED_CHOWS: frozenset({F.TWO_SHIFTED_CHOWS, F.ALL_CHOWS}),  # W2 "不另計平糊"
    F.FOUR_SHIFTED_CHOWS: frozenset(
        {F.TWO_SHIFTED_CHOWS, F.THREE_SHIFTED_CHOWS, F.TWO_DOUBLE_SHIFTED_CHOWS}
    ),
    F.LAST_TILE_KONG: frozenset({F.LAST_DRAW, F.KONG_REPLACEMENT, F.SELF_DRAWN}),  # C "計三番自摸"
    F.MILLION_STONES: frozenset({F.FULL_FLUSH}),  # W2 百萬石 "不另計清一色"
    F.GREEN_WITH_RED: frozenset({F.HALF_FLUSH, F.FULL_FLUSH}),  # W2: replaces 混/清一色
    F.ALL_GREEN: frozenset({F.HALF_FLUSH, F.FULL_FLUSH, F.GREEN_WITH_RED}),
    F.ALL_BLUE: frozenset({F.HALF_FLUSH, F.ALL_HONOURS}),
    F.RED_PEACOCK: frozenset({F.HALF_FLUSH, F.FULL_FLUSH}),
}

# --- 自訂 patterns' values (W2 自訂牌型 headings; C where W2 has none) ------------------------------
OPTIONAL_VALUES: Mapping[FanId, int] = FrozenMap(
    {
        F.TWO_IDENTICAL_CHOWS: 1,  # W2 自訂 一番
        F.TWO_SHIFTED_CHOWS: 1,
        F.MISSING_SUIT: 1,
        F.EARLY_READY: 2,  # W2 自訂 二番 冧手胡; C 冚手糊 "計兩番"
        F.THREE_IDENTICAL_CHOWS: 2,
        F.THREE_SHIFTED_CHOWS: 2,
        F.PURE_STRAIGHT: 2,
        F.HUMAN_DISCARD: 3,  # C 人糊 "計三番或例牌"
        F.LAST_TILE_KONG: 3,  # W2 自訂 三番 鐘鼓齊鳴
        F.MIRRORED_CHOWS: 3,
        F.TWO_DOUBLE_CHOWS: 3,
        F.TWO_DOUBLE_SHIFTED_CHOWS: 3,
        F.FOUR_IDENTICAL_CHOWS: 3,
        F.FOUR_SHIFTED_CHOWS: 3,
        F.THREE_WIND_PUNGS: 3,
        F.SEVEN_PAIRS: 3,  # W2 自訂 三番; C "計三番或例牌"
        F.THREE_KONGS: 3,
        F.TWO_SUIT_SAME_PUNGS: 3,
        F.FOUR_IN_CHOWS: 3,
        F.TERMINAL_PUNGS_HONOUR_PAIR: 9,  # C 混幺九 "計九番"
        F.GREEN_WITH_RED: 10,  # W2 自訂 十番
        F.MILLION_STONES: 10,
        F.ALL_BLUE: 13,  # W2 自訂 十三番
        F.ALL_GREEN: 13,
        F.RED_PEACOCK: 13,
    }
)
"""Value of each 自訂 pattern when a table turns it on (off in every preset)."""
OPTIONAL_LIMIT_HANDS = frozenset({F.ALL_BLUE, F.ALL_GREEN, F.RED_PEACOCK, F.GREEN_WITH_RED})
"""自訂 patterns that are 例牌 when played (W2 十番/十三番 headings)."""


def _parlor() -> Ruleset:
    """麻雀館 (default): P first, then W2 正統, then C/W1 (docs/rules.md §8 table)."""
    return Ruleset(
        name="parlor",
        description="麻雀館 parlor rules: seed 003 (P), then W2 正統, then C/W1",
        min_fan=3,  # P "最少要有三番" (三番起糊)
        limit=10,  # P "赢家的番数（上限十番）"
        fan=FrozenMap(_PARLOR_FAN),
        limit_hands=_W2_LIMIT_HANDS,  # W2 十番/十三番（例牌）; P "天胡…地胡…爆棚牌"
        exclusions=FrozenMap(_EXCLUSIONS),
        seven_pairs=False,  # P "七对子并非港式麻雀的胡牌"
        thirteen_orphans_head_bump_exempt=False,  # P 截胡 stated without exception
        multiple_winners=False,  # P "由出牌者之后最先轮到的一家食（截胡）"
        dead_wall=0,  # P "麻雀馆不留牌尾，所有牌都可以摸"
        pass_rule=PassRule.NONE,  # P "放过一次食胡，亦不影响你之后再食"
        # P "每只打出的牌，其余三家都可以取" and "任何牌都可以食，包括你自己早前打出过的牌": every
        # discard may be taken, by anyone, whatever they passed before; "碰或上之后即打出一只牌"
        # names no tile that may not be discarded. So W2's 過水 for pungs and its 食替 ban are
        # not the parlor's (issue 31 item 8; until then they were on, from W2: PAST_VERSIONS).
        pung_pass_rule=False,
        no_swap_discard=False,
        rob_concealed_kong_thirteen=True,  # P "唯一例外是等十三么的玩家"
        bonus_tiles=True,  # P 花季牌
        bonus_win_seven=False,  # P's bonus list (正花/一台花/无花/八仙过海/花上自摸) has no 花糊
        false_win_below_minimum=True,  # docs/rules.md §11: C, W1/W2 "通常見於麻雀館"
        payment=PaymentRules.parlor(),  # P 付款 (payments workstream)
        match_lengths=("four-rounds", "8-hands", "16-hands", "bankruptcy", "online"),  # P 牌局长度
        last_tile=LastTileRule.ANY,  # P 海底捞月 and 海底炮
        heavenly_after_concealed_kong=False,  # W2 天糊 "若暗槓再摸僅作普通槓上自摸論"; C fn. 19
        earthly_after_dealer_kong=False,  # C 地糊 "莊家開槓後食糊，不算地糊"
        bonus_win_decline=True,  # W2 花糊牌規 (only matters with 花糊 on)
        bonus_win_kong_replacement=True,  # W2 花糊牌規 "槓上自摸花糊計四番自摸"
        bonus_win_at_deal=DealBonusWin.HEAVENLY_EARTHLY,  # W2 花糊牌規 3rd bullet
        all_chows_honour_pair=True,  # C fn. 3 "眼可以是番子" (W2 silent)
        all_chows_any_wait=True,  # W2, C silent on waits (W1 fn. 5 is a switch)
        concealed_kong_keeps_concealed=False,  # P "按标准规则会失去门前清"; W2 "包括暗槓"
        concealed_hand_with_bonus_tiles=True,  # W2 lists 門前清 with bonus tiles (C: switch)
        four_concealed_pungs_kongs=True,  # P "暗杠计算坎坎胡时仍当暗刻"
        four_concealed_pungs_single_wait_discard=False,  # W1 fn. 22 is a switch
        four_concealed_pungs_any_win=False,  # C fn. 25, W1 fn. 22: self-drawn only
        double_kong_from_replacement=False,  # W2 連槓開花 "連開超過一槓"; C/W1 fn. 17 a switch
        nine_gates_discard_nine_sided_only=False,  # W2 九蓮; W1 "非純正" also counts
    )


def _qingzhang() -> Ruleset:
    """清章: W2's 正統 list as written — 10/13-fan 例牌 under a 13 limit, 花糊 on, 十三幺 not
    head-bumped, 海底 however won, 坎坎糊 without kongs, W2's 過水 and 全銃 payment."""
    base = _parlor()
    fan = dict(base.fan)
    del fan[F.BONUS_REPLACEMENT]  # 花上自摸 is P's, not in W2 正統
    fan[F.SEVEN_BONUS] = 2  # W2 三番 花糊 "計兩番加自摸一番"
    return dataclasses.replace(
        base,
        name="qingzhang",
        description="清章: W2 正統牌型 as written (seed 004), 13-fan limit",
        min_fan=3,  # W2 "三番起糊" ("現時主流")
        limit=13,  # W2 十三番（例牌）; 十番 例牌 keep their 10 (W2 headings)
        fan=FrozenMap(fan),
        thirteen_orphans_head_bump_exempt=True,  # W2 十三幺 "不能被其他牌型截糊"
        multiple_winners=False,  # W2 "有些玩家更會使用無截糊" — a house rule, 截糊 standard
        pass_rule=PassRule.SAME_WAIT,  # W2 其他規則 過水 2nd and 3rd bullets (同一水路 includes 同牌)
        pung_pass_rule=True,  # W2 其他規則 過水 1st bullet
        no_swap_discard=True,  # W2 其他規則 過水 "上/碰牌之後不可打相同的牌" (食替)
        bonus_win_seven=True,  # W2 花糊
        false_win_below_minimum=False,  # W2 詐糊 定義 "番數不足不會被視為詐糊"
        payment=PaymentRules.qingzhang(),
        four_concealed_pungs_kongs=False,  # W2 坎坎胡 "沒有碰、槓過的對對糊"
    )


def _ml() -> Ruleset:
    """ML (seed 002): its 番數計番表 and 額外番數表, 1-fan minimum, limit = min + 10 (付錢表 rows).

    ML's example table "1-4番" is ``min_fan = 1, limit = 4``; the preset uses the whole 付錢表
    (最低 … +10) *(decision)*. No 門前清 (ML does not list it); 小三元/大三元 include their dragon
    pungs *(decision, as W1)*; 平胡 needs a suit pair ("一手由四組順子和一對眼組成的序數牌").
    """
    fan: dict[FanId, int] = {
        F.CHICKEN: 0,  # ML 雞胡 0
        F.ALL_CHOWS: 1,  # ML 平胡 1
        F.ALL_PUNGS: 3,  # ML 對對胡 3
        F.HALF_FLUSH: 3,  # ML 混一色 3
        F.SMALL_DRAGONS: 5,  # ML 小三元 5
        F.FULL_FLUSH: 7,  # ML 清一色 7
        F.GREAT_DRAGONS: 8,  # ML 大三元 8
        F.RED_DRAGON: 1,  # ML 額外 中/發/白刻子 1 (each)
        F.GREEN_DRAGON: 1,
        F.WHITE_DRAGON: 1,
        F.SEAT_WIND: 1,  # ML 額外 門風 / 圈風刻子 1
        F.PREVAILING_WIND: 1,
        F.NO_BONUS: 1,  # ML 額外 無花 / 季節牌 1
        F.SELF_DRAWN: 1,  # ML 額外 自摸 1
        F.LAST_DRAW: 1,  # ML 額外 海底撈月 1 (drawn …
        F.LAST_DISCARD: 1,  # … "或其他玩家打出該局的最後一隻牌")
        F.KONG_REPLACEMENT: 1,  # ML 額外 槓上開花 1
        F.ROBBING_KONG: 1,  # ML 額外 搶槓 1
        F.SEAT_BONUS: 1,  # ML 額外 正花 1
        F.MIXED_TERMINALS: 1,  # ML 額外 花么 1
        F.BONUS_SET: 2,  # ML 額外 一台花 / 一台季節 2
    }
    limit = 11  # ML 付錢表 最低 … 最低+10 with 最低 = 1
    ml_limits = (  # ML 番數計番表 "無限": scored as the table's top row
        F.FOUR_CONCEALED_PUNGS,  # 簡簡糊 (self-drawn four concealed pungs)
        F.FOUR_KONGS,  # 十八羅漢
        F.SMALL_WINDS,  # 小四喜
        F.GREAT_WINDS,  # 大四喜
        F.ALL_HONOURS,  # 字一色
        F.ALL_TERMINALS,  # 清么九
        F.NINE_GATES,  # 九蓮寶燈
        F.THIRTEEN_ORPHANS,  # 十三么
        F.HEAVENLY,  # 天胡
        F.EARTHLY,  # 地胡
    )
    for f in ml_limits:
        fan[f] = limit
    excl = {
        F.SMALL_DRAGONS: _DRAGONS,  # (decision, as W1)
        F.GREAT_DRAGONS: _DRAGONS,
        F.KONG_REPLACEMENT: frozenset({F.LAST_DRAW}),  # W1/W2 (ML silent)
        F.FOUR_CONCEALED_PUNGS: frozenset({F.ALL_PUNGS, F.SELF_DRAWN}),  # "靠自己摸的四副刻子"
        F.FOUR_KONGS: frozenset({F.ALL_PUNGS}),
        F.GREAT_WINDS: frozenset({F.ALL_PUNGS}),
        F.ALL_HONOURS: frozenset({F.ALL_PUNGS, F.MIXED_TERMINALS}),
        F.ALL_TERMINALS: frozenset({F.ALL_PUNGS, F.MIXED_TERMINALS}),
        F.NINE_GATES: frozenset({F.FULL_FLUSH}),
        F.HEAVENLY: frozenset({F.SELF_DRAWN}),
    }
    return Ruleset(
        name="ml",
        description="ML online platform (seed 002): its fan and payout tables",
        min_fan=1,  # ML 付錢表 example "1-4番是指一定要有一番牌才能胡牌"
        limit=limit,
        fan=FrozenMap(fan),
        limit_hands=frozenset(ml_limits),
        exclusions=FrozenMap(excl),
        seven_pairs=False,  # ML lists no 七對子
        thirteen_orphans_head_bump_exempt=False,  # ML "唯一 贏家會是最接近出沖者之後摸牌的胡牌者"
        multiple_winners=False,  # idem
        dead_wall=0,  # ML silent: as P
        pass_rule=PassRule.NONE,  # ML silent: as P
        pung_pass_rule=False,  # ML silent: as P "每只打出的牌，其余三家都可以取" (issue 31 item 8)
        no_swap_discard=False,  # ML silent: as P (no tile barred after a claim)
        bonus_tiles=True,  # ML "有玩花牌和四季牌"
        bonus_win_seven=False,  # ML lists no 花糊
        false_win_below_minimum=True,  # online: only valid wins can be declared (as P)
        payment=PaymentRules.ml(),  # ML 付錢表
        match_lengths=("one-hand", "east-round", "four-rounds"),  # ML 單局, 東圈, 四圈
        last_tile=LastTileRule.ANY,  # ML 海底撈月 "自摸或其他玩家打出該局的最後一隻牌"
        all_chows_honour_pair=False,  # ML 平胡 "…一對眼組成的序數牌"
    )


def _cuhk() -> Ruleset:
    """中大 competition rule (W1/W2 外部連結): W2 正統 with the listed hands all 10-fan 例牌.

    W2's link text: "把小四喜、坎坎糊、連槓開花、大花糊、字一色、清幺九、九子連環、天糊、地糊、十三幺、
    大四喜、十八羅漢" scored as 10-fan limits. 人糊 is not in that list, so it is not played
    *(reading)*; everything else (花糊, switches, payment) is W2's 正統 as in ``qingzhang``.
    """
    base = _qingzhang()
    cuhk_limits = (
        F.SMALL_WINDS,
        F.FOUR_CONCEALED_PUNGS,
        F.DOUBLE_KONG_REPLACEMENT,
        F.EIGHT_BONUS,
        F.ALL_HONOURS,
        F.ALL_TERMINALS,
        F.NINE_GATES,
        F.HEAVENLY,
        F.EARTHLY,
        F.THIRTEEN_ORPHANS,
        F.GREAT_WINDS,
        F.FOUR_KONGS,
    )
    fan = dict(base.fan)
    del fan[F.HUMAN]
    for f in cuhk_limits:
        fan[f] = 10
    return dataclasses.replace(
        base,
        name="cuhk",
        description="中大雀皇之皇 competition rule (W1/W2 external link): limit hands at 10",
        limit=10,
        fan=FrozenMap(fan),
        limit_hands=frozenset(cuhk_limits),
        payment=PaymentRules.cuhk(),
    )


PRESETS: Mapping[str, Ruleset] = FrozenMap(
    {r.name: r for r in (_parlor(), _qingzhang(), _ml(), _cuhk())}
)
"""Every preset by its canonical name: parlor, qingzhang, ml, cuhk."""


def _before_issue_31(current: Ruleset) -> Ruleset:
    """A preset as it was until issue 31 item 8: W2's 過水 for pungs and its 食替 ban on."""
    return dataclasses.replace(current, pung_pass_rule=True, no_swap_discard=True)


PAST_VERSIONS: Mapping[str, tuple[Ruleset, ...]] = FrozenMap(
    {
        "parlor": (_before_issue_31(PRESETS["parlor"]),),  # digest d51d29064a0f4a9a
        "ml": (_before_issue_31(PRESETS["ml"]),),  # digest 5b3e75b0a0c934cc
    }
)
"""Earlier versions of the presets, newest first, frozen exactly as they were: records and stored
tables name a preset by name and digest (``engine.record.rules_spec``), so a record made, or a
table opened, under an earlier version still loads and verifies under that version
(``rules_from_spec`` finds it by its digest). A preset whose values change keeps its old value
here, never edited again (docs/rules.md, *Preset versions*)."""

ALIASES: Mapping[str, str] = FrozenMap(
    {
        "default": "parlor",
        "hk": "parlor",
        "p": "parlor",
        "麻雀館": "parlor",
        "麻雀馆": "parlor",
        "qz": "qingzhang",
        "w2": "qingzhang",
        "清章": "qingzhang",
        "正統": "qingzhang",
        "正统": "qingzhang",
        "mahjong-logic": "ml",
        "mahjonglogic": "ml",
        "中大": "cuhk",
        "competition": "cuhk",
    }
)
"""Alternative names (lower case) of the presets."""


def preset_versions(name: str) -> tuple[Ruleset, ...]:
    """The preset called ``name`` (or an alias) as it is now, then each earlier version, newest
    first (:data:`PAST_VERSIONS`).

    :raises RulesetError: when no preset has that name.
    """
    current = get_preset(name)
    return (current, *PAST_VERSIONS.get(current.name, ()))


def preset_names() -> tuple[str, ...]:
    """The canonical preset names, the default first."""
    return tuple(PRESETS)


def get_preset(name: str) -> Ruleset:
    """The preset (預設台例) called ``name`` or one of its aliases, case-insensitive.

    :raises RulesetError: when no preset has that name.
    """
    if not isinstance(name, str):
        raise RulesetError(f"preset = {name!r}: allowed a preset name ({', '.join(PRESETS)})")
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    try:
        return PRESETS[key]
    except KeyError:
        names = ", ".join(PRESETS)
        aliases = ", ".join(ALIASES)
        raise RulesetError(
            f"preset = {name!r}: unknown preset; allowed {names} (aliases: {aliases})"
        ) from None
