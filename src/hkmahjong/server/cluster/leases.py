"""租約 the leases of several server processes on one PostgreSQL database (docs/deploy.md).

Each process (a *node*) has a row in ``cluster_nodes`` that it renews every third of its lease;
it is alive while the row's ``expires_at`` lies in the future — by the database's clock, so the
hosts' clocks never matter. Each open table has a row in ``table_leases``: its owner and its
``epoch``, the fencing token. A process takes a table over only when the table's owner is not
alive (or is itself), and the take-over adds one to the epoch; every write for a table checks
(owner, epoch) inside its own transaction, with the lease row locked (``FOR SHARE``), so a
process that lost a table — paused, cut off, presumed dead — can commit nothing more for it.
A graceful stop hands its tables over at once: their owner becomes empty (the epoch stays, so
it only ever grows) and the node's row goes.

Nothing here waits without bound (:class:`Limits`, docs/deploy.md *Faults*): the cluster's
connections (:func:`cluster_store`) carry a statement timeout, an idle-in-transaction timeout
and TCP keepalives both ways, so a stuck or cut-off process's transaction — and the lease row
lock it holds — ends by itself; a take-over waits only briefly for a lease row
(``lock_timeout``) and tries again at the next sweep; the heartbeat has a connection of its own.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, create_engine, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from hkmahjong.parlor.ports import OPEN_STATUSES, LeaseLostError
from hkmahjong.server.store.db import Store

__all__ = ["LEAD_LOCK", "LeaseBook", "Limits", "Located", "check_fence", "cluster_store", "is_busy"]

LEAD_LOCK = 0x686B6C67  # "hklg": the advisory lock of the process that plays the leagues' rounds

_OPEN = ", ".join(f"'{s}'" for s in OPEN_STATUSES)
_ALIVE = (
    "EXISTS (SELECT 1 FROM cluster_nodes n WHERE n.owner = {col} "
    "AND n.expires_at > statement_timestamp())"
)
_BUSY = ("55P03", "57014")
"""SQLSTATEs of a statement that gave up waiting: ``lock_not_available`` (``lock_timeout``),
``query_canceled`` (``statement_timeout``)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """How long the cluster's database work may wait, from the lease ``lease_s`` (seconds).

    - ``statement_ms``: every statement on the cluster's connections (PostgreSQL
      ``statement_timeout``, lock waits included): a stuck owner's statement, and the lease row
      lock its fenced write holds, end by themselves within it. Half the lease, from 1 to 5 s:
      a take-over is due after a lease, so by then the lock is gone.
    - ``idle_ms``: how long one of their transactions may sit idle between statements
      (``idle_in_transaction_session_timeout``): a paused or cut-off process's open transaction
      ends within it. The lease, from 2 to 10 s: ended by the time its tables may be taken over,
      yet long enough that a thread of a busy process kept a while from the interpreter (the
      GIL) between two statements is not cut off.
    - ``lock_ms``: how long a take-over waits for a table's lease row (``lock_timeout``) before
      it gives up until the next sweep (a fenced write in flight holds it for milliseconds).
    - ``beat_ms``: the heartbeat's statement timeout (half the lease, at least 0.5 s: a slow
      database still renews in time, a dead connection is given up and made again).
    - ``check_ms``: how often PostgreSQL checks that a client whose statement runs (or waits for
      a lock) is still there (``client_connection_check_interval``): a killed process's waiting
      statement ends within it.
    - ``keepalive_s``: TCP keepalives, both ends (idle this long, then probes 1 s apart, 3
      unanswered end the connection): a partition is noticed within seconds, not hours.
    """

    statement_ms: int
    idle_ms: int
    lock_ms: int
    beat_ms: int
    check_ms: int
    keepalive_s: int

    @classmethod
    def for_lease(cls, lease_s: float) -> Limits:
        """The limits of a lease of ``lease_s`` seconds."""
        ms = lease_s * 1000
        return cls(
            statement_ms=int(min(max(ms / 2, 1000), 5000)),
            idle_ms=int(min(max(ms, 2000), 10000)),
            lock_ms=int(min(max(ms / 10, 50), 200)),
            beat_ms=int(max(ms / 2, 500)),
            check_ms=int(min(max(ms / 4, 250), 2000)),
            keepalive_s=int(max(1, min(lease_s / 2, 10))),
        )

    def connect_args(self) -> dict[str, Any]:
        """libpq's connection parameters for these limits (psycopg passes them through)."""
        server = {
            "statement_timeout": self.statement_ms,
            "idle_in_transaction_session_timeout": self.idle_ms,
            "client_connection_check_interval": self.check_ms,
            "tcp_keepalives_idle": self.keepalive_s,
            "tcp_keepalives_interval": 1,
            "tcp_keepalives_count": 3,
            "tcp_user_timeout": max(self.statement_ms, 2000),
        }
        return {
            "keepalives": 1,
            "keepalives_idle": self.keepalive_s,
            "keepalives_interval": 1,
            "keepalives_count": 3,
            "tcp_user_timeout": max(self.statement_ms, 2000),
            "connect_timeout": max(2, round(self.statement_ms / 1000)),
            "options": " ".join(f"-c {k}={v}" for k, v in server.items()),
        }


def cluster_store(store: Store, limits: Limits) -> Store:
    """A store on the same PostgreSQL database as ``store`` whose connections carry ``limits``
    (the tables' reads and fenced writes, their jade, the leases, the heartbeat): the rest of
    the app (accounts, the API, migrations) keeps ``store``, unbounded as before."""
    engine = create_engine(
        store.engine.url,
        pool_pre_ping=True,
        pool_size=10,
        max_overflow=10,
        connect_args=limits.connect_args(),
    )
    return Store(engine)


def is_busy(exc: BaseException) -> bool:
    """Whether ``exc`` is a statement that gave up waiting (lock or statement timeout)."""
    return isinstance(exc, DBAPIError) and getattr(exc.orig, "sqlstate", None) in _BUSY


@dataclass(frozen=True, slots=True)
class Located:
    """Where a table is: its id and status, and the live process that owns it (None: nobody
    alive owns it, it may be taken over)."""

    table_id: int
    status: str
    owner: str | None


def check_fence(session: Session, table_id: int, fence: tuple[str, int] | None) -> None:
    """Inside ``session``'s transaction: the table's lease is still ``fence`` (owner, epoch),
    and stays so until the transaction ends (the row is locked against a take-over).

    :raises LeaseLostError: when it is not (or ``fence`` is None: this process never held it).
    """
    found = session.execute(
        text("SELECT owner, epoch FROM table_leases WHERE table_id = :t FOR SHARE"),
        {"t": table_id},
    ).first()
    if fence is None or found is None or (str(found[0]), int(found[1])) != fence:
        raise LeaseLostError(f"table {table_id}: this process does not hold its lease")


class LeaseBook:
    """The nodes' heartbeats and the tables' leases, for the process ``owner`` (sync calls: run
    them in a worker thread)."""

    def __init__(
        self,
        store: Store,
        owner: str,
        *,
        ttl: float,
        address: str = "",
        limits: Limits | None = None,
    ) -> None:
        if store.dialect != "postgresql":
            raise ValueError("several server processes need PostgreSQL (--db postgresql://…)")
        self.store = store
        self.owner = owner
        self.ttl = ttl
        self.address = address
        self.limits = limits or Limits.for_lease(ttl)
        self._lead: Any = None
        """The connection holding :data:`LEAD_LOCK` while this process leads."""
        self._beat: Connection | None = None
        """The heartbeat's own connection (never one a busy pool must hand out first)."""
        self.busy = 0
        """How many take-overs gave up waiting for a lease row (tried again later)."""

    def try_lead(self) -> bool:
        """Whether this process leads (plays the leagues' rounds): it holds a session advisory
        lock on a connection of its own, released by PostgreSQL the moment that connection
        ends (the process stopped or died). Checked again at every call."""
        if self._lead is not None:
            try:
                self._lead.execute(text("SELECT 1"))
                self._lead.commit()
                return True
            except Exception:  # the connection broke: the lock went with it
                self.resign()
        conn = self.store.engine.connect()
        try:
            got = bool(
                conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": LEAD_LOCK}).scalar()
            )
            conn.commit()
        except Exception:
            conn.close()
            raise
        if not got:
            conn.close()
            return False
        self._lead = conn
        return True

    def resign(self) -> None:
        """Stop leading: let go of the lock at once (another process may lead from its next
        sweep), then close the connection that held it (a broken one took the lock with it)."""
        conn, self._lead = self._lead, None
        if conn is not None:
            with contextlib.suppress(Exception):  # already broken: the lock went with it
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": LEAD_LOCK})
                conn.commit()
            with contextlib.suppress(Exception):
                conn.invalidate()  # really closed, not returned to the pool with the lock
                conn.close()

    def heartbeat(self) -> set[str]:
        """Renew this node's row (make it on the first call): alive for ``ttl`` more seconds;
        the processes alive now. On a connection of its own (kept open, made again after a
        failure) with a statement timeout of :attr:`Limits.beat_ms`: call it from one thread
        only (the heartbeat's)."""
        conn = self._beat
        if conn is None:
            conn = self.store.engine.connect()
            try:
                conn.execute(text(f"SET statement_timeout = {int(self.limits.beat_ms)}"))
                conn.commit()
            except Exception:
                conn.invalidate()
                conn.close()
                raise
            self._beat = conn
        try:
            conn.execute(
                text(
                    "INSERT INTO cluster_nodes (owner, address, started_at, expires_at) "
                    "VALUES (:o, :a, now(), now() + make_interval(secs => :ttl)) "
                    "ON CONFLICT (owner) DO UPDATE SET expires_at = EXCLUDED.expires_at"
                ),
                {"o": self.owner, "a": self.address[:200], "ttl": self.ttl},
            )
            rows = conn.execute(
                text("SELECT owner FROM cluster_nodes WHERE expires_at > statement_timestamp()")
            )
            live = {str(r[0]) for r in rows}
            conn.commit()
        except Exception:
            self.close_heartbeat()
            raise
        return live

    def close_heartbeat(self) -> None:
        """Close the heartbeat's connection (a broken one, or at the end)."""
        conn, self._beat = self._beat, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.invalidate()  # never back to the pool with its own statement timeout
                conn.close()

    def live_nodes(self) -> set[str]:
        """The processes alive now."""
        with self.store.session() as s:
            rows = s.execute(
                text("SELECT owner FROM cluster_nodes WHERE expires_at > statement_timestamp()")
            )
            return {str(r[0]) for r in rows}

    def acquire(self, table_id: int) -> int | None:
        """Take the table's lease (no live owner, or this process): the new epoch, or None
        when a live process holds it — or when its lease row stays locked for
        :attr:`Limits.lock_ms` (a write in flight, or a stuck transaction: the next sweep tries
        again; :attr:`busy` counts these).

        The lease row is locked (``FOR UPDATE``) while its owner's life is checked and the epoch
        steps, so take-overs of one table by several processes are serialised: the first steps
        the epoch once, the others then find a live owner.
        """
        try:
            with self.store.session() as s:
                s.execute(
                    text("SELECT set_config('lock_timeout', :v, true)"),
                    {"v": f"{int(self.limits.lock_ms)}ms"},
                )
                found = s.execute(
                    text("SELECT owner, epoch FROM table_leases WHERE table_id = :t FOR UPDATE"),
                    {"t": table_id},
                ).first()
                if found is None:
                    made = s.execute(
                        text(
                            "INSERT INTO table_leases (table_id, owner, epoch, acquired_at) "
                            "VALUES (:t, :o, 1, now()) ON CONFLICT (table_id) DO NOTHING "
                            "RETURNING epoch"
                        ),
                        {"t": table_id, "o": self.owner},
                    ).first()
                    return None if made is None else int(made[0])
                owner, epoch = str(found[0]), int(found[1])
                # Its owner's life now, once the row is ours (a statement of its own: the lock
                # may have been waited for, and a statement sees the database as it began).
                alive = s.execute(
                    text("SELECT " + _ALIVE.format(col=":o")), {"o": owner}
                ).scalar_one()
                if owner != self.owner and alive:
                    return None
                s.execute(
                    text(
                        "UPDATE table_leases SET owner = :o, epoch = :e, acquired_at = now() "
                        "WHERE table_id = :t"
                    ),
                    {"t": table_id, "o": self.owner, "e": epoch + 1},
                )
                return epoch + 1
        except DBAPIError as exc:
            if not is_busy(exc):
                raise
            self.busy += 1
            return None

    def release(self, table_id: int, epoch: int) -> None:
        """Hand one table over (its owner becomes empty; the epoch stays)."""
        with self.store.session() as s:
            s.execute(
                text(
                    "UPDATE table_leases SET owner = '' WHERE table_id = :t AND owner = :o "
                    "AND epoch = :e"
                ),
                {"t": table_id, "o": self.owner, "e": epoch},
            )

    def leave(self) -> None:
        """Hand every table of this process over and remove its node row (graceful stop).

        A table whose lease row another transaction holds locked is skipped, not waited for: it
        is still this process's, which is no longer alive, so it is taken over all the same.
        """
        with self.store.session() as s:
            s.execute(
                text(
                    "UPDATE table_leases SET owner = '' WHERE table_id IN (SELECT table_id "
                    "FROM table_leases WHERE owner = :o FOR UPDATE SKIP LOCKED)"
                ),
                {"o": self.owner},
            )
            s.execute(text("DELETE FROM cluster_nodes WHERE owner = :o"), {"o": self.owner})

    def orphans(self, limit: int = 50) -> list[int]:
        """Open tables that no live process owns (oldest first)."""
        with self.store.session() as s:
            rows = s.execute(
                text(
                    "SELECT t.id FROM parlor_tables t "
                    "LEFT JOIN table_leases l ON l.table_id = t.id "
                    f"WHERE t.status IN ({_OPEN}) AND (l.owner IS NULL OR NOT "
                    + _ALIVE.format(col="l.owner")
                    + ") ORDER BY t.id LIMIT :n"
                ),
                {"n": limit},
            )
            return [int(r[0]) for r in rows]

    def held(self) -> dict[int, int]:
        """The tables this process holds, with their epochs."""
        with self.store.session() as s:
            rows = s.execute(
                text("SELECT table_id, epoch FROM table_leases WHERE owner = :o"),
                {"o": self.owner},
            )
            return {int(t): int(e) for t, e in rows}

    def locate(self, public_id: str) -> Located | None:
        """The table with this public id and its live owner, or None (no such table)."""
        with self.store.session() as s:
            found = s.execute(
                text(
                    "SELECT t.id, t.status, l.owner, "
                    + _ALIVE.format(col="l.owner")
                    + " FROM parlor_tables t LEFT JOIN table_leases l ON l.table_id = t.id "
                    "WHERE t.public_id = :p"
                ),
                {"p": public_id},
            ).first()
            if found is None:
                return None
            ident, status, owner, alive = found
            return Located(int(ident), str(status), str(owner) if owner and alive else None)
