"""Scenario tests with stacked walls: each reaches one rule of docs/rules.md §2–§12 and names it."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from hkmahjong.engine import Action, ActionKind, EventKind, Phase
from hkmahjong.engine.state import DrawSource, HandState
from hkmahjong.engine.wall import stacked_wall
from hkmahjong.errors import IllegalActionError
from hkmahjong.hand.meld import MeldKind
from hkmahjong.rules import FanId, PassRule, Ruleset
from hkmahjong.rules.presets import get_preset
from hkmahjong.scoring.liability import TriggerKind
from hkmahjong.tiles import Tile, Wind, parse_tiles

E, S, W, N = Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH
PARLOR = get_preset("parlor")


def table(
    rs: Ruleset = PARLOR,
    *,
    e: str,
    s: str,
    w: str,
    n: str,
    draws: str = "",
    repl: str = "",
    physical: bool = False,
) -> HandState:
    """A hand dealt from a stacked wall: each seat's deal, the head draws, the tail tiles."""
    wall = stacked_wall(
        {E: e, S: s, W: w, N: n}, draws=draws, replacements=repl, bonus_tiles=rs.bonus_tiles
    )
    return HandState.new(rs, seed=b"scenario", wall=wall, physical_table=physical)


def texts(state: HandState, seat: Wind) -> list[str]:
    """The legal actions of ``seat`` as text."""
    return [a.text for a in state.legal_actions(seat)]


def play(state: HandState, seat: Wind, text: str) -> None:
    """Apply one action given as text."""
    state.apply(seat, Action.from_text(text))


def pass_all(state: HandState) -> None:
    """Everyone in an open window passes."""
    while state.phase in (Phase.CLAIM, Phase.ROB):
        for seat in state.to_act:
            play(state, seat, "pass")


def discard(state: HandState, seat: Wind, tile: str) -> None:
    """``seat`` (whose turn it is) discards ``tile``; every window that opens is passed."""
    assert state.phase is Phase.TURN and state.to_act == (seat,), (state.phase, state.to_act)
    play(state, seat, f"discard {tile}")
    pass_all(state)


# --- §7 heavenly and earthly hands -------------------------------------------------------------
def test_heavenly_hand() -> None:
    """docs/rules.md §7 天糊: the dealer's first 14 tiles are complete — a limit self-draw."""
    st = table(
        e="123m456m789m111p99p",
        s="147m258p369s1234z",
        w="147m258p369s1567z",
        n="147m258p369s2467z",
    )
    assert "self_draw" in texts(st, E)
    play(st, E, "self_draw")
    out = st.outcome
    assert out is not None and out.winners == (E,)
    win = out.wins[0]
    assert win.context.heavenly and win.context.self_drawn
    assert FanId.HEAVENLY in win.result.fan_ids and win.result.is_limit
    assert out.deltas[E] > 0 and out.deltas[S] == out.deltas[W] == out.deltas[N] < 0
    assert sum(out.deltas) == 0 and out.dealer_stays


def test_earthly_hand_on_the_dealers_first_discard() -> None:
    """docs/rules.md §7 地糊: a non-dealer wins on the dealer's first discard before any claim."""
    st = table(
        e="9p3m6m9m3p6p1s5s9s1z2z3z5z6z",
        s="123m456m789m111p9p",
        w="147m258p369s1567z",
        n="147m258p369s2467z",
    )
    play(st, E, "discard 9p")
    assert st.phase is Phase.CLAIM and st.to_act == (S,)
    assert texts(st, S) == ["pass", "win"]
    play(st, S, "win")
    out = st.outcome
    assert out is not None and out.winners == (S,)
    assert out.wins[0].context.earthly and out.wins[0].discarder == E
    assert FanId.EARTHLY in out.wins[0].result.fan_ids
    assert out.deltas[E] < 0 and out.deltas[W] == out.deltas[N] == 0  # full gun: E pays
    assert not out.dealer_stays


# --- §6 claims: priority, 截糊 / 一炮多響 ----------------------------------------------------------
PRIORITY = {
    "e": "5p3m6m1p2p3p7p8p9p2s5s8s3z4z",
    "s": "46p258s369s2z3z4z6z7z",
    "w": "55p147m258m1s4s7s6z7z",
    "n": "111m999m111z555z5p",
}


def test_win_beats_pung_beats_chow() -> None:
    """docs/rules.md §6: win > pung/kong > chow, whatever order the seats decide in."""
    st = table(**PRIORITY)
    play(st, E, "discard 5p")
    assert st.phase is Phase.CLAIM and set(st.to_act) == {S, W, N}
    assert texts(st, S) == ["pass", "chow 456p"]
    assert texts(st, W) == ["pass", "pung"]
    assert texts(st, N) == ["pass", "win"]
    play(st, S, "chow 456p")
    play(st, W, "pung")
    assert st.to_act == (N,)
    play(st, N, "win")
    assert st.outcome is not None and st.outcome.winners == (N,)


def test_pung_beats_chow_and_skips_seats() -> None:
    """docs/rules.md §6: pung beats chow; play continues with the claimer's 下家 (S is skipped)."""
    st = table(**PRIORITY)
    play(st, E, "discard 5p")
    play(st, N, "pass")
    play(st, S, "chow 456p")
    play(st, W, "pung")
    assert st.phase is Phase.TURN and st.current == W
    melds = st.melds[W]
    assert len(melds) == 1 and melds[0].kind is MeldKind.PUNG and melds[0].source == 2  # 對家
    assert all(a.kind is ActionKind.DISCARD for a in st.legal_actions(W))  # discard at once
    assert st.rivers[E] == [Tile.P5] and st.taken[E] == [True]
    discard(st, W, "7z")
    assert st.current == N  # the claimer's 下家


def test_chow_when_nobody_else_claims_and_only_by_the_next_seat() -> None:
    """docs/rules.md §6: chow only from your 上家; W passing a pung bars its pung of 5p (W2's 過水 for
    pungs, on here: the parlor itself takes every discard since issue 31, seed 003)."""
    st = table(replace(PARLOR, pung_pass_rule=True), **PRIORITY)
    play(st, E, "discard 5p")
    play(st, W, "pass")
    play(st, N, "pass")
    assert st.phase is Phase.CLAIM
    play(st, S, "chow 456p")
    assert st.current == S and st.melds[S][0].kind is MeldKind.CHOW
    assert st.melds[S][0].source == 1  # 上家
    assert (st.pung_bar[W] >> Tile.P5) & 1
    # Nobody but the discarder's 下家 is ever offered a chow.
    for seat in (W, N):
        assert not any(a.kind is ActionKind.CHOW for a in st.legal_actions(seat))


def test_decisions_are_unseen_and_survive_json() -> None:
    """docs/dev/architecture.md practice 10: a decision in an open window is hidden and kept in the state."""
    st = table(**PRIORITY)
    play(st, E, "discard 5p")
    events = st.apply(S, Action.from_text("chow 456p"))
    assert [e.kind for e in events] == [EventKind.DECISION]
    assert all(events[0].for_seat(seat) is None for seat in Wind)
    assert set(st.to_act) == {W, N}
    back = HandState.from_json(st.to_json(), PARLOR)
    assert back.to_act == st.to_act and back.to_json() == st.to_json()
    for seat in Wind:
        assert back.view(seat) == st.view(seat)
    play(back, W, "pass")
    play(back, N, "pass")
    assert back.current == S and back.melds[S][0].kind is MeldKind.CHOW


HEAD_BUMP = {
    "e": "9s3m6m9m3p6p9p3z4z6z7z1p4p7p",
    "s": "147m258p1234567z",
    "w": "123s456s789s11z99s",
    "n": "12345678s22z555z",
}


def test_head_bump_first_in_turn_order_wins() -> None:
    """docs/rules.md §6 截糊 (P): several can win; the first in turn order after the discarder wins."""
    st = table(**HEAD_BUMP)
    play(st, E, "discard 9s")
    assert set(st.to_act) == {W, N}
    play(st, N, "win")
    play(st, W, "win")
    out = st.outcome
    assert out is not None and out.winners == (W,)
    assert out.deltas[N] == 0 and out.deltas[E] < 0


def test_head_bump_passes_to_the_next_winner() -> None:
    """docs/rules.md §6 截糊: if the first seat passes, the next seat's win stands."""
    st = table(**HEAD_BUMP)
    play(st, E, "discard 9s")
    play(st, W, "pass")
    play(st, N, "win")
    assert st.outcome is not None and st.outcome.winners == (N,)


def test_multiple_winners_switch() -> None:
    """docs/rules.md §6 一炮多響 (W1/W2 switch): every seat that wins on the discard wins, each paid."""
    rs = replace(PARLOR, multiple_winners=True)
    st = table(rs, **HEAD_BUMP)
    play(st, E, "discard 9s")
    play(st, W, "win")
    play(st, N, "win")
    out = st.outcome
    assert out is not None and out.winners == (W, N)
    assert out.deltas[W] > 0 and out.deltas[N] > 0 and out.deltas[S] == 0
    assert out.deltas[E] == -(out.deltas[W] + out.deltas[N])
    assert st.census() == [4] * 34 + [1] * 8


def test_thirteen_orphans_is_not_head_bumped_when_exempt() -> None:
    """docs/rules.md §6: 十三幺 cannot be head-bumped (W2 正統, qingzhang); in the parlor it can."""
    hands = {
        "e": "1m3m6m9m3p6p2s3z4z6z5p5p8p8p",
        "s": "123m456m789m111p1m",
        "w": "9m1p9p1s9s1234567z9m",
        "n": "2m5m8m4p7p2p3s4s5s7s8s2z2z",
    }
    for rs, expected in (
        (PARLOR, (S,)),
        (replace(PARLOR, thirteen_orphans_head_bump_exempt=True), (S, W)),
    ):
        st = table(rs, **hands)
        play(st, E, "discard 1m")
        assert "win" in texts(st, S) and "win" in texts(st, W)
        for seat in st.to_act:
            play(st, seat, "win" if seat in (S, W) else "pass")
        assert st.outcome is not None and st.outcome.winners == expected


# --- §6 過水, W2 pung pass, 食替 -----------------------------------------------------------------
PASS_WIN = {
    "e": "5p3m6m9m3p6p1s5s9s1z2z3z4z6z",
    "s": "5p258m258s369s2z3z4z",
    "w": "147m258p369s2567z",
    "n": "111m999m111z555z5p",
}


@pytest.mark.parametrize(
    ("rule", "offered_again"),
    [(PassRule.NONE, True), (PassRule.SAME_TILE, False), (PassRule.SAME_WAIT, False)],
)
def test_passing_a_win(rule: PassRule, offered_again: bool) -> None:
    """docs/rules.md §6 過水: P — passing a win forbids nothing; W1/W2 — not that tile till your draw."""
    rs = replace(PARLOR, pass_rule=rule)
    st = table(rs, draws="7m", **PASS_WIN)
    play(st, E, "discard 5p")
    assert st.to_act == (N,)
    play(st, N, "pass")
    assert st.current == S and st.phase is Phase.TURN
    play(st, S, "discard 5p")
    assert (st.phase is Phase.CLAIM and "win" in texts(st, N)) is offered_again
    pass_all(st)
    assert st.current == W


def test_pung_pass_rule() -> None:
    """docs/rules.md §6 (W2): having passed a pung, no pung of that tile until your next draw."""
    hands = {
        "e": "3s3m6m9m3p6p9p1z2z4z6z7z1p4p",
        "s": "3s147m258p9s5z2z3z4z7z",
        "w": "33s147m258p9p1z5z6z7z",
        "n": "147m258p69s18m245z",
    }
    for rule, offered in ((True, False), (False, True)):
        st = table(replace(PARLOR, pung_pass_rule=rule), draws="9m", **hands)
        play(st, E, "discard 3s")
        assert texts(st, W) == ["pass", "pung"]
        play(st, W, "pass")
        assert st.current == S
        play(st, S, "discard 3s")
        assert ("pung" in texts(st, W)) is offered
        pass_all(st)
        assert st.current == W and st.pung_bar[W] == 0  # the bar ends with W's own draw


@pytest.mark.parametrize("no_swap", [True, False])
def test_no_swap_discard_after_a_pung(no_swap: bool) -> None:
    """docs/rules.md §6 食替 (W2): after a chow or pung you may not discard the same tile."""
    hands = {
        "e": "3s3m6m9m3p6p9p1z2z4z6z7z1p4p",
        "s": "147m258p9s5z2z3z4z7z1s",
        "w": "333s147m258p1z5z6z7z",
        "n": "147m258p69s18m245z",
    }
    st = table(replace(PARLOR, no_swap_discard=no_swap), **hands)
    play(st, E, "discard 3s")
    assert texts(st, W) == ["pass", "pung", "kong"]
    play(st, W, "pung")
    assert ("discard 3s" in texts(st, W)) is not no_swap


# --- §6 kongs and robbing -------------------------------------------------------------------------
ROB = {
    "e": "55p3m6m9m1s4s7s5z5z6p6p2p2p",
    "s": "46p123p789p111z22z",
    "w": "147m258s369s3z4z6z7z",
    "n": "5p258m147s3z4z6z7z5z9m",
}


def _reach_added_kong(rs: Ruleset = PARLOR) -> HandState:
    st = table(rs, draws="9s8s1m2m4m7m5p", **ROB)
    discard(st, E, "3m")
    discard(st, S, "9s")
    discard(st, W, "8s")
    play(st, N, "discard 5p")
    assert set(st.to_act) == {S, E}
    play(st, S, "pass")  # S could win (kanchan 5p), but passes
    play(st, E, "pung")
    discard(st, E, "2p")
    discard(st, S, "2m")
    discard(st, W, "4m")
    discard(st, N, "7m")
    assert st.current == E and st.last_drawn == Tile.P5
    assert "added_kong 5p" in texts(st, E)
    return st


def test_robbing_an_added_kong() -> None:
    """docs/rules.md §6 搶槓: an added kong can be robbed; the declarer pays as discarder, meld stays."""
    st = _reach_added_kong()
    play(st, E, "added_kong 5p")
    assert st.phase is Phase.ROB and st.to_act == (S,)
    assert texts(st, S) == ["pass", "win"]
    assert st.census() == [4] * 34 + [1] * 8  # the kong tile is in limbo, still counted
    play(st, S, "win")
    out = st.outcome
    assert out is not None and out.winners == (S,)
    win = out.wins[0]
    assert win.context.robbing_kong and win.discarder == E
    assert FanId.ROBBING_KONG in win.result.fan_ids
    assert [m.kind for m in st.melds[E]] == [MeldKind.PUNG]
    assert out.deltas[E] < 0 and out.deltas[W] == out.deltas[N] == 0


def test_added_kong_not_robbed_draws_a_replacement() -> None:
    """docs/rules.md §6: a kong not robbed stands; the declarer draws a replacement from the tail."""
    st = _reach_added_kong()
    tail_before = st.tail
    play(st, E, "added_kong 5p")
    play(st, S, "pass")
    assert st.phase is Phase.TURN and st.current == E
    assert [m.kind for m in st.melds[E]] == [MeldKind.ADDED_KONG]
    assert st.tail == tail_before - 1 and st.draw_source is DrawSource.KONG and st.kong_chain == 1


THIRTEEN_ROB = {
    "e": "1111m2m5m8m3p6p2s5s8s6z6z",
    "s": "9m1p9p1s9s1234567z9m",
    "w": "4m7m2p5p8p3s6s9s5z7z5m2z6m",
    "n": "147p258s369m4z3z2z1z",
}


@pytest.mark.parametrize("switch", [True, False])
def test_robbing_a_concealed_kong_only_for_thirteen_orphans(switch: bool) -> None:
    """docs/rules.md §6: a concealed kong can be robbed only by a 十三幺 wait (P, W2; W1 fn. 8: never)."""
    rs = replace(PARLOR, rob_concealed_kong_thirteen=switch)
    st = table(rs, repl="6m", **THIRTEEN_ROB)
    play(st, E, "concealed_kong 1m")
    if not switch:
        assert st.phase is Phase.TURN and st.current == E and st.last_drawn == Tile.M6
        return
    assert st.phase is Phase.ROB and st.to_act == (S,)
    play(st, S, "win")
    out = st.outcome
    assert out is not None and out.winners == (S,)
    assert FanId.THIRTEEN_ORPHANS in out.wins[0].result.fan_ids
    assert out.wins[0].context.robbing_kong and st.melds[E] == []
    assert st.census() == [4] * 34 + [1] * 8


def test_consecutive_kongs_and_no_heavenly_after_a_concealed_kong() -> None:
    """docs/rules.md §8 槓上槓; §7: a dealer's concealed kong first turns 天糊 into the kong win only."""
    st = table(
        e="1111m222m345p678s9s",
        s="147p258s369m1234z",
        w="147p258s369m1567z",
        n="147p258s369m2467z",
        repl="2m9s",
    )
    play(st, E, "concealed_kong 1m")
    assert st.last_drawn == Tile.M2 and "concealed_kong 2m" in texts(st, E)
    play(st, E, "concealed_kong 2m")
    assert st.kong_chain == 2 and "self_draw" in texts(st, E)
    play(st, E, "self_draw")
    out = st.outcome
    assert out is not None
    ctx, res = out.wins[0].context, out.wins[0].result
    assert ctx.kong_replacement and ctx.double_kong_replacement and ctx.second_kong_from_replacement
    assert ctx.heavenly and ctx.concealed_kong_before
    assert FanId.DOUBLE_KONG_REPLACEMENT in res.fan_ids and FanId.HEAVENLY not in res.fan_ids


def test_bonus_replacement_after_a_kong_is_flower_win_not_kong_win() -> None:
    """docs/rules.md §8: a kong → bonus → replacement win is 花上自摸, not 槓上開花 (W1/W2)."""
    st = table(
        e="1111m234p567p789s5z",
        s="147p258s369m1234z",
        w="147p258s369m1467z",
        n="147p258s369m2467z",
        repl="1f5z",
    )
    play(st, E, "concealed_kong 1m")
    assert st.bonus[E] == [Tile.PLUM] and st.draw_source is DrawSource.BONUS
    play(st, E, "self_draw")
    out = st.outcome
    assert out is not None
    ctx = out.wins[0].context
    assert ctx.bonus_replacement and not ctx.kong_replacement
    assert FanId.BONUS_REPLACEMENT in out.wins[0].result.fan_ids


def _to_the_last_tile() -> HandState:
    """Play (discarding drawn tiles, passing every claim) until North holds the last tile."""
    rs = replace(PARLOR, bonus_tiles=False, dead_wall=64, min_fan=3)
    st = table(
        rs,
        e="3m3m1m4m7m2p5p8p3s6s9s1z2z3z",
        s="2m5m8m3p6p9p1s4s7s1z2z3z5z",
        w="3m6m9m1p4p7p2s5s8s1z2z4z6z",
        n="7777z3m6m9m1p4p7p2s5s8s",
    )
    assert st.tiles_left == 136 - 53 - 64 == 19
    while st.tiles_left > 0 or st.current != N:
        seat = st.current
        held = [a for a in st.legal_actions(seat) if a.kind is ActionKind.DISCARD]
        last = st.last_drawn
        play(st, seat, f"discard {Tile(last).mpsz}" if last >= 0 else held[0].text)
        pass_all(st)
        assert not st.is_over
    return st


def test_kong_with_no_replacement_left_is_an_exhaustive_draw() -> None:
    """docs/rules.md §12: no tile left for a kong replacement — the hand is drawn, nobody pays."""
    st = _to_the_last_tile()
    assert "concealed_kong 7z" in texts(st, N)
    events = st.apply(N, Action.from_text("concealed_kong 7z"))
    kinds = [e.kind for e in events]
    assert EventKind.CONCEALED_KONG in kinds and EventKind.EXHAUSTIVE_DRAW in kinds
    out = st.outcome
    assert out is not None and out.drawn and out.deltas == (0, 0, 0, 0) and out.dealer_stays
    assert st.census()[:34] == [4] * 34


def test_the_last_discard_can_only_be_won() -> None:
    """docs/rules.md §12 / decision: the last discard cannot be chowed, punged or konged; then 流局."""
    st = _to_the_last_tile()
    assert st.hands[E][Tile.M3] >= 2
    play(st, N, "discard 3m")
    out = st.outcome
    assert out is not None and out.drawn


def test_exhaustive_draw_with_a_reserved_tail() -> None:
    """docs/rules.md §3/§12: with 14 tiles kept back the hand is drawn when only those remain."""
    rs = replace(PARLOR, dead_wall=14)
    st = HandState.new(rs, seed=b"draw-14")
    steps = 0
    while not st.is_over:
        seat = st.to_act[0]
        legal = st.legal_actions(seat)
        if st.phase is Phase.TURN:
            last = st.last_drawn
            pick = Action.discard(last) if last >= 0 else legal[0]
            if pick not in legal:
                pick = next(a for a in legal if a.kind is ActionKind.DISCARD)
        else:
            pick = legal[0]  # pass
        st.apply(seat, pick)
        steps += 1
    out = st.outcome
    assert out is not None
    if out.drawn:
        assert st.tail - st.head == 14 and out.deltas == (0, 0, 0, 0)
    assert steps > 50


# --- §3/§4 bonus tiles ----------------------------------------------------------------------------
def test_bonus_replacement_at_the_deal_in_seat_order() -> None:
    """docs/rules.md §3.4: from the dealer, in order, bonus tiles are exposed and replaced from the tail."""
    st = table(
        e="1f147m258p369s1234z",
        s="2f3f147m258p369s4z5z",
        w="147m258p369s5z6z7z1z",
        n="4g123456789p567z",
        repl="1g2m3m4m5m",
    )
    opening = [(e.kind, e.seat, e.tile) for e in st.initial_events if e.kind is not EventKind.DEAL]
    assert opening[1:] == [
        (EventKind.BONUS, E, Tile.PLUM),
        (EventKind.DRAW, E, Tile.SPRING),
        (EventKind.BONUS, S, Tile.ORCHID),
        (EventKind.DRAW, S, Tile.M2),
        (EventKind.BONUS, S, Tile.CHRYSANTHEMUM),
        (EventKind.DRAW, S, Tile.M3),
        (EventKind.BONUS, N, Tile.WINTER),
        (EventKind.DRAW, N, Tile.M4),
        (EventKind.BONUS, E, Tile.SPRING),
        (EventKind.DRAW, E, Tile.M5),
    ]
    assert st.bonus[E] == [Tile.PLUM, Tile.SPRING]
    assert sum(st.hands[E]) == 14 and all(sum(st.hands[s]) == 13 for s in (1, 2, 3))


def test_bonus_tile_drawn_in_play_is_exposed_and_replaced() -> None:
    """docs/rules.md §4: a bonus tile is exposed as soon as drawn and replaced from the tail."""
    st = table(
        e="1m4m7m2p5p8p3s6s9s1z2z3z4z5z",
        s="2m5m8m3p6p9p1s4s7s1z2z3z5z",
        w="3m6m9m1p4p7p2s5s8s1z2z4z6z",
        n="7z3m6m9m1p4p7p2s5s8s6z7z4z",
        draws="2f",
        repl="9m",
    )
    discard(st, E, "1z")
    assert st.current == S and st.bonus[S] == [Tile.ORCHID]
    assert st.last_drawn == Tile.M9 and st.draw_source is DrawSource.BONUS
    view = st.view(S)
    assert view.bonus[S] == (Tile.ORCHID,) and view.last_drawn == Tile.M9
    assert st.view(E).last_drawn is None


def test_eight_bonus_tiles_win_at_once() -> None:
    """docs/rules.md §8 八仙過海: the eighth bonus tile wins at once, paid as a self-draw (P)."""
    st = table(
        e="1m4m7m2p5p8p3s6s9s1z2z3z4z5z",
        s="1234f12g2m5m8m3p6p9p1s",
        w="3m6m9m1p4p7p2s5s8s1z2z4z6z",
        n="7z3m6m9m1p4p7p2s5s8s6z7z4z",
        draws="3g7m8m9m4g",
        repl="4s7s2z3z5z6z" + "9s" + "6s",
    )
    assert len(st.bonus[S]) == 6
    discard(st, E, "1z")
    assert len(st.bonus[S]) == 7 and "bonus_win" not in texts(st, S)  # no 花糊 in the parlor
    discard(st, S, "9s")
    discard(st, W, "7m")
    discard(st, N, "8m")
    discard(st, E, "9m")
    assert st.current == S and len(st.bonus[S]) == 8
    assert texts(st, S) == ["bonus_win"]
    play(st, S, "bonus_win")
    out = st.outcome
    assert out is not None and out.winners == (S,)
    assert out.wins[0].context.eight_bonus and out.wins[0].self_drawn
    assert FanId.EIGHT_BONUS in out.wins[0].result.fan_ids
    assert out.deltas[E] == out.deltas[W] == out.deltas[N] < 0


SEVEN = {
    "e": "1m4m7m2p5p8p3s6s9s1z2z3z4z5z",
    "s": "1234f123g258m369p",
    "w": "3m6m9m1p4p7p2s5s8s1z2z4z6z",
    "n": "7z3m6m9m1p4p7p2s5s8s6z7z4z",
}


def test_seven_bonus_win_at_the_deal_counts_earthly() -> None:
    """docs/rules.md §8 花糊 (W2): seven bonus tiles may win at once; at the deal a non-dealer adds 地糊."""
    rs = get_preset("qingzhang")
    st = table(rs, repl="9p1s4s7s2z5z6z", draws="9m", **SEVEN)
    discard(st, E, "1z")
    assert st.current == S and "bonus_win" in texts(st, S)
    play(st, S, "bonus_win")
    out = st.outcome
    assert out is not None and out.wins[0].context.seven_bonus
    assert out.wins[0].context.earthly
    assert FanId.EARTHLY in out.wins[0].result.fan_ids and out.wins[0].result.is_limit


def test_seven_bonus_win_can_be_declined() -> None:
    """docs/rules.md §8 花糊 (W2): a player may decline and wait; it is not offered again at seven."""
    rs = get_preset("qingzhang")
    st = table(rs, repl="9p1s4s7s2z5z6z", draws="9m", **SEVEN)
    discard(st, E, "1z")
    events = st.apply(S, Action.from_text("discard 9m"))
    assert events[0].kind is EventKind.DECLINE_BONUS_WIN
    assert st.declined[S]
    pass_all(st)
    assert not any(a.kind is ActionKind.BONUS_WIN for a in st.legal_actions(st.current))


def test_seven_bonus_is_not_a_win_in_the_parlor() -> None:
    """docs/rules.md §8: 花糊 is off in the parlor (P's bonus list is complete)."""
    st = table(PARLOR, repl="9p1s4s7s2z5z6z", draws="9m", **SEVEN)
    discard(st, E, "1z")
    assert "bonus_win" not in texts(st, S)


# --- §10 liability --------------------------------------------------------------------------------
def test_great_dragons_liability_end_to_end() -> None:
    """docs/rules.md §10 包大三元 (P): feeding the third dragon set pays the whole self-drawn win."""
    st = table(
        e="7z5m6m8m2p4p6p8p2s5s8s1z2z3z",
        s="77z66z55z123m9s1s4s7s",
        w="6z5z9m9p1p3p5p7p3s6s1z2z3z",
        n="1m4m7m2s5s8s9s4z4z1p4p7p9p",
        draws="3m4m2m9p6p9s",
    )
    play(st, E, "discard 7z")
    play(st, S, "pung")
    discard(st, S, "1s")
    play(st, W, "discard 6z")
    play(st, S, "pung")
    discard(st, S, "4s")
    play(st, W, "discard 5z")
    play(st, S, "pung")
    fed = [(t.feeder, t.beneficiary) for t in st.triggers if t.kind is TriggerKind.THIRD_DRAGON]
    assert fed == [(W, S)]
    discard(st, S, "7s")
    discard(st, W, "2m")
    discard(st, N, "9p")
    discard(st, E, "6p")
    assert st.current == S and "self_draw" in texts(st, S)
    play(st, S, "self_draw")
    out = st.outcome
    assert out is not None and out.wins[0].liable == W
    assert FanId.GREAT_DRAGONS in out.wins[0].result.fan_ids
    assert out.deltas[E] == out.deltas[N] == 0 and out.deltas[W] == -out.deltas[S] < 0


# --- §7 minimum fan, §11 false wins ------------------------------------------------------------
CHICKEN = {
    "e": "7p3m6m9m3p5p1s5s9s1z2z3z4z6z",
    "s": "147m258s369s2z3z4z7z",
    "w": "147m258p369s1567z",
    "n": "3f123m345p789s234s",
    "repl": "6p",
    "draws": "6p",
}


def _chicken_discard(st: HandState) -> None:
    """E discards, then S discards the 6p it drew: N could win, but only below the minimum."""
    discard(st, E, "1z")
    play(st, S, "discard 6p")


def test_win_below_minimum_is_not_offered() -> None:
    """docs/rules.md §7: the parlor offers a win only when it reaches the minimum (3 fan)."""
    st = table(**CHICKEN)
    _chicken_discard(st)
    assert N not in st.to_act
    st0 = table(replace(PARLOR, min_fan=0), **CHICKEN)
    _chicken_discard(st0)
    assert "win" in texts(st0, N)


def test_physical_table_false_win() -> None:
    """docs/rules.md §11 詐糊: on a physical table a false win may be declared; priced by §11."""
    st = table(physical=True, **CHICKEN)
    _chicken_discard(st)
    assert "false_win" in texts(st, N) and "win" not in texts(st, N)
    for seat in st.to_act:
        play(st, seat, "false_win" if seat == N else "pass")
    out = st.outcome
    assert out is not None and out.false_winners == (N,) and not out.wins
    assert out.deltas[N] < 0 and sum(out.deltas) == 0
    assert all(out.deltas[s] > 0 for s in (E, S, W))
    assert out.dealer_stays  # a non-dealer's false win


def test_below_minimum_not_false_when_switched_off() -> None:
    """docs/rules.md §11 switch: below the minimum is not a false win, but the player may not win again."""
    rs = replace(PARLOR, false_win_below_minimum=False)
    st = table(rs, physical=True, **CHICKEN)
    _chicken_discard(st)
    for seat in st.to_act:
        play(st, seat, "false_win" if seat == N else "pass")
    assert not st.is_over and st.win_barred[N]


# --- §7 last tile ---------------------------------------------------------------------------------
def test_self_draw_on_the_last_tile() -> None:
    """docs/rules.md §7 海底撈月: a self-drawn win on the last tile scores it (and 自摸)."""
    rs = replace(PARLOR, bonus_tiles=False, dead_wall=64)
    draws = "1m4m7m2p5p8p3s6s9s3z4z6z7z2z3z4z6z9m1s"  # 19 draws; the 19th is North's last
    st = table(
        rs,
        e="2m5m8m3p6p9p1s4s7s1z2z3z6z7z",
        s="3m6m9m1p4p7p2s5s8s1z2z3z4z",
        w="2m5m8m3p6p9p1s4s7s5z6z7z7z",
        n="555z123m456m789p1s",
        draws=draws,
    )
    while not (st.current == N and st.tiles_left == 0):
        seat = st.current
        last = st.last_drawn
        if "self_draw" in texts(st, seat):
            pytest.fail(f"unexpected early win by {seat}")
        play(st, seat, f"discard {Tile(last).mpsz}" if last >= 0 else "discard 2m")
        pass_all(st)
        assert not st.is_over
    assert "self_draw" in texts(st, N)
    play(st, N, "self_draw")
    out = st.outcome
    assert out is not None and out.wins[0].context.last_tile
    assert FanId.LAST_DRAW in out.wins[0].result.fan_ids


# --- illegal actions ------------------------------------------------------------------------------
def test_illegal_actions_leave_the_state_unchanged() -> None:
    """An illegal action raises IllegalActionError naming action, seat, phase, legal; no change."""
    st = table(**PRIORITY)
    before = st.to_json()
    with pytest.raises(IllegalActionError, match=r"'discard 5p' by S .*turn.*to act: E"):
        play(st, S, "discard 5p")
    with pytest.raises(IllegalActionError, match=r"'pung' by E .*turn; legal: discard"):
        play(st, E, "pung")
    with pytest.raises(IllegalActionError, match="discard 9m"):
        play(st, E, "discard 9m")  # E holds no 9m
    with pytest.raises(IllegalActionError, match="not a seat"):
        st.apply(7, Action.from_text("pass"))  # type: ignore[arg-type]
    assert st.to_json() == before
    play(st, E, "discard 5p")
    window = st.to_json()
    with pytest.raises(IllegalActionError, match="chow"):
        play(st, W, "chow 456p")  # only E's 下家 may chow
    with pytest.raises(IllegalActionError, match="nothing to decide") as idle:
        play(st, E, "pass")
    # issue 13 item 2: who else may claim (a pair, a ready hand) is hidden from E
    assert "the other seats decide on this seat's discard of 5p" in str(idle.value)
    assert not re.search(r"\b[SWN]\b|[南西北]", str(idle.value))
    assert st.to_json() == window
    play(st, S, "pass")
    with pytest.raises(IllegalActionError, match="already decided on 5p") as decided:
        play(st, S, "pass")
    assert not re.search(r"\b[EWN]\b|[東西北]", str(decided.value))
    play(st, W, "pass")
    play(st, N, "win")
    over = st.to_json()
    with pytest.raises(IllegalActionError, match="over"):
        play(st, S, "pass")
    assert st.to_json() == over


def test_view_shows_only_what_the_seat_may_see() -> None:
    """docs/dev/architecture.md practice 10: a view holds the seat's own tiles and public facts only."""
    st = table(**PRIORITY)
    play(st, E, "discard 5p")
    view = st.view(S)
    assert list(view.concealed) == sorted(parse_tiles("46p258s369s2z3z4z6z7z"))
    assert view.concealed_counts == (13, 13, 13, 13)
    assert view.pending_tile == Tile.P5 and view.pending_from == E
    assert view.discards[E] == (Tile.P5,) and view.phase is Phase.CLAIM
    assert view.hand.tile_count == 13 and view.last_drawn is None
    assert view.visible_counts()[Tile.P5] == 1
