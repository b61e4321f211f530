"""結算: the engine's one call into the settlement (``scoring.payment.settle_hand``).

The hand's end (``HandState``) and the record's bankruptcy re-settlement (``record.match_result``)
both settle through :func:`settle_records`, and the calculator (``hkmj score``, the batch)
through the same ``settle_hand``: one settlement for the engine, the calculator and the docs
(docs/payment.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hkmahjong.engine.events import FalseWinRecord, WinRecord
from hkmahjong.scoring.payment import (
    FalseWinClaim,
    RulesLike,
    Settlement,
    WinClaim,
    settle_hand,
    win_claim,
)
from hkmahjong.tiles import Wind

__all__ = ["false_win_claim", "settle_records", "win_claim_of"]


def win_claim_of(win: WinRecord, co_winners: frozenset[Wind] = frozenset()) -> WinClaim:
    """The typed payment record of an engine win (its score, seats, 包牌 decision, 出槓 feeder).

    :raises PaymentError: when the win's seats do not fit its kind (an engine bug).
    """
    return win_claim(
        win.result,
        winner=win.seat,
        discarder=win.discarder,
        self_drawn=win.self_drawn,
        liable=win.liable,
        liable_half_discard=win.liable_half_discard,
        robbed_kong=win.context.robbing_kong,
        kong_discarder=win.kong_discarder,
        co_winners=co_winners,
    )


def false_win_claim(record: FalseWinRecord) -> FalseWinClaim:
    """The typed payment record of an engine false win (詐糊)."""
    return FalseWinClaim(record.seat, record.self_drawn, record.would_be_discarder)


def settle_records(
    wins: Sequence[WinRecord],
    false_wins: Sequence[FalseWinRecord],
    ruleset: RulesLike,
    *,
    balances: Mapping[Wind, int | float] | None = None,
) -> Settlement:
    """結算一局: settle a hand's wins (several: one discard's, 一炮多響) and false wins.

    :raises PaymentError: when the records do not fit together (an engine bug).
    """
    return settle_hand(
        [win_claim_of(w) for w in wins],
        ruleset,
        false_wins=[false_win_claim(f) for f in false_wins],
        balances=balances,
    )
