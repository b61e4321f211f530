"""玉 the jade ledger in SQL: :class:`SqlLedger` implements :class:`~hkmahjong.parlor.ledger.LedgerStore`
on the parlor's database (SQLite or PostgreSQL).

A post is one database transaction: the idempotency key is unique (a concurrent post of the same key
fails on it and is retried, then finds the first one), the debited accounts are locked (``FOR
UPDATE`` on PostgreSQL; SQLite's transactions take the write lock at their start) before their
balances are checked, so two concurrent debits can never both spend the same jade.

The port's methods are coroutines: each database transaction runs in a worker thread, and a lost
race is retried after an ``asyncio.sleep`` (the event loop, and every table on it, keeps running).
Synchronous code that already runs off the loop (a ``def`` route in FastAPI's thread pool, the
``hkmj admin`` command) uses the ``_sync`` forms, which retry at once (the database's own lock
wait is the back-off there).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable

from sqlalchemy import func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session

from hkmahjong.parlor.ledger import (
    InsufficientJadeError,
    LedgerError,
    Posting,
    Transaction,
    TransactionConflictError,
    check_account_key,
    may_go_negative,
)
from hkmahjong.server.store.db import Store
from hkmahjong.server.store.models import Account, LedgerRow, LedgerTxn

__all__ = ["SqlLedger", "account_balances", "post_in"]

RETRIES = 8


def _account_ids(session: Session, keys: list[str]) -> dict[str, int]:
    insert = pg_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
    session.execute(
        insert(Account)
        .values([{"key": k} for k in keys])
        .on_conflict_do_nothing(index_elements=["key"])
    )
    rows = session.execute(select(Account.key, Account.id).where(Account.key.in_(keys)))
    return {key: ident for key, ident in rows}


def account_balances(session: Session, accounts: Iterable[str]) -> dict[str, int]:
    """The balance of each account (0 for one never used), read in ``session``."""
    keys = [check_account_key(a) for a in accounts]
    found = session.execute(
        select(Account.key, func.coalesce(func.sum(LedgerRow.amount), 0))
        .select_from(Account)
        .outerjoin(LedgerRow, LedgerRow.account_id == Account.id)
        .where(Account.key.in_(keys))
        .group_by(Account.key)
    )
    balances = dict.fromkeys(keys, 0)
    balances.update({key: int(total) for key, total in found})
    return balances


def _posted(session: Session, idem_key: str) -> Transaction | None:
    txn = session.scalar(select(LedgerTxn).where(LedgerTxn.idem_key == idem_key))
    if txn is None:
        return None
    rows = session.execute(
        select(Account.key, LedgerRow.amount)
        .join(Account, Account.id == LedgerRow.account_id)
        .where(LedgerRow.txn_id == txn.id)
    )
    return Transaction(txn.idem_key, txn.kind, tuple(Posting(k, int(n)) for k, n in rows), txn.memo)


def post_in(session: Session, txn: Transaction) -> bool:
    """Post ``txn`` inside ``session``'s transaction (the caller commits); False when its key was
    posted before.

    :raises TransactionConflictError: when the key was posted with different rows.
    :raises InsufficientJadeError: when an account that may not go negative would.
    :raises IntegrityError: when a concurrent post of the same key won (retry the whole unit).
    """
    previous = _posted(session, txn.idem_key)
    if previous is not None:
        if previous != txn:
            raise TransactionConflictError(
                f"{txn.idem_key}: already posted as {previous.kind} {previous.amounts()}, "
                f"now {txn.kind} {txn.amounts()}"
            )
        return False
    keys = sorted(row.account for row in txn.rows)
    ids = _account_ids(session, keys)
    debited = sorted(
        row.account for row in txn.rows if row.amount < 0 and not may_go_negative(row.account)
    )
    if debited:
        if session.get_bind().dialect.name == "postgresql":
            session.execute(
                select(Account.id)
                .where(Account.key.in_(debited))
                .order_by(Account.key)
                .with_for_update()
            )
        short = txn.overdrafts(account_balances(session, debited))
        if short:
            raise InsufficientJadeError(f"{txn.idem_key}: {'; '.join(short)}")
    row = LedgerTxn(idem_key=txn.idem_key, kind=txn.kind, memo=txn.memo)
    session.add(row)
    session.flush()
    session.add_all(
        LedgerRow(txn_id=row.id, account_id=ids[p.account], amount=p.amount) for p in txn.rows
    )
    session.flush()
    return True


def _retryable(exc: DBAPIError) -> bool:
    if isinstance(exc, IntegrityError):
        return True
    code = getattr(exc.orig, "sqlstate", None)
    return code in ("40001", "40P01") or "database is locked" in str(exc.orig)


class SqlLedger:
    """The jade ledger on the parlor's database (see :class:`~hkmahjong.parlor.ledger.LedgerStore`)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.on_post: Callable[[bool], None] | None = None
        """Told of every transaction posted (True) or found posted already (False): the
        operators' metrics (``hkmahjong.server.metrics``)."""

    def _posted_now(self, new: bool) -> bool:
        if self.on_post is not None:
            self.on_post(new)
        return new

    def _attempt(self, txn: Transaction) -> bool:
        """One try at posting ``txn`` in its own database transaction (in the calling thread)."""
        with self.store.session() as session:
            return post_in(session, txn)

    async def post(self, txn: Transaction) -> bool:
        """Apply ``txn`` once, in its own database transaction (a worker thread), retrying a lost
        race after a pause that does not hold the event loop.

        :raises TransactionConflictError: when the key was posted with different rows.
        :raises InsufficientJadeError: when an account that may not go negative would.
        """
        for attempt in range(RETRIES):
            try:
                return self._posted_now(await asyncio.to_thread(self._attempt, txn))
            except DBAPIError as exc:
                if not _retryable(exc) or attempt == RETRIES - 1:
                    raise
                await asyncio.sleep(0.005 * (attempt + 1))
        raise LedgerError(f"{txn.idem_key}: not posted after {RETRIES} tries")  # pragma: no cover

    async def posted(self, idem_key: str) -> bool:
        """Whether a transaction was posted under ``idem_key``."""
        return await asyncio.to_thread(self.posted_sync, idem_key)

    async def balance(self, account: str) -> int:
        """The sum of the account's rows."""
        return (await self.balances([account]))[account]

    async def balances(self, accounts: Iterable[str]) -> dict[str, int]:
        """The balance of each account."""
        return await asyncio.to_thread(self.balances_sync, list(accounts))

    def post_sync(self, txn: Transaction) -> bool:
        """:meth:`post` for code already off the event loop (retries at once).

        :raises TransactionConflictError: when the key was posted with different rows.
        :raises InsufficientJadeError: when an account that may not go negative would.
        """
        for attempt in range(RETRIES):
            try:
                return self._posted_now(self._attempt(txn))
            except DBAPIError as exc:
                if not _retryable(exc) or attempt == RETRIES - 1:
                    raise
        raise LedgerError(f"{txn.idem_key}: not posted after {RETRIES} tries")  # pragma: no cover

    def posted_sync(self, idem_key: str) -> bool:
        """:meth:`posted` for code already off the event loop."""
        with self.store.session() as session:
            found = session.scalar(select(LedgerTxn.id).where(LedgerTxn.idem_key == idem_key))
            return found is not None

    def balance_sync(self, account: str) -> int:
        """:meth:`balance` for code already off the event loop."""
        return self.balances_sync([account])[account]

    def balances_sync(self, accounts: Iterable[str]) -> dict[str, int]:
        """:meth:`balances` for code already off the event loop."""
        with self.store.session() as session:
            return account_balances(session, accounts)

    def total(self) -> int:
        """The sum of every row in the ledger: always 0."""
        with self.store.session() as session:
            return int(session.scalar(select(func.coalesce(func.sum(LedgerRow.amount), 0))) or 0)
