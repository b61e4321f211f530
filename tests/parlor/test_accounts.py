"""Ledger keys (parlor/accounts.py, issue 32 item 3): each account and idempotency key is built by
one function and read back by one parser, and the shapes are the ones stored before."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hkmahjong.parlor import accounts as acc
from hkmahjong.parlor import league, stakes
from hkmahjong.parlor.ledger import Transaction, escrow_account, user_account

ids = st.integers(min_value=0, max_value=10**9)


def test_the_stored_shapes_are_unchanged() -> None:
    assert acc.user_account(12) == user_account(12) == "user:12"
    assert acc.table_escrow(5) == escrow_account(5) == "escrow:table:5"
    assert acc.seat_escrow(5, 2) == stakes.escrow_of(5, 2) == "escrow:table:5:p2"
    assert acc.league_pool(5) == league.pool_of(5) == "pool:league:5"
    assert acc.league_fees(5) == league.escrow_of(5) == "escrow:league:5:fees"
    assert stakes.owner_of(None) == acc.BOTS == "system:bots"
    keys = [acc.buy_in_key(5), acc.hand_key(5, 3), acc.release_key(5), acc.refund_key(5)]
    assert keys == ["buyin:table:5", "hand:table:5:3", "release:table:5", "refund:table:5"]


@given(ids, st.integers(min_value=0, max_value=3), ids)
def test_keys_read_back(table: int, player: int, user: int) -> None:
    assert acc.parse_account(acc.user_account(user)) == acc.Account("user", user_id=user)
    assert acc.parse_account(acc.seat_escrow(table, player)) == acc.Account(
        "escrow", table_id=table, player=player
    )
    assert acc.parse_account(acc.table_escrow(table)).table_id == table
    assert acc.parse_account(acc.league_pool(table)) == acc.Account("pool", league_id=table)
    assert acc.parse_account(acc.league_fees(table)) == acc.Account("escrow", league_id=table)
    for key in (acc.buy_in_key(table), acc.release_key(table), acc.refund_key(table)):
        assert acc.table_of_key(key) == table and acc.hand_of_key(key) is None
    assert acc.table_of_key(acc.hand_key(table, player)) == table
    assert acc.hand_of_key(acc.hand_key(table, player)) == player
    lo, hi = acc.hand_keys_range(table)
    assert lo <= acc.hand_key(table, player) < hi
    assert not lo <= acc.hand_key(table + 1, player) < hi


def test_keys_that_name_no_table_or_account_shape() -> None:
    assert acc.table_of_key("grant:start:user:1") is None
    assert acc.table_of_key("league:3:prizes") is None
    assert acc.parse_account("system:fees") == acc.Account("system")
    assert acc.parse_account("user:x") == acc.Account("user")


def test_a_transaction_kind_is_stored_as_its_value() -> None:
    txn = Transaction.of("k:1", acc.TxnKind.BUY_IN, {"user:1": -5, "escrow:table:1:p0": 5})
    assert type(txn.kind) is str and txn.kind == "buy_in"
    assert txn == Transaction.of("k:1", "buy_in", {"user:1": -5, "escrow:table:1:p0": 5})
