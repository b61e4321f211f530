"""賭注與押金 (stakes and escrow): the jade movements of a staked online match, as plain data.

Each player of a staked table puts the stake in escrow when the match starts (``buy_in``). After
every hand the escrows move so that each holds *what that player would take home if the match
ended now*: stake + its share of ``scoring.payment.settle_staked_match`` over the totals so far
(a loser never pays more than the stake; winners share in proportion, seed 002). So an escrow
never goes below zero, each hand's move is keyed by its hand number (a retry or a replay after a
crash can never pay twice), and releasing the escrows at the end pays out exactly the staked
settlement. A cancelled or aborted match refunds every stake as it was put in.

Accounts: ``escrow:table:{id}:p{n}`` per player; the owner is ``user:{id}`` or, for a bot seat,
``system:bots`` (the house stakes its bots). Every function returns ``{account: amount}``
summing to zero, or ``{}`` when nothing moves.

>>> hand_move(5, 500, [0, 0, 0, 0], [24, -24, 0, 0])
{'escrow:table:5:p0': 24, 'escrow:table:5:p1': -24}
"""

from __future__ import annotations

from collections.abc import Sequence

from hkmahjong.errors import MahjongError
from hkmahjong.scoring.payment import settle_staked_match
from hkmahjong.tiles import Wind

__all__ = [
    "BOTS_ACCOUNT",
    "buy_in",
    "escrow_of",
    "hand_move",
    "owner_of",
    "refund",
    "release",
    "staked_shares",
]

BOTS_ACCOUNT = "system:bots"


def escrow_of(table_id: int, player: int) -> str:
    """押金帳戶 of ``player`` at table ``table_id``: ``escrow:table:5:p2``."""
    return f"escrow:table:{int(table_id)}:p{int(player)}"


def owner_of(user_id: int | None) -> str:
    """Whose jade a seat stakes: ``user:{id}``, or the house for a bot (``None``)."""
    return BOTS_ACCOUNT if user_id is None else f"user:{int(user_id)}"


def _ints(totals: Sequence[int | float]) -> list[int]:
    if len(totals) != 4:
        raise MahjongError(f"four players' totals expected, got {list(totals)!r}")
    out = [int(t) for t in totals]
    if out != list(totals):
        raise MahjongError(f"a staked table needs whole jade, got totals {list(totals)!r}")
    return out


def staked_shares(stake: int, totals: Sequence[int | float]) -> list[int]:
    """What each player takes home if the match ended with ``totals`` (player order): the stake
    plus its staked settlement (never below zero).

    :raises MahjongError: when the totals are not four whole numbers.
    """
    settlement = settle_staked_match({Wind(p): t for p, t in enumerate(_ints(totals))}, stake)
    return [stake + settlement.delta(Wind(p)) for p in range(4)]


def buy_in(table_id: int, player: int, user_id: int | None, stake: int) -> dict[str, int]:
    """入場: the stake from the owner into the player's escrow."""
    if stake <= 0:
        return {}
    return {owner_of(user_id): -stake, escrow_of(table_id, player): stake}


def hand_move(
    table_id: int, stake: int, before: Sequence[int | float], after: Sequence[int | float]
) -> dict[str, int]:
    """一局: move the escrows from the shares of the totals ``before`` a hand to those ``after``."""
    old, new = staked_shares(stake, before), staked_shares(stake, after)
    return {escrow_of(table_id, p): new[p] - old[p] for p in range(4) if new[p] != old[p]}


def release(
    table_id: int, stake: int, totals: Sequence[int | float], owners: Sequence[int | None]
) -> dict[str, int]:
    """散場: empty every escrow to its owner (the staked settlement of the final ``totals``)."""
    out: dict[str, int] = {}
    for p, share in enumerate(staked_shares(stake, totals)):
        if share:
            out[escrow_of(table_id, p)] = -share
            out[owner_of(owners[p])] = out.get(owner_of(owners[p]), 0) + share
    return {k: v for k, v in out.items() if v}


def refund(
    table_id: int,
    stake: int,
    totals: Sequence[int | float],
    owners: Sequence[int | None],
    bought_in: Sequence[bool] = (True, True, True, True),
) -> dict[str, int]:
    """退款: empty every escrow and give each owner back exactly the stake it put in.

    ``bought_in`` says which players' buy-ins were posted (a start that failed half way).
    """
    shares = (
        staked_shares(stake, totals) if all(bought_in) else [stake if b else 0 for b in bought_in]
    )
    out: dict[str, int] = {}
    for p in range(4):
        if shares[p]:
            out[escrow_of(table_id, p)] = -shares[p]
        if bought_in[p]:
            owner = owner_of(owners[p])
            out[owner] = out.get(owner, 0) + stake
    return {k: v for k, v in out.items() if v}
