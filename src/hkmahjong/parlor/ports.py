"""接口 (ports): what the parlor needs from storage and sockets, and in-memory implementations.

The table actor talks to a :class:`TableStore` (the table's row, seats, game-record log and audit
trail) and to each seated player's :class:`Connection`; ``server.store`` implements the store on
SQL, ``server.ws`` the connection on a websocket. :class:`MemoryTableStore` and
:class:`MemoryConnection` are the fast in-memory versions the tests use.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from hkmahjong.errors import MahjongError

if TYPE_CHECKING:
    from hkmahjong.parlor.history import HandSummary, MatchSummary, TableFacts, TableResults

__all__ = [
    "CANCEL_REQUEST",
    "Connection",
    "LeaseLostError",
    "LogConflictError",
    "MemoryConnection",
    "MemoryTableStore",
    "SeatRow",
    "TableClosedError",
    "TableRow",
    "TableStatus",
    "TableStore",
]


class TableStatus(StrEnum):
    """A table's status, stored as its value: waiting for players, playing, paused (a practice
    table whose person is away), or over — finished, cancelled, aborted."""

    WAITING = "waiting"
    PLAYING = "playing"
    PAUSED = "paused"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    ABORTED = "aborted"


OPEN_STATUSES = (TableStatus.WAITING, TableStatus.PLAYING, TableStatus.PAUSED)
"""Statuses of a table that is not over (rebuilt when the server starts)."""

CANCEL_REQUEST = "cancel_request"
"""The audit kind of an operator's request to cancel a table (``hkmj admin cancel``): the process
whose lobby holds the table hands it to the table's actor (:meth:`Lobby.follow_requests`)."""


class LogConflictError(MahjongError):
    """An append whose first sequence number is not the log's next one (two writers, or a bug)."""


class TableClosedError(LogConflictError):
    """An append to the log of a table that is over (cancelled elsewhere, e.g. by the admin)."""


class LeaseLostError(LogConflictError):
    """A write for a table this process no longer owns (several server processes: another one
    took the table over, so this one may commit nothing more for it; docs/deploy.md)."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    """座位: who holds player number ``player`` — a user, a bot level, or nobody."""

    player: int
    user_id: int | None = None
    name: str | None = None
    bot: str | None = None
    status: str = "empty"


@dataclass(frozen=True, slots=True)
class TableRow:
    """枱: a table's stored facts (``id`` 0 until the store gives one)."""

    id: int
    public_id: str
    kind: str
    status: str
    config: dict[str, Any]
    ruleset_digest: str
    match_seed: str
    """The match seed, hex: server-side only, revealed in the record's last line."""
    creator_id: int | None = None
    private: bool = False
    invite_token: str | None = None


class TableStore(Protocol):
    """Storage of tables: rows, seats, the log (game record lines) and the audit trail."""

    async def create(self, row: TableRow, seats: Sequence[SeatRow]) -> int:
        """Store a new table and its four seats; its id."""
        ...

    async def get(self, table_id: int) -> TableRow | None:
        """The table, or None."""
        ...

    async def find(self, public_id: str) -> TableRow | None:
        """The table with this public id, or None (a league finds its round's tables)."""
        ...

    async def open_tables(self) -> list[TableRow]:
        """Every table whose status is waiting, playing or paused (to rebuild at start)."""
        ...

    async def set_status(self, table_id: int, status: str) -> None:
        """Change a table's status."""
        ...

    async def statuses(self, table_ids: Sequence[int]) -> dict[int, str]:
        """The stored status of each of these tables (the lobby watches for changes made
        elsewhere, e.g. ``hkmj admin cancel``)."""
        ...

    async def save_seat(self, table_id: int, seat: SeatRow) -> None:
        """Store one seat (replacing the previous row of that player)."""
        ...

    async def seats(self, table_id: int) -> list[SeatRow]:
        """The four seats, by player number."""
        ...

    async def append(
        self, table_id: int, seq: int, lines: Sequence[str], results: TableResults | None = None
    ) -> None:
        """Commit ``lines`` durably as log lines ``seq``, ``seq+1``, … (all or none), in the
        same transaction checking that the table is not over, and with them the ``results`` of
        the hand (and match) they end: the history, the statistics' rows and the ratings
        (docs/history.md), each kept once.

        :raises LogConflictError: when ``seq`` is not the next line number.
        :raises TableClosedError: when the table's status is no longer waiting/playing/paused.
        """
        ...

    async def record(self, table_id: int, results: TableResults) -> None:
        """Keep the results of hands (and the match) whose lines are already in the log — a
        table rebuilt from its log hands over every hand again; those kept before are skipped,
        so nothing is counted twice."""
        ...

    async def lines(self, table_id: int) -> list[str]:
        """Every committed log line, in order."""
        ...

    async def audit(self, table_id: int, kind: str, reason: str) -> None:
        """Record a decision about the table (cancelled, aborted, sat out, …) and why."""
        ...

    async def cancel_requests(self, table_ids: Sequence[int]) -> dict[int, str]:
        """The reason of the first :data:`CANCEL_REQUEST` audit entry of each of these tables
        that has one (an operator asked to cancel it)."""
        ...


class Connection(Protocol):
    """One client's socket as the table sees it: queue a text frame, or close it."""

    def send(self, text: str) -> None:
        """Queue ``text`` for the client (never blocks)."""
        ...

    def close(self, code: int, reason: str) -> None:
        """Close the socket with a websocket close code."""
        ...


@dataclass
class MemoryConnection:
    """A connection that keeps every frame it was sent (``frames``) and how it was closed."""

    frames: list[str] = field(default_factory=list)
    closed: tuple[int, str] | None = None

    def send(self, text: str) -> None:
        """Keep ``text`` (unless closed)."""
        if self.closed is None:
            self.frames.append(text)

    def close(self, code: int, reason: str) -> None:
        """Remember the close."""
        if self.closed is None:
            self.closed = (code, reason)


@dataclass
class MemoryTableStore:
    """:class:`TableStore` in memory; ``fail_appends`` makes the next appends fail (tests)."""

    rows: dict[int, TableRow] = field(default_factory=dict)
    seat_rows: dict[int, dict[int, SeatRow]] = field(default_factory=dict)
    log: dict[int, list[str]] = field(default_factory=dict)
    audits: list[tuple[int, str, str]] = field(default_factory=list)
    hands: dict[int, dict[int, HandSummary]] = field(default_factory=dict)
    """The kept results of each table's hands, by hand number."""
    matches: dict[int, MatchSummary] = field(default_factory=dict)
    facts: dict[int, TableFacts] = field(default_factory=dict)
    fail_appends: int = 0
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def create(self, row: TableRow, seats: Sequence[SeatRow]) -> int:
        """Store it with the next id."""
        table_id = max(self.rows, default=0) + 1
        self.rows[table_id] = replace(row, id=table_id)
        self.seat_rows[table_id] = {s.player: s for s in seats}
        self.log[table_id] = []
        return table_id

    async def get(self, table_id: int) -> TableRow | None:
        """The row (a copy)."""
        row = self.rows.get(table_id)
        return None if row is None else copy.deepcopy(row)

    async def find(self, public_id: str) -> TableRow | None:
        """The row with this public id (a copy)."""
        row = next((r for r in self.rows.values() if r.public_id == public_id), None)
        return None if row is None else copy.deepcopy(row)

    async def open_tables(self) -> list[TableRow]:
        """Rows not finished, cancelled or aborted."""
        return [copy.deepcopy(r) for r in self.rows.values() if r.status in OPEN_STATUSES]

    async def set_status(self, table_id: int, status: str) -> None:
        """Change the status."""
        self.rows[table_id] = replace(self.rows[table_id], status=status)

    async def statuses(self, table_ids: Sequence[int]) -> dict[int, str]:
        """The status of each table that exists."""
        return {t: self.rows[t].status for t in table_ids if t in self.rows}

    async def save_seat(self, table_id: int, seat: SeatRow) -> None:
        """Replace the seat."""
        self.seat_rows[table_id][seat.player] = seat

    async def seats(self, table_id: int) -> list[SeatRow]:
        """The four seats."""
        have = self.seat_rows.get(table_id, {})
        return [have.get(p, SeatRow(p)) for p in range(4)]

    async def append(
        self, table_id: int, seq: int, lines: Sequence[str], results: TableResults | None = None
    ) -> None:
        """Append, checking ``seq``, and keep ``results``; fails while ``fail_appends`` > 0.

        :raises LogConflictError: when ``seq`` is not the next line number.
        :raises TableClosedError: when the table is over.
        :raises OSError: while ``fail_appends`` is positive (a simulated disk failure).
        """
        async with self._lock:
            if self.fail_appends > 0:
                self.fail_appends -= 1
                raise OSError("simulated storage failure")
            status = self.rows[table_id].status
            if status not in OPEN_STATUSES:
                raise TableClosedError(f"table {table_id} is {status}: its log is closed")
            log = self.log[table_id]
            if seq != len(log):
                raise LogConflictError(f"table {table_id}: append at {seq}, the log has {len(log)}")
            log.extend(lines)
            if results is not None:
                self._keep(table_id, results)

    def _keep(self, table_id: int, results: TableResults) -> None:
        self.facts[table_id] = results.facts
        kept = self.hands.setdefault(table_id, {})
        for hand in results.hands:
            kept.setdefault(hand.number, hand)
        if results.match is not None:
            self.matches.setdefault(table_id, results.match)

    async def record(self, table_id: int, results: TableResults) -> None:
        """Keep the results not kept before."""
        self._keep(table_id, results)

    async def lines(self, table_id: int) -> list[str]:
        """The log (a copy)."""
        return list(self.log.get(table_id, []))

    async def audit(self, table_id: int, kind: str, reason: str) -> None:
        """Keep the audit entry."""
        self.audits.append((table_id, kind, reason))

    async def cancel_requests(self, table_ids: Sequence[int]) -> dict[int, str]:
        """The reason of the first cancel request of each of these tables that has one."""
        wanted, found = set(table_ids), dict[int, str]()
        for table_id, kind, reason in self.audits:
            if kind == CANCEL_REQUEST and table_id in wanted:
                found.setdefault(table_id, reason)
        return found
