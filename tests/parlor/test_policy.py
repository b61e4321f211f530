"""The parlor's policy (parlor/policy.py, issue 32 item 4): the guest rule, who sees a private
table, what the lobby lists, which matches are rated and how a bot level seated twice is pooled —
one home each, the answers the routes, sockets, actor and store gave before."""

from __future__ import annotations

import pytest

from hkmahjong.parlor import policy
from hkmahjong.parlor.rating import Rating


@pytest.mark.parametrize(
    ("kind", "guest", "code"),
    [("practice", True, None), ("online", True, "guest"), ("online", False, None),
     ("practice", False, None)],
)  # fmt: skip
def test_guests_play_practice_tables_only(kind: str, guest: bool, code: str | None) -> None:
    refusal = policy.play_refusal(kind, guest=guest)
    assert (refusal.code if refusal else None) == code
    assert policy.guest_may_play(kind) == (kind == "practice")


def test_guests_sign_up_for_no_league() -> None:
    assert policy.league_refusal(guest=True) == policy.GUEST_LEAGUE
    assert policy.league_refusal(guest=False) is None


@pytest.mark.parametrize(
    ("private", "seated", "invite", "admin", "sees"),
    [
        (False, False, None, False, True),  # a public table: anyone
        (True, True, None, False, True),  # its players
        (True, False, "tok", False, True),  # its invite
        (True, False, "other", False, False),  # a wrong invite
        (True, False, None, False, False),  # no invite
        (True, False, None, True, True),  # an administrator, where the caller admits one
    ],
)
def test_who_sees_a_private_table(
    private: bool, seated: bool, invite: str | None, admin: bool, sees: bool
) -> None:
    got = policy.sees_table(private, seated=seated, invite=invite, token="tok", admin=admin)
    assert got is sees


def test_no_invite_never_matches_a_missing_token() -> None:
    """A private table without a token (never made so) is not opened by bringing no invite."""
    assert not policy.sees_table(True, seated=False, invite=None, token=None)


def test_the_lobby_lists_public_online_tables_only() -> None:
    assert policy.listed_in_lobby("online", private=False, league=None)
    assert not policy.listed_in_lobby("practice", private=False, league=None)
    assert not policy.listed_in_lobby("online", private=True, league=None)
    assert not policy.listed_in_lobby("online", private=False, league=7)


def test_rated_matches_are_online_with_every_seat_known() -> None:
    assert policy.rated_match("online", [1, 2, None, None], [None, None, "easy", "strong"])
    assert not policy.rated_match("practice", [1, None, None, None], [None, "a", "b", "c"])
    assert not policy.rated_match("online", [1, 2, 3, None], [None, None, None, None])
    assert not policy.rated_match("online", [1, 2, 3, None], [None, None, None, ""])


def test_a_bot_level_seated_twice_takes_the_mean() -> None:
    pooled = policy.pooled_ratings(
        ["user:1", "bot:easy", "bot:easy", "user:2"],
        [Rating(26, 8), Rating(20, 6), Rating(30, 8), Rating(24, 7)],
    )
    assert pooled == {
        "user:1": Rating(26, 8),
        "bot:easy": Rating(25, 7),
        "user:2": Rating(24, 7),
    }
