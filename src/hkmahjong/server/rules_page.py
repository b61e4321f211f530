"""規則 the rules page's content: seed 003 clause by clause, each beside the chosen ruleset's value,
then the online policies of seed 002 and every house-rule switch in words.

Every clause of seed 003 (the parlor's own rules page, P in docs/rules.md) is a :class:`Clause`: its
words in the page's language (``i18n.WORDS``, keys ``rp_*``), the seed's own sentence (shown as a
citation), and — where a ruleset can differ — a function giving that ruleset's value in words.
Nothing shows a raw switch name or value: the switches table uses each switch's name in words
(``rs_*``) and its value in words (``rv_*``, on/off, numbers, lengths), and the source codes the
descriptions cite (P, W1, W2, C, ML) are explained in a legend. ``tests/web/test_rules_page.py``
reads the rendered page in each language. Plain Python.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from markupsafe import Markup, escape

from hkmahjong.engine.match import MatchLength
from hkmahjong.parlor.clocks import ClockSettings
from hkmahjong.parlor.stakes import STAKE_LEVELS, table_value
from hkmahjong.rules import FanId, Ruleset
from hkmahjong.rules.payment import GunScheme, RobbedKongPayment
from hkmahjong.rules.ruleset import SWITCHES, PassRule, field_doc
from hkmahjong.scoring.payment import share_for
from hkmahjong.server import i18n

__all__ = [
    "CLAUSES",
    "SOURCE_CODES",
    "Clause",
    "Section",
    "cite_codes",
    "page_context",
    "sections",
    "switch_rows",
]

Value = Callable[[Ruleset, str, dict[str, Any]], str]
"""A clause's value under a ruleset, in a language, with the page's extra facts (clocks, …)."""


@dataclass(frozen=True)
class Clause:
    """One rule: its id, its words (``rp_{id}``), the seed sentence it states and its value."""

    id: str
    seed: str
    """The seed's own sentence (seed 003 in 简体 as written; seed 002 in 繁體)."""
    value: Value | None = None
    source: str = "P"
    fmt: tuple[str, ...] = ()
    """Names the clause's words take from the page's facts (``{start}``, ``{grace}``)."""


@dataclass(frozen=True)
class Section:
    """A heading (``rp_{id}_h``) and its clauses."""

    id: str
    clauses: tuple[Clause, ...]


def _t(lang: str, key: str, **fmt: object) -> str:
    return i18n.tr(lang, key, **fmt)


def _fan(ruleset: Ruleset, lang: str, fan_id: FanId) -> str:
    if not ruleset.plays(fan_id):
        return _t(lang, "rp_not_played")
    if ruleset.is_limit_hand(fan_id):
        return _t(lang, "rp_limit_v", n=ruleset.limit_value(fan_id))
    return _t(lang, "rp_fan", n=ruleset.fan_value(fan_id) or 0)


def _onoff(lang: str, flag: bool) -> str:
    return _t(lang, "switch_on" if flag else "switch_off")


def _lengths(lang: str, kind: str, ruleset: Ruleset) -> str:
    offered = MatchLength.offered(kind, ruleset.match_lengths)
    return _t(lang, "comma").join(m.label(lang) for m in offered) or "—"


def _fans(*pairs: tuple[str, FanId]) -> Value:
    def value(ruleset: Ruleset, lang: str, facts: dict[str, Any]) -> str:
        return _t(lang, "comma").join(
            f"{_fan_name(f, lang)} {_fan(ruleset, lang, f)}" for _, f in pairs
        )

    return value


def _fan_name(fan_id: FanId, lang: str) -> str:
    return fan_id.label({"zh-Hant": "zh", "zh-Hans": "zh_hans"}.get(lang, "en"))


def _one(fan_id: FanId) -> Value:
    return lambda r, lang, _: _fan(r, lang, fan_id)


def _winds(r: Ruleset, lang: str, _: dict[str, Any]) -> str:
    return _t(
        lang,
        "rp_winds_v",
        a=_fan(r, lang, FanId.SEAT_WIND),
        b=_fan(r, lang, FanId.PREVAILING_WIND),
    )


def _wall(r: Ruleset, lang: str, _: dict[str, Any]) -> str:
    return _t(lang, "rp_wall_v", n=144 if r.bonus_tiles else 136)


def _bonus_tiles(r: Ruleset, lang: str, _: dict[str, Any]) -> str:
    return _t(lang, "rp_bonus_on" if r.bonus_tiles else "rp_bonus_off")


def _dead_wall(r: Ruleset, lang: str, _: dict[str, Any]) -> str:
    if not r.dead_wall:
        return _t(lang, "rp_dead_wall_v0")
    return _t(lang, "rp_dead_wall_vn", n=r.dead_wall)


def _min_fan(r: Ruleset, lang: str, _: dict[str, Any]) -> str:
    return _t(lang, "rp_turn_v", n=r.min_fan)


def _head_bump(r: Ruleset, lang: str, _: dict[str, Any]) -> str:
    parts = [_t(lang, "rp_multi_v" if r.multiple_winners else "rp_head_bump_v")]
    if r.thirteen_orphans_head_bump_exempt and not r.multiple_winners:
        parts.append(_t(lang, "rp_thirteen_exempt_v"))
    return _t(lang, "comma").join(parts)


def _swap(r: Ruleset, lang: str, _: dict[str, Any]) -> str:
    return _t(lang, "rp_swap_banned_v" if r.no_swap_discard else "rp_swap_free_v")


_PASS_WORDS = {
    PassRule.NONE: "rp_pass_none_v",
    PassRule.SAME_TILE: "rp_pass_tile_v",
    PassRule.SAME_WAIT: "rp_pass_wait_v",
}


def _passing(r: Ruleset, lang: str, _: dict[str, Any]) -> str:
    pung = "rp_pung_pass_bar_v" if r.pung_pass_rule else "rp_pung_pass_free_v"
    return _t(lang, "comma").join((_t(lang, _PASS_WORDS[r.pass_rule]), _t(lang, pung)))


def _concealed_kong(r: Ruleset, lang: str, _: dict[str, Any]) -> str:
    return _t(
        lang,
        "rp_ckong_v",
        a=_onoff(lang, r.four_concealed_pungs_kongs),
        b=_onoff(lang, r.concealed_kong_keeps_concealed),
    )


def _rob_concealed(r: Ruleset, lang: str, _: dict[str, Any]) -> str:
    return _t(
        lang, "rp_rob_thirteen_yes" if r.rob_concealed_kong_thirteen else "rp_rob_thirteen_no"
    )


def _last_tile(r: Ruleset, lang: str, _: dict[str, Any]) -> str:
    return _t(
        lang,
        "rp_last_any_v",
        a=_fan(r, lang, FanId.LAST_DRAW),
        b=_fan(r, lang, FanId.LAST_DISCARD),
    )


def _limit(r: Ruleset, lang: str, _: dict[str, Any]) -> str:
    return _t(lang, "rp_limit_v", n=r.limit) if r.limit is not None else _t(lang, "rp_no_limit")


def _seven_pairs(r: Ruleset, lang: str, _: dict[str, Any]) -> str:
    return _t(lang, "rp_seven_pairs_yes" if r.seven_pairs else "rp_seven_pairs_no")


def _false_win(r: Ruleset, lang: str, _: dict[str, Any]) -> str:
    below = "rp_below_min_false" if r.false_win_below_minimum else "rp_below_min_barred"
    return _t(lang, "comma").join((_t(lang, "rp_false_win_v"), _t(lang, below)))


def _score_table(r: Ruleset, lang: str, _: dict[str, Any]) -> str:
    top = r.limit if r.limit is not None else max(13, r.min_fan + 10)
    shown = [n for n in (3, 6, 10) if r.min_fan <= n <= top]
    shares = _t(lang, "comma").join(_t(lang, "rp_share_at", n=n, s=share_for(n, r)) for n in shown)
    limit = str(r.limit) if r.limit is not None else _t(lang, "rp_no_limit")
    return _t(lang, "rp_score_v", limit=limit, shares=shares)


def _gun(r: Ruleset, lang: str, _: dict[str, Any]) -> str:
    if r.payment.gun is GunScheme.HALF_GUN:
        return _t(lang, "rp_half_gun_v")
    return _t(lang, "rp_full_gun_v", n=r.payment.discarder_shares)


def _robbed(r: Ruleset, lang: str, _: dict[str, Any]) -> str:
    if r.payment.robbed_kong is RobbedKongPayment.AS_DISCARD:
        return _t(lang, "rp_rob_discard_v")
    return _t(lang, "rp_rob_self_v")


def _liability(r: Ruleset, lang: str, _: dict[str, Any]) -> str:
    return _t(lang, "rp_liab_on" if r.payment.parlor_liability else "rp_liab_off")


def _practice(r: Ruleset, lang: str, _: dict[str, Any]) -> str:
    return _t(lang, "rp_practice_v", v=_lengths(lang, "practice", r))


def _online(r: Ruleset, lang: str, _: dict[str, Any]) -> str:
    return _t(lang, "rp_online_v", v=_lengths(lang, "online", r))


def _league(r: Ruleset, lang: str, _: dict[str, Any]) -> str:
    return _t(lang, "rp_league_v", v=_lengths(lang, "league", r))


def _table_value(r: Ruleset, lang: str, _: dict[str, Any]) -> str:
    levels = " / ".join(str(u) for u in STAKE_LEVELS)
    return _t(lang, "rp_table_value_v", v=table_value(r), levels=levels)


def _grace(r: Ruleset, lang: str, facts: dict[str, Any]) -> str:
    return _t(lang, "rp_grace_v", grace=facts["grace"])


CLAUSES: tuple[Section, ...] = (
    Section(
        "seats",
        (
            Clause("seats", "四人对局，四个坐位以风命名：东、南、西、北。出牌次序为逆时针"),
            Clause("winds", "碰自己的门风或当圈的圈风，都可计一番。", _winds),
            Clause("dealer_stays", "庄家食胡或流局：庄家继续做庄（连庄），其他不变。"),
            Clause("deal_passes", "闲家食胡：由下一位做庄，南位变东位，各人的门风随之转一位。"),
            Clause("rounds", "庄家轮过四位后，圈风转到下一个…打完东南西北四圈为一局。"),
        ),
    ),
    Section(
        "lengths",
        (
            Clause(
                "practice_lengths",
                "麻雀馆的单人练习可选择牌局长度：四圈、八局、十六局或打至有人破产。",
                _practice,
                fmt=("start",),
            ),
            Clause("online_lengths", "线上对局为四局。", _online),
            Clause("league_lengths", "", _league, source=""),
        ),
    ),
    Section(
        "deal",
        (
            Clause("wall", "144 只牌反转洗匀，砌成四道各 18 叠、每叠两只的牌墙", _wall),
            Clause("dice", "庄家掷三粒骰。由庄家起计为 1，逆时针数到骰数总和"),
            Clause("deal_tiles", "由开牌处起每次拿四只，轮三次（每人 12 只）"),
            Clause(
                "deal_bonus", "由庄家开始，各人按次序把花牌放出，并从牌尾补牌（补花）", _bonus_tiles
            ),
            Clause("dealer_opens", "庄家先打出一只牌开局，第一回合不用摸牌。"),
            Clause("draw_ends", "平常摸牌由牌头摸；补花和补杠的牌由牌尾摸。"),
            Clause(
                "dead_wall",
                "麻雀馆不留牌尾，所有牌都可以摸。有些家规会留最后 14 只不摸",
                _dead_wall,
            ),
        ),
    ),
    Section(
        "bonus",
        (
            Clause("bonus_never", "八只花季牌从不放进手牌。", _bonus_tiles),
            Clause(
                "seat_bonus", "正花：号码与你坐位相同的花或季，每只 1 番", _one(FanId.SEAT_BONUS)
            ),
            Clause(
                "bonus_set",
                "一台花：集齐四只花或四只季，每台 2 番（已包括该台的正花）",
                _one(FanId.BONUS_SET),
            ),
            Clause("no_bonus", "无花：食胡时没有任何花季牌，1 番。", _one(FanId.NO_BONUS)),
            Clause(
                "eight_bonus",
                "八仙过海：集齐全部八只即时食胡，当自摸计，8 番。",
                _one(FanId.EIGHT_BONUS),
            ),
            Clause(
                "bonus_rep",
                "花上自摸：补花补回来的牌食胡，1 番，另加自摸。",
                _one(FanId.BONUS_REPLACEMENT),
            ),
        ),
    ),
    Section(
        "turn",
        (
            Clause(
                "turn",
                "轮到你时先摸一只牌…如牌已成胡而且够三番，宣告自摸；最后必须打出一只牌。",
                _min_fan,
            ),
        ),
    ),
    Section(
        "claims",
        (
            Clause(
                "claim_any", "每只打出的牌，其余三家都可以取：食胡优先于碰或杠，碰或杠优先于上。"
            ),
            Clause(
                "head_bump",
                "如有两家或以上同时可以食胡，由出牌者之后最先轮到的一家食（截胡）。",
                _head_bump,
            ),
            Clause("after_claim", "碰或上之后即打出一只牌；杠之后先补牌再打。", _swap),
            Clause(
                "any_tile",
                "任何牌都可以食，包括你自己早前打出过的牌；放过一次食胡，亦不影响你之后再食。",
                _passing,
            ),
        ),
    ),
    Section(
        "kong",
        (
            Clause("kong_kinds", "明杠…加杠…暗杠"),
            Clause(
                "kong_replacement",
                "每次开杠后都要从牌尾补一只牌。以补回来的牌食胡就是杠上开花",
                _one(FanId.KONG_REPLACEMENT),
            ),
            Clause(
                "concealed_kong",
                "暗杠计算坎坎胡时仍当暗刻，但按标准规则会失去门前清",
                _concealed_kong,
            ),
            Clause(
                "robbing",
                "有人加杠时，任何能以那第四只牌食胡的玩家都可以抢来食，这就是抢杠",
                _one(FanId.ROBBING_KONG),
            ),
            Clause("rob_concealed", "暗杠不可以被抢，唯一例外是等十三么的玩家", _rob_concealed),
        ),
    ),
    Section(
        "win",
        (
            Clause(
                "win_shape",
                "胡牌是四组牌加一对眼（杠当一组），或十三么，而且最少要有三番。",
                _min_fan,
            ),
            Clause("win_ways", "食胡方式有：自摸…食别人打出的牌（对方即出铳）；抢杠。"),
            Clause(
                "last_tile",
                "摸最后一只牌自摸是海底捞月，食最后一只打出的牌是海底炮，各 1 番。",
                _last_tile,
            ),
            Clause("heavenly", "庄家起手 14 只牌已成胡是天胡…两者都是爆棚牌。", _limit),
            Clause("seven_pairs", "七对子并非港式麻雀的胡牌。", _seven_pairs),
            Clause("no_false_win", "麻雀馆只容许有效的食胡，所以游戏中不会诈胡", _false_win),
        ),
    ),
    Section(
        "drawn",
        (
            Clause("drawn_wall", "牌摸完仍无人食胡便流局（荒庄）：无人付款，庄家连庄。"),
            Clause("drawn_replacement", "开杠或补花时已无牌可补，亦当流局。"),
            Clause("drawn_no_pay", "流局时不论是否已听牌，都不用付款。"),
        ),
    ),
    Section(
        "pay",
        (
            Clause("score_table", "赢家的番数（上限十番）按分数表换算成一份的分数", _score_table),
            Clause("pay_self", "自摸：三家各付一份。"),
            Clause("pay_discard", "食出铳（全铳，标准）：出铳者独付三份…半铳", _gun),
            Clause("pay_robbed", "抢杠：当食出铳计，加杠者当出铳者。", _robbed),
            Clause("jade", "麻雀馆的分数一律以“玉”计算，没有任何金钱价值。"),
        ),
    ),
    Section(
        "liab",
        (
            Clause(
                "liability",
                "如果你打出的牌直接成就某些爆棚牌，你便要包，独自支付赢家的全部款项",
                _liability,
            ),
        ),
    ),
    Section(
        "online",
        (
            Clause("table_value", "每牌桌的賭注或牌桌的價值是由出沖最高番為定", _table_value, "ML"),
            Clause("one_hand", "打單局時, 金錢會根據該牌桌的付錢表來直接計算輸贏", None, "ML"),
            Clause("cancel", "如果發生遊戲被取消或中止, 賭注和手續費會歸還給玩家", None, "ML"),
            Clause(
                "disconnect",
                "如果玩家打牌時突然斷線…那麼玩家會自動被停玩",
                _grace,
                "ML",
                ("grace",),
            ),
            Clause("idle", "未能連續在兩次圈內作出任何動作", None, "ML"),
            Clause("sat_out", "只要該停玩的玩家一路在離線,他/她會一路被安排坐開", None, "ML"),
            Clause("sit_back", "當該已離線的玩家返回牌桌時,他/她可以繼續打麻雀", None, "ML"),
        ),
    ),
    Section(
        "house", (Clause("house", "香港每张麻雀台的打法都不尽相同，开台前最好先讲清楚台例。"),)
    ),
)
"""Seed 003's clauses in its order, then seed 002's online policies. ``idle`` states the table
actor's exact idle rule (``i18n.WORDS["rp_idle"]``; docs/protocol.md, *Sat out*)."""


def sections() -> tuple[Section, ...]:
    """The page's sections, in order."""
    return CLAUSES


@dataclass(frozen=True)
class ShownClause:
    """A clause as the page shows it, in one language."""

    id: str
    text: str
    value: str | None
    seed: str
    source: str


def _shown(clause: Clause, ruleset: Ruleset, lang: str, facts: dict[str, Any]) -> ShownClause:
    fmt = {name: facts[name] for name in clause.fmt}
    value = None if clause.value is None else clause.value(ruleset, lang, facts)
    return ShownClause(
        clause.id,
        _t(lang, f"rp_{clause.id}", **fmt),
        None if value is None else _t(lang, "rp_value", v=value),
        clause.seed,
        clause.source,
    )


def _switch_value(lang: str, value: object) -> str:
    if isinstance(value, bool):
        return _onoff(lang, value)
    if isinstance(value, Enum):
        return _t(lang, f"rv_{type(value).__name__}_{value.value}")
    if isinstance(value, tuple):
        return _t(lang, "comma").join(MatchLength.parse(v).label(lang) for v in value)
    return str(value)


def switch_rows(ruleset: Ruleset, lang: str) -> list[tuple[str, str, str, str]]:
    """Every house-rule switch: (its name in words, its value in words, what it means and where
    it comes from, the switch's key for the page's anchors)."""
    rows = []
    for name in SWITCHES:
        own = f"rd_{name}"
        doc = (
            _t(lang, own) if own in i18n.WORDS else (i18n.switch_doc(lang, name) or field_doc(name))
        )
        rows.append(
            (_t(lang, f"rs_{name}"), _switch_value(lang, getattr(ruleset, name)), doc, name)
        )
    return rows


SOURCE_CODES = ("P", "W2", "W1", "C", "ML")
_CODE = re.compile(r"(?<![A-Za-z0-9])(P|W1|W2|C|ML)(?![A-Za-z0-9])")


def cite_codes(text: str, lang: str) -> Markup:
    """A citation with each source code (P, W1, W2, C, ML) marked as an abbreviation: its
    legend line as its title, a link to the legend below.

    >>> str(cite_codes("W2 正統; P", "en")).count('<a class="srccode"')
    2
    """
    out, at = Markup(""), 0
    for m in _CODE.finditer(text):
        code = m.group(1)
        out += escape(text[at : m.start()])
        out += Markup('<a class="srccode" href="#src-{c}"><abbr title="{t}">{c}</abbr></a>').format(
            c=code, t=_t(lang, f"rp_src_{code}")
        )
        at = m.end()
    return out + escape(text[at:])


def page_context(
    ruleset: Ruleset, lang: str, clocks: ClockSettings | None = None
) -> dict[str, Any]:
    """What the rules page shows of ``ruleset`` in ``lang``: the sections with each clause and
    its value, the liability hands, the switches and the source-code legend."""
    online = clocks or ClockSettings()
    facts = {
        "start": MatchLength.BANKRUPTCY.start_balance,
        "grace": online.grace_ms // 1000,
    }
    return {
        "rule_sections": [
            (
                _t(lang, f"rp_{section.id}_h"),
                section.id,
                [_shown(c, ruleset, lang, facts) for c in section.clauses],
            )
            for section in CLAUSES
        ],
        "switch_rows": switch_rows(ruleset, lang),
        "source_legend": [(code, _t(lang, f"rp_src_{code}")) for code in SOURCE_CODES],
        "cite_codes": lambda text: cite_codes(text, lang),
    }
