"""The jade ledger's rules (docs/dev/architecture.md practice 13, issue 14 "Accounts, jade and stakes"): rows sum
to zero, integer amounts, idempotent posts, balances derived, no overdraft outside ``system:``."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hkmahjong.parlor.ledger import (
    GRANTS,
    InsufficientJadeError,
    LedgerError,
    MemoryLedger,
    Posting,
    Transaction,
    TransactionConflictError,
    escrow_account,
    grant,
    transfer,
    user_account,
)


def test_rows_must_sum_to_zero() -> None:
    with pytest.raises(LedgerError, match="sum to 5"):
        Transaction("k", "grant", (Posting("user:1", 10), Posting("system:grants", -5)))


@pytest.mark.parametrize("amount", [1.5, True, "3", 0])
def test_amounts_are_non_zero_integers(amount: object) -> None:
    with pytest.raises(LedgerError, match="amount"):
        Posting("user:1", amount)  # type: ignore[arg-type]


@pytest.mark.parametrize("key", ["", "user", "User:1", "user:", "user:1 2", "x" * 200 + ":1"])
def test_account_keys_are_checked(key: str) -> None:
    with pytest.raises(LedgerError, match="account key"):
        Posting(key, 1)


def test_rows_are_merged_by_account_so_equal_movements_compare_equal() -> None:
    a = Transaction(
        "k", "settle", (Posting("user:1", 5), Posting("user:2", -3), Posting("user:2", -2))
    )
    b = Transaction.of("k", "settle", {"user:2": -5, "user:1": 5}, memo="other memo")
    assert a == b and a.rows == (Posting("user:1", 5), Posting("user:2", -5))


def test_a_transaction_carries_its_table_id_typed_and_checked() -> None:
    move = {"system:bots": -5, "escrow:table:7:p0": 5}
    txn = Transaction.of("hand:table:7:0", "settle", move, table_id=7)
    assert txn.table_id == 7
    assert txn == Transaction.of("hand:table:7:0", "settle", move)  # not part of what it moves
    assert Transaction.of("grant:x:1", "grant", move).table_id is None
    for bad in (0, -1, "7", True):
        with pytest.raises(LedgerError, match="table id"):
            Transaction.of("hand:table:7:0", "settle", move, table_id=bad)  # type: ignore[arg-type]


def test_a_transaction_needs_two_accounts() -> None:
    with pytest.raises(LedgerError, match="between two accounts"):
        Transaction.of("k", "grant", {"user:1": 0})
    with pytest.raises(LedgerError, match="itself"):
        transfer("user:1", "user:1", 5, "k", "buy_in")


def test_a_retry_is_a_no_op_and_a_different_txn_under_the_key_is_an_error() -> None:
    ledger = MemoryLedger()
    assert ledger.post_sync(grant(user_account(1), 100, "g1"))
    assert not ledger.post_sync(grant(user_account(1), 100, "g1", memo="retried"))
    with pytest.raises(TransactionConflictError, match="g1"):
        ledger.post_sync(grant(user_account(1), 101, "g1"))
    assert ledger.balance_sync(user_account(1)) == 100


def test_only_system_accounts_may_go_negative() -> None:
    ledger = MemoryLedger()
    ledger.post_sync(grant(user_account(1), 100, "g1"))
    with pytest.raises(InsufficientJadeError, match="user:1 has 100, needs 150"):
        ledger.post_sync(transfer(user_account(1), escrow_account(5), 150, "buy-in", "buy_in"))
    assert (
        ledger.balance_sync(user_account(1)) == 100 and ledger.balance_sync(escrow_account(5)) == 0
    )
    assert ledger.post_sync(transfer(user_account(1), escrow_account(5), 100, "buy-in", "buy_in"))
    assert ledger.balance_sync(GRANTS) == -100


USERS = [user_account(i) for i in range(1, 5)]
ESCROW = escrow_account(1)
ACCOUNTS = [*USERS, ESCROW, GRANTS]


@st.composite
def transactions(draw: st.DrawFn) -> Transaction:
    """A grant, buy-in, settlement or refund among four users, one escrow and the grants."""
    key = f"k{draw(st.integers(0, 12))}"
    kind = draw(st.sampled_from(["grant", "buy_in", "settle"]))
    if kind == "grant":
        return grant(draw(st.sampled_from(USERS)), draw(st.integers(1, 300)), key)
    source, target = draw(
        st.lists(st.sampled_from([*USERS, ESCROW]), min_size=2, max_size=2, unique=True)
    )
    return transfer(source, target, draw(st.integers(1, 300)), key, kind)


def check_ledger_against_model(ledger: object, ops: list[Transaction]) -> None:
    """Post ``ops`` (keys repeat: retries and conflicts) and check every rule against a model."""
    from hkmahjong.parlor.ledger import LedgerStore

    assert isinstance(ledger, LedgerStore)
    applied: dict[str, Transaction] = {}
    balances = dict.fromkeys(ACCOUNTS, 0)
    for txn in ops:
        before = ledger.balances_sync(ACCOUNTS)
        assert before == balances
        if txn.idem_key in applied:
            if applied[txn.idem_key] == txn:
                assert ledger.post_sync(txn) is False
            else:
                with pytest.raises(TransactionConflictError):
                    ledger.post_sync(txn)
        elif any(
            r.amount < 0
            and not r.account.startswith("system:")
            and balances[r.account] + r.amount < 0
            for r in txn.rows
        ):
            with pytest.raises(InsufficientJadeError):
                ledger.post_sync(txn)
        else:
            assert ledger.post_sync(txn) is True
            applied[txn.idem_key] = txn
            for row in txn.rows:
                balances[row.account] += row.amount
        after = ledger.balances_sync(ACCOUNTS)
        assert after == balances
        assert ledger.posted_sync(txn.idem_key) is (txn.idem_key in applied)
        assert sum(after.values()) == 0
        assert all(after[a] >= 0 for a in ACCOUNTS if a != GRANTS)


@settings(max_examples=200, deadline=None)
@given(st.lists(transactions(), max_size=40))
def test_random_posts_and_retries_conserve_jade_and_never_double_apply(
    ops: list[Transaction],
) -> None:
    check_ledger_against_model(MemoryLedger(), ops)


def test_the_starting_grant_is_given_once_per_user() -> None:
    from hkmahjong.parlor.ledger import can_cover, starting_grant

    ledger = MemoryLedger()
    assert ledger.post_sync(starting_grant(3, 10_000))
    assert not ledger.post_sync(starting_grant(3, 10_000))
    assert ledger.balance_sync(user_account(3)) == 10_000
    assert asyncio.run(can_cover(ledger, user_account(3), 10_000))
    assert not asyncio.run(can_cover(ledger, user_account(3), 10_001))
    assert not asyncio.run(can_cover(ledger, user_account(4), 1))


def test_post_all_is_all_or_nothing() -> None:
    """A league step's transactions post together (its store commits them with the league)."""
    ledger = MemoryLedger()
    ledger.post_sync(grant(user_account(1), 100, "g1"))
    pay = transfer(user_account(1), "pool:league:1", 60, "k1", "league_entry")
    again = transfer(user_account(1), "pool:league:1", 60, "k2", "league_entry")
    with pytest.raises(InsufficientJadeError, match="k2"):
        ledger.post_all([pay, again])  # the second would overdraw after the first
    assert ledger.balance_sync(user_account(1)) == 100 and len(ledger.transactions()) == 1
    assert ledger.post_all([pay]) == [True]
    assert ledger.post_all([pay, grant(user_account(1), 5, "g2")]) == [False, True]
    assert ledger.balance_sync(user_account(1)) == 45
    with pytest.raises(TransactionConflictError):
        ledger.post_all([transfer(user_account(1), "pool:league:1", 1, "k1", "league_entry")])
