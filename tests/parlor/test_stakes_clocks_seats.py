"""Stakes and escrow (seed 002: a loser never pays more than the stake), clocks, the passive player."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hkmahjong.engine.actions import Action
from hkmahjong.engine.record import seed_from_text
from hkmahjong.engine.state import HandState
from hkmahjong.errors import MahjongError
from hkmahjong.parlor import stakes
from hkmahjong.parlor.clocks import ClockSettings, FakeClock, SeatClock
from hkmahjong.parlor.seats import passive_choice
from hkmahjong.rules import get_preset

zero_sum = st.lists(st.integers(-2000, 2000), min_size=3, max_size=3).map(
    lambda xs: [*xs, -sum(xs)]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(zero_sum, min_size=1, max_size=8), st.integers(1, 1000))
def test_escrows_never_go_negative_and_release_pays_the_staked_settlement(
    hands: list[list[int]], stake: int
) -> None:
    """Seed 002 (ML stakes): per-hand moves keep every escrow >= 0; what the escrows hold at the
    end is stake + settle_staked_match; nobody loses more than the stake; jade is conserved."""
    escrow = [stake] * 4
    totals = [0, 0, 0, 0]
    for deltas in hands:
        after = [t + d for t, d in zip(totals, deltas, strict=True)]
        move = stakes.hand_move(5, stake, totals, after)
        assert sum(move.values()) == 0
        for p in range(4):
            escrow[p] += move.get(stakes.escrow_of(5, p), 0)
        assert min(escrow) >= 0
        totals = after
    owners = [1, 2, None, 4]
    out = stakes.release(5, stake, totals, owners)
    assert sum(out.values()) == 0
    paid = [out.get(stakes.owner_of(o), 0) for o in owners]
    assert paid == escrow
    assert all(p - stake >= -stake for p in paid)
    payments = stakes.release_payments(stake, totals)
    net = [0, 0, 0, 0]
    for line in payments:
        assert isinstance(line["from"], int) and isinstance(line["to"], int)
        assert isinstance(line["amount"], int) and line["amount"] > 0
        net[line["from"]] -= line["amount"]
        net[line["to"]] += line["amount"]
    assert net == [p - stake for p in paid]  # who paid whom adds up to what the release pays
    back = stakes.refund(5, stake, escrow, owners, fee=7)
    assert sum(back.values()) == 0
    assert [back.get(stakes.owner_of(o), 0) for o in owners] == [stake + 7] * 4
    assert back["system:fees"] == -28
    assert all(back.get(stakes.escrow_of(5, p), 0) == -escrow[p] for p in range(4))
    with pytest.raises(MahjongError, match="released or refunded"):
        stakes.refund(5, stake, [0, 0, 0, 0], owners)


def test_the_buy_in_takes_stake_and_fee_and_the_refund_gives_both_back() -> None:
    """Seed 002 "賭注和手續費會歸還給玩家": all four buy in at once (the bots from the house)."""
    owners = [1, 2, None, None]
    paid = stakes.buy_ins(9, owners, 100, 10)
    assert sum(paid.values()) == 0
    assert paid["user:1"] == paid["user:2"] == -110
    assert paid["system:bots"] == -220 and paid["system:fees"] == 40
    assert [paid[stakes.escrow_of(9, p)] for p in range(4)] == [100] * 4
    back = stakes.refund(9, 100, [100, 100, 100, 100], owners, fee=10)
    merged = {k: paid.get(k, 0) + back.get(k, 0) for k in {*paid, *back}}
    assert set(merged.values()) == {0}
    assert stakes.buy_ins(9, owners, 0, 10) == {
        "user:1": -10,
        "user:2": -10,
        "system:bots": -20,
        "system:fees": 40,
    }


def test_staked_shares_cap_the_loser_at_the_stake() -> None:
    """Seed 002: the loser of 640 at a 500 stake pays 500; winners share it in proportion."""
    assert stakes.staked_shares(500, [180, -640, 500, -40]) == [643, 0, 897, 460]


def test_a_staked_table_needs_whole_jade() -> None:
    with pytest.raises(MahjongError):
        stakes.staked_shares(100, [0.5, -0.5, 0, 0])


def test_seat_clock_uses_the_bank_only_beyond_the_turn() -> None:
    settings_ = ClockSettings(turn_ms=10_000, claim_ms=6_000, bank_ms=30_000)
    clock = SeatClock(settings_)
    assert clock.start("turn", 0.0) == 40_000
    assert clock.remaining_ms(4.0) == (6_000, 30_000)
    assert clock.remaining_ms(12.5) == (0, 27_500)
    clock.stop(12.5)
    assert clock.bank_ms == 27_500
    assert clock.start("claim", 20.0) == 6_000
    clock.stop(25.0)
    assert clock.bank_ms == 27_500


def test_clock_settings_refuse_nonsense() -> None:
    with pytest.raises(MahjongError, match="turn_ms"):
        ClockSettings(turn_ms=-1)
    with pytest.raises(MahjongError, match="unknown clock setting"):
        ClockSettings.from_json({"turn": 5})


def test_fake_clock_runs_callbacks_in_time_order() -> None:
    clock = FakeClock()
    fired: list[str] = []
    clock.call_later(2, lambda: fired.append("b"))
    clock.call_later(1, lambda: fired.append("a"))
    cancelled = clock.call_later(1.5, lambda: fired.append("x"))
    cancelled.cancel()
    clock.advance(3)
    assert fired == ["a", "b"] and clock.now() == 3


def test_passive_player_never_claims_or_wins() -> None:
    """docs/rules.md §13 / seed 002: a sat-out seat draws and discards, never claims or wins."""
    rules = get_preset("parlor")
    for n in range(4):
        state = HandState.new(rules, seed=seed_from_text(f"passive-{n}"))
        while not state.is_over:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            view = state.view(seat)
            choice = passive_choice(view, legal)
            assert choice.kind.word in ("pass", "discard"), choice
            if view.last_drawn is not None and Action.discard(view.last_drawn) in legal:
                assert choice == Action.discard(view.last_drawn)
            state.apply(seat, choice)
        assert state.outcome is not None and not state.outcome.wins


def test_a_loop_clock_follows_the_running_loop_across_loops() -> None:
    """LoopClock keeps the running loop it was asked for, and takes the new one when that
    loop is no longer running (a clock shared by two ``asyncio.run``\\ s)."""
    import asyncio

    from hkmahjong.parlor.clocks import LoopClock

    clock = LoopClock()

    async def times() -> tuple[float, float, bool]:
        loop = asyncio.get_running_loop()
        fired = asyncio.Event()
        clock.call_later(0.01, fired.set)
        await asyncio.wait_for(fired.wait(), 2)
        return clock.now(), loop.time(), clock._running() is loop

    for _ in range(2):
        ours, theirs, same = asyncio.run(times())
        assert same and abs(ours - theirs) < 1
