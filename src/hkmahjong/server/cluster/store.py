"""The table store and the jade ledger of one process among several: every write for a table is
fenced by the table's lease (:func:`~hkmahjong.server.cluster.leases.check_fence` in the same
transaction; the log's appends in the writer thread's own statement), so a process that lost a
table can commit nothing more for it — no action, no status, no seat, no audit, no jade.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from sqlalchemy.orm import Session

from hkmahjong.parlor.history import TableResults
from hkmahjong.parlor.ledger import Transaction
from hkmahjong.parlor.ports import (
    LeaseLostError,
    SeatRow,
    TableRow,
)
from hkmahjong.server.cluster.leases import LeaseBook, check_fence
from hkmahjong.server.store.db import Store
from hkmahjong.server.store.ledger import SqlLedger, post_in
from hkmahjong.server.store.models import (
    TableLease,
)
from hkmahjong.server.store.tables import SqlTableStore

__all__ = ["ClusterTableStore", "FencedLedger", "Fences"]

log = logging.getLogger(__name__)


class Fences:
    """The leases this process holds: table id → (owner, epoch); ``lost`` hears of a write
    refused for lack of one (the table is then dropped here)."""

    def __init__(self, owner: str) -> None:
        self.owner = owner
        self.held: dict[int, tuple[str, int]] = {}
        self.on_lost: Callable[[int], None] | None = None

    def get(self, table_id: int) -> tuple[str, int] | None:
        """The fence of a table held here, or None."""
        return self.held.get(table_id)

    def lost(self, table_id: int) -> None:
        """A write for the table was refused: this process no longer holds it."""
        self.held.pop(table_id, None)
        if self.on_lost is not None:
            self.on_lost(table_id)


class ClusterTableStore(SqlTableStore):
    """:class:`SqlTableStore` with every write for a table fenced by its lease."""

    def __init__(self, store: Store, book: LeaseBook, fences: Fences) -> None:
        super().__init__(store)
        self.inline = False
        self.book = book
        self.fences = fences

    # --- sync bodies, fenced ------------------------------------------------------------------
    def _fence(self, session: Session, table_id: int) -> None:
        check_fence(session, table_id, self.fences.get(table_id))

    def _created(self, session: Session, table_id: int) -> None:
        """The table's lease (this process's, epoch 1) in the transaction that made it: no other
        process ever sees the new table without an owner (it would take it over)."""
        session.add(TableLease(table_id=table_id, owner=self.book.owner, epoch=1))

    def _create(self, row: TableRow, seats: Sequence[SeatRow]) -> int:
        table_id = super()._create(row, seats)
        self.fences.held[table_id] = (self.book.owner, 1)
        return table_id

    # --- the port's writes: a refused one drops the table here ----------------------------------
    async def set_status(self, table_id: int, status: str) -> None:
        """Change a table's status (fenced)."""
        try:
            await super().set_status(table_id, status)
        except LeaseLostError:
            self.fences.lost(table_id)
            raise

    async def save_seat(self, table_id: int, seat: SeatRow) -> None:
        """Store one seat (fenced)."""
        try:
            await super().save_seat(table_id, seat)
        except LeaseLostError:
            self.fences.lost(table_id)
            raise

    async def audit(self, table_id: int, kind: str, reason: str) -> None:
        """Record a decision about the table (fenced)."""
        try:
            await super().audit(table_id, kind, reason)
        except LeaseLostError:
            self.fences.lost(table_id)
            raise

    async def append(
        self, table_id: int, seq: int, lines: Sequence[str], results: TableResults | None = None
    ) -> None:
        """Commit log lines ``seq…`` (and the results they end) while the lease holds.

        :raises LeaseLostError: when this process no longer holds the table.
        :raises LogConflictError: when ``seq`` is not the next line number.
        """
        try:
            fence = self.fences.get(table_id)
            if fence is None:
                raise LeaseLostError(f"table {table_id}: this process does not hold its lease")
            if results is not None:
                await self._run(self._append, table_id, seq, list(lines), results)
            else:
                await self.writer.append(table_id, seq, lines, fence)
        except LeaseLostError:
            self.fences.lost(table_id)
            raise


class FencedLedger(SqlLedger):
    """:class:`SqlLedger` whose table transactions (buy-in, a hand's move, release, refund) are
    posted only while this process holds the table's lease, checked in the same transaction.

    A transaction is a table's when it says so (:attr:`Transaction.table_id`, set by the table
    that builds it); its keys are never parsed to decide."""

    def __init__(self, store: Store, fences: Fences) -> None:
        super().__init__(store)
        self.fences = fences

    def _attempt(self, txn: Transaction) -> bool:
        """One try at posting ``txn`` (fenced when it belongs to a table; the retries and their
        pauses are :class:`SqlLedger`'s), in a worker thread.

        :raises LeaseLostError: when it belongs to a table this process no longer holds.
        """
        table_id = txn.table_id
        if table_id is None:
            return super()._attempt(txn)
        fence = self.fences.get(table_id)
        with self.store.session() as session:
            check_fence(session, table_id, fence)
            return post_in(session, txn)

    async def post(self, txn: Transaction) -> bool:
        """Apply ``txn`` once (fenced when it belongs to a table); a refused write drops the
        table here (on the event loop's thread).

        :raises LeaseLostError: when it belongs to a table this process no longer holds.
        """
        try:
            return await super().post(txn)
        except LeaseLostError:
            if txn.table_id is not None:
                self.fences.lost(txn.table_id)
            raise
