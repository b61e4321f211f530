"""Several server processes (issue 19, docs/deploy.md): a table is owned by one process at a time
through its lease, and fenced — a process that lost the lease commits nothing more for the table
(no log line, on the writer thread or with a hand's results; no status, seat or audit; no jade),
while the process that took it over goes on from the same log. A graceful leave hands every table
over at once. Real PostgreSQL (the store is shared as the processes share it)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator

import pytest
from sqlalchemy import text
from tests.server.conftest import _truncate

from hkmahjong.parlor.ledger import Transaction
from hkmahjong.parlor.ports import LeaseLostError, SeatRow, TableRow
from hkmahjong.server.cluster.leases import LeaseBook, Limits, cluster_store
from hkmahjong.server.cluster.store import ClusterTableStore, FencedLedger, Fences
from hkmahjong.server.store import Store


@pytest.fixture
def pg(pg_url: str) -> Iterator[Store]:
    opened = Store.open(pg_url)
    _truncate(opened)
    try:
        yield opened
    finally:
        opened.close()


def _node(store: Store, owner: str) -> tuple[LeaseBook, Fences, ClusterTableStore, FencedLedger]:
    book = LeaseBook(store, owner, ttl=30)
    fences = Fences(owner)
    return book, fences, ClusterTableStore(store, book, fences), FencedLedger(store, fences)


def _row(public_id: str = "tLease1") -> TableRow:
    return TableRow(0, public_id, "online", "waiting", {}, "digest", "00" * 32, None, False, None)


def _expire(store: Store, owner: str) -> None:
    with store.session() as s:
        s.execute(
            text(
                "UPDATE cluster_nodes SET expires_at = now() - interval '1 second' WHERE owner = :o"
            ),
            {"o": owner},
        )


def test_a_process_that_lost_the_lease_commits_nothing_more(pg: Store) -> None:
    a_book, a_fences, a_store, a_ledger = _node(pg, "node-a")
    b_book, b_fences, b_store, b_ledger = _node(pg, "node-b")
    lost: list[int] = []
    a_fences.on_lost = lost.append

    async def main() -> None:
        a_book.heartbeat()
        b_book.heartbeat()
        tid = await a_store.create(_row(), [SeatRow(p) for p in range(4)])
        assert a_fences.get(tid) == ("node-a", 1)
        await a_store.append(tid, 0, ["header"])
        assert b_book.acquire(tid) is None  # a is alive: its table stays its own
        assert b_book.orphans() == []
        _expire(pg, "node-a")  # a stops renewing (paused, cut off, killed)
        assert b_book.orphans() == [tid]
        assert b_book.acquire(tid) == 2  # the take-over: the epoch grows
        b_fences.held[tid] = ("node-b", 2)
        with pytest.raises(LeaseLostError):
            await a_store.append(tid, 1, ["act by a"])  # the writer thread's path
        assert lost == [tid] and a_fences.get(tid) is None
        a_fences.held[tid] = ("node-a", 1)  # even if a still believed it held the table
        for write in (
            a_store.append(tid, 1, ["end by a"], results=None),
            a_store.set_status(tid, "aborted"),
            a_store.save_seat(tid, SeatRow(1, None, "x", "easy", "bot")),
            a_store.audit(tid, "aborted", "stale"),
        ):
            a_fences.held[tid] = ("node-a", 1)
            with pytest.raises(LeaseLostError):
                await write
        a_fences.held[tid] = ("node-a", 1)
        move = {"system:bots": -5, f"escrow:table:{tid}:0": 5}
        hand = Transaction.of(f"hand:table:{tid}:0", "settle", move, "", table_id=tid)
        with pytest.raises(LeaseLostError):
            await a_ledger.post(hand)
        # the fence reads the transaction's table id, not its keys: a key naming no table is
        # still refused when the transaction says whose jade it moves
        other = Transaction.of("odd:key:1", "settle", move, "", table_id=tid)
        with pytest.raises(LeaseLostError):
            await a_ledger.post(other)
        await b_store.append(tid, 1, ["act by b"])  # b goes on from the same log
        assert await b_store.lines(tid) == ["header", "act by b"]
        assert (await b_store.get(tid)).status == "waiting"  # type: ignore[union-attr]
        assert not await a_ledger.posted(f"hand:table:{tid}:0")
        b_fences.held[tid] = ("node-b", 2)
        assert await b_ledger.post(hand)

    asyncio.run(main())


def test_a_graceful_leave_hands_every_table_over_at_once(pg: Store) -> None:
    a_book, _, a_store, _ = _node(pg, "node-a")
    b_book, *_ = _node(pg, "node-b")

    async def main() -> None:
        a_book.heartbeat()
        b_book.heartbeat()
        tid = await a_store.create(_row(), [SeatRow(p) for p in range(4)])
        assert a_book.held() == {tid: 1}
        assert b_book.live_nodes() == {"node-a", "node-b"}
        a_book.leave()
        assert b_book.live_nodes() == {"node-b"}
        assert b_book.orphans() == [tid]
        assert b_book.acquire(tid) == 2  # at once, not after the lease
        assert a_book.held() == {}
        where = b_book.locate("tLease1")
        assert where is not None and where.owner == "node-b" and where.table_id == tid

    asyncio.run(main())


def test_one_process_leads_the_leagues_at_a_time(pg: Store) -> None:
    a_book, *_ = _node(pg, "node-a")
    b_book, *_ = _node(pg, "node-b")
    try:
        assert a_book.try_lead() is True
        assert b_book.try_lead() is False
        assert a_book.try_lead() is True  # still (its connection is alive)
        a_book.resign()  # stopped, or its connection died with it
        assert b_book.try_lead() is True
        assert a_book.try_lead() is False
    finally:
        a_book.resign()
        b_book.resign()


# --- issue 36: nothing waits without bound -----------------------------------------------------------
def _in_thread(fn: Callable[[], object], seconds: float) -> tuple[bool, object, float]:
    """Run ``fn`` in a thread for at most ``seconds``: (finished, its result or error, time)."""
    out: list[object] = []

    def run() -> None:
        try:
            out.append(fn())
        except Exception as exc:
            out.append(exc)

    started = time.monotonic()
    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    return (not worker.is_alive(), out[0] if out else None, time.monotonic() - started)


@pytest.fixture
def bounded(pg: Store) -> Iterator[Store]:
    """The cluster's own store on the test database: a lease of 2 s (statements 1 s)."""
    opened = cluster_store(pg, Limits.for_lease(2))
    try:
        yield opened
    finally:
        opened.close()


def test_a_take_over_gives_up_on_a_lease_row_another_transaction_holds(
    pg: Store, bounded: Store
) -> None:
    """Issue 36, finding 1: with the lease row held ``FOR SHARE`` (a stuck owner's fenced write),
    a take-over waited without end, and its process with it; now it gives up within the lock
    timeout, steps no epoch, and takes the table at a later try once the row is free."""
    a_book, _, a_store, _ = _node(bounded, "node-a")
    b_book = LeaseBook(bounded, "node-b", ttl=2)

    async def make() -> int:
        a_book.heartbeat()
        return await a_store.create(_row(), [SeatRow(p) for p in range(4)])

    tid = asyncio.run(make())
    _expire(pg, "node-a")
    with pg.engine.connect() as hold:
        hold.execute(text("SELECT 1 FROM table_leases WHERE table_id = :t FOR SHARE"), {"t": tid})
        done, got, took = _in_thread(lambda: b_book.acquire(tid), 5)
        hold.rollback()
    assert done, "the take-over waited on the locked lease row"
    assert got is None and b_book.busy == 1 and took < 2
    assert a_book.held() == {tid: 1}  # nothing stepped
    assert b_book.acquire(tid) == 2  # free again: taken, one step


def test_take_overs_of_one_table_step_its_epoch_once(pg: Store, bounded: Store) -> None:
    a_book, _, a_store, _ = _node(bounded, "node-a")

    async def make() -> int:
        a_book.heartbeat()
        return await a_store.create(_row(), [SeatRow(p) for p in range(4)])

    tid = asyncio.run(make())
    books = [LeaseBook(bounded, f"node-{c}", ttl=30) for c in "bcdef"]
    for book in books:
        book.heartbeat()
    _expire(pg, "node-a")
    start = threading.Barrier(len(books))
    got: list[int | None] = [None] * len(books)

    def take(i: int) -> None:
        start.wait()
        for _ in range(20):  # a busy row is tried again, as the next sweep would
            got[i] = books[i].acquire(tid)
            if got[i] is not None or books[i].held():
                return
            if not books[i].busy:
                return
            time.sleep(0.05)

    workers = [threading.Thread(target=take, args=(i,)) for i in range(len(books))]
    for w in workers:
        w.start()
    for w in workers:
        w.join(10)
    assert sorted(e for e in got if e is not None) == [2]  # one winner, one step
    with bounded.session() as s:
        assert s.execute(text("SELECT epoch FROM table_leases")).scalar_one() == 2


def test_the_cluster_connections_bound_every_wait(pg: Store, bounded: Store) -> None:
    """Statement and idle-in-transaction timeouts, the client check and TCP keepalives are set
    on every connection of the cluster's store (and only there)."""
    limits = Limits.for_lease(2)
    assert (limits.statement_ms, limits.idle_ms, limits.lock_ms, limits.beat_ms) == (
        1000,
        2000,
        200,
        1000,
    )
    with bounded.engine.connect() as conn:
        shown = {
            name: conn.execute(text(f"SHOW {name}")).scalar_one()
            for name in (
                "statement_timeout",
                "idle_in_transaction_session_timeout",
                "client_connection_check_interval",
                "tcp_keepalives_idle",
            )
        }
    assert shown == {
        "statement_timeout": "1s",
        "idle_in_transaction_session_timeout": "2s",
        "client_connection_check_interval": "500ms",
        "tcp_keepalives_idle": "1",
    }
    with pg.engine.connect() as conn:  # the app's own store is left as it was
        assert conn.execute(text("SHOW statement_timeout")).scalar_one() == "0"


def test_a_fenced_write_stuck_on_a_lock_ends_by_itself(pg: Store, bounded: Store) -> None:
    """An owner's fenced write that waits (here on a log line another transaction holds) ends
    within the statement timeout, letting its lease row go: the take-over is not held up."""
    a_book, _, a_store, _ = _node(bounded, "node-a")
    b_book = LeaseBook(bounded, "node-b", ttl=2)

    async def make() -> int:
        a_book.heartbeat()
        tid = await a_store.create(_row(), [SeatRow(p) for p in range(4)])
        await a_store.append(tid, 0, ["header"])
        return tid

    tid = asyncio.run(make())
    with pg.engine.connect() as hold:
        hold.execute(
            text(
                "INSERT INTO table_log (table_id, seq, line, created_at) VALUES (:t, 1, 'x', now())"
            ),
            {"t": tid},
        )
        done, got, took = _in_thread(lambda: asyncio.run(a_store.append(tid, 1, ["act"])), 8)
        assert done and isinstance(got, Exception) and took < 4, (got, took)
        _expire(pg, "node-a")
        assert b_book.acquire(tid) == 2  # the owner's lease row lock went with its statement
        hold.rollback()


def test_the_heartbeat_has_a_connection_of_its_own(pg: Store, bounded: Store) -> None:
    """With every pooled connection taken (a process busy with slow tables), the heartbeat still
    renews; a heartbeat that cannot renew fails within its timeout instead of waiting."""
    book = LeaseBook(bounded, "node-a", ttl=2)
    try:
        assert book.heartbeat() == {"node-a"}
        taken = [bounded.engine.connect() for _ in range(19)]  # the pool's 20, less its own
        try:
            done, got, _ = _in_thread(book.heartbeat, 5)
            assert done and got == {"node-a"}
        finally:
            for conn in taken:
                conn.close()
        with pg.engine.connect() as hold:
            hold.execute(text("SELECT 1 FROM cluster_nodes WHERE owner = 'node-a' FOR UPDATE"))
            done, got, took = _in_thread(book.heartbeat, 5)
            hold.rollback()
        assert done and isinstance(got, Exception) and took < 2
        assert book.heartbeat() == {"node-a"}  # a new connection next time
    finally:
        book.close_heartbeat()


def test_a_graceful_leave_skips_a_locked_lease_row(pg: Store, bounded: Store) -> None:
    a_book, _, a_store, _ = _node(bounded, "node-a")

    async def make() -> list[int]:
        a_book.heartbeat()
        return [await a_store.create(_row(f"tLeave{i}"), [SeatRow(p) for p in range(4)])
                for i in range(2)]  # fmt: skip

    first, second = asyncio.run(make())
    with pg.engine.connect() as hold:
        hold.execute(text("SELECT 1 FROM table_leases WHERE table_id = :t FOR SHARE"), {"t": first})
        done, got, _ = _in_thread(a_book.leave, 5)
        hold.rollback()
    assert done and got is None
    b_book = LeaseBook(bounded, "node-b", ttl=30)
    b_book.heartbeat()
    assert b_book.orphans() == [first, second]  # both: the skipped one's owner is gone
