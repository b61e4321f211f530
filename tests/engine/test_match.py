"""Match: dealer rotation (連莊), wind rounds, lengths, jade ledger, bankruptcy — docs/rules.md §2, §9, §11."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hkmahjong.engine.match import HandResult, Match, MatchError, MatchLength
from hkmahjong.tiles import Wind

E, S, W, N = Wind


def win(winner: Wind, amount: int = 8, discarder: Wind | None = None) -> HandResult:
    """A win by ``winner``: self-drawn (all three pay) or off ``discarder`` (it pays 3 shares)."""
    deltas = [0, 0, 0, 0]
    if discarder is None:
        for seat in Wind:
            deltas[seat] = 3 * amount if seat == winner else -amount
    else:
        deltas[winner] = 3 * amount
        deltas[discarder] = -3 * amount
    return HandResult((deltas[0], deltas[1], deltas[2], deltas[3]), winners=(winner,))


DRAW = HandResult((0, 0, 0, 0), drawn=True)


def test_dealer_win_keeps_the_deal() -> None:
    """docs/rules.md §2 (P): the dealer wins → 連莊, seats unchanged."""
    m = Match()
    m.record(win(E))
    assert m.dealer == 0 and m.repeat == 1 and m.seat_of(0) is E
    assert m.prevailing is E


def test_draw_keeps_the_deal() -> None:
    """docs/rules.md §2 / §12: a drawn hand (流局) → the dealer stays."""
    m = Match()
    m.record(DRAW)
    assert m.dealer == 0 and m.repeat == 1


def test_non_dealer_win_passes_the_deal_and_rotates_seats() -> None:
    """docs/rules.md §2: a non-dealer wins → the next seat deals; every seat wind moves one place."""
    m = Match()
    m.record(win(S, discarder=W))
    assert m.dealer == 1 and m.repeat == 0
    assert [m.seat_of(p) for p in range(4)] == [N, E, S, W]
    assert m.player_at(E) == 1


def test_dealer_false_win_ends_the_deal() -> None:
    """docs/rules.md §2 / §11 (W1/W2): a dealer's false win ends the deal, even if the hand is drawn."""
    m = Match()
    m.record(HandResult((-30, 10, 10, 10), drawn=True, false_winners=(E,)))
    assert m.dealer == 1
    m2 = Match()
    m2.record(HandResult((10, -30, 10, 10), drawn=True, false_winners=(S,)))
    assert m2.dealer == 0


def test_dealer_among_several_winners_stays() -> None:
    """docs/rules.md §6 一炮多響 (decision): the dealer is among the winners → 連莊."""
    m = Match()
    m.record(HandResult((8, 8, -16, 0), winners=(S, E)))
    assert m.dealer == 0


def test_prevailing_wind_advances_after_the_deal_goes_round() -> None:
    """docs/rules.md §2: after the deal has passed all four players, 東風 → 南風."""
    m = Match(length=MatchLength.FOUR_ROUNDS)
    for seat_winner in (S, S, S):
        m.record(win(seat_winner))
        assert m.prevailing is E
    m.record(win(E))  # dealer (player 3) wins: stays, still 東風
    assert m.prevailing is E and m.dealer == 3
    m.record(win(N))
    assert m.prevailing is S and m.dealer == 0


@pytest.mark.parametrize(
    ("length", "hands"),
    [
        (MatchLength.ONE_HAND, 1),
        (MatchLength.ONLINE, 4),
        (MatchLength.EIGHT_HANDS, 8),
        (MatchLength.SIXTEEN_HANDS, 16),
    ],
)
def test_hand_count_lengths_count_repeated_dealer_hands(length: MatchLength, hands: int) -> None:
    """docs/rules.md §2 (decision): a hand count (單局, 四局, 八局, 十六局) includes repeated dealer hands."""
    m = Match(length=length)
    for _ in range(hands):
        assert not m.finished
        m.record(DRAW)
    assert m.finished
    with pytest.raises(MatchError, match="over after"):
        m.record(DRAW)


def test_east_round_ends_when_the_deal_has_gone_round() -> None:
    """docs/rules.md §2 (ML 東圈): four passes of the deal; repeated hands do not count."""
    m = Match(length=MatchLength.EAST_ROUND)
    m.record(DRAW)
    m.record(win(E))
    for _ in range(3):
        m.record(win(S))
    assert not m.finished and m.hand_number == 5
    m.record(win(W))
    assert m.finished and m.prevailing is S


def test_four_rounds_is_sixteen_passes() -> None:
    """docs/rules.md §2 (P 四圈): the match ends after the 北風 round."""
    m = Match(length=MatchLength.FOUR_ROUNDS)
    seen = []
    while not m.finished:
        seen.append(m.prevailing)
        m.record(win(S))
    assert m.hand_number == 16
    assert seen == [E] * 4 + [S] * 4 + [W] * 4 + [N] * 4


def test_ledger_follows_players_not_seats() -> None:
    """docs/rules.md §9: the jade ledger is per player, per hand and in total, across seat rotation."""
    m = Match(players=("A", "B", "C", "D"), length=MatchLength.EIGHT_HANDS)
    m.record(win(S, 8, discarder=E))  # B wins off A; deal passes to B
    m.record(win(E, 4))  # B (now East) self-draws
    assert m.ledger[0].deltas == (-24, 24, 0, 0)
    assert m.ledger[1].deltas == (-4, 12, -4, -4)
    assert m.totals() == {"A": -28, "B": 36, "C": -4, "D": -4}
    assert sum(m.totals().values()) == 0
    text = m.standings()
    assert "東風第1局" in text and "東風第2局" in text and "+36" in text


def test_bankruptcy_match_ends_when_someone_is_broke() -> None:
    """docs/rules.md §2 (P): play until someone is bankrupt; starting balance configurable."""
    m = Match(length=MatchLength.BANKRUPTCY, starting_balance=50)
    assert m.seat_balances() == {E: 50, S: 50, W: 50, N: 50}
    m.record(win(S, 8, discarder=E))
    assert not m.finished
    assert m.seat_balances() == {N: 26, E: 74, S: 50, W: 50}
    m.record(HandResult((0, 0, 26, -26), winners=(W,)))  # player 0 (now North) pays all it holds
    assert m.finished and m.balances[0] == 0


def test_bankruptcy_rejects_paying_more_than_held() -> None:
    """docs/rules.md §9 / P: a payer never pays more than it holds — settle with seat_balances()."""
    m = Match(length=MatchLength.BANKRUPTCY, starting_balance=10)
    with pytest.raises(MatchError, match="holds 10 jade but is charged 24"):
        m.record(win(S, 8, discarder=E))
    assert m.hand_number == 0 and m.balances == [10, 10, 10, 10]


def test_bad_inputs_are_clear_errors() -> None:
    """Bad input gets a MatchError saying what is wrong."""
    with pytest.raises(MatchError, match="sum to 1"):
        HandResult((1, 0, 0, 0), winners=(E,))
    with pytest.raises(MatchError, match="drawn hand"):
        HandResult((0, 0, 0, 0), winners=(E,), drawn=True)
    with pytest.raises(MatchError, match="must have a winner"):
        HandResult((0, 0, 0, 0))
    with pytest.raises(MatchError, match="four distinct players"):
        Match(players=("A", "A", "B", "C"))
    with pytest.raises(MatchError, match="positive starting balance"):
        Match(length=MatchLength.BANKRUPTCY)
    with pytest.raises(MatchError, match="unknown match length 'forever'"):
        MatchLength.parse("forever")


@pytest.mark.parametrize(
    ("text", "length"),
    [
        ("東圈", MatchLength.EAST_ROUND),
        ("16", MatchLength.SIXTEEN_HANDS),
        ("one_hand", MatchLength.ONE_HAND),
    ],
)
def test_length_parse(text: str, length: MatchLength) -> None:
    """Match lengths read by value, alias or Chinese name."""
    assert MatchLength.parse(text) is length


def test_json_round_trips() -> None:
    """Hand results and match settings survive JSON."""
    r = HandResult((-24, 24, 0, 0), winners=(S,), false_winners=(N,))
    assert HandResult.from_json(r.to_json()) == r
    m = Match(players=("a", "b", "c", "d"), length=MatchLength.BANKRUPTCY, starting_balance=100)
    m2 = Match.from_config(m.config_json())
    assert m2.config_json() == m.config_json() and m2.balances == [100] * 4


results = st.one_of(
    st.just(DRAW),
    st.builds(win, st.sampled_from(list(Wind)), st.integers(1, 64)),
    st.builds(
        lambda w, d, a: win(w, a, discarder=d if d != w else w.next()),
        st.sampled_from(list(Wind)),
        st.sampled_from(list(Wind)),
        st.integers(1, 64),
    ),
)


@given(st.lists(results, min_size=1, max_size=40))
def test_invariants_under_any_sequence(seq: list[HandResult]) -> None:
    """Invariants: totals sum to zero; dealer moves only on a non-dealer win; wind follows passes."""
    m = Match(length=MatchLength.FOUR_ROUNDS)
    for r in seq:
        if m.finished:
            break
        before = m.dealer
        m.record(r)
        assert (m.dealer == before) == r.dealer_stays
        assert m.prevailing == Wind((m.deals_passed // 4) % 4)
        assert sum(m.totals().values()) == 0
        assert sorted(m.seat_of(p) for p in range(4)) == list(Wind)


def test_bankruptcy_without_the_cap_allows_debt() -> None:
    """docs/rules.md §9: a table without the bankrupt cap lets a balance go below zero; the match ends."""
    m = Match(length=MatchLength.BANKRUPTCY, starting_balance=10)
    m.record(win(S, 8, discarder=E), allow_debt=True)
    assert m.balances[0] == -14 and m.finished
