"""The table store and the jade ledger of one process among several: every write for a table is
fenced by the table's lease (:func:`~hkmahjong.server.cluster.leases.check_fence` in the same
transaction; the log's appends in the writer thread's own statement), so a process that lost a
table can commit nothing more for it — no action, no status, no seat, no audit, no jade.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Sequence

from sqlalchemy import func, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError

from hkmahjong.parlor.history import TableResults
from hkmahjong.parlor.ledger import LedgerError, Transaction
from hkmahjong.parlor.ports import (
    OPEN_STATUSES,
    LeaseLostError,
    LogConflictError,
    SeatRow,
    TableClosedError,
    TableRow,
)
from hkmahjong.server.cluster.leases import LeaseBook, check_fence
from hkmahjong.server.store.db import Store
from hkmahjong.server.store.ledger import RETRIES, SqlLedger, _retryable, post_in
from hkmahjong.server.store.models import (
    ParlorTable,
    TableAudit,
    TableLease,
    TableLog,
    TableSeat,
)
from hkmahjong.server.store.tables import SqlTableStore

__all__ = ["ClusterTableStore", "FencedLedger", "Fences", "table_of_key"]

log = logging.getLogger(__name__)

_TABLE_KEY = re.compile(r"^[a-z_]+:table:(\d+)(?::|$)")


def table_of_key(idem_key: str) -> int | None:
    """The table a ledger transaction's key belongs to (``hand:table:7:3`` → 7), or None."""
    found = _TABLE_KEY.match(idem_key)
    return None if found is None else int(found.group(1))


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
    def _create(self, row: TableRow, seats: Sequence[SeatRow]) -> int:
        """The table, its seats and its lease (this process's, epoch 1) in one transaction: no
        other process ever sees the new table without an owner (it would take it over)."""
        with self.store.session() as s:
            t = ParlorTable(
                public_id=row.public_id,
                kind=row.kind,
                status=row.status,
                config=row.config,
                ruleset_digest=row.ruleset_digest,
                creator_id=row.creator_id,
                private=row.private,
                invite_token=row.invite_token,
                match_seed=row.match_seed,
            )
            s.add(t)
            s.flush()
            table_id = int(t.id)
            for seat in seats:
                s.add(
                    TableSeat(
                        table_id=table_id,
                        player=seat.player,
                        user_id=seat.user_id,
                        bot_level=seat.bot,
                        status=seat.status,
                    )
                )
            s.add(TableLease(table_id=table_id, owner=self.book.owner, epoch=1))
        self.fences.held[table_id] = (self.book.owner, 1)
        return table_id

    def _set_status(self, table_id: int, status: str) -> None:
        with self.store.session() as s:
            check_fence(s, table_id, self.fences.get(table_id))
            s.execute(update(ParlorTable).where(ParlorTable.id == table_id).values(status=status))

    def _save_seat(self, table_id: int, seat: SeatRow) -> None:
        with self.store.session() as s:
            check_fence(s, table_id, self.fences.get(table_id))
            row = s.get(TableSeat, (table_id, seat.player))
            if row is None:
                row = TableSeat(table_id=table_id, player=seat.player, status=seat.status)
                s.add(row)
            row.user_id, row.bot_level, row.status = seat.user_id, seat.bot, seat.status

    def _audit(self, table_id: int, kind: str, reason: str) -> None:
        with self.store.session() as s:
            check_fence(s, table_id, self.fences.get(table_id))
            s.add(TableAudit(table_id=table_id, kind=kind[:32], reason=reason))

    def _append(
        self, table_id: int, seq: int, lines: Sequence[str], results: TableResults | None
    ) -> None:
        try:
            with self.store.session() as s:
                check_fence(s, table_id, self.fences.get(table_id))
                status = s.scalar(select(ParlorTable.status).where(ParlorTable.id == table_id))
                if status not in OPEN_STATUSES:
                    raise TableClosedError(f"table {table_id} is {status}: its log is closed")
                last = s.scalar(select(func.max(TableLog.seq)).where(TableLog.table_id == table_id))
                have = -1 if last is None else int(last)
                if seq != have + 1:
                    raise LogConflictError(
                        f"table {table_id}: append at {seq}, the log has {have + 1} lines"
                    )
                s.add_all(
                    TableLog(table_id=table_id, seq=seq + i, line=line)
                    for i, line in enumerate(lines)
                )
                if results is not None:
                    s.flush()
                    self._keep(s, table_id, results)
        except IntegrityError as exc:
            raise LogConflictError(f"table {table_id}: log line {seq} already written") from exc

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
    posted only while this process holds the table's lease, checked in the same transaction."""

    def __init__(self, store: Store, fences: Fences) -> None:
        super().__init__(store)
        self.fences = fences

    def post(self, txn: Transaction) -> bool:
        """Apply ``txn`` once (fenced when it belongs to a table).

        :raises LeaseLostError: when it belongs to a table this process no longer holds.
        """
        table_id = table_of_key(txn.idem_key)
        if table_id is None:
            return super().post(txn)
        fence = self.fences.get(table_id)
        for attempt in range(RETRIES):
            try:
                with self.store.session() as session:
                    check_fence(session, table_id, fence)
                    return post_in(session, txn)
            except LeaseLostError:
                self.fences.lost(table_id)
                raise
            except DBAPIError as exc:
                if not _retryable(exc) or attempt == RETRIES - 1:
                    raise
                time.sleep(0.005 * (attempt + 1))
        raise LedgerError(f"{txn.idem_key}: not posted after {RETRIES} tries")  # pragma: no cover
