"""Melds and whole hands: text form round trips, status flags, errors (docs/rules.md §1, §6)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hkmahjong.errors import InvalidHandError
from hkmahjong.hand import Hand, HandStatus, Meld, MeldKind
from hkmahjong.tiles import BONUS_KINDS, KINDS, Tile, parse_tiles


@pytest.mark.parametrize(
    "text,kind,first,source",
    [
        ("[123m]", MeldKind.CHOW, Tile.M1, None),
        ("[555p]", MeldKind.PUNG, Tile.P5, None),
        ("[7777z]", MeldKind.KONG, Tile.RED, None),
        ("[7777z+]", MeldKind.ADDED_KONG, Tile.RED, None),
        ("(1111s)", MeldKind.CONCEALED_KONG, Tile.S1, None),
        ("[555p:2]", MeldKind.PUNG, Tile.P5, 2),
        ("[789s:1]", MeldKind.CHOW, Tile.S7, 1),
        ("[321m]", MeldKind.CHOW, Tile.M1, None),
    ],
)
def test_meld_text(text: str, kind: MeldKind, first: Tile, source: int | None) -> None:
    """docs/rules.md §6: chow, pung, exposed/added/concealed kong; who it was claimed from."""
    meld = Meld.from_text(text)
    assert (meld.kind, meld.first, meld.source) == (kind, first, source)
    assert Meld.from_text(meld.text) == meld
    assert eval(repr(meld), {"Meld": Meld}) == meld


def test_meld_properties() -> None:
    """Kongs hold four tiles; only a concealed kong is concealed; Chinese names."""
    kong = Meld.from_text("(1111s)")
    assert len(kong.tiles) == 4 and kong.is_kong and kong.is_concealed and kong.is_pung_or_kong
    chow = Meld.from_text("[123m]")
    assert chow.is_chow and not chow.is_pung_or_kong and not chow.is_concealed
    assert [k.zh for k in MeldKind] == ["上", "碰", "明槓", "加槓", "暗槓"]


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("[123z]", "honours cannot form a chow"),
        ("[124m]", "is not a chow, pung or kong"),
        ("[891m]", "is not a chow"),
        ("(111s)", "concealed kong needs four"),
        ("[555p+]", "only a kong"),
        ("[555p:4]", "must be :1, :2 or :3"),
        ("[1f1f1f]", "bonus tiles"),
        ("555p", "written [tiles] or (tiles)"),
        ("[55x]", "bad tiles in meld"),
    ],
)
def test_meld_errors(text: str, fragment: str) -> None:
    """A malformed meld raises InvalidHandError with the reason."""
    with pytest.raises(InvalidHandError) as info:
        Meld.from_text(text)
    assert fragment in str(info.value)


def test_hand_text_example() -> None:
    """The documented example: concealed tiles, then melds, then bonus tiles."""
    hand = Hand.from_text("234m44466p [111s] (7777z) 2f2g")
    assert hand.concealed == tuple(parse_tiles("234m44466p"))
    assert [m.text for m in hand.melds] == ["[111s]", "(7777z)"]
    assert hand.bonus == (Tile.ORCHID, Tile.SUMMER)
    assert hand.tile_count == 14 and hand.kong_count == 1 and not hand.is_concealed
    assert str(hand) == "234m44466p [111s] (7777z) 2f2g"
    assert Hand.from_text(str(hand)) == hand
    assert eval(repr(hand), {"Hand": Hand}) == hand


def test_hand_text_spaces_and_order() -> None:
    """Spaces are optional; concealed tiles are kept sorted; bonus may be written anywhere."""
    a = Hand.from_text("1f 432m[111s]66p444p(7777z)")
    b = Hand.from_text("234m44466p [111s] (7777z) 1f")
    assert a == b


@st.composite
def hands(draw: st.DrawFn) -> Hand:
    """Random possible hands: up to four melds, 13 or 14 tiles, bonus tiles."""
    counts = [0] * 34
    melds: list[Meld] = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(list(MeldKind)))
        if kind is MeldKind.CHOW:
            first = draw(st.sampled_from([t for t in KINDS if t < 27 and t % 9 <= 6]))
            tiles = [first, first + 1, first + 2]
        else:
            first = draw(st.sampled_from(KINDS))
            tiles = [first] * (4 if kind.is_kong else 3)
        if any(counts[t] + tiles.count(t) > 4 for t in tiles):
            continue
        for t in tiles:
            counts[t] += 1
        source = None if kind is MeldKind.CONCEALED_KONG else draw(st.sampled_from([None, 1, 2, 3]))
        melds.append(Meld(kind, Tile(first), source))
    size = draw(st.sampled_from([13, 14])) - 3 * len(melds)
    free = [t for t in KINDS for _ in range(4 - counts[t])]
    concealed = draw(st.permutations(free))[:size]
    bonus = draw(st.lists(st.sampled_from(BONUS_KINDS), unique=True, max_size=8))
    return Hand(tuple(concealed), tuple(melds), tuple(bonus))


@given(hands())
def test_hand_text_round_trip(hand: Hand) -> None:
    """Hand.from_text(str(hand)) == hand for every possible hand (property)."""
    assert hand.status() == HandStatus.OK
    assert Hand.from_text(hand.text) == hand


@pytest.mark.parametrize(
    "hand,flag",
    [
        (Hand(tuple(parse_tiles("11111m2345678p"))), HandStatus.FIFTH_COPY),
        (Hand(tuple(parse_tiles("111m")), (Meld.from_text("(1111m)"),)), HandStatus.FIFTH_COPY),
        (Hand(tuple(parse_tiles("123m"))), HandStatus.BAD_TILE_COUNT),
        (Hand(tuple(parse_tiles("123456789m1234z1f"))), HandStatus.BONUS_IN_CONCEALED),
        (
            Hand(tuple(parse_tiles("123456789m1234z")), (), (Tile.PLUM, Tile.PLUM)),
            HandStatus.DUPLICATE_BONUS,
        ),
        (
            Hand((Tile.M1, Tile.M1), tuple(Meld.from_text(m) for m in ["[123p]"] * 5)),
            HandStatus.TOO_MANY_MELDS,
        ),
    ],
)
def test_status_flags(hand: Hand, flag: HandStatus) -> None:
    """status() reports each impossibility as a flag, and describe_status says it in words."""
    assert flag in hand.status()
    assert hand.describe_status() != "ok"


def test_status_ok() -> None:
    """A possible hand has no flag."""
    assert Hand.from_text("123m456p789s1122z").status() == HandStatus.OK
    assert Hand.from_text("123m456p789s1122z").describe_status() == "ok"


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("123x", "position 3"),
        ("11111m23456789p", "more than four copies of 1m"),
        ("123m", "13, or 14"),
        ("123m [456p", "never closed"),
        ("123m] 456p", "unmatched"),
        ("123456789m1234z [555z] [555z]", "more than four copies"),
    ],
)
def test_hand_text_errors(text: str, fragment: str) -> None:
    """Text constructors raise InvalidHandError with the reason and position."""
    with pytest.raises(InvalidHandError) as info:
        Hand.from_text(text)
    assert fragment in str(info.value)


def test_hand_text_error_position_counts_from_hand_start() -> None:
    """A bad tile after a meld is reported at its position in the whole text."""
    with pytest.raises(InvalidHandError, match="position 13"):
        Hand.from_text("123m [456p] 1x")


def test_allow_any_count_and_derived_hands() -> None:
    """Partial hands for analysis; add, remove, with_concealed keep melds and bonus."""
    part = Hand.from_text("123m [555p] 1f", allow_any_count=True)
    assert part.tile_count == 6
    more = part.add(Tile.M4)
    assert more.concealed[-1] == Tile.M4 and more.melds == part.melds and more.bonus == part.bonus
    assert more.remove(Tile.M4) == part
    with pytest.raises(InvalidHandError, match="no concealed 9s"):
        part.remove(Tile.S9)
    assert part.all_counts()[Tile.P5] == 3 and part.concealed_counts[Tile.P5] == 0
