"""More stacked-wall scenarios: 出槓, 過水 on the same wait, 地糊 after a dealer kong, clones."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from hkmahjong.engine import Action, ActionKind, Phase
from hkmahjong.engine.state import DrawSource, HandState
from hkmahjong.engine.wall import stacked_wall
from hkmahjong.rules import FanId, PassRule, Ruleset
from hkmahjong.rules.payment import ExposedKongPayment
from hkmahjong.rules.presets import get_preset, preset_names
from hkmahjong.tiles import Tile, Wind

E, S, W, N = Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH
PARLOR = get_preset("parlor")


def table(rs: Ruleset = PARLOR, *, draws: str = "", repl: str = "", **deal: str) -> HandState:
    """A hand dealt from a stacked wall (``e``/``s``/``w``/``n`` deals)."""
    deals = {Wind.parse(k): v for k, v in deal.items()}
    wall = stacked_wall(deals, draws=draws, replacements=repl, bonus_tiles=rs.bonus_tiles)
    return HandState.new(rs, seed=b"more", wall=wall)


def play(state: HandState, seat: Wind, text: str) -> None:
    """Apply one action given as text."""
    state.apply(seat, Action.from_text(text))


def texts(state: HandState, seat: Wind) -> list[str]:
    """The legal actions of ``seat`` as text."""
    return [a.text for a in state.legal_actions(seat)]


EXPOSED_KONG = {
    "e": "9s3m6m9m2m5m8m8s8s6z6z7z1p2p",
    "s": "999s123s456s777s5z",
    "w": "147m258p1234567z",
    "n": "258m369p147p1z2z3z4z",
}


@pytest.mark.parametrize("rule", list(ExposedKongPayment))
def test_win_on_an_exposed_kong_replacement(rule: ExposedKongPayment) -> None:
    """docs/rules.md §6 出槓 (W2, C switch) and §8 槓上開花: a win on a 明槓's replacement."""
    rs = replace(PARLOR, payment=replace(PARLOR.payment, exposed_kong=rule))
    st = table(rs, repl="5z", **EXPOSED_KONG)
    play(st, E, "discard 9s")
    assert texts(st, S) == ["pass", "pung", "kong"]
    play(st, S, "kong")
    assert st.current == S and st.draw_source is DrawSource.KONG
    assert "self_draw" in texts(st, S)
    play(st, S, "self_draw")
    out = st.outcome
    assert out is not None
    ctx = out.wins[0].context
    assert ctx.kong_replacement and ctx.self_drawn and not ctx.double_kong_replacement
    assert FanId.KONG_REPLACEMENT in out.wins[0].result.fan_ids
    if rule is ExposedKongPayment.OFF:
        assert out.deltas[E] == out.deltas[W] == out.deltas[N] < 0
    else:
        assert out.deltas[W] == out.deltas[N] == 0 and out.deltas[E] == -out.deltas[S] < 0


SAME_WAIT = {
    "e": "2z1p2p3p4p5p6p7s8s3z5z6z7z9p",
    "s": "1s2s4s5s8s3s6s9s4z5z6z7z3m",
    "w": "147m258p369s8m1z3z4z",
    "n": "123m456m789m11z99m",
}


@pytest.mark.parametrize("rule", [PassRule.SAME_WAIT, PassRule.SAME_TILE, PassRule.NONE])
def test_same_wait_pass_allows_a_higher_scoring_tile(rule: PassRule) -> None:
    """docs/rules.md §6 過水 (W1/W2): after passing a win, a higher-value tile of that wait may be won."""
    st = table(replace(PARLOR, pass_rule=rule), draws="9m9p", **SAME_WAIT)
    play(st, E, "discard 2z")
    play(st, S, "discard 9m")
    assert "win" in texts(st, N)
    play(st, N, "pass")
    play(st, W, "pass")  # W could chow 789m
    if rule is PassRule.SAME_WAIT:
        assert st.win_bar_fan[N] == 5  # 混一色 3, 門前清 1, 無花 1
    play(st, W, "discard 1z")
    assert st.phase is Phase.CLAIM and "win" in texts(st, N)  # + 番牌 東: 6 > 5
    play(st, N, "win")
    out = st.outcome
    assert out is not None and out.wins[0].result.total_fan == 6


def test_no_earthly_hand_after_the_dealers_kong() -> None:
    """docs/rules.md §7 地糊 (C): not after the dealer has declared a kong."""
    st = table(
        e="1111s9p3m6m9m3p6p5s9s6z7z",
        s="123m456m789m555z9p",
        w="147m258p369s1567z",
        n="147m258p369s2467z",
        repl="8s",
    )
    play(st, E, "concealed_kong 1s")
    play(st, E, "discard 9p")
    assert texts(st, S) == ["pass", "win"]
    play(st, S, "win")
    out = st.outcome
    assert out is not None
    ctx, res = out.wins[0].context, out.wins[0].result
    assert ctx.earthly and ctx.concealed_kong_before
    assert FanId.EARTHLY not in res.fan_ids and res.valid_win


def test_dealer_false_win_passes_the_deal() -> None:
    """docs/rules.md §11: a false win by the dealer ends the deal (no 連莊)."""
    st = HandState.new(PARLOR, seed=b"false-dealer", physical_table=True)
    if "false_win" not in texts(st, E):
        pytest.skip("the dealer happened to be dealt a winning hand")
    play(st, E, "false_win")
    out = st.outcome
    assert out is not None and out.false_winners == (E,) and not out.dealer_stays
    assert out.deltas[E] < 0 and sum(out.deltas) == 0


def test_clone_is_independent() -> None:
    """clone(): playing on the copy leaves the original untouched."""
    st = HandState.new(PARLOR, seed=b"clone")
    before = st.to_json()
    copy = st.clone()
    for _ in range(30):
        if copy.is_over:
            break
        seat = copy.to_act[0]
        copy.apply(seat, copy.legal_actions(seat)[-1])
    assert st.to_json() == before and copy.to_json() != before


@settings(max_examples=25, deadline=None)
@given(
    preset=st_.sampled_from(preset_names()),
    seed=st_.binary(min_size=1, max_size=8),
    choices=st_.lists(st_.integers(min_value=0, max_value=1000), min_size=1, max_size=120),
)
def test_replaying_the_same_choices_is_deterministic(
    preset: str, seed: bytes, choices: list[int]
) -> None:
    """docs/dev/architecture.md practice 9: the same seed and choices give the same events; JSON and clone agree."""
    rs = get_preset(preset)
    a = HandState.new(rs, seed=seed)
    b = HandState.new(rs, seed=seed)
    assert a.initial_events == b.initial_events
    for i, pick in enumerate(choices):
        if a.is_over:
            break
        seat = a.to_act[pick % len(a.to_act)]
        legal = a.legal_actions(seat)
        action = legal[pick % len(legal)]
        if i % 10 == 5:
            b = HandState.from_json(b.to_json(), rs)
        elif i % 10 == 7:
            b = b.clone()
        assert a.apply(seat, action) == b.apply(seat, action)
        assert a.to_json() == b.to_json()
    for seat in Wind:
        assert a.view(seat) == b.view(seat)


def test_seeded_hands_differ_and_repeat() -> None:
    """Determinism (practice 9): a seed fixes the wall and dice; other seeds give other walls."""
    walls = {tuple(HandState.new(PARLOR, seed=bytes([i])).wall) for i in range(20)}
    assert len(walls) == 20
    rng = random.Random(0)
    seed = rng.randbytes(16)
    assert HandState.new(PARLOR, seed=seed).to_json() == HandState.new(PARLOR, seed=seed).to_json()


BIG_WINDS = {
    "e": "1z2m5m8m3p6p9p2s5s8s5z6z7z9m",
    "s": "11z22z33z44z9s1s4s7s1p",
    "w": "2z3z4z1m4m7m2p5p8p3s6s5z6z",
    "n": "3m6m9m4p7p9s2m5m8m7z7z5z6z",
}


def _pass_all(state: HandState) -> None:
    while state.phase in (Phase.CLAIM, Phase.ROB):
        for seat in state.to_act:
            play(state, seat, "pass")


@pytest.mark.parametrize(
    ("parlor", "twelve", "liable"),
    [(True, False, W), (False, True, W), (False, False, None)],
)
def test_fourth_wind_and_fourth_set_liability(parlor: bool, twelve: bool, liable: Wind) -> None:
    """docs/rules.md §10: 包大四喜 (P) and 包十二張 (W1/W2 full gun) — the feeder pays the self-draw."""
    pay = replace(PARLOR.payment, parlor_liability=parlor, twelve_tiles=twelve)
    st = table(replace(PARLOR, payment=pay), draws="8p8s4m6m6p3p9s", **BIG_WINDS)
    play(st, E, "discard 1z")
    play(st, S, "pung")
    for fed, junk in (("2z", "1s"), ("3z", "4s"), ("4z", "7s")):
        play(st, S, f"discard {junk}")
        _pass_all(st)
        play(st, W, f"discard {fed}")
        assert "pung" in texts(st, S)
        for seat in st.to_act:
            play(st, seat, "pung" if seat == S else "pass")
    play(st, S, "discard 1p")
    _pass_all(st)
    for seat, tile in ((W, "6m"), (N, "6p"), (E, "3p")):
        play(st, seat, f"discard {tile}")
        _pass_all(st)
    assert st.current == S and "self_draw" in texts(st, S)
    play(st, S, "self_draw")
    out = st.outcome
    assert out is not None and FanId.GREAT_WINDS in out.wins[0].result.fan_ids
    assert out.wins[0].liable == liable
    if liable is None:
        assert out.deltas[E] == out.deltas[W] == out.deltas[N] < 0
    else:
        assert out.deltas[E] == out.deltas[N] == 0 and out.deltas[W] == -out.deltas[S]


@pytest.mark.parametrize("switch", [True, False])
def test_seven_bonus_win_on_a_kong_replacement(switch: bool) -> None:
    """docs/rules.md §8 花糊 on a kong replacement: 4 fan self-drawn (W2), or plain 花糊 (switch off)."""
    rs = replace(get_preset("qingzhang"), bonus_win_kong_replacement=switch)
    st = table(
        rs,
        e="1m4m7m2p5p8p3s6s9s1z2z3z4z5z",
        s="1234f12g5555m1p2p3p",
        w="3m6m9m1p4p7p2s5s8s1z2z4z6z",
        n="7z3m6m9m1p4p7p2s5s8s6z7z4z",
        draws="2s",
        repl="4p5p6p7p8p9p" + "3g" + "1s",
    )
    play(st, E, "discard 1z")
    _pass_all(st)
    assert st.current == S and len(st.bonus[S]) == 6
    play(st, S, "concealed_kong 5m")
    assert len(st.bonus[S]) == 7 and "bonus_win" in texts(st, S)
    play(st, S, "bonus_win")
    out = st.outcome
    assert out is not None
    ctx, res = out.wins[0].context, out.wins[0].result
    assert ctx.seven_bonus and ctx.kong_replacement and not ctx.bonus_replacement
    assert FanId.SEVEN_BONUS in res.fan_ids
    assert (FanId.KONG_REPLACEMENT in res.fan_ids) is switch


def test_no_tile_left_to_replace_a_bonus_tile_is_an_exhaustive_draw() -> None:
    """docs/rules.md §12: the last tile is a flower and nothing is left to replace it — 流局."""
    rs = replace(PARLOR, dead_wall=64)
    live = 144 - 53 - 64
    draws = "1m4m7m2p5p8p3s6s9s3z4z6z7z2z3z4z6z9m" + "2m5m8m3p6p9p9s8s" + "1f"
    st = table(
        rs,
        e="2m5m8m3p6p9p1s4s7s1z2z3z6z7z",
        s="3m6m9m1p4p7p2s5s8s1z2z3z4z",
        w="2m5m8m3p6p9p1s4s7s5z6z7z7z",
        n="555z123m456m789p1s",
        draws=draws,
    )
    assert st.tiles_left == live == 27
    while not st.is_over:
        seat = st.current
        last = st.last_drawn
        legal = [a for a in st.legal_actions(seat) if a.kind is ActionKind.DISCARD]
        pick = f"discard {Tile(last).mpsz}" if last >= 0 else legal[0].text
        if pick not in texts(st, seat):
            pick = legal[0].text
        play(st, seat, pick)
        _pass_all(st)
    out = st.outcome
    assert out is not None and out.drawn and out.deltas == (0, 0, 0, 0)
    assert st.bonus[N] == [Tile.PLUM] and st.census() == [4] * 34 + [1] * 8


@pytest.mark.parametrize("first_turn", [True, False])
def test_human_hand_self_draw_in_the_first_turn(first_turn: bool) -> None:
    """docs/rules.md §7 人糊 (W2 正統): a non-dealer self-draws in its first turn with no claim before."""
    draws = "9p" if first_turn else "5z7m8m6z9p"
    st = table(
        e="1z2s5s8s3p6p9m2m5m8m3z4z6z7z",
        s="123m456m789m111p9p",
        w="147m258p369s1234z",
        n="147m258p1234679s",
        draws=draws,
    )
    play(st, E, "discard 1z")
    if not first_turn:
        play(st, S, "discard 5z")
        for seat in (W, N, E):
            play(st, seat, f"discard {Tile(st.last_drawn).mpsz}")
            _pass_all(st)
    assert st.current == S and st.last_drawn == Tile.P9
    assert "self_draw" in texts(st, S)  # 門前清 + 自摸 + 無花 reach 3 even without 人糊
    play(st, S, "self_draw")
    out = st.outcome
    assert out is not None
    assert out.wins[0].context.first_go_around is first_turn
    assert (FanId.HUMAN in out.wins[0].result.fan_ids) is first_turn


@pytest.mark.parametrize("switch", [False, True])
def test_double_kong_second_kong_not_from_the_replacement(switch: bool) -> None:
    """docs/rules.md §8 槓上槓: switch (C, W1 fn. 17) — the second kong must come from the replacement."""
    rs = replace(PARLOR, double_kong_from_replacement=switch)
    st = table(
        rs,
        e="1111m2222m345p678s",
        s="147p258s369m1234z",
        w="147p258s369m1567z",
        n="147p258s369m2467z",
        repl="9s9s",
    )
    play(st, E, "concealed_kong 1m")
    play(st, E, "concealed_kong 2m")
    assert "self_draw" in texts(st, E)
    play(st, E, "self_draw")
    out = st.outcome
    assert out is not None
    ctx, res = out.wins[0].context, out.wins[0].result
    assert ctx.double_kong_replacement and not ctx.second_kong_from_replacement
    assert (FanId.DOUBLE_KONG_REPLACEMENT in res.fan_ids) is not switch
