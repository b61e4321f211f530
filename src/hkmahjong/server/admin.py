"""管理 the parlor administrator's operations on the database: list users and tables, grant jade,
make a user an administrator. ``hkmj admin`` is their command line."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select

from hkmahjong.errors import MahjongError
from hkmahjong.parlor.ledger import grant, user_account
from hkmahjong.server.store import Store
from hkmahjong.server.store.ledger import SqlLedger, account_balances
from hkmahjong.server.store.models import ParlorTable, TableSeat, User

__all__ = [
    "AdminError",
    "TableRow",
    "UserRow",
    "grant_jade",
    "list_tables",
    "list_users",
    "set_admin",
]


class AdminError(MahjongError):
    """An admin operation that cannot be done (names the user or table and why)."""


@dataclass(frozen=True)
class UserRow:
    """A user as the admin lists it."""

    id: int
    name: str
    is_guest: bool
    is_admin: bool
    jade: int
    created_at: datetime


@dataclass(frozen=True)
class TableRow:
    """A table as the admin lists it."""

    id: int
    public_id: str
    kind: str
    status: str
    seats: int
    private: bool
    created_at: datetime


def _user(store: Store, name: str) -> User:
    with store.session() as session:
        row = session.scalar(select(User).where(func.lower(User.name) == name.strip().lower()))
        if row is None:
            raise AdminError(f"no user named {name!r}")
        return row


def list_users(store: Store, *, guests: bool = False, limit: int = 100) -> list[UserRow]:
    """Registered users (and guests when asked), newest first, with their jade."""
    with store.session() as session:
        query = select(User).order_by(User.id.desc()).limit(limit)
        if not guests:
            query = query.where(User.is_guest.is_(False))
        users = list(session.scalars(query))
        jade = account_balances(session, [user_account(u.id) for u in users])
        return [
            UserRow(u.id, u.name, u.is_guest, u.is_admin, jade[user_account(u.id)], u.created_at)
            for u in users
        ]


def grant_jade(store: Store, name: str, amount: int, memo: str = "") -> int:
    """贈玉 give ``amount`` jade to the user ``name`` from the grants account; returns the new
    balance. Each call is its own transaction (a fresh idempotency key).

    :raises AdminError: for an unknown user, a guest, or an amount that is not positive.
    """
    if amount <= 0:
        raise AdminError(f"amount {amount}: expected a positive number of jade")
    user = _user(store, name)
    if user.is_guest:
        raise AdminError(f"{user.name} is a guest: guests hold no jade")
    ledger = SqlLedger(store)
    account = user_account(user.id)
    ledger.post(grant(account, amount, f"grant:admin:{uuid.uuid4().hex}", memo or "admin grant"))
    return ledger.balance(account)


def set_admin(store: Store, name: str, is_admin: bool = True) -> UserRow:
    """Make ``name`` an administrator (or not).

    :raises AdminError: for an unknown user or a guest.
    """
    user = _user(store, name)
    if user.is_guest:
        raise AdminError(f"{user.name} is a guest: register first")
    with store.session() as session:
        row = session.get(User, user.id)
        assert row is not None
        row.is_admin = is_admin
    return next(u for u in list_users(store, limit=1_000_000) if u.id == user.id)


def list_tables(store: Store, *, status: str | None = None, limit: int = 100) -> list[TableRow]:
    """Tables, newest first (only those with ``status`` when given), with their filled seats."""
    with store.session() as session:
        filled = (
            select(TableSeat.table_id, func.count().label("n"))
            .where((TableSeat.user_id.is_not(None)) | (TableSeat.bot_level.is_not(None)))
            .group_by(TableSeat.table_id)
            .subquery()
        )
        query = (
            select(ParlorTable, func.coalesce(filled.c.n, 0))
            .outerjoin(filled, filled.c.table_id == ParlorTable.id)
            .order_by(ParlorTable.id.desc())
            .limit(limit)
        )
        if status is not None:
            query = query.where(ParlorTable.status == status)
        return [
            TableRow(t.id, t.public_id, t.kind, t.status, int(n), t.private, t.created_at)
            for t, n in session.execute(query)
        ]
