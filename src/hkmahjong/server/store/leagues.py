"""聯賽 leagues in SQL: :class:`SqlLeagueStore` implements
:class:`~hkmahjong.parlor.league.LeagueStore` on the parlor's database.

A commit is one database transaction: the league's row is updated only if its ``version`` is the
one the step was computed from (else :class:`~hkmahjong.parlor.league.LeagueConflictError`, and the
desk computes the step again), its new decisions are appended, and its jade transactions are posted
through :func:`~hkmahjong.server.store.ledger.post_in` — so a league never shows a step whose jade
did not move, nor jade moved for a step it does not show.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from sqlalchemy import func, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session

from hkmahjong.parlor.league import (
    Decision,
    League,
    LeagueConfig,
    LeagueConflictError,
    LeagueError,
)
from hkmahjong.parlor.ledger import Transaction
from hkmahjong.server.store.db import Store
from hkmahjong.server.store.ledger import account_balances, post_in
from hkmahjong.server.store.models import LeagueDecisionRow, LeagueRow

__all__ = ["SqlLeagueStore"]

RETRIES = 8


def _league(session: Session, row: LeagueRow) -> League:
    decisions = session.scalars(
        select(LeagueDecisionRow)
        .where(LeagueDecisionRow.league_id == row.id)
        .order_by(LeagueDecisionRow.id)
    )
    return League.from_json(
        row.id,
        LeagueConfig.from_json(row.config),
        row.status,
        row.state,
        [Decision(d.at, d.kind, d.reason) for d in decisions],
        version=row.version,
        created_at=row.created_at,
    )


def _decisions(league_id: int, log: Sequence[Decision]) -> list[LeagueDecisionRow]:
    return [
        LeagueDecisionRow(league_id=league_id, kind=d.kind[:32], reason=d.reason, at=d.at)
        for d in log
    ]


def _retryable(exc: DBAPIError) -> bool:
    code = getattr(exc.orig, "sqlstate", None)
    return code in ("40001", "40P01") or "database is locked" in str(exc.orig)


class SqlLeagueStore:
    """The parlor's leagues on its database (see :class:`~hkmahjong.parlor.league.LeagueStore`)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def add(self, league: League) -> League:
        """Store a new league with its first decisions; it with its id.

        :raises LeagueError: ``name_taken`` when a league has that name (ignoring case).
        """
        try:
            with self.store.session() as s:
                row = LeagueRow(
                    name=league.config.name,
                    status=league.status,
                    config=league.config.to_json(),
                    state=league.to_json(),
                    version=1,
                    created_at=league.created_at,
                )
                s.add(row)
                s.flush()
                s.add_all(_decisions(row.id, league.log))
                league_id = row.id
        except IntegrityError:
            raise LeagueError(
                "name_taken", f"a league is named {league.config.name!r} (ignoring case)"
            ) from None
        found = self.get(league_id)
        assert found is not None
        return found

    def get(self, league_id: int) -> League | None:
        """The league, or None."""
        with self.store.session() as s:
            row = s.get(LeagueRow, league_id)
            return None if row is None else _league(s, row)

    def find(self, name: str) -> League | None:
        """The league named ``name`` (ignoring case), or None."""
        with self.store.session() as s:
            row = s.scalar(
                select(LeagueRow).where(func.lower(LeagueRow.name) == name.strip().lower())
            )
            return None if row is None else _league(s, row)

    def leagues(self, status: str | None = None) -> list[League]:
        """Every league (with ``status`` only, when given), newest first."""
        with self.store.session() as s:
            query = select(LeagueRow).order_by(LeagueRow.id.desc())
            if status is not None:
                query = query.where(LeagueRow.status == status)
            return [_league(s, r) for r in s.scalars(query)]

    def commit(self, before: League, after: League, txns: Sequence[Transaction]) -> None:
        """Save ``after`` in place of ``before`` and post ``txns``, in one database transaction.

        :raises LeagueConflictError: when the league is no longer at ``before.version``.
        :raises InsufficientJadeError: when a transaction would overdraw an account.
        :raises TransactionConflictError: when a key was posted with other rows.
        """
        for attempt in range(RETRIES):
            try:
                with self.store.session() as s:
                    done = s.execute(
                        update(LeagueRow)
                        .where(LeagueRow.id == before.id, LeagueRow.version == before.version)
                        .values(
                            status=after.status,
                            state=after.to_json(),
                            version=before.version + 1,
                        )
                    )
                    if done.rowcount != 1:  # type: ignore[attr-defined]
                        raise LeagueConflictError(f"league {before.id} changed: read it again")
                    s.add_all(_decisions(before.id, after.log[len(before.log) :]))
                    for txn in txns:
                        post_in(s, txn)
                return
            except IntegrityError:
                # a concurrent post of the same key: the league's version check decides on retry
                if attempt == RETRIES - 1:
                    raise
            except DBAPIError as exc:
                if not _retryable(exc) or attempt == RETRIES - 1:
                    raise
            time.sleep(0.005 * (attempt + 1))

    def balance(self, account: str) -> int:
        """An account's jade."""
        with self.store.session() as s:
            return account_balances(s, [account])[account]
