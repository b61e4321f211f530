"""賭注與押金 (stakes, fees and escrow): the jade movements of a priced online match, as plain data.

Each player of a priced table pays the buy-in when the match starts, all four in one transaction
(``buy_ins``): the stake into its escrow and the table's entry fee (手續費, seed 002 "賭注和手續費")
into ``system:fees``. After every hand the escrows move so that each holds *what that player would
take home if the match ended now*: stake + its share of ``scoring.payment.settle_staked_match``
over the totals so far (a loser never pays more than the stake; winners share in proportion, seed
002). So an escrow never goes below zero, each hand's move is keyed by its hand number (a retry or
a replay after a crash can never pay twice), and releasing the escrows at the end pays out exactly
the staked settlement (``release``, with ``release_payments`` saying who paid whom); the fees are
kept. A cancelled or aborted match refunds every stake and fee as it was paid (``refund``: the
escrows are emptied, whatever the hands moved between them).

Accounts: ``escrow:table:{id}:p{n}`` per player; the owner is ``user:{id}`` or, for a bot seat,
``system:bots`` (the house stakes its bots and pays their fees to itself). Every function returns
``{account: amount}`` summing to zero, or ``{}`` when nothing moves.

>>> hand_move(5, 500, [0, 0, 0, 0], [24, -24, 0, 0])
{'escrow:table:5:p0': 24, 'escrow:table:5:p1': -24}
>>> buy_ins(5, [7, None, None, None], 100, 10)
{'user:7': -110, 'escrow:table:5:p0': 100, 'system:fees': 40, 'system:bots': -330, 'escrow:table:5:p1': 100, 'escrow:table:5:p2': 100, 'escrow:table:5:p3': 100}
"""

from __future__ import annotations

from collections.abc import Sequence

from hkmahjong.errors import MahjongError
from hkmahjong.parlor.accounts import BOTS, seat_escrow, user_account
from hkmahjong.parlor.ledger import FEES
from hkmahjong.scoring.payment import RulesLike, settle_staked_match, table_stake
from hkmahjong.tiles import Wind

__all__ = [
    "BOTS_ACCOUNT",
    "STAKE_LEVELS",
    "buy_in",
    "buy_ins",
    "escrow_of",
    "hand_move",
    "owner_of",
    "refund",
    "release",
    "release_payments",
    "settlement_json",
    "stake_for",
    "staked_shares",
    "table_value",
]

BOTS_ACCOUNT = BOTS
STAKE_LEVELS: tuple[int, ...] = (0, 1, 2, 5, 10)
"""The stake units (the table's level) a creator picks from: stake = :func:`table_value` × unit.
0 is a free table (no stake: no jade moves; *decision*, the seed knows only staked tables)."""


def table_value(ruleset: RulesLike) -> int:
    """牌桌價值 (seed 002 "每牌桌的賭注或牌桌的價值是由出沖最高番為定"): what a discard at the
    table's top fan pays — 192 under the parlor's rules (10 fan, 半辣上 64 × 全銃 3), 1024 under
    ml's (its 付錢表's top 出沖 row).

    >>> from hkmahjong.rules import get_preset
    >>> table_value(get_preset("parlor")), table_value(get_preset("ml"))
    (192, 1024)
    """
    return table_stake(ruleset)


def stake_for(ruleset: RulesLike, level: int) -> int:
    """The stake of a table of ``level`` (a unit of :data:`STAKE_LEVELS`) under ``ruleset``.

    :raises MahjongError: for a level not in :data:`STAKE_LEVELS`.
    """
    if isinstance(level, bool) or not isinstance(level, int) or level not in STAKE_LEVELS:
        raise MahjongError(
            f"level {level!r}: the stake is the table value × one of "
            f"{', '.join(map(str, STAKE_LEVELS))}"
        )
    return table_value(ruleset) * level


def escrow_of(table_id: int, player: int) -> str:
    """押金帳戶 of ``player`` at table ``table_id``: ``escrow:table:5:p2``."""
    return seat_escrow(table_id, player)


def owner_of(user_id: int | None) -> str:
    """Whose jade a seat stakes: ``user:{id}``, or the house for a bot (``None``)."""
    return BOTS_ACCOUNT if user_id is None else user_account(user_id)


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


def buy_in(
    table_id: int, player: int, user_id: int | None, stake: int, fee: int = 0
) -> dict[str, int]:
    """入場: the stake from the owner into the player's escrow, and the fee into ``system:fees``."""
    out = {owner_of(user_id): -(stake + fee), escrow_of(table_id, player): stake, FEES: fee}
    return {k: v for k, v in out.items() if v}


def buy_ins(
    table_id: int, owners: Sequence[int | None], stake: int, fee: int = 0
) -> dict[str, int]:
    """入場 of all four players at once (one transaction: everyone or nobody buys in)."""
    out: dict[str, int] = {}
    for p, owner in enumerate(owners):
        for account, amount in buy_in(table_id, p, owner, stake, fee).items():
            out[account] = out.get(account, 0) + amount
    return {k: v for k, v in out.items() if v}


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


def release_payments(stake: int, totals: Sequence[int | float]) -> list[dict[str, int | str]]:
    """Who paid whom at the release: ``settle_staked_match``'s lines by player number
    (``from``, ``to``, ``amount`` and the reason in 繁體 and English). For each player what it
    receives less what it pays is its share of :func:`release` less the stake.

    >>> [(p["from"], p["to"], p["amount"]) for p in release_payments(500, [180, -640, 500, -40])]
    [(1, 0, 143), (1, 2, 357), (3, 2, 40)]
    """
    settlement = settle_staked_match({Wind(p): t for p, t in enumerate(_ints(totals))}, stake)
    return [
        {
            "from": int(line.payer),
            "to": int(line.payee),
            "amount": line.amount,
            "zh": line.reason_zh,
            "en": line.reason_en,
        }
        for line in settlement.lines
    ]


def settlement_json(
    stake: int, totals: Sequence[int | float], seats: Sequence[str]
) -> dict[str, object]:
    """The ``settlement`` of ``match_end`` (docs/protocol.md): the stake, each player's ``deltas``
    (its release less the stake, by player number) and the ``payments`` of the release — ``from``
    and ``to`` as seat winds of the last hand (``seats[player]``, as in a hand's payments) and as
    player numbers (``from_player``, ``to_player``), the amount and the reason in 繁體 / English.
    """
    shares = staked_shares(stake, totals)
    payments = [
        {
            "from": seats[int(line["from"])],
            "to": seats[int(line["to"])],
            "from_player": line["from"],
            "to_player": line["to"],
            "amount": line["amount"],
            "zh": line["zh"],
            "en": line["en"],
        }
        for line in release_payments(stake, totals)
    ]
    return {"stake": stake, "deltas": [s - stake for s in shares], "payments": payments}


def refund(
    table_id: int,
    stake: int,
    held: Sequence[int],
    owners: Sequence[int | None],
    fee: int = 0,
) -> dict[str, int]:
    """退款: empty every escrow (``held``: what each holds now, in player order) and give each of
    the four owners back exactly the stake and the fee it paid at the buy-in.

    :raises MahjongError: when the escrows do not hold the four stakes between them (they were
        released or refunded already).
    """
    if len(held) != 4 or len(owners) != 4:
        raise MahjongError(f"four escrows and owners expected, got {list(held)!r}")
    if sum(held) != 4 * stake or min(held) < 0:
        raise MahjongError(
            f"table {table_id}: the escrows hold {list(held)}, not the four stakes of {stake} "
            "jade (released or refunded already?)"
        )
    out: dict[str, int] = {FEES: -4 * fee}
    for p in range(4):
        out[escrow_of(table_id, p)] = out.get(escrow_of(table_id, p), 0) - held[p]
        owner = owner_of(owners[p])
        out[owner] = out.get(owner, 0) + stake + fee
    return {k: v for k, v in out.items() if v}
