"""覆盤 reviews summed up: one row a reviewed hand and player (``reviews``, revision 0008).

The review itself (``/api/review``, :mod:`hkmahjong.bots.review`) is computed on request and
cached in memory; what the player's record page charts — accuracy over time — must outlive the
cache and a restart, so each computed review leaves its totals here. Only a registered or guest
user's hands that the history kept (``hand_results``) are written: the row takes its user and the
hand's time from there. Nothing here runs a review.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from hkmahjong.server.store.db import Store
from hkmahjong.server.store.models import HandResultRow, ReviewRow, utcnow

__all__ = ["AccuracyPoint", "ReviewTotals", "accuracy_series", "keep_review"]


@dataclass(frozen=True, slots=True)
class ReviewTotals:
    """What a hand's review adds up to (the ``/api/review`` JSON's totals)."""

    budget: int
    reviewed: int
    good: int
    loss: float
    loss_se: float | None

    @classmethod
    def of_json(cls, review: dict[str, object], budget: int) -> ReviewTotals:
        """From :meth:`hkmahjong.bots.review.HandReview.to_json`."""
        verdicts = review.get("verdicts")
        good = verdicts.get("good", 0) if isinstance(verdicts, dict) else 0
        reviewed = review.get("reviewed", 0)
        loss = review.get("loss", 0.0)
        loss_se = review.get("loss_se")
        return cls(
            budget,
            int(reviewed) if isinstance(reviewed, int | float) else 0,
            int(good),
            float(loss) if isinstance(loss, int | float) else 0.0,
            float(loss_se) if isinstance(loss_se, int | float) else None,
        )


@dataclass(frozen=True, slots=True)
class AccuracyPoint:
    """One reviewed hand of a player, for the chart: when it was played and how it was judged."""

    played_at: datetime
    table_id: int
    hand: int
    reviewed: int
    good: int
    loss: float
    budget: int

    @property
    def accuracy(self) -> float:
        """The share of the reviewed decisions judged good."""
        return self.good / self.reviewed if self.reviewed else 0.0


def keep_review(store: Store, table_id: int, hand: int, player: int, totals: ReviewTotals) -> bool:
    """Keep the totals of the review of hand ``hand`` (0-based) of table ``table_id`` for
    ``player``: a new row, or the row replaced when ``totals`` come from at least as large a
    budget. Nothing is kept for a seat no user played (a bot) or a hand the history did not keep,
    nor for a review that judged no decision. True when a row was written."""
    if totals.reviewed <= 0:
        return False
    with store.session() as s:
        seat = s.execute(
            select(HandResultRow.user_id, HandResultRow.at).where(
                HandResultRow.table_id == table_id,
                HandResultRow.hand == hand,
                HandResultRow.player == player,
            )
        ).first()
        if seat is None or seat.user_id is None:
            return False
        row = s.get(ReviewRow, (table_id, hand, player))
        if row is not None and row.budget > totals.budget:
            return False
        if row is None:
            row = ReviewRow(table_id=table_id, hand=hand, player=player)
            s.add(row)
        row.user_id = seat.user_id
        row.budget = totals.budget
        row.reviewed = totals.reviewed
        row.good = totals.good
        row.loss = totals.loss
        row.loss_se = totals.loss_se
        row.played_at = seat.at
        row.reviewed_at = utcnow()
    return True


def accuracy_series(store: Store, user_id: int, limit: int = 500) -> list[AccuracyPoint]:
    """The user's reviewed hands, oldest first (the latest ``limit``)."""
    with store.session() as s:
        rows = s.execute(
            select(ReviewRow)
            .where(ReviewRow.user_id == user_id)
            .order_by(ReviewRow.played_at.desc(), ReviewRow.table_id.desc(), ReviewRow.hand.desc())
            .limit(limit)
        ).scalars()
        points = [
            AccuracyPoint(r.played_at, r.table_id, r.hand, r.reviewed, r.good, r.loss, r.budget)
            for r in rows
        ]
    points.reverse()
    return points
