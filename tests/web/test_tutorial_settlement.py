"""計番教學 pays what the engine pays: every worked example's situation is the one the engine
builds for that win, and its payment is the engine's own settlement (issue 31 item 1).

Seed 003 (P): "八仙过海：集齐全部八只即时食胡，当自摸计，8 番" — a bonus win is paid as a
self-draw; "杠上开花（杠上自摸）：1 番，另加自摸"; "自摸：三家各付一份"; "食出铳（全铳，标准）：
出铳者独付三份"; "抢杠：当食出铳计，加杠者当出铳者".
"""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from hkmahjong.engine import Action, Phase
from hkmahjong.engine.events import WinRecord
from hkmahjong.engine.settle import settle_records
from hkmahjong.engine.state import HandState
from hkmahjong.engine.wall import stacked_wall
from hkmahjong.hand import Hand
from hkmahjong.rules import FanId, Ruleset, get_preset
from hkmahjong.rules.presets import preset_names
from hkmahjong.scoring import WinContext, score_hand
from hkmahjong.server.i18n import LANGS, tr
from hkmahjong.server.tutorial import EXAMPLES, example_for, parse_context, worked_examples
from hkmahjong.tiles import Wind

E, S, W, N = Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH


def _blocks(html: str) -> dict[str, str]:
    """Each worked example's HTML by its pattern id."""
    out = {}
    for part in html.split('<div class="example" id="fan-')[1:]:
        fan_id, _, rest = part.partition('"')
        out[fan_id] = rest
    return out


def _deltas(block: str) -> dict[str, int]:
    found = re.search(r'data-deltas="([^"]*)"', block)
    assert found is not None, block[:300]
    return {item[0]: int(item[1:]) for item in found.group(1).split()}


def _engine_deltas(hand: Hand, ctx: WinContext, ruleset: Ruleset) -> dict[str, int]:
    """The engine's settlement (``settle_records``, what ends every hand at a table) of this win,
    the discarder chosen as in the guide (地糊: the dealer; otherwise the winner's 上家)."""
    result = score_hand(hand, ctx, ruleset)
    if ctx.self_drawn:
        discarder = None
    elif ctx.earthly:
        discarder = E
    else:
        discarder = Wind((int(ctx.seat_wind) - 1) % 4)
    win = WinRecord(ctx.seat_wind, discarder, hand, ctx, result)
    return settle_records([win], [], ruleset).as_json()


def _table(rs: Ruleset, *, repl: str = "", draws: str = "", **deals: str) -> HandState:
    wall = stacked_wall(
        {E: deals["e"], S: deals["s"], W: deals["w"], N: deals["n"]},
        draws=draws,
        replacements=repl,
        bonus_tiles=rs.bonus_tiles,
    )
    return HandState.new(rs, seed=b"scenario", wall=wall)


def _play(st: HandState, seat: Wind, text: str) -> None:
    st.apply(seat, Action.from_text(text))


def _discard(st: HandState, seat: Wind, tile: str) -> None:
    _play(st, seat, f"discard {tile}")
    while st.phase in (Phase.CLAIM, Phase.ROB):
        for s in st.to_act:
            _play(st, s, "pass")


def _eight_bonus_win() -> WinRecord:
    """Seed 003 八仙过海 at a parlor table: S draws its eighth bonus tile and wins at once."""
    st = _table(
        get_preset("parlor"),
        e="1m4m7m2p5p8p3s6s9s1z2z3z4z5z",
        s="1234f12g2m5m8m3p6p9p1s",
        w="3m6m9m1p4p7p2s5s8s1z2z4z6z",
        n="7z3m6m9m1p4p7p2s5s8s6z7z4z",
        draws="3g7m8m9m4g",
        repl="4s7s2z3z5z6z" + "9s" + "6s",
    )
    for seat, tile in ((E, "1z"), (S, "9s"), (W, "7m"), (N, "8m"), (E, "9m")):
        _discard(st, seat, tile)
    _play(st, S, "bonus_win")
    assert st.outcome is not None
    return st.outcome.wins[0]


def _seven_bonus_win() -> WinRecord:
    """W2 花糊 at a qingzhang table: S's seventh bonus tile comes on its second turn (not at the
    deal, so no 地糊; not its first turn, so no 人糊) and S wins at once."""
    st = _table(
        get_preset("qingzhang"),
        e="1m4m7m2p5p8p3s6s9s1z2z3z4z5z",
        s="1234f1g2m5m8m3p6p9p1s4s",
        w="3m6m9m1p4p7p2s5s8s1z2z4z6z",
        n="7z3m6m9m1p4p7p2s5s8s6z7z4z",
        draws="2g7m8m9m3g",
        repl="7s2z3z5z6z" + "9s" + "6s",
    )
    for seat, tile in ((E, "1z"), (S, "9s"), (W, "7m"), (N, "8m"), (E, "9m")):
        _discard(st, seat, tile)
    _play(st, S, "bonus_win")
    assert st.outcome is not None
    return st.outcome.wins[0]


def _kong_replacement_win() -> WinRecord:
    """槓上開花: E declares a concealed kong and wins on the replacement."""
    st = _table(
        get_preset("parlor"),
        e="1111m234p567p789s5z",
        s="147p258s369m1234z",
        w="147p258s369m1467z",
        n="147p258s369m2467z",
        repl="5z",
    )
    _play(st, E, "concealed_kong 1m")
    _play(st, E, "self_draw")
    assert st.outcome is not None
    return st.outcome.wins[0]


def _bonus_replacement_win() -> WinRecord:
    """花上自摸: E's kong replacement is a flower; E wins on the flower's replacement."""
    st = _table(
        get_preset("parlor"),
        e="1111m234p567p789s5z",
        s="147p258s369m1234z",
        w="147p258s369m1467z",
        n="147p258s369m2467z",
        repl="1f5z",
    )
    _play(st, E, "concealed_kong 1m")
    _play(st, E, "self_draw")
    assert st.outcome is not None
    return st.outcome.wins[0]


_ENGINE_WINS = {
    FanId.EIGHT_BONUS: ("parlor", _eight_bonus_win),
    FanId.SEVEN_BONUS: ("qingzhang", _seven_bonus_win),
    FanId.KONG_REPLACEMENT: ("parlor", _kong_replacement_win),
    FanId.BONUS_REPLACEMENT: ("parlor", _bonus_replacement_win),
}
_SITUATION = (
    "self_drawn",
    "robbing_kong",
    "kong_replacement",
    "double_kong_replacement",
    "bonus_replacement",
    "seven_bonus",
    "eight_bonus",
)


@pytest.mark.parametrize("fan_id", list(_ENGINE_WINS), ids=lambda f: f.value)
def test_the_guides_situation_is_the_engines(fan_id: FanId) -> None:
    """The engine, playing the hand at a table, builds the same situation as the guide's example:
    self-drawn or not, the moment, and (for a bonus win) no winning tile — and pays the same."""
    preset, play = _ENGINE_WINS[fan_id]
    ruleset = get_preset(preset)
    engine = play()
    assert fan_id in engine.result.fan_ids
    ex = example_for(fan_id, ruleset)
    assert ex is not None
    for flag in _SITUATION:
        assert getattr(ex.ctx, flag) == getattr(engine.context, flag), flag
    if engine.context.seven_bonus or engine.context.eight_bonus:
        assert ex.ctx.winning_tile is None and engine.context.winning_tile is None
    assert ex.discarder is None and engine.discarder is None
    # the same fan at the same table pays the same: each of the three pays one share
    engine_paid = sorted(
        -d for d in settle_records([engine], [], ruleset).as_json().values() if d < 0
    )
    if engine.result.total_fan == ex.result.total_fan:
        assert sorted(ex.paid.values()) == engine_paid


def test_eight_bonus_is_priced_as_a_self_draw_on_the_page(client: TestClient) -> None:
    """P "八仙过海：集齐全部八只即时食胡，当自摸计，8 番": each of the three pays 32 at the parlor
    (8 fan, 半辣上), as the engine pays the same win — never "出銃者付 96"."""
    engine = settle_records([_eight_bonus_win()], [], get_preset("parlor")).as_json()
    assert sorted(d for d in engine.values() if d < 0) == [-32, -32, -32]
    for lang in LANGS:
        html = client.get("/tutorial", params={"preset": "parlor", "lang": lang}).text
        block = _blocks(html)[FanId.EIGHT_BONUS.value]
        assert tr(lang, "pay_self_each", n=32) in block
        assert tr(lang, "ctx_self") in block
        assert sorted(d for d in _deltas(block).values() if d < 0) == [-32, -32, -32]


def test_seven_bonus_is_priced_as_a_self_draw_on_the_page(client: TestClient) -> None:
    """W2 花糊 "計兩番加自摸一番" (3 fan, a self-draw): at qingzhang each of the three pays one
    share of 3 fan (4 jade) — the engine's 3 × 4, not a discarder's 8."""
    html = client.get("/tutorial", params={"preset": "qingzhang", "lang": "en"}).text
    block = _blocks(html)[FanId.SEVEN_BONUS.value]
    assert tr("en", "pay_self_each", n=4) in block
    assert sorted(d for d in _deltas(block).values() if d < 0) == [-4, -4, -4]


@pytest.mark.parametrize("preset", preset_names())
def test_every_example_on_the_page_pays_what_the_engine_pays(
    client: TestClient, preset: str
) -> None:
    """Each example of each preset the page offers, scored in its situation and settled by the
    engine's settlement, pays on the rendered page exactly that, in every language."""
    ruleset = get_preset(preset)
    pages = {
        lang: _blocks(client.get("/tutorial", params={"preset": preset, "lang": lang}).text)
        for lang in LANGS
    }
    for fan_id, ex in worked_examples(preset):
        assert ex is not None
        hand = Hand.from_text(ex.example.hand)
        ctx = parse_context(ex.example.ctx, hand)
        expected = _engine_deltas(hand, ctx, ruleset)
        for lang, blocks in pages.items():
            block = blocks[fan_id.value]
            assert _deltas(block) == expected, (preset, fan_id, lang)
            paid = sorted({-d for d in expected.values() if d < 0})
            text = block.split('data-testid="example-pays"', 1)[1]
            shown = [int(n) for n in re.findall(r"(\d+) (?:玉|jade)", text.split("</span>")[0])]
            assert sorted(set(shown)) == paid, (preset, fan_id, lang, shown)
            situation = tr(lang, "ctx_self") if ctx.self_drawn else ""
            assert situation in block


def test_bonus_wins_and_replacement_wins_are_self_draws_in_every_example() -> None:
    """The engine's rules for a win's situation (``HandState._context``): a bonus win, a win on
    a kong or bonus replacement, 槓上槓 and 天糊 are self-draws; a robbed kong is not."""
    for fan_id, examples in EXAMPLES.items():
        for example in examples:
            ctx = parse_context(example.ctx, Hand.from_text(example.hand))
            moments = (
                ctx.seven_bonus,
                ctx.eight_bonus,
                ctx.kong_replacement,
                ctx.double_kong_replacement,
                ctx.bonus_replacement,
                ctx.heavenly,
            )
            if any(moments):
                assert ctx.self_drawn, fan_id
            if ctx.robbing_kong:
                assert not ctx.self_drawn and not ctx.last_tile, fan_id
            if ctx.seven_bonus or ctx.eight_bonus:
                assert ctx.winning_tile is None, fan_id


def test_situations_the_engine_cannot_reach_are_refused() -> None:
    with pytest.raises(ValueError, match="only on a self-draw"):
        parse_context("kong")
    with pytest.raises(ValueError, match="seven or eight bonus tiles"):
        parse_context("bonus", Hand.from_text("123m456p789s55s222p"))
    with pytest.raises(ValueError, match="dealer"):
        parse_context("self heavenly seat=S")
    with pytest.raises(ValueError, match="one way of winning"):
        parse_context("self rob")
