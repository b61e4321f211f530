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
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

from hkmahjong.parlor.ports import OPEN_STATUSES, LeaseLostError
from hkmahjong.server.store.db import Store

__all__ = ["LEAD_LOCK", "LeaseBook", "Located", "check_fence"]

LEAD_LOCK = 0x686B6C67  # "hklg": the advisory lock of the process that plays the leagues' rounds

_OPEN = ", ".join(f"'{s}'" for s in OPEN_STATUSES)
_ALIVE = "EXISTS (SELECT 1 FROM cluster_nodes n WHERE n.owner = {col} AND n.expires_at > now())"


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

    def __init__(self, store: Store, owner: str, *, ttl: float, address: str = "") -> None:
        if store.dialect != "postgresql":
            raise ValueError("several server processes need PostgreSQL (--db postgresql://…)")
        self.store = store
        self.owner = owner
        self.ttl = ttl
        self.address = address
        self._lead: Any = None
        """The connection holding :data:`LEAD_LOCK` while this process leads."""

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
        """Stop leading (close the connection that holds the lock)."""
        conn, self._lead = self._lead, None
        if conn is not None:
            with contextlib.suppress(Exception):  # already broken
                conn.invalidate()  # really closed, not returned to the pool with the lock
                conn.close()

    def heartbeat(self) -> None:
        """Renew this node's row (make it on the first call): alive for ``ttl`` more seconds."""
        with self.store.session() as s:
            s.execute(
                text(
                    "INSERT INTO cluster_nodes (owner, address, started_at, expires_at) "
                    "VALUES (:o, :a, now(), now() + make_interval(secs => :ttl)) "
                    "ON CONFLICT (owner) DO UPDATE SET expires_at = EXCLUDED.expires_at"
                ),
                {"o": self.owner, "a": self.address[:200], "ttl": self.ttl},
            )

    def live_nodes(self) -> set[str]:
        """The processes alive now."""
        with self.store.session() as s:
            rows = s.execute(text("SELECT owner FROM cluster_nodes WHERE expires_at > now()"))
            return {str(r[0]) for r in rows}

    def acquire(self, table_id: int) -> int | None:
        """Take the table's lease (no live owner, or this process): the new epoch, or None
        when a live process holds it."""
        with self.store.session() as s:
            found = s.execute(
                text(
                    "INSERT INTO table_leases (table_id, owner, epoch, acquired_at) "
                    "VALUES (:t, :o, 1, now()) "
                    "ON CONFLICT (table_id) DO UPDATE SET owner = :o, "
                    "epoch = table_leases.epoch + 1, acquired_at = now() "
                    "WHERE table_leases.owner = :o OR NOT "
                    + _ALIVE.format(col="table_leases.owner")
                    + " RETURNING epoch"
                ),
                {"t": table_id, "o": self.owner},
            ).first()
            return None if found is None else int(found[0])

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
        """Hand every table of this process over and remove its node row (graceful stop)."""
        with self.store.session() as s:
            s.execute(
                text("UPDATE table_leases SET owner = '' WHERE owner = :o"), {"o": self.owner}
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
