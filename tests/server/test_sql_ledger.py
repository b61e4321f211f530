"""The jade ledger on SQLite and on PostgreSQL: the same rules as the in-memory model under random
posts and retries, and under concurrent posters (retries of one settlement racing, debits racing for
the same jade): every key applied once, the total always zero, no user account below zero."""

from __future__ import annotations

import random
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text
from tests.parlor.test_ledger import check_ledger_against_model, transactions

from hkmahjong.parlor.ledger import (
    InsufficientJadeError,
    MemoryLedger,
    Transaction,
    TransactionConflictError,
    escrow_account,
    grant,
    transfer,
    user_account,
)
from hkmahjong.server.store import Store
from hkmahjong.server.store.ledger import SqlLedger
from hkmahjong.server.store.models import Base


def _empty(store: Store) -> None:
    with store.session() as session:
        for table in reversed(Base.metadata.sorted_tables):
            session.execute(text(f'DELETE FROM "{table.name}"'))


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops=st.lists(transactions(), max_size=25))
def test_sql_ledger_follows_the_model(store: Store, ops: list[Transaction]) -> None:
    _empty(store)
    check_ledger_against_model(SqlLedger(store), ops)
    assert SqlLedger(store).total() == 0


def test_conflicting_reuse_of_a_key_changes_nothing(store: Store) -> None:
    ledger = SqlLedger(store)
    assert ledger.post_sync(grant(user_account(1), 100, "g"))
    with pytest.raises(TransactionConflictError):
        ledger.post_sync(grant(user_account(2), 100, "g"))
    assert ledger.balances_sync([user_account(1), user_account(2)]) == {"user:1": 100, "user:2": 0}


def _race(workers: int, job: object) -> list[BaseException]:
    errors: list[BaseException] = []
    barrier = threading.Barrier(workers)

    def run(index: int) -> None:
        barrier.wait()
        try:
            job(index)  # type: ignore[operator]
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return errors


def test_concurrent_retries_of_the_same_settlements_apply_each_once(store: Store) -> None:
    ledger = SqlLedger(store)
    seats = [user_account(i) for i in range(1, 5)]
    for seat in seats:
        ledger.post_sync(grant(seat, 1000, f"start:{seat}"))
    settlements = [
        transfer(seats[h % 4], seats[(h + 1) % 4], 10 + h, f"settle:table:1:hand:{h}", "settle")
        for h in range(12)
    ]
    accepted: list[str] = []
    lock = threading.Lock()

    def poster(index: int) -> None:
        order = settlements[:]
        random.Random(index).shuffle(order)
        for txn in order:
            if ledger.post_sync(txn):
                with lock:
                    accepted.append(txn.idem_key)

    assert _race(4, poster) == []
    assert sorted(accepted) == sorted(t.idem_key for t in settlements)
    model = MemoryLedger()
    for seat in seats:
        model.post_sync(grant(seat, 1000, f"start:{seat}"))
    for txn in settlements:
        model.post_sync(txn)
    assert ledger.balances_sync(seats) == model.balances_sync(seats)
    assert ledger.total() == 0


def test_concurrent_buy_ins_never_spend_the_same_jade_twice(store: Store) -> None:
    ledger = SqlLedger(store)
    player = user_account(7)
    ledger.post_sync(grant(player, 250, "start"))
    results: list[str] = []
    lock = threading.Lock()

    def buy_in(index: int) -> None:
        txn = transfer(player, escrow_account(index), 100, f"buy-in:{index}", "buy_in")
        try:
            ledger.post_sync(txn)
            outcome = "ok"
        except InsufficientJadeError:
            outcome = "short"
        with lock:
            results.append(outcome)

    assert _race(5, buy_in) == []
    assert sorted(results) == ["ok", "ok", "short", "short", "short"]
    assert ledger.balance_sync(player) == 50
    assert ledger.total() == 0


def test_the_async_port_posts_in_worker_threads_exactly_once(store: Store) -> None:
    """The port the table actor awaits (issue 32): concurrent coroutines racing for the same jade
    (each post a transaction in a worker thread, a lost race retried after an asyncio.sleep)
    spend it at most once, a repeated key posts nothing, and the event loop keeps running."""
    import asyncio

    ledger = SqlLedger(store)
    player = user_account(8)

    async def main() -> tuple[list[str], int]:
        assert await ledger.post(grant(player, 250, "start:8"))
        assert not await ledger.post(grant(player, 250, "start:8"))
        ticks = 0
        running = True

        async def heartbeat() -> None:
            nonlocal ticks
            while running:
                ticks += 1
                await asyncio.sleep(0.001)

        beat = asyncio.create_task(heartbeat())

        async def buy_in(index: int) -> str:
            txn = transfer(player, escrow_account(100 + index), 100, f"buy-in:a{index}", "buy_in")
            try:
                await ledger.post(txn)
            except InsufficientJadeError:
                return "short"
            return "ok"

        outcomes = await asyncio.gather(*(buy_in(i) for i in range(6)))
        running = False
        await beat
        return sorted(outcomes), ticks

    outcomes, ticks = asyncio.run(main())
    assert outcomes == ["ok", "ok", "short", "short", "short", "short"]
    assert ticks > 0
    assert asyncio.run(ledger.balance(player)) == 50 and ledger.total() == 0
    assert asyncio.run(ledger.posted("buy-in:a0")) or asyncio.run(ledger.posted("buy-in:a1"))
