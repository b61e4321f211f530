"""One settlement: the engine's deltas equal the calculator's, for every kind of win (issue 13).

docs/rules.md §9 (payments, 全銃 / 半銃), §10 (包牌), §11 (詐糊), §6 一炮多響 (W1/W2) and the
bankruptcy cap (P: a payer who cannot cover pays what it holds). The engine settles a hand through
``engine.settle.settle_records`` and the calculator (``hkmj score`` / the batch) through
``scoring.batch.payment_json``; both end in ``scoring.payment.settle_hand``. These tests play
hands on stacked walls and price each win again with the calculator, as a person with the
calculator would: one win at a time, naming the co-winners (``--co-winner``) and the liable seat
(``--liable``), with the balances left after the earlier winners were paid (``--balances``).
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hkmahjong.engine import Action, Phase
from hkmahjong.engine.events import HandOutcome
from hkmahjong.engine.match import Match, MatchLength
from hkmahjong.engine.record import match_result
from hkmahjong.engine.state import HandState
from hkmahjong.engine.wall import stacked_wall
from hkmahjong.rules import Ruleset, get_preset
from hkmahjong.rules.payment import GunScheme, LiabilityScope
from hkmahjong.scoring.batch import payment_json
from hkmahjong.scoring.calculator import score_hand
from hkmahjong.scoring.payment import settle_false_win
from hkmahjong.tiles import Tile, Wind, format_tiles

E, S, W, N = Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH
PARLOR = get_preset("parlor")


def _table(rs: Ruleset, deals: dict[Wind, str], draws: str = "") -> HandState:
    wall = stacked_wall(deals, draws=draws, bonus_tiles=rs.bonus_tiles)
    return HandState.new(rs, seed=b"settlement", wall=wall)


def _play(state: HandState, seat: Wind, text: str) -> None:
    state.apply(seat, Action.from_text(text))


def _pass_all(state: HandState) -> None:
    while state.phase in (Phase.CLAIM, Phase.ROB):
        for seat in state.to_act:
            _play(state, seat, "pass")


def _discard(state: HandState, seat: Wind, tile: str) -> None:
    _play(state, seat, f"discard {tile}")
    _pass_all(state)


def calculator_deltas(
    outcome: HandOutcome, rs: Ruleset, balances: dict[Wind, int] | None = None
) -> dict[Wind, int]:
    """Each win priced by the calculator in turn, then each false win, as a person would."""
    running = dict(balances) if balances is not None else None
    total = dict.fromkeys(Wind, 0)
    winners = {w.seat for w in outcome.wins}

    def add(deltas: dict[Wind, int]) -> None:
        for seat, d in deltas.items():
            total[seat] += d
            if running is not None:
                running[seat] += d

    for win in outcome.wins:
        result = score_hand(win.hand, win.context, rs)
        assert result.valid_win and result.total_fan == win.result.total_fan
        payment = payment_json(
            result,
            rs,
            self_drawn=win.self_drawn,
            winner=win.seat,
            discarder=win.discarder,
            liable=win.liable,
            liable_half_discard=win.liable_half_discard,
            robbed_kong=win.context.robbing_kong,
            kong_discarder=win.kong_discarder,
            co_winners=tuple(sorted(winners - {win.seat})),
            balances=running,
        )
        assert payment is not None
        add({Wind.parse(k): v for k, v in payment["settlement"].items()})
    for fw in outcome.false_wins:
        s = settle_false_win(
            fw.seat,
            rs,
            self_drawn=fw.self_drawn,
            would_be_discarder=fw.would_be_discarder,
            balances=running,
        )
        add(dict(s.deltas))
    return total


def _engine_deltas(
    outcome: HandOutcome, rs: Ruleset, balances: dict[Wind, int] | None
) -> dict[Wind, int]:
    """What the engine charges: the hand's deltas, or match_result's in a match until bankruptcy."""
    if balances is None:
        return dict(zip(Wind, outcome.deltas, strict=True))
    match = Match(
        length=MatchLength.BANKRUPTCY,
        starting_balance=max(balances.values()),
        balances=[balances[seat] for seat in Wind],
    )
    return dict(zip(Wind, match_result(outcome, rs, match).deltas, strict=True))


def _check(outcome: HandOutcome | None, rs: Ruleset, balances: dict[Wind, int] | None) -> None:
    assert outcome is not None
    engine = _engine_deltas(outcome, rs, balances)
    assert sum(engine.values()) == 0
    short = balances is not None and any(balances[s] + outcome.deltas[s] < 0 for s in Wind)
    calculator = calculator_deltas(outcome, rs, balances if short else None)
    assert engine == calculator, outcome.lines


# --- item 1: several winners under half gun -------------------------------------------------------
HALF_GUN_MULTI = replace(
    PARLOR,
    min_fan=0,
    multiple_winners=True,
    payment=replace(PARLOR.payment, gun=GunScheme.HALF_GUN),
)
TWO_WAIT = {
    E: "3z3m6m9m3p6p9p3z4z6z7z1p4p7p",
    S: "147m258p1234567z",
    W: "123s456s789s11z99s",
    N: "123m456p789p78s22z",
}


def test_co_winners_pay_each_other_nothing_under_half_gun() -> None:
    """docs/rules.md §6/§9 一炮多響 under 半銃: the discarder pays two shares and the bystander one to
    each winner; a co-winner pays no other winner (docs/payment.md decision). Issue 13 item 1:
    the engine had each winner pay the other one share."""
    st = _table(HALF_GUN_MULTI, TWO_WAIT, draws="9s")
    _discard(st, E, "3z")
    _play(st, S, "discard 9s")
    _play(st, W, "win")
    _play(st, N, "win")
    out = st.outcome
    assert out is not None and out.winners == (W, N)
    assert not any(line.startswith(("WEST -> NORTH", "NORTH -> WEST")) for line in out.lines)
    assert out.wins[0].result.total_fan != out.wins[1].result.total_fan  # unequal: no cancelling
    assert dict(zip(Wind, out.deltas, strict=True)) == calculator_deltas(out, HALF_GUN_MULTI)


# --- hypothesis: random waiting hands on one discard ---------------------------------------------
_SETS: list[tuple[int, ...]] = [(k, k, k) for k in range(34)] + [
    (9 * s + i, 9 * s + i + 1, 9 * s + i + 2) for s in range(3) for i in range(7)
]


@st.composite
def _complete_hand(draw: st.DrawFn, tile: int, used: list[int]) -> list[int] | None:
    """A random 4 sets + pair holding ``tile``, within the copies left (None: no room)."""
    first = draw(st.sampled_from([s for s in _SETS if tile in s] + [(tile, tile)]))
    sets = draw(st.lists(st.sampled_from(_SETS), min_size=4, max_size=4))
    if len(first) == 3:
        pair = draw(st.integers(0, 33))
        groups = [first, *sets[:3], (pair, pair)]
    else:
        groups = [first, *sets]
    tiles = [t for g in groups for t in g]
    counts = used[:]
    for t in tiles:
        counts[t] += 1
    if max(counts) > 4:
        return None
    used[:] = counts
    return tiles


RULE_CHOICES = st.fixed_dictionaries(
    {
        "gun": st.sampled_from(list(GunScheme)),
        "shares": st.integers(2, 4),
        "multiple": st.booleans(),
        "scope": st.sampled_from(list(LiabilityScope)),
        "cap": st.booleans(),
    }
)


def _rules(choice: dict[str, object]) -> Ruleset:
    payment = replace(
        PARLOR.payment,
        gun=choice["gun"],
        discarder_shares=choice["shares"],
        liability_scope=choice["scope"],
        bankrupt_cap=choice["cap"],
    )
    return replace(PARLOR, min_fan=0, multiple_winners=bool(choice["multiple"]), payment=payment)


BALANCES = st.none() | st.fixed_dictionaries({seat: st.integers(1, 40) for seat in Wind})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), RULE_CHOICES, BALANCES)
def test_random_discard_wins_settle_as_the_calculator_does(
    data: st.DataObject, choice: dict[str, object], balances: dict[Wind, int] | None
) -> None:
    """One discard, one to three seats waiting on it (一炮多響 or 截糊), every gun scheme and cap."""
    rs = _rules(choice)
    tile = data.draw(st.integers(0, 33), label="winning tile")
    used = [0] * 34
    used[tile] += 1
    waiting = data.draw(st.sets(st.sampled_from([S, W, N]), min_size=1), label="waiting")
    deals: dict[Wind, list[int]] = {}
    for seat in sorted(waiting):
        hand = data.draw(_complete_hand(tile, used), label=f"hand {seat.letter}")
        if hand is None:
            continue
        hand.remove(tile)
        deals[seat] = hand
    if not deals:
        return
    pool = [k for k in range(34) for _ in range(4 - used[k])]
    rest = data.draw(st.permutations(pool), label="the other tiles")
    deals[E] = [tile, *rest[:13]]
    rest = rest[13:]
    for seat in (S, W, N):
        if seat not in deals:
            deals[seat], rest = rest[:13], rest[13:]
    text = {seat: format_tiles([Tile(t) for t in tiles]) for seat, tiles in deals.items()}
    state = _table(rs, text)
    _play(state, E, f"discard {Tile(tile).mpsz}")
    declared = False
    while state.phase in (Phase.CLAIM, Phase.ROB):
        for seat in state.to_act:
            can_win = "win" in [a.text for a in state.legal_actions(seat)]
            wins = can_win and data.draw(st.booleans(), label=f"{seat.letter} wins")
            declared |= wins
            _play(state, seat, "win" if wins else "pass")
        if not declared:
            return
    _check(state.outcome, rs, balances)


# --- hypothesis: 包牌 (大三元) with self-draws, discards and a co-winner ---------------------------
DRAGONS = {
    S: "77z66z55z123m9s1s4s7s",
    W: "6z5z9m9p1p3p5p7p3s6s1z2z3z",
    N: "1m4m7m2s5s8s9s4z4z1p4p7p9p",
}
EAST_PLAIN = "7z5m6m8m2p4p6p8p2s5s8s1z2z3z"
EAST_WAITING_9S = "7z456m456p789p11s78s"


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    RULE_CHOICES,
    BALANCES,
    st.sampled_from(["self_draw", "north_discards"]),
    st.booleans(),
    st.booleans(),
)
def test_liability_wins_settle_as_the_calculator_does(
    choice: dict[str, object],
    balances: dict[Wind, int] | None,
    how: str,
    east_waits: bool,
    east_wins: bool,
) -> None:
    """docs/rules.md §10 包大三元 (P; W1/W2 即食即包 / 包到尾): West feeds South's third dragon set;
    South wins by self-draw or on North's discard, East perhaps on the same discard."""
    rs = _rules(choice)
    state = _table(
        rs, {E: EAST_WAITING_9S if east_waits else EAST_PLAIN, **DRAGONS}, draws="3m4m2m9p6p9s"
    )
    _play(state, E, "discard 7z")
    _play(state, S, "pung")
    _discard(state, S, "1s")
    _play(state, W, "discard 6z")
    _play(state, S, "pung")
    _discard(state, S, "4s")
    _play(state, W, "discard 5z")
    _play(state, S, "pung")
    _discard(state, S, "7s")
    _discard(state, W, "2m")
    if how == "self_draw":
        _discard(state, N, "9p")
        _discard(state, E, "6p")
        _play(state, S, "self_draw")
    else:
        _play(state, N, "discard 9s")
        while state.phase is Phase.CLAIM:
            for seat in state.to_act:
                legal = [a.text for a in state.legal_actions(seat)]
                win = "win" in legal and (seat is S or east_wins)
                _play(state, seat, "win" if win else "pass")
        if state.outcome is None:
            return
    _check(state.outcome, rs, balances)
