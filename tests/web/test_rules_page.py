"""規則: every clause of seed 003 is on the rules page, in each language, beside the ruleset's
value; no raw switch name, raw value or unexplained source code; how a seat is sat out and comes
back (issue 31 items 7 and 9). The page is read as rendered.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from fastapi.testclient import TestClient

from hkmahjong.engine.match import BANKRUPTCY_START, MatchLength
from hkmahjong.parlor.stakes import table_value
from hkmahjong.rules import get_preset
from hkmahjong.rules.presets import preset_names
from hkmahjong.rules.ruleset import SWITCHES, BonusWinHand, DealBonusWin, LastTileRule, PassRule
from hkmahjong.server.i18n import LANGS, tr

from .scriptcheck import foreign_chars, visible_text

SEED_003 = {
    # clause id: seed 003's own words (as the seed writes them)
    "seats": "四人对局，四个坐位以风命名：东、南、西、北。出牌次序为逆时针：东 → 南 → 西 → 北。",
    "winds": "东位是该局的庄家。你坐位的风是门风；每一圈亦有圈风。碰自己的门风或当圈的圈风，都可计一番。",
    "dealer_stays": "庄家食胡或流局：庄家继续做庄（连庄），其他不变。",
    "deal_passes": "闲家食胡：由下一位做庄，南位变东位，各人的门风随之转一位。",
    "rounds": "庄家轮过四位后，圈风转到下一个：东圈、南圈、西圈、北圈。打完东南西北四圈为一局。",
    "practice_lengths": "麻雀馆的单人练习可选择牌局长度：四圈、八局、十六局或打至有人破产。",
    "online_lengths": "线上对局为四局。",
    "wall": "144 只牌反转洗匀，砌成四道各 18 叠、每叠两只的牌墙，每人面前一道。",
    "dice": "庄家掷三粒骰。由庄家起计为 1，逆时针数到骰数总和，决定开哪一道牌墙",
    "deal_tiles": "由开牌处起每次拿四只，轮三次（每人 12 只）。庄家再“跳牌”拿两只",
    "deal_bonus": "由庄家开始，各人按次序把花牌放出，并从牌尾补牌（补花），直至手上没有花牌。",
    "dealer_opens": "庄家先打出一只牌开局，第一回合不用摸牌。",
    "draw_ends": "平常摸牌由牌头摸；补花和补杠的牌由牌尾摸。",
    "dead_wall": "麻雀馆不留牌尾，所有牌都可以摸。有些家规会留最后 14 只不摸，剩下这些牌时便流局。",
    "bonus_never": "八只花季牌从不放进手牌。无论起手或摸牌时拿到，都要翻开放出，再从牌尾补一只。",
    "seat_bonus": "正花：号码与你坐位相同的花或季，每只 1 番（东 1、南 2、西 3、北 4）。",
    "bonus_set": "一台花：集齐四只花或四只季，每台 2 番（已包括该台的正花）。",
    "no_bonus": "无花：食胡时没有任何花季牌，1 番。",
    "eight_bonus": "八仙过海：集齐全部八只即时食胡，当自摸计，8 番。",
    "bonus_rep": "花上自摸：补花补回来的牌食胡，1 番，另加自摸。",
    "turn": "轮到你时先摸一只牌（刚上碰了别人的牌则不用摸）。…最后必须打出一只牌。",
    "claim_any": "每只打出的牌，其余三家都可以取：优先次序：食胡优先于碰或杠，碰或杠优先于上。",
    "head_bump": "如有两家或以上同时可以食胡，由出牌者之后最先轮到的一家食（截胡）。",
    "after_claim": "碰或上之后即打出一只牌；杠之后先补牌再打。之后由你的下家继续",
    "any_tile": "任何牌都可以食，包括你自己早前打出过的牌；放过一次食胡，亦不影响你之后再食。",
    "kong_kinds": "明杠…加杠…暗杠",
    "kong_replacement": "每次开杠后都要从牌尾补一只牌。以补回来的牌食胡就是杠上开花（杠上自摸）",
    "concealed_kong": "暗杠计算坎坎胡时仍当暗刻，但按标准规则会失去门前清；有些家规则不受影响。",
    "robbing": "有人加杠时，任何能以那第四只牌食胡的玩家都可以抢来食，这就是抢杠，计 1 番。",
    "rob_concealed": "暗杠不可以被抢，唯一例外是等十三么的玩家，可以抢他需要的那只暗杠牌。",
    "win_shape": "胡牌是四组牌加一对眼（杠当一组），或十三么，而且最少要有三番。",
    "win_ways": "食胡方式有：自摸，包括杠上开花及花上自摸；食别人打出的牌；抢杠。",
    "last_tile": "摸最后一只牌自摸是海底捞月，食最后一只打出的牌是海底炮，各 1 番。",
    "heavenly": "庄家起手 14 只牌已成胡是天胡；闲家…食庄家打出的第一只牌是地胡，两者都是爆棚牌。",
    "seven_pairs": "七对子并非港式麻雀的胡牌。",
    "no_false_win": "麻雀馆只容许有效的食胡，所以游戏中不会诈胡；在真实牌台上诈胡要重罚",
    "drawn_wall": "牌摸完仍无人食胡便流局（荒庄）：无人付款，庄家连庄。",
    "drawn_replacement": "开杠或补花时已无牌可补，亦当流局。",
    "drawn_no_pay": "流局时不论是否已听牌，都不用付款。",
    "score_table": "赢家的番数（上限十番）按分数表换算成一份的分数；三番是 4 分、六番是 16 分、十番是 64 分。",
    "pay_self": "自摸：三家各付一份。",
    "pay_discard": "食出铳（全铳，标准）：出铳者独付三份…食出铳（半铳，常见麻雀馆规则）",
    "pay_robbed": "抢杠：当食出铳计，加杠者当出铳者。",
    "jade": "完整分数表及例子见计番教学。麻雀馆的分数一律以“玉”计算，没有任何金钱价值。",
    "liability": "如果你打出的牌直接成就某些爆棚牌，你便要包…麻雀馆对以下三种牌包牌",
    "house": "香港每张麻雀台的打法都不尽相同，开台前最好先讲清楚台例。",
}
"""Seed 003, clause by clause (its text is cut off after "最常见的有：")."""
SEED_002 = ("table_value", "one_hand", "cancel", "disconnect", "idle", "sat_out", "sit_back")
"""Seed 002's online policies the page states (《斷線》 for item 9)."""


def _page(client: TestClient, preset: str, lang: str) -> str:
    return client.get("/rules", params={"preset": preset, "lang": lang}).text


def _clause(html: str, clause_id: str) -> str:
    found = re.search(rf'<p data-clause="{clause_id}"[^>]*>(.*?)</p>', html, re.S)
    assert found is not None, f"no clause {clause_id}"
    return found.group(1)


def _words(fragment: str) -> str:
    """A clause's own words: without the seed citation (quoted as the seed wrote it)."""
    return unescape(re.sub(r"<[^>]+>", "", re.sub(r"<cite.*?</cite>", "", fragment, flags=re.S)))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("preset", preset_names())
def test_every_clause_of_seed_003_is_on_the_page(
    client: TestClient, preset: str, lang: str
) -> None:
    html = _page(client, preset, lang)
    for clause_id in (*SEED_003, *SEED_002):
        fragment = _clause(html, clause_id)
        words = _words(fragment).strip()
        assert len(words) > 8, (clause_id, words)
        assert not foreign_chars(words, lang), (clause_id, lang, sorted(foreign_chars(words, lang)))
        assert 'class="src"' in fragment  # the seed's own sentence, cited
    text = visible_text(html, lang)
    assert not foreign_chars(text, lang), sorted(foreign_chars(text, lang))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("preset", preset_names())
def test_each_clause_shows_the_rulesets_value(client: TestClient, preset: str, lang: str) -> None:
    rs = get_preset(preset)
    html = _page(client, preset, lang)

    def value(clause_id: str) -> str:
        fragment = _clause(html, clause_id)
        found = re.search(r'data-testid="rule-value">(.*?)</strong>', fragment, re.S)
        assert found is not None, f"{clause_id}: no value"
        return unescape(found.group(1))

    assert str(rs.min_fan) in value("win_shape")
    assert str(rs.limit) in value("score_table")
    practice = MatchLength.offered("practice", rs.match_lengths)
    assert all(m.label(lang) in value("practice_lengths") for m in practice)
    assert str(BANKRUPTCY_START) in _words(_clause(html, "practice_lengths"))
    online = MatchLength.offered("online", rs.match_lengths)
    assert [m.label(lang) in value("online_lengths") for m in online] == [True] * len(online)
    if MatchLength.ONLINE in online:  # seed 003 "线上对局为四局"
        assert value("online_lengths").endswith(MatchLength.ONLINE.label(lang))
    assert str(table_value(rs)) in value("table_value")
    pass_words = {
        PassRule.NONE: "rp_pass_none_v",
        PassRule.SAME_TILE: "rp_pass_tile_v",
        PassRule.SAME_WAIT: "rp_pass_wait_v",
    }
    assert tr(lang, pass_words[rs.pass_rule]) in value("any_tile")
    pung = "rp_pung_pass_bar_v" if rs.pung_pass_rule else "rp_pung_pass_free_v"
    assert tr(lang, pung) in value("any_tile")
    swap = "rp_swap_banned_v" if rs.no_swap_discard else "rp_swap_free_v"
    assert tr(lang, swap) in value("after_claim")
    wall = tr(lang, "rp_dead_wall_v0") if not rs.dead_wall else str(rs.dead_wall)
    assert wall in value("dead_wall")
    assert tr(lang, "rp_false_win_v") in value("no_false_win")
    seven = "rp_seven_pairs_yes" if rs.seven_pairs else "rp_seven_pairs_no"
    assert tr(lang, seven) in value("seven_pairs")


def test_the_parlors_own_values(client: TestClient) -> None:
    """Under the parlor (seed 003's table): 3 fan, limit 10, no dead wall, 四局 online, every
    discard open to all (no pung 過水, no 食替), passing a win bars nothing."""
    html = _page(client, "parlor", "zh-Hans")
    assert "起胡 3 番" in _clause(html, "win_shape")
    assert "网上对局：四局" in _clause(html, "online_lengths")
    assert "练习可选：四圈，八局，十六局，打到破产" in _clause(html, "practice_lengths")
    assert "放过胡牌没有限制" in _clause(html, "any_tile")
    assert "放过碰之后照样可以碰" in _clause(html, "any_tile")
    assert "不留牌尾" in _clause(html, "dead_wall")
    assert "牌桌价值 192 玉" in _clause(html, "table_value")


@pytest.mark.parametrize("lang", LANGS)
def test_no_raw_switch_name_value_or_unexplained_source_code(client: TestClient, lang: str) -> None:
    html = _page(client, "qingzhang", lang)
    article = unescape(
        re.sub(r"<[^>]+>", " ", html[html.index("<article") : html.index("</article>")])
    )
    raw_values = {
        m.value
        for enum in (PassRule, LastTileRule, DealBonusWin, BonusWinHand)
        for m in enum
        if "_" in m.value  # "apart", "adds", "any", "none" are plain words
    }
    for name in (*SWITCHES, *raw_values, "MatchLength"):
        assert not re.search(rf"\b{name}\b", article), f"{name} shown raw [{lang}]"
    assert "<code>" not in html
    legend = html.split('data-testid="source-legend"', 1)[1].split("</section>", 1)[0]
    for code in ("P", "W1", "W2", "C", "ML"):
        assert f'data-source="{code}"' in legend
        assert tr(lang, f"rp_src_{code}") in unescape(legend)


@pytest.mark.parametrize("lang", LANGS)
def test_when_a_seat_is_sat_out_and_how_to_come_back(client: TestClient, lang: str) -> None:
    """Seed 002 《斷線》: "如果玩家打牌時突然斷線或未能連續在兩次圈內作出任何動作,那麼玩家會自動被停玩
    … 當該已離線的玩家返回牌桌時,他/她可以繼續打麻雀" — the page says, in each language, when a
    seat is sat out (a disconnect past the 15 s grace; the table actor's idle rule: two own turns
    to the clock, or a claim window and then the own turn after it) and how to come back (回座)."""
    html = _page(client, "parlor", lang)
    disconnect = _words(_clause(html, "disconnect"))
    assert "15" in disconnect
    assert "data-adjust" not in html  # issue 31 item 9: the line states the actor's exact rule
    idle = _words(_clause(html, "idle"))
    assert tr(lang, "rp_idle") in idle
    # both ways of being idle are named: own turns, and a claim window followed by the own turn
    assert {"en": "claim window", "zh-Hant": "機會超時", "zh-Hans": "机会超时"}[lang] in idle
    assert tr(lang, "rp_sit_back") in _words(_clause(html, "sit_back"))
    assert tr(lang, "rp_sat_out") in _words(_clause(html, "sat_out"))


@pytest.mark.parametrize("lang", LANGS)
def test_every_source_code_cited_is_explained_where_it_stands(
    client: TestClient, lang: str
) -> None:
    """Each P / W1 / W2 / C / ML in a citation, the fan table or a switch's description is an
    abbreviation whose title is its legend line, linked to the legend (issue 30 item 11: "source
    codes (W1/W2/C/P/ML) never explained")."""
    html = _page(client, "parlor", lang)
    article = html[html.index("<article") : html.index("</article>")]
    legend = {code: unescape(tr(lang, f"rp_src_{code}")) for code in ("P", "W1", "W2", "C", "ML")}
    marked = re.findall(
        r'<a class="srccode" href="#src-(\w+)"><abbr title="([^"]*)">(\w+)</abbr>', article
    )
    assert len(marked) > 50
    for target, title, code in marked:
        assert target == code and unescape(title) == legend[code]
        assert f'id="src-{code}"' in article
    bare = re.sub(r'<a class="srccode".*?</a>', "", article)
    for cited in re.findall(r"<(?:cite|small)[^>]*>(.*?)</(?:cite|small)>", bare, re.S):
        text = unescape(re.sub(r"<[^>]+>", "", cited))
        assert not re.search(r"(?<![A-Za-z0-9])(P|W1|W2|C|ML)(?![A-Za-z0-9])", text), text
