"""MatchLength owns a length's names, where it may be played and what a player starts with
(issue 31 items 4 and 5).

Seed 003 (P): "麻雀馆的单人练习可选择牌局长度：四圈、八局、十六局或打至有人破产。线上对局为四局。"
Seed 002 (ML): its tables are 單局, 東圈 and 四圈 ("打一般麻雀的時候( 如單局,打東圈,打四圈)").
"""

from __future__ import annotations

import pytest

from hkmahjong.cli.tui.game import ParlorGame, length_from_option
from hkmahjong.engine.match import BANKRUPTCY_START, TABLE_KINDS, Match, MatchError, MatchLength
from hkmahjong.rules import get_preset

L = MatchLength


def _offered(kind: str, preset: str) -> list[str]:
    return [m.value for m in L.offered(kind, get_preset(preset).match_lengths)]


def test_practice_offers_the_parlors_four_lengths() -> None:
    """P "单人练习可选择牌局长度：四圈、八局、十六局或打至有人破产" — and nothing else (no 單局, no 四局)."""
    assert _offered("practice", "parlor") == ["four-rounds", "8-hands", "16-hands", "bankruptcy"]


def test_online_is_four_hands_under_the_parlors_rules() -> None:
    """P "线上对局为四局": an online table under the parlor's rules plays 4 hands, nothing longer."""
    for preset in ("parlor", "qingzhang", "cuhk"):
        assert _offered("online", preset) == ["online"]


def test_the_online_platforms_rules_offer_its_own_lengths() -> None:
    """ML 單局 / 東圈 / 四圈: the ml ruleset offers them online (and to practice)."""
    assert _offered("online", "ml") == ["one-hand", "east-round", "four-rounds"]
    assert _offered("practice", "ml") == ["one-hand", "east-round", "four-rounds"]


def test_leagues_offer_every_length_that_ends_and_four_hands() -> None:
    assert _offered("league", "ml") == ["one-hand", "east-round", "four-rounds", "online"]
    assert "online" in _offered("league", "parlor")
    assert L.OPEN not in L.offered("league", (L.OPEN.value,))


@pytest.mark.parametrize(
    ("kind", "preset", "length"),
    [
        ("practice", "parlor", "one-hand"),
        ("practice", "ml", "8-hands"),
        ("online", "parlor", "16-hands"),
        ("online", "parlor", "four-rounds"),
        ("online", "parlor", "bankruptcy"),
        ("online", "parlor", "open"),
        ("online", "ml", "16-hands"),
        ("practice", "parlor", "online"),
    ],
)
def test_a_length_the_kind_does_not_offer_is_refused_with_the_list(
    kind: str, preset: str, length: str
) -> None:
    with pytest.raises(MatchError, match=f"a {kind} table under these rules offers"):
        L.for_table(kind, get_preset(preset).match_lengths, length)


def test_no_table_plays_an_open_match() -> None:
    for kind in TABLE_KINDS:
        assert L.OPEN not in L.offered(kind, [m.value for m in L])
    with pytest.raises(MatchError, match="kind 'casual'"):
        L.offered("casual", ("online",))


@pytest.mark.parametrize(
    ("text", "length"),
    [
        ("四圈", L.FOUR_ROUNDS),
        ("東圈", L.EAST_ROUND),
        ("东圈", L.EAST_ROUND),
        ("East round", L.EAST_ROUND),
        ("4 hands", L.ONLINE),
        ("四局", L.ONLINE),
        ("單局", L.ONE_HAND),
        ("单局", L.ONE_HAND),
        ("打到破產", L.BANKRUPTCY),
        ("打至有人破产", L.BANKRUPTCY),
        ("four-winds", L.FOUR_ROUNDS),
        ("one", L.ONE_HAND),
        ("16", L.SIXTEEN_HANDS),
    ],
)
def test_every_name_and_alias_parses(text: str, length: MatchLength) -> None:
    assert L.parse(text) is length
    assert length_from_option(text) is length  # the terminal game reads the same names


def test_labels_in_three_languages() -> None:
    assert [L.ONLINE.label(lang) for lang in ("zh-Hant", "zh-Hans", "en")] == [
        "四局",
        "四局",
        "4 hands",
    ]
    assert L.BANKRUPTCY.label("zh-Hans") == "打到破产"
    for length in L:
        assert L.parse(length.label("en")) is length
        assert L.parse(length.label("zh-Hant")) is length


def test_one_start_balance_until_bankruptcy_on_the_web_and_in_the_terminal() -> None:
    """Issue 31 item 5: the web started until-bankrupt matches at 1000 jade, the terminal at 500.
    The length owns one value; the terminal game starts there (the parlor's table too:
    tests/parlor/test_terms.py)."""
    assert L.BANKRUPTCY.start_balance == BANKRUPTCY_START == 1000
    assert all(m.start_balance == 0 for m in L if m is not L.BANKRUPTCY)
    game = ParlorGame.new(get_preset("parlor"), length="bankrupt", seed="1", bot_factory=None)
    assert game.match.starting_balance == BANKRUPTCY_START
    Match(length=L.BANKRUPTCY, starting_balance=L.BANKRUPTCY.start_balance)


def test_parse_refuses_what_is_not_text() -> None:
    with pytest.raises(MatchError, match="a match length is text"):
        L.parse(4)  # type: ignore[arg-type]
