"""等級分 (rating): a skill rating separate from jade, OpenSkill's Plackett–Luce model.

Each finished online match is a four-player free-for-all ordered by the players' totals (equal
totals share a place); :func:`rate` gives everyone's new rating from their old ones, through the
``openskill`` package (Weng & Lin 2011, the Plackett–Luce model with openskill's defaults:
μ = 25, σ = 25/3, β = 25/6, and τ = 25/300 added to σ² before each update so that a rating never
freezes; tied players' μ move by their mean change). A rating is shown as its **ordinal**, μ − 3σ: a conservative
figure that starts at 0 and rises as a player both wins and becomes known. Ratings are kept per
ruleset family (``history.ruleset_family``); a bot seat is rated too, per bot level, so that a
match against bots moves a person's rating by how strong those bots have shown themselves to be.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from hkmahjong.errors import MahjongError
from hkmahjong.parlor.history import places

__all__ = ["MU", "SIGMA", "Rating", "RatingError", "rate", "subject_of"]

MU = 25.0
SIGMA = 25.0 / 3.0
_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


class RatingError(MahjongError):
    """Ratings that cannot be updated (not four players, not finite numbers)."""


@dataclass(frozen=True, slots=True)
class Rating:
    """One subject's rating: mean skill ``mu`` and its uncertainty ``sigma``."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        """The shown rating, μ − 3σ (0 for a newcomer)."""
        return self.mu - 3 * self.sigma


def subject_of(user_id: int | None, bot: str | None) -> str:
    """Who a rating belongs to: ``user:12``, or ``bot:strong`` for a bot level.

    :raises RatingError: for a seat with neither.
    """
    if user_id is not None:
        return f"user:{int(user_id)}"
    if bot:
        return f"bot:{bot}"
    raise RatingError("a rated seat is a user or a bot level")


def rate(ratings: Sequence[Rating], totals: Sequence[int | float]) -> list[Rating]:
    """The four players' ratings after a match they finished with ``totals`` (player order).

    >>> after = rate([Rating()] * 4, [30, 10, -10, -30])
    >>> [round(r.mu, 3) for r in after]
    [27.795, 26.553, 24.689, 20.962]

    :raises RatingError: without four ratings and four totals.
    """
    if len(ratings) != 4 or len(totals) != 4:
        raise RatingError(
            f"four ratings and four totals expected, got {len(ratings)}/{len(totals)}"
        )
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    rated = _MODEL.rate(teams, ranks=[float(p) for p in places(totals)])
    return [Rating(float(team[0].mu), float(team[0].sigma)) for team in rated]
