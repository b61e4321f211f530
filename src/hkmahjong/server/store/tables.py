"""枱 the table store in SQL: :class:`SqlTableStore` implements :class:`~hkmahjong.parlor.ports.TableStore`.

Each call is one transaction in a worker thread (the actor awaits it, the event loop keeps
running other tables). ``append`` commits a step's game-record lines before the table tells
anyone; ``(table_id, seq)`` is the primary key, so two writers can never interleave a log.

``append`` is the hot path (every action of every table) and never goes through the thread
pool: on both databases the appends of all tables go through one writer thread
(:class:`LogWriter`) that commits the appends waiting at that moment in **one transaction**
(group commit), so a table's ``append`` returns only after the transaction holding its lines
has committed, and a table tells no one of an action before it is stored. The commit runs off
the event loop's thread (the database driver lets go of the GIL while it writes): on SQLite an
earlier version committed inline in the loop, which was cheaper per action but stopped every
table whenever a hand's end held SQLite's write lock from a worker thread (bench_server at 1,000
tables: p99 113 ms inline, 71 ms through the writer thread). The
append that ends a hand carries the hand's results (history) and keeps them in the same
transaction, through the ORM in a worker thread, as every other call here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from hkmahjong.parlor.history import TableResults
from hkmahjong.parlor.ports import (
    CANCEL_REQUEST,
    OPEN_STATUSES,
    LeaseLostError,
    LogConflictError,
    SeatRow,
    TableClosedError,
    TableRow,
)
from hkmahjong.server.store.db import Store
from hkmahjong.server.store.history import keep_results
from hkmahjong.server.store.models import (
    ParlorTable,
    TableAudit,
    TableLog,
    TableSeat,
    User,
    utcnow,
)

__all__ = ["LogWriter", "SqlTableStore"]

log = logging.getLogger(__name__)

MAX_BATCH = 500
"""At most this many appends in one transaction."""


@dataclass(slots=True)
class _Append:
    table_id: int
    seq: int
    lines: list[str]
    future: asyncio.Future[None] | None = None
    loop: asyncio.AbstractEventLoop | None = None
    fence: tuple[str, int] | None = None
    """(owner, epoch) the table's lease must still hold (several processes), or None."""


class LogWriter:
    """寫 the writer thread of the game-record logs: group commit of every table's appends.

    :meth:`append` queues the lines and waits; the thread takes every append queued so far,
    checks each one's ``seq`` against the log, inserts them all and commits once, then answers
    each waiting table (``None`` or its :class:`LogConflictError`). An append that fails alone
    fails alone: when the batch's transaction fails, its appends are retried one by one.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._queue: queue.SimpleQueue[_Append] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        dialect = store.engine.dialect
        self._sqlite = dialect.name == "sqlite"
        mark = "?" if dialect.paramstyle == "qmark" else "%s"
        self._last_sql = (
            "SELECT t.status, (SELECT max(l.seq) FROM table_log l WHERE l.table_id = t.id) "
            f"FROM parlor_tables t WHERE t.id = {mark}"
        )
        self._fenced_sql = (
            "SELECT t.status, (SELECT max(l.seq) FROM table_log l WHERE l.table_id = t.id), "
            "f.owner, f.epoch FROM parlor_tables t JOIN table_leases f ON f.table_id = t.id "
            f"WHERE t.id = {mark} FOR SHARE OF f"
        )
        """With a lease (several processes): the lease row is locked against a take-over until
        this transaction ends, so a process that lost a table can commit nothing more for it."""
        self._insert_sql = (
            "INSERT INTO table_log (table_id, seq, line, created_at) "
            f"VALUES ({mark}, {mark}, {mark}, {mark})"
        )
        column_type = TableLog.__table__.c.created_at.type
        bind = column_type.dialect_impl(dialect).bind_processor(dialect)
        self._created_at: Any = bind if bind is not None else (lambda value: value)
        self._integrity_error: type[Exception] = dialect.dbapi.IntegrityError  # type: ignore[union-attr]
        self.batches = 0
        self.appends = 0

    async def append(
        self,
        table_id: int,
        seq: int,
        lines: Sequence[str],
        fence: tuple[str, int] | None = None,
    ) -> None:
        """Commit ``lines`` as log lines ``seq…`` of the table; returns once committed
        (``fence``: the lease (owner, epoch) it must still hold, in the same transaction).

        :raises LogConflictError: when ``seq`` is not the next line number.
        :raises LeaseLostError: when the table's lease is no longer ``fence``.
        """
        loop = asyncio.get_running_loop()
        item = _Append(table_id, seq, list(lines), loop.create_future(), loop, fence)
        if self._thread is None or not self._thread.is_alive():
            with self._lock:
                if self._thread is None or not self._thread.is_alive():
                    self._thread = threading.Thread(
                        target=self._run, name="hkmj-log-writer", daemon=True
                    )
                    self._thread.start()
        self._queue.put(item)
        assert item.future is not None
        await item.future

    def _run(self) -> None:
        while True:
            batch = [self._queue.get()]
            with contextlib.suppress(queue.Empty):
                while len(batch) < MAX_BATCH:
                    batch.append(self._queue.get_nowait())
            try:
                results = self.commit(batch)
            except Exception:  # the batch failed as a whole: each append again, alone
                results = [self.commit_alone(item) for item in batch]
            self.batches += 1
            self.appends += len(batch)
            by_loop: dict[asyncio.AbstractEventLoop, list[tuple[_Append, Exception | None]]] = {}
            for item, result in zip(batch, results, strict=True):
                if item.loop is not None:
                    by_loop.setdefault(item.loop, []).append((item, result))
            for loop, answers in by_loop.items():
                with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits
                    loop.call_soon_threadsafe(_answer, answers)

    def commit_alone(self, item: _Append) -> Exception | None:
        """Commit one append alone: None, or the error it gets (a conflict as
        :class:`LogConflictError`)."""
        try:
            return self.commit([item])[0]
        except Exception as exc:
            if self.is_conflict(exc):
                return LogConflictError(
                    f"table {item.table_id}: log line {item.seq} already written"
                )
            return exc

    def commit(self, batch: Sequence[_Append]) -> list[Exception | None]:
        """One transaction: every append of ``batch`` whose table is open and whose ``seq`` is the
        next line (in the calling thread; the results in order, ``None`` for a committed append,
        else a :class:`LogConflictError` or :class:`TableClosedError`).

        Straight through the database driver (one statement for each table's status and last
        line, one ``executemany`` insert, the commit): the hot path of every table, where the
        ORM's and even the SQL layer's bookkeeping cost more than the database's work.

        :raises Exception: when the transaction as a whole fails (the driver's error).
        """
        results: list[Exception | None] = []
        rows: list[tuple[int, int, str, Any]] = []
        have: dict[int, int] = {}
        created = self._created_at(utcnow())
        with self.store.turn():
            raw = self.store.engine.raw_connection()
            try:
                cur = raw.cursor()
                try:
                    if self._sqlite:
                        cur.execute("BEGIN IMMEDIATE")
                    for item in batch:
                        if item.table_id not in have:
                            if item.fence is not None:
                                cur.execute(self._fenced_sql, (item.table_id,))
                                found = cur.fetchone()
                                if found is None or tuple(found[2:]) != item.fence:
                                    results.append(
                                        LeaseLostError(
                                            f"table {item.table_id}: its lease is no longer "
                                            f"{item.fence}"
                                        )
                                    )
                                    continue
                                found = found[:2]
                            else:
                                cur.execute(self._last_sql, (item.table_id,))
                                found = cur.fetchone()
                            status, last = (None, None) if found is None else found
                            if status not in OPEN_STATUSES:
                                results.append(
                                    TableClosedError(
                                        f"table {item.table_id} is {status}: its log is closed"
                                    )
                                )
                                continue
                            have[item.table_id] = -1 if last is None else int(last)
                        nxt = have[item.table_id] + 1
                        if item.seq != nxt:
                            results.append(
                                LogConflictError(
                                    f"table {item.table_id}: append at {item.seq}, "
                                    f"the log has {nxt} lines"
                                )
                            )
                            continue
                        rows.extend(
                            (item.table_id, item.seq + i, line, created)
                            for i, line in enumerate(item.lines)
                        )
                        have[item.table_id] = item.seq + len(item.lines) - 1
                        results.append(None)
                    if rows:
                        cur.executemany(self._insert_sql, rows)
                    raw.commit()
                finally:
                    cur.close()
            except BaseException:
                with contextlib.suppress(Exception):
                    raw.rollback()
                raise
            finally:
                raw.close()
        return results

    def is_conflict(self, exc: BaseException) -> bool:
        """Whether ``exc`` is the driver's integrity error (a log line written twice)."""
        return isinstance(exc, (IntegrityError, self._integrity_error))


def _answer(answers: list[tuple[_Append, Exception | None]]) -> None:
    for item, result in answers:
        future = item.future
        if future is None or future.done():  # the table stopped waiting (cancelled)
            continue
        if result is None:
            future.set_result(None)
        else:
            future.set_exception(result)


def _row(t: ParlorTable) -> TableRow:
    return TableRow(
        id=t.id,
        public_id=t.public_id,
        kind=t.kind,
        status=t.status,
        config=dict(t.config),
        ruleset_digest=t.ruleset_digest,
        match_seed=t.match_seed,
        creator_id=t.creator_id,
        private=t.private,
        invite_token=t.invite_token,
    )


class SqlTableStore:
    """The parlor's tables on its database."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.writer = LogWriter(store)

    async def _run(self, fn: Any, *args: Any) -> Any:
        return await asyncio.to_thread(fn, *args)

    # --- sync bodies --------------------------------------------------------------------------
    def _fence(self, session: Session, table_id: int) -> None:
        """Checked first in every write for a table: nothing here; several processes
        (:class:`~hkmahjong.server.cluster.store.ClusterTableStore`) check the table's lease."""

    def _created(self, session: Session, table_id: int) -> None:
        """Called in the transaction that created a table (several processes add its lease)."""

    def _create(self, row: TableRow, seats: Sequence[SeatRow]) -> int:
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
            for seat in seats:
                s.add(
                    TableSeat(
                        table_id=t.id,
                        player=seat.player,
                        user_id=seat.user_id,
                        bot_level=seat.bot,
                        status=seat.status,
                    )
                )
            self._created(s, int(t.id))
            return int(t.id)

    def _get(self, table_id: int) -> TableRow | None:
        with self.store.session() as s:
            t = s.get(ParlorTable, table_id)
            return None if t is None else _row(t)

    def _find(self, public_id: str) -> TableRow | None:
        with self.store.session() as s:
            t = s.scalar(select(ParlorTable).where(ParlorTable.public_id == public_id))
            return None if t is None else _row(t)

    def _open(self) -> list[TableRow]:
        with self.store.session() as s:
            rows = s.scalars(
                select(ParlorTable)
                .where(ParlorTable.status.in_(OPEN_STATUSES))
                .order_by(ParlorTable.id)
            )
            return [_row(t) for t in rows]

    def _statuses(self, table_ids: Sequence[int]) -> dict[int, str]:
        found: dict[int, str] = {}
        with self.store.session() as s:
            for start in range(0, len(table_ids), 500):  # SQLite's bound-parameter limit
                chunk = table_ids[start : start + 500]
                rows = s.execute(
                    select(ParlorTable.id, ParlorTable.status).where(ParlorTable.id.in_(chunk))
                )
                found.update((int(i), str(st)) for i, st in rows)
        return found

    def _set_status(self, table_id: int, status: str) -> None:
        with self.store.session() as s:
            self._fence(s, table_id)
            s.execute(update(ParlorTable).where(ParlorTable.id == table_id).values(status=status))

    def _save_seat(self, table_id: int, seat: SeatRow) -> None:
        with self.store.session() as s:
            self._fence(s, table_id)
            row = s.get(TableSeat, (table_id, seat.player))
            if row is None:
                row = TableSeat(table_id=table_id, player=seat.player, status=seat.status)
                s.add(row)
            row.user_id, row.bot_level, row.status = seat.user_id, seat.bot, seat.status

    def _seats(self, table_id: int) -> list[SeatRow]:
        with self.store.session() as s:
            found = s.execute(
                select(TableSeat, User.name)
                .outerjoin(User, User.id == TableSeat.user_id)
                .where(TableSeat.table_id == table_id)
            ).all()
            have = {}
            for seat, name in found:
                shown = name
                if seat.bot_level is not None:
                    shown = f"{seat.bot_level}-bot-{seat.player + 1}"
                have[seat.player] = SeatRow(
                    seat.player, seat.user_id, shown, seat.bot_level, seat.status
                )
            return [have.get(p, SeatRow(p)) for p in range(4)]

    def _append(
        self, table_id: int, seq: int, lines: Sequence[str], results: TableResults | None
    ) -> None:
        try:
            with self.store.session() as s:
                self._fence(s, table_id)
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

    @staticmethod
    def _keep(s: Session, table_id: int, results: TableResults) -> None:
        """Keep the history with the lines, in a savepoint: a failure there is logged and the
        lines are still committed (the game goes on; a restart hands the hand over again)."""
        try:
            with s.begin_nested():
                keep_results(s, table_id, results)
        except Exception:
            log.exception("table %s: could not keep its history with the log", table_id)

    def _record(self, table_id: int, results: TableResults) -> None:
        with self.store.session() as s:
            keep_results(s, table_id, results, from_log=True)

    def _lines(self, table_id: int) -> list[str]:
        with self.store.session() as s:
            return list(
                s.scalars(
                    select(TableLog.line)
                    .where(TableLog.table_id == table_id)
                    .order_by(TableLog.seq)
                )
            )

    def _audit(self, table_id: int, kind: str, reason: str) -> None:
        with self.store.session() as s:
            self._fence(s, table_id)
            s.add(TableAudit(table_id=table_id, kind=kind[:32], reason=reason))

    def _cancel_requests(self, table_ids: Sequence[int]) -> dict[int, str]:
        found: dict[int, str] = {}
        with self.store.session() as s:
            for start in range(0, len(table_ids), 500):  # SQLite's bound-parameter limit
                rows = s.execute(
                    select(TableAudit.table_id, TableAudit.reason)
                    .where(
                        TableAudit.table_id.in_(table_ids[start : start + 500]),
                        TableAudit.kind == CANCEL_REQUEST,
                    )
                    .order_by(TableAudit.id)
                )
                for table_id, reason in rows:
                    found.setdefault(int(table_id), str(reason))
        return found

    def status_of(self, table_id: int) -> str | None:
        """The stored status of a table (``hkmj admin``), or None when there is no such table."""
        with self.store.session() as s:
            found = s.scalar(select(ParlorTable.status).where(ParlorTable.id == table_id))
            return None if found is None else str(found)

    def request_cancel(self, table_id: int, reason: str) -> None:
        """Ask the process that holds the table to cancel it (``hkmj admin cancel``): a
        :data:`~hkmahjong.parlor.ports.CANCEL_REQUEST` audit entry, not fenced (the asker holds
        no lease)."""
        with self.store.session() as s:
            s.add(TableAudit(table_id=table_id, kind=CANCEL_REQUEST, reason=reason))

    def audits(self, table_id: int) -> list[tuple[str, str]]:
        """Every audit entry of a table, oldest first (``hkmj admin``, tests)."""
        with self.store.session() as s:
            rows = s.scalars(
                select(TableAudit).where(TableAudit.table_id == table_id).order_by(TableAudit.id)
            )
            return [(a.kind, a.reason) for a in rows]

    def public_id_of(self, table_id: int) -> str | None:
        """The public id of a table (admin commands)."""
        row = self._get(table_id)
        return None if row is None else row.public_id

    # --- the port -----------------------------------------------------------------------------
    async def create(self, row: TableRow, seats: Sequence[SeatRow]) -> int:
        """Store a new table and its seats; its id."""
        return int(await self._run(self._create, row, seats))

    async def get(self, table_id: int) -> TableRow | None:
        """The table, or None."""
        found: TableRow | None = await self._run(self._get, table_id)
        return found

    async def find(self, public_id: str) -> TableRow | None:
        """The table with this public id, or None."""
        found: TableRow | None = await self._run(self._find, public_id)
        return found

    async def open_tables(self) -> list[TableRow]:
        """Tables waiting, playing or paused."""
        found: list[TableRow] = await self._run(self._open)
        return found

    async def set_status(self, table_id: int, status: str) -> None:
        """Change a table's status."""
        await self._run(self._set_status, table_id, status)

    async def statuses(self, table_ids: Sequence[int]) -> dict[int, str]:
        """The stored status of each table."""
        found: dict[int, str] = await self._run(self._statuses, list(table_ids))
        return found

    async def save_seat(self, table_id: int, seat: SeatRow) -> None:
        """Store one seat."""
        await self._run(self._save_seat, table_id, seat)

    async def seats(self, table_id: int) -> list[SeatRow]:
        """The four seats with the players' names."""
        found: list[SeatRow] = await self._run(self._seats, table_id)
        return found

    async def append(
        self, table_id: int, seq: int, lines: Sequence[str], results: TableResults | None = None
    ) -> None:
        """Commit log lines ``seq…`` and the ``results`` they end in one transaction.

        :raises LogConflictError: when ``seq`` is not the next line number.
        """
        if results is not None:  # a hand's end (rare): its results go in the same transaction
            await self._run(self._append, table_id, seq, list(lines), results)
        else:
            await self.writer.append(table_id, seq, lines)

    async def record(self, table_id: int, results: TableResults) -> None:
        """Keep the results of hands already in the log (those kept before are skipped)."""
        await self._run(self._record, table_id, results)

    async def lines(self, table_id: int) -> list[str]:
        """The committed log."""
        found: list[str] = await self._run(self._lines, table_id)
        return found

    async def audit(self, table_id: int, kind: str, reason: str) -> None:
        """Record a decision about the table and why."""
        await self._run(self._audit, table_id, kind, reason)

    async def cancel_requests(self, table_ids: Sequence[int]) -> dict[int, str]:
        """The reason of the first cancel request of each of these tables that has one."""
        found: dict[int, str] = await self._run(self._cancel_requests, list(table_ids))
        return found
