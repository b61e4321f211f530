"""Tiles and MPSZ notation (docs/rules.md §1)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import hkmahjong
from hkmahjong.errors import MahjongError, TileNotationError
from hkmahjong.tiles import (
    BONUS_KINDS,
    DRAGONS,
    HONOURS,
    KINDS,
    ORPHAN_INDICES,
    ORPHANS,
    TERMINALS,
    WINDS,
    Suit,
    Tile,
    Wind,
    counts34,
    format_counts,
    format_tiles,
    is_thirteen_orphans,
    parse_tile,
    parse_tiles,
    thirteen_orphans_shanten,
    tiles_from_counts,
)

ALL_TILES = list(Tile)


def test_kind_counts_rules_1() -> None:
    """docs/rules.md §1: 34 playing kinds (3 suits x 9 + 7 honours) and 8 bonus tiles."""
    assert len(KINDS) == 34 and len(BONUS_KINDS) == 8 and len(ALL_TILES) == 42
    assert len(HONOURS) == 7 and len(WINDS) == 4 and len(DRAGONS) == 3
    assert len(TERMINALS) == 6 and len(ORPHANS) == 13


def test_honour_order_rules_1() -> None:
    """docs/rules.md §1: 1z-7z = 東 南 西 北 白 發 中; 1f-4f 梅蘭菊竹, 1g-4g 春夏秋冬."""
    assert [t.zh for t in parse_tiles("1234567z")] == list("東南西北白發中")
    assert [t.zh for t in parse_tiles("1234f")] == list("梅蘭菊竹")
    assert [t.zh for t in parse_tiles("1234g")] == list("春夏秋冬")
    assert parse_tile("6z").zh_hans == "发" and parse_tile("5m").zh_hans == "五万"


def test_predicates() -> None:
    """Terminals are 1 and 9 of a suit; honours are winds and dragons; bonus tiles are f/g."""
    assert Tile.M1.is_terminal and Tile.S9.is_terminal and not Tile.P5.is_terminal
    assert not Tile.EAST.is_terminal and Tile.EAST.is_honour and Tile.EAST.is_wind
    assert Tile.RED.is_dragon and not Tile.RED.is_wind and Tile.RED.is_orphan
    assert Tile.P5.is_simple and not Tile.P9.is_simple and not Tile.EAST.is_simple
    assert Tile.PLUM.is_bonus and Tile.PLUM.is_flower and not Tile.PLUM.is_season
    assert Tile.WINTER.is_season and not Tile.M1.is_bonus
    assert Tile.S3.suit is Suit.BAMBOO and Tile.S3.rank == 3 and Tile.S3.suit.zh == "索"
    assert Tile.SOUTH.wind is Wind.SOUTH and Tile.M1.wind is None


def test_labels_and_glyphs() -> None:
    """Names in 繁, 简 and English; a distinct glyph per tile."""
    assert Tile.M5.label() == "5萬" and Tile.M5.label("zh-Hans") == "5万"
    assert Tile.M5.label("en") == "5m" and Tile.EAST.label("en") == "E"
    assert Tile.GREEN.en == "green dragon" and Tile.P2.en == "2 dots"
    assert len({t.glyph for t in ALL_TILES}) == 42


def test_wind() -> None:
    """Winds: seat index, letters, next in play order, parse of several spellings."""
    assert Wind.EAST.next() is Wind.SOUTH and Wind.NORTH.next() is Wind.EAST
    assert Wind.parse("w") is Wind.WEST and Wind.parse("北") is Wind.NORTH
    assert Wind.parse("2z") is Wind.SOUTH and Wind.WEST.tile is Tile.WEST
    with pytest.raises(TileNotationError, match="unknown wind"):
        Wind.parse("X")


def test_parse_examples() -> None:
    """Spaces are optional; digits share the suit letter that follows them."""
    assert parse_tiles("123m 456p 11z 1f") == parse_tiles("123m456p11z1f")
    assert parse_tiles("19m7z") == [Tile.M1, Tile.M9, Tile.RED]
    assert parse_tiles("") == []
    assert format_tiles([Tile.M1, Tile.M2, Tile.EAST, Tile.M3]) == "12m1z3m"
    assert format_tiles([Tile.M3, Tile.EAST, Tile.M1], sort=True) == "13m1z"


@pytest.mark.parametrize(
    "text,position,fragment",
    [
        ("123x", 3, "unknown suit 'x'"),
        ("12m 3", 4, "no suit letter"),
        ("m", 0, "no digits before it"),
        ("0m", 0, "out of range"),
        ("8z", 0, "out of range 1-7"),
        ("5f", 0, "out of range 1-4"),
        ("11m22p3#", 7, "unknown suit '#'"),
        ("1１m", 1, "unknown suit"),
    ],
)
def test_bad_notation_names_character_and_position(text: str, position: int, fragment: str) -> None:
    """Bad notation raises TileNotationError naming the offending character and its position."""
    with pytest.raises(TileNotationError) as info:
        parse_tiles(text)
    assert info.value.position == position
    assert fragment in str(info.value)
    assert f"position {position}" in str(info.value)
    assert isinstance(info.value, MahjongError)


def test_parse_tile_needs_exactly_one() -> None:
    """parse_tile rejects zero or several tiles."""
    assert parse_tile("5p") is Tile.P5 and Tile.from_text("7z") is Tile.RED
    for bad in ("", "12m"):
        with pytest.raises(TileNotationError, match="exactly one tile"):
            parse_tile(bad)


def test_repr_rebuilds() -> None:
    """repr(tile) is code that rebuilds the value."""
    for t in ALL_TILES:
        assert eval(repr(t), {"Tile": Tile}) is t
        assert parse_tile(str(t)) is t


@given(st.lists(st.sampled_from(ALL_TILES), max_size=30))
def test_notation_round_trip(tiles: list[Tile]) -> None:
    """format then parse gives the same tiles in the same order (property)."""
    assert parse_tiles(format_tiles(tiles)) == tiles


@given(st.lists(st.sampled_from(ALL_TILES), max_size=30), st.randoms())
def test_notation_round_trip_with_spaces(tiles: list[Tile], rnd: object) -> None:
    """Spaces anywhere in the text do not change the tiles (property)."""
    text = format_tiles(tiles)
    spaced = " ".join(text)
    assert parse_tiles(spaced) == tiles


@given(st.lists(st.sampled_from(KINDS), max_size=40))
def test_counts_round_trip(tiles: list[Tile]) -> None:
    """counts34 / tiles_from_counts / format_counts agree (property)."""
    counts = counts34(tiles)
    assert sum(counts) == len(tiles)
    assert tiles_from_counts(counts) == sorted(tiles)
    assert parse_tiles(format_counts(counts)) == sorted(tiles)


def test_counts_ignore_bonus() -> None:
    """Bonus tiles are not playing kinds and do not count in a 34-vector."""
    assert sum(counts34(parse_tiles("1f2g3m"))) == 1


def test_thirteen_orphans_has_one_home() -> None:
    """十三幺 (W2): its 13 kinds and its check live in ``tiles`` only; no module restates them."""
    assert ORPHAN_INDICES == (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
    assert tuple(int(t) for t in ORPHANS) == ORPHAN_INDICES
    src = Path(hkmahjong.__file__).parent
    literal = re.compile(r"0,\s*8,\s*9,\s*17,\s*18,\s*26")
    restated = [
        str(p.relative_to(src))
        for p in src.rglob("*.py")
        if p.name != "tiles.py" and literal.search(p.read_text(encoding="utf-8"))
    ]
    assert restated == []
    hand = counts34(parse_tiles("19m19p19s12345677z"))
    assert is_thirteen_orphans(hand)
    assert thirteen_orphans_shanten(hand) == -1
    hand[33] -= 1
    assert not is_thirteen_orphans(hand) and thirteen_orphans_shanten(hand) == 0
    hand[4] += 1  # 5m: 14 tiles, every orphan held, but one tile is not an orphan
    assert not is_thirteen_orphans(hand) and thirteen_orphans_shanten(hand) == 0
    assert thirteen_orphans_shanten(counts34(parse_tiles("2345678m2345678p"))) == 13
