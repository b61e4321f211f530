"""玉 the jade ledger: double-entry, integer, idempotent.

Every movement of jade is a :class:`Transaction` whose rows sum to zero; a balance is the sum of an
account's rows; escrow is an account like any other (``escrow:table:5``). A transaction carries an
idempotency key (e.g. ``settle:table:5:hand:3``) so that a retry, or a replay after a crash, can
never pay twice: posting a key again is a no-op when it is the same transaction and an error when it
is not. Only ``system:`` accounts (the source of grants, the sink of fees) may go below zero.

The port the table actor uses, :class:`LedgerStore`, is **async** (the actor never waits on a
database: the SQL ledger runs each transaction in a worker thread). :class:`MemoryLedger` implements
it and, for the domain's own synchronous use (a league's in-memory store, tests), has the same
operations as plain methods ending in ``_sync``.

>>> ledger = MemoryLedger()
>>> ledger.post_sync(grant(user_account(1), 500, "grant:start:user:1"))
True
>>> ledger.post_sync(grant(user_account(1), 500, "grant:start:user:1"))
False
>>> ledger.balance_sync(user_account(1)), ledger.balance_sync(GRANTS)
(500, -500)
"""

from __future__ import annotations

import re
import threading
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from hkmahjong.errors import MahjongError
from hkmahjong.parlor.accounts import FEES, GRANTS, TxnKind, user_account
from hkmahjong.parlor.accounts import table_escrow as escrow_account

__all__ = [
    "FEES",
    "GRANTS",
    "InsufficientJadeError",
    "LedgerError",
    "LedgerStore",
    "MemoryLedger",
    "Posting",
    "Transaction",
    "TransactionConflictError",
    "can_cover",
    "escrow_account",
    "grant",
    "may_go_negative",
    "starting_grant",
    "transfer",
    "user_account",
]


_KEY = re.compile(r"[a-z]+(:[A-Za-z0-9_.\-]+)+")
MAX_KEY = 128
MAX_IDEM_KEY = 200
MAX_AMOUNT = 10**15


class LedgerError(MahjongError):
    """A transaction that breaks a ledger rule (names the rule and the offending value)."""


class TransactionConflictError(LedgerError):
    """An idempotency key posted again with different rows: a bug in the caller, never a retry."""


class InsufficientJadeError(LedgerError):
    """A transaction that would take an account below zero (only ``system:`` accounts may be)."""


def may_go_negative(account: str) -> bool:
    """Whether an account may hold less than zero: only the ``system:`` accounts."""
    return account.startswith("system:")


def check_account_key(account: str) -> str:
    """An account key, checked: ``kind:part[:part…]`` of letters, digits, ``_.-``.

    :raises LedgerError: when it is not.
    """
    if not isinstance(account, str) or len(account) > MAX_KEY or not _KEY.fullmatch(account):
        raise LedgerError(
            f"account key {account!r}: expected 'kind:id' such as 'user:12' "
            f"(lowercase kind, at most {MAX_KEY} characters)"
        )
    return account


@dataclass(frozen=True, order=True)
class Posting:
    """分錄 one row: ``amount`` jade into ``account`` (negative: out of it)."""

    account: str
    amount: int

    def __post_init__(self) -> None:
        check_account_key(self.account)
        if type(self.amount) is not int:
            raise LedgerError(f"amount {self.amount!r} for {self.account}: expected an integer")
        if self.amount == 0 or abs(self.amount) > MAX_AMOUNT:
            raise LedgerError(
                f"amount {self.amount} for {self.account}: expected a non-zero integer "
                f"of at most {MAX_AMOUNT} jade"
            )


@dataclass(frozen=True)
class Transaction:
    """交易 rows that sum to zero, posted at most once under ``idem_key``.

    Rows are kept merged by account and sorted, so two transactions are equal exactly when they
    move the same jade; ``kind`` names what it is (``grant``, ``buy_in``, ``settle``, ``refund``).
    ``table_id`` is the table whose jade it moves (a buy-in, a hand's move, a release, a refund;
    None for a grant or a league's): a process among several posts it only while it holds that
    table's lease (``server.cluster.store.FencedLedger`` reads this field, never the keys).

    :raises LedgerError: when the rows do not sum to zero, an account repeats with a net zero,
        a key is malformed, or ``table_id`` is not a positive table id.
    """

    idem_key: str
    kind: str
    rows: tuple[Posting, ...]
    memo: str = field(default="", compare=False)
    table_id: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.idem_key, str) or not 1 <= len(self.idem_key) <= MAX_IDEM_KEY:
            raise LedgerError(
                f"idempotency key {self.idem_key!r}: expected 1..{MAX_IDEM_KEY} characters"
            )
        if not isinstance(self.kind, str) or not re.fullmatch(r"[a-z_]{1,32}", self.kind):
            raise LedgerError(f"kind {self.kind!r}: expected 1..32 lowercase letters or _")
        object.__setattr__(self, "kind", str(self.kind))  # a TxnKind is stored as its value
        if self.table_id is not None and (type(self.table_id) is not int or self.table_id < 1):
            raise LedgerError(f"{self.idem_key}: table id {self.table_id!r}: expected an id >= 1")
        merged: dict[str, int] = defaultdict(int)
        for row in self.rows:
            if not isinstance(row, Posting):
                raise LedgerError(f"row {row!r}: expected a Posting")
            merged[row.account] += row.amount
        if len(merged) < 2:
            raise LedgerError(f"{self.idem_key}: a transaction moves jade between two accounts")
        if sum(merged.values()) != 0:
            raise LedgerError(
                f"{self.idem_key}: rows sum to {sum(merged.values())}, expected 0 "
                f"({', '.join(f'{a} {n:+d}' for a, n in sorted(merged.items()))})"
            )
        if any(v == 0 for v in merged.values()):
            zero = sorted(a for a, v in merged.items() if v == 0)
            raise LedgerError(f"{self.idem_key}: rows for {', '.join(zero)} cancel out")
        canonical = tuple(Posting(a, v) for a, v in sorted(merged.items()))
        object.__setattr__(self, "rows", canonical)

    @classmethod
    def of(
        cls,
        idem_key: str,
        kind: str,
        amounts: Mapping[str, int],
        memo: str = "",
        *,
        table_id: int | None = None,
    ) -> Transaction:
        """A transaction from ``{account: amount}`` (zero amounts are left out), of the table
        ``table_id`` when it moves a table's jade."""
        rows = tuple(Posting(a, n) for a, n in amounts.items() if n != 0)
        return cls(idem_key, kind, rows, memo, table_id)

    def amounts(self) -> dict[str, int]:
        """``{account: amount}`` of this transaction."""
        return {row.account: row.amount for row in self.rows}

    def overdrafts(self, balances: Mapping[str, int]) -> list[str]:
        """The accounts this transaction would take below zero from ``balances`` (those that may
        not go negative), each with its balance and the change."""
        return [
            f"{row.account} has {balances.get(row.account, 0)}, needs {-row.amount}"
            for row in self.rows
            if row.amount < 0
            and not may_go_negative(row.account)
            and balances.get(row.account, 0) + row.amount < 0
        ]


def grant(account: str, amount: int, idem_key: str, memo: str = "") -> Transaction:
    """贈玉 ``amount`` jade from ``system:grants`` to ``account``."""
    return Transaction.of(idem_key, TxnKind.GRANT, {GRANTS: -amount, account: amount}, memo)


def starting_grant(user_id: int, amount: int) -> Transaction:
    """開戶贈玉 a new account's starting jade, keyed by the user so it is given at most once."""
    account = user_account(user_id)
    return grant(account, amount, f"grant:start:{account}", memo="starting grant")


async def can_cover(ledger: LedgerStore, account: str, amount: int) -> bool:
    """Whether ``account`` holds at least ``amount`` jade (a seat's buy-in); the post of the buy-in
    itself is what guarantees it, atomically."""
    return may_go_negative(account) or await ledger.balance(account) >= amount


def transfer(
    source: str, target: str, amount: int, idem_key: str, kind: str, memo: str = ""
) -> Transaction:
    """轉玉 ``amount`` jade from ``source`` to ``target``."""
    if source == target:
        raise LedgerError(f"{idem_key}: transfer from {source} to itself")
    return Transaction.of(idem_key, kind, {source: -amount, target: amount}, memo)


@runtime_checkable
class LedgerStore(Protocol):
    """The ledger port (async): the SQL store and :class:`MemoryLedger` implement it."""

    async def post(self, txn: Transaction) -> bool:
        """Apply ``txn`` atomically; False when its key was posted before (nothing changes).

        :raises TransactionConflictError: when the key was posted with different rows.
        :raises InsufficientJadeError: when an account that may not go negative would.
        """
        ...

    async def balance(self, account: str) -> int:
        """The sum of the account's rows (0 for an account never used)."""
        ...

    async def posted(self, idem_key: str) -> bool:
        """Whether a transaction was posted under ``idem_key`` (a refund or release done before)."""
        ...

    async def balances(self, accounts: Iterable[str]) -> dict[str, int]:
        """The balance of each account."""
        ...


class MemoryLedger:
    """The ledger in memory, for tests and the domain's own use (thread-safe): the async port,
    and the same operations synchronously (``post_sync`` …)."""

    def __init__(self) -> None:
        self._posted: dict[str, Transaction] = {}
        self._balances: dict[str, int] = defaultdict(int)
        self._lock = threading.Lock()

    async def post(self, txn: Transaction) -> bool:
        """Apply ``txn`` once (see :meth:`LedgerStore.post`)."""
        return self.post_sync(txn)

    async def posted(self, idem_key: str) -> bool:
        """Whether ``idem_key`` was posted."""
        return self.posted_sync(idem_key)

    async def balance(self, account: str) -> int:
        """The account's balance."""
        return self.balance_sync(account)

    async def balances(self, accounts: Iterable[str]) -> dict[str, int]:
        """The balance of each account."""
        return self.balances_sync(accounts)

    def post_sync(self, txn: Transaction) -> bool:
        """Apply ``txn`` once (see :meth:`LedgerStore.post`)."""
        with self._lock:
            previous = self._posted.get(txn.idem_key)
            if previous is not None:
                if previous != txn:
                    raise TransactionConflictError(
                        f"{txn.idem_key}: already posted as {previous.kind} "
                        f"{previous.amounts()}, now {txn.kind} {txn.amounts()}"
                    )
                return False
            short = txn.overdrafts(self._balances)
            if short:
                raise InsufficientJadeError(f"{txn.idem_key}: {'; '.join(short)}")
            for row in txn.rows:
                self._balances[row.account] += row.amount
            self._posted[txn.idem_key] = txn
            return True

    def post_all(self, txns: Iterable[Transaction]) -> list[bool]:
        """Apply several transactions as one unit: all of them (each at most once) or none.

        :raises TransactionConflictError: when a key was posted with different rows.
        :raises InsufficientJadeError: when the transactions, in order, would overdraw an account.
        """
        with self._lock:
            balances = dict(self._balances)
            fresh: dict[str, Transaction] = {}
            done: list[bool] = []
            for txn in txns:
                previous = self._posted.get(txn.idem_key) or fresh.get(txn.idem_key)
                if previous is not None:
                    if previous != txn:
                        raise TransactionConflictError(
                            f"{txn.idem_key}: already posted as {previous.kind} "
                            f"{previous.amounts()}, now {txn.kind} {txn.amounts()}"
                        )
                    done.append(False)
                    continue
                short = txn.overdrafts(balances)
                if short:
                    raise InsufficientJadeError(f"{txn.idem_key}: {'; '.join(short)}")
                for row in txn.rows:
                    balances[row.account] = balances.get(row.account, 0) + row.amount
                fresh[txn.idem_key] = txn
                done.append(True)
            for key, txn in fresh.items():
                for row in txn.rows:
                    self._balances[row.account] += row.amount
                self._posted[key] = txn
            return done

    def posted_sync(self, idem_key: str) -> bool:
        """Whether ``idem_key`` was posted."""
        with self._lock:
            return idem_key in self._posted

    def balance_sync(self, account: str) -> int:
        """The account's balance."""
        with self._lock:
            return self._balances.get(check_account_key(account), 0)

    def balances_sync(self, accounts: Iterable[str]) -> dict[str, int]:
        """The balance of each account."""
        with self._lock:
            return {a: self._balances.get(check_account_key(a), 0) for a in accounts}

    def transactions(self) -> list[Transaction]:
        """Every posted transaction, in posting order."""
        with self._lock:
            return list(self._posted.values())
