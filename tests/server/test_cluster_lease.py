"""Several server processes (issue 19, docs/deploy.md): a table is owned by one process at a time
through its lease, and fenced — a process that lost the lease commits nothing more for the table
(no log line, on the writer thread or with a hand's results; no status, seat or audit; no jade),
while the process that took it over goes on from the same log. A graceful leave hands every table
over at once. Real PostgreSQL (the store is shared as the processes share it)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from sqlalchemy import text
from tests.server.conftest import _truncate

from hkmahjong.parlor.ledger import Transaction
from hkmahjong.parlor.ports import LeaseLostError, SeatRow, TableRow
from hkmahjong.server.cluster.leases import LeaseBook
from hkmahjong.server.cluster.store import ClusterTableStore, FencedLedger, Fences, table_of_key
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


def _row() -> TableRow:
    return TableRow(0, "tLease1", "online", "waiting", {}, "digest", "00" * 32, None, False, None)


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
        with pytest.raises(LeaseLostError):
            a_ledger.post(Transaction.of(f"hand:table:{tid}:0", "settle", move, ""))
        await b_store.append(tid, 1, ["act by b"])  # b goes on from the same log
        assert await b_store.lines(tid) == ["header", "act by b"]
        assert (await b_store.get(tid)).status == "waiting"  # type: ignore[union-attr]
        assert not a_ledger.posted(f"hand:table:{tid}:0")
        b_fences.held[tid] = ("node-b", 2)
        assert b_ledger.post(Transaction.of(f"hand:table:{tid}:0", "settle", move, ""))

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


def test_table_keys() -> None:
    assert table_of_key("hand:table:7:3") == 7
    assert table_of_key("buyin:table:12") == 12
    assert table_of_key("grant:user:3") is None


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
