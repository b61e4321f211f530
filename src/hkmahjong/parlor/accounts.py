"""帳戶與鍵 (ledger keys): every jade account key and every transaction's idempotency key and kind,
built and read back in one place (issue 32 item 3).

Account keys are ``kind:part[:part…]``: ``user:12`` (a player), ``escrow:table:5`` and
``escrow:table:5:p2`` (a table's and a seat's escrow), ``escrow:league:5:fees`` and
``pool:league:5`` (a league's fees and prize pool), ``system:grants`` / ``system:fees`` /
``system:bots`` (the house). Idempotency keys of a table's movements name the table —
``buyin:table:5``, ``hand:table:5:3``, ``release:table:5``, ``refund:table:5`` — which is how a
process among several finds the table whose lease fences the write (:func:`table_of_key`).

>>> seat_escrow(5, 2), parse_account("escrow:table:5:p2")
('escrow:table:5:p2', Account(kind='escrow', user_id=None, table_id=5, player=2, league_id=None))
>>> table_of_key(hand_key(7, 3)), hand_of_key(hand_key(7, 3)), table_of_key("grant:start:user:1")
(7, 3, None)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "BOTS",
    "FEES",
    "GRANTS",
    "Account",
    "TxnKind",
    "buy_in_key",
    "hand_key",
    "hand_keys_range",
    "hand_of_key",
    "league_fees",
    "league_pool",
    "parse_account",
    "refund_key",
    "release_key",
    "seat_escrow",
    "table_escrow",
    "table_of_key",
    "user_account",
]


class TxnKind(StrEnum):
    """What a ledger transaction is (its ``kind``, stored as the value)."""

    GRANT = "grant"
    BUY_IN = "buy_in"
    SETTLE = "settle"
    RELEASE = "release"
    REFUND = "refund"
    LEAGUE_ENTRY = "league_entry"
    LEAGUE_GUARANTEE = "league_guarantee"
    PRIZE = "prize"
    FEE = "fee"
    LEAGUE_SPLIT = "league_split"


GRANTS = "system:grants"
"""The source of every grant (may go below zero)."""
FEES = "system:fees"
"""The house's fees (may go below zero)."""
BOTS = "system:bots"
"""Whose jade a bot seat stakes: the house's (may go below zero)."""


# -- account keys ---------------------------------------------------------------------------------
def user_account(user_id: int) -> str:
    """玩家帳戶 the account key of a user: ``user:12``."""
    return f"user:{int(user_id)}"


def table_escrow(table_id: int | str) -> str:
    """押金帳戶 the escrow account of a table: ``escrow:table:5``."""
    return f"escrow:table:{table_id}"


def seat_escrow(table_id: int, player: int) -> str:
    """押金帳戶 of ``player`` at table ``table_id``: ``escrow:table:5:p2``."""
    return f"escrow:table:{int(table_id)}:p{int(player)}"


def league_pool(league_id: int) -> str:
    """獎池 a league's prize pool: ``pool:league:5``."""
    return f"pool:league:{int(league_id)}"


def league_fees(league_id: int) -> str:
    """The account that holds a league's entry fees until it ends: ``escrow:league:5:fees``."""
    return f"escrow:league:{int(league_id)}:fees"


@dataclass(frozen=True, slots=True)
class Account:
    """An account key read back: its kind (``user``, ``escrow``, ``pool``, ``system`` …) and the
    user, table, seat or league it names (None where it names none)."""

    kind: str
    user_id: int | None = None
    table_id: int | None = None
    player: int | None = None
    league_id: int | None = None


_USER = re.compile(r"user:(\d+)")
_TABLE_ACCOUNT = re.compile(r"escrow:table:(\d+)(?::p(\d+))?")
_LEAGUE_ACCOUNT = re.compile(r"(?:pool:league:(\d+)|escrow:league:(\d+):fees)")


def parse_account(key: str) -> Account:
    """What an account key names (never raises: an unknown shape keeps only its kind)."""
    if m := _USER.fullmatch(key):
        return Account("user", user_id=int(m.group(1)))
    if m := _TABLE_ACCOUNT.fullmatch(key):
        player = None if m.group(2) is None else int(m.group(2))
        return Account("escrow", table_id=int(m.group(1)), player=player)
    if m := _LEAGUE_ACCOUNT.fullmatch(key):
        league = m.group(1) or m.group(2)
        return Account(key.split(":", 1)[0], league_id=int(league))
    return Account(key.split(":", 1)[0])


# -- idempotency keys -----------------------------------------------------------------------------
def buy_in_key(table_id: int) -> str:
    """入場 a table's buy-in: ``buyin:table:5``."""
    return f"buyin:table:{int(table_id)}"


def hand_key(table_id: int, hand: int) -> str:
    """A hand's move of jade (0-based ``hand``): ``hand:table:5:3``."""
    return f"hand:table:{int(table_id)}:{int(hand)}"


def release_key(table_id: int) -> str:
    """散場 the release of a finished table's escrow: ``release:table:5``."""
    return f"release:table:{int(table_id)}"


def refund_key(table_id: int) -> str:
    """退款 a cancelled table's refund: ``refund:table:5``."""
    return f"refund:table:{int(table_id)}"


def hand_keys_range(table_id: int) -> tuple[str, str]:
    """The bounds ``lo <= key < hi`` of every hand key of a table (for a range scan)."""
    return f"hand:table:{int(table_id)}:", f"hand:table:{int(table_id)};"


_TABLE_KEY = re.compile(r"^[a-z_]+:table:(\d+)(?::|$)")
_HAND_KEY = re.compile(r"hand:table:\d+:(\d+)")


def table_of_key(idem_key: str) -> int | None:
    """The table a transaction's idempotency key belongs to (``hand:table:7:3`` → 7), or None."""
    found = _TABLE_KEY.match(idem_key)
    return None if found is None else int(found.group(1))


def hand_of_key(idem_key: str) -> int | None:
    """The hand (0-based) of a hand's idempotency key (``hand:table:7:3`` → 3), or None."""
    found = _HAND_KEY.fullmatch(idem_key)
    return None if found is None else int(found.group(1))
