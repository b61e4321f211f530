"""Tile text of the terminal parlor (hkmj play): labels, ASCII fallback, glyphs, fixed widths."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len

from hkmahjong.cli.tui.i18n import relation, tr
from hkmahjong.cli.tui.render import TileRenderer, default_tile_style, wind_name
from hkmahjong.errors import MahjongError
from hkmahjong.hand import Meld
from hkmahjong.tiles import Tile, Wind

ALL_TILES = [Tile(i) for i in range(42)]


@pytest.mark.parametrize(
    ("lang", "style", "tile", "label"),
    [
        ("zh-Hant", "text", Tile.M5, "5萬"),
        ("zh-Hans", "text", Tile.M5, "5万"),
        ("en", "text", Tile.M5, "5m"),
        ("zh-Hant", "text", Tile.GREEN, "發"),
        ("zh-Hans", "text", Tile.GREEN, "发"),
        ("en", "text", Tile.WHITE, "Wh"),
        ("zh-Hant", "text", Tile.PLUM, "梅"),
        ("zh-Hant", "ascii", Tile.RED, "7z"),
        ("en", "ascii", Tile.SPRING, "1g"),
        ("zh-Hant", "glyph", Tile.RED, "\U0001f004"),
    ],
)
def test_labels(lang: str, style: str, tile: Tile, label: str) -> None:
    assert TileRenderer(lang, style).bare(tile) == label


@given(
    st.sampled_from(["zh-Hant", "zh-Hans", "en"]),
    st.sampled_from(["text", "ascii"]),
    st.lists(st.sampled_from(ALL_TILES), max_size=20),
)
def test_every_tile_takes_the_same_width(lang: str, style: str, tiles: list[Tile]) -> None:
    r = TileRenderer(lang, style)
    for t in tiles:
        assert cell_len(r.tile(t)) == r.width
    joined = " ".join(r.tile(t) for t in tiles)
    assert cell_len(joined) == max(0, len(tiles) * (r.width + 1) - 1)


def test_ascii_is_pure_ascii_and_distinct() -> None:
    r = TileRenderer("zh-Hant", "ascii")
    labels = [r.bare(t) for t in ALL_TILES]
    assert all(label.isascii() for label in labels)
    assert len(set(labels)) == len(labels)


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans", "en"])
def test_text_labels_are_distinct(lang: str) -> None:
    r = TileRenderer(lang, "text")
    labels = [r.bare(t) for t in ALL_TILES]
    assert len(set(labels)) == len(labels)


def test_melds() -> None:
    r = TileRenderer("zh-Hant", "text")
    assert r.meld(Meld.from_text("[555p]")) == "碰[5筒5筒5筒]"
    assert r.meld(Meld.from_text("(7777z)")) == "暗槓[中■■中]"
    assert TileRenderer("en", "text").meld(Meld.from_text("[123s]")) == "chow[1s2s3s]"


def test_bad_language_or_style_is_a_clear_error() -> None:
    with pytest.raises(MahjongError, match="unknown language 'fr'"):
        TileRenderer("fr", "text")
    with pytest.raises(MahjongError, match="unknown tile style 'emoji'"):
        TileRenderer("en", "emoji")


def test_default_style_falls_back_to_ascii() -> None:
    assert default_tile_style("utf-8", "xterm-256color") == "text"
    assert default_tile_style("ascii", "xterm") == "ascii"
    assert default_tile_style("UTF-8", "linux") == "ascii"


def test_winds_and_words() -> None:
    assert wind_name(Wind.EAST, "zh-Hant") == "東"
    assert wind_name(Wind.EAST, "zh-Hans") == "东"
    assert wind_name(Wind.NORTH, "en") == "North"
    assert relation(3, "zh-Hant") == "上家"
    assert relation(1, "zh-Hant") == "下家"
    assert relation(2, "en") == "across"
    assert tr("en", "wall", n=12) == "wall 12"


def test_wide_glyphs_are_laid_out_two_cells_wide() -> None:
    """--tiles glyph on a terminal that draws the glyphs wide: the layout counts two cells."""
    from rich.cells import cell_len as rich_cell_len

    from hkmahjong.cli.tui.render import use_wide_glyphs

    r = TileRenderer("en", "glyph")
    assert rich_cell_len(Tile.M1.glyph) == 1
    try:
        use_wide_glyphs(True)
        assert rich_cell_len(Tile.M1.glyph) == 2
        assert rich_cell_len(r.tile(Tile.M1)) == 2 == r.width
        assert rich_cell_len("5萬") == 3  # nothing else changes
    finally:
        use_wide_glyphs(False)
    assert rich_cell_len(Tile.M1.glyph) == 1


@pytest.mark.parametrize(
    ("lang", "text", "label"),
    [
        ("zh-Hant", "discard 5m", "打 5萬"),
        ("zh-Hant", "chow 345p", "上 3筒4筒5筒"),
        ("zh-Hant", "concealed_kong 7z", "暗槓 中"),
        ("zh-Hans", "added_kong 5m", "加杠 5万"),
        ("zh-Hans", "win", "胡"),
        ("en", "self_draw", "self draw"),
        ("en", "discard 1z", "discard E"),
    ],
)
def test_action_labels(lang: str, text: str, label: str) -> None:
    """Actions (動作) as the screen shows them: the hint's suggestion and the replay's captions."""
    from hkmahjong.cli.tui.game import action_label
    from hkmahjong.engine import Action

    assert action_label(Action.from_text(text), TileRenderer(lang, "text")) == label
