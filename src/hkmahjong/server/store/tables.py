"""枱 the table store in SQL: :class:`SqlTableStore` implements :class:`~hkmahjong.parlor.ports.TableStore`.

Each call is one transaction in a worker thread (the actor awaits it, the event loop keeps
running other tables). ``append`` commits a step's game-record lines before the table tells
anyone; ``(table_id, seq)`` is the primary key, so two writers can never interleave a log.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError

from hkmahjong.parlor.history import TableResults
from hkmahjong.parlor.ports import (
    OPEN_STATUSES,
    LogConflictError,
    SeatRow,
    TableClosedError,
    TableRow,
)
from hkmahjong.server.store.db import Store
from hkmahjong.server.store.history import keep_results
from hkmahjong.server.store.models import ParlorTable, TableAudit, TableLog, TableSeat, User

__all__ = ["SqlTableStore"]


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

    async def _run(self, fn: Any, *args: Any) -> Any:
        return await asyncio.to_thread(fn, *args)

    # --- sync bodies --------------------------------------------------------------------------
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
            s.execute(update(ParlorTable).where(ParlorTable.id == table_id).values(status=status))

    def _save_seat(self, table_id: int, seat: SeatRow) -> None:
        with self.store.session() as s:
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
                    keep_results(s, table_id, results)
        except IntegrityError as exc:
            raise LogConflictError(f"table {table_id}: log line {seq} already written") from exc

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
            s.add(TableAudit(table_id=table_id, kind=kind[:32], reason=reason))

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
        await self._run(self._append, table_id, seq, list(lines), results)

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
