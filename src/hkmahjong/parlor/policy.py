"""方針 (policy): the parlor's rules about people rather than tiles, in one place.

What a guest may do, who may see a private table, which tables the lobby lists, which matches
move ratings and how a bot level seated twice is rated. The routes, pages, sockets, the table
actor and the store ask here instead of each deciding for itself (issue 32 item 4; before, the
guest rule had a copy in each HTTP handler that seats a person, and private tables four checks
of their own).

>>> play_refusal("online", guest=True).code
'guest'
>>> play_refusal("practice", guest=True) is None
True
>>> sees_table(True, seated=False, invite="x", token="x"), sees_table(True, seated=False)
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hkmahjong.parlor.rating import Rating

__all__ = [
    "GUEST_LEAGUE",
    "GUEST_ONLINE",
    "Refusal",
    "guest_may_play",
    "league_refusal",
    "listed_in_lobby",
    "play_refusal",
    "pooled_ratings",
    "rated_match",
    "sees_table",
]


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why the parlor says no: a stable ``code`` for clients and a sentence for people."""

    code: str
    message: str


# -- guests ------------------------------------------------------------------------------------
GUEST_ONLINE = Refusal("guest", "guests play practice tables; register to play online")
"""A guest at a table that is not a practice table (online, quick match)."""

GUEST_LEAGUE = Refusal("guest", "guests cannot sign up for a league; register first")
"""A guest signing up for a league."""


def guest_may_play(kind: str) -> bool:
    """Whether a guest may sit at a table of ``kind``: practice tables only (a guest holds no
    jade, so never a priced online table)."""
    return kind == "practice"


def play_refusal(kind: str, *, guest: bool) -> Refusal | None:
    """Why this person may not take a seat at a table of ``kind`` (create, join, quick match),
    or None when they may."""
    if guest and not guest_may_play(kind):
        return GUEST_ONLINE
    return None


def league_refusal(*, guest: bool) -> Refusal | None:
    """Why this person may not sign up for a league, or None (the league's own checks follow)."""
    return GUEST_LEAGUE if guest else None


# -- private tables ------------------------------------------------------------------------------
def sees_table(
    private: bool,
    *,
    seated: bool,
    invite: str | None = None,
    token: str | None = None,
    admin: bool = False,
) -> bool:
    """Whether someone may see a table (its facts, its socket, its replays, its match page), or
    take a seat at it: anyone, unless it is private; a private table only its seated players,
    whoever brings its invite ``token`` as ``invite``, and — where the caller passes it — an
    administrator. Each caller passes what it has: the table's facts take no invite, the match
    page admits administrators.
    """
    if not private or seated or admin:
        return True
    return invite is not None and invite == token


def listed_in_lobby(kind: str, *, private: bool, league: object) -> bool:
    """Whether the lobby lists a table of this kind: online tables only, never a private one
    (its invite link is how people find it) nor a league's (its entrants are seated)."""
    return kind == "online" and not private and not league


# -- ratings -------------------------------------------------------------------------------------
def rated_match(kind: str, user_ids: Sequence[int | None], bots: Sequence[str | None]) -> bool:
    """Whether a finished match moves ratings: an online match whose every seat was a person or
    a bot level (a seat left empty or unknown rates nobody)."""
    return kind == "online" and all(
        u is not None or bool(b) for u, b in zip(user_ids, bots, strict=True)
    )


def pooled_ratings(subjects: Sequence[str], new: Sequence[Rating]) -> dict[str, Rating]:
    """Each subject's one new rating: a bot level seated several times in a match takes the mean
    of its seats' new ratings (μ and σ averaged).

    >>> pooled_ratings(["bot:easy", "bot:easy"], [Rating(20, 6), Rating(30, 8)])
    {'bot:easy': Rating(mu=25.0, sigma=7.0)}
    """
    grouped: dict[str, list[Rating]] = {}
    for subject, rating in zip(subjects, new, strict=True):
        grouped.setdefault(subject, []).append(rating)
    return {
        subject: Rating(
            sum(r.mu for r in ratings) / len(ratings), sum(r.sigma for r in ratings) / len(ratings)
        )
        for subject, ratings in grouped.items()
    }
