"""Tile text for the terminal parlor (牌面): readable labels, an ASCII fallback, optional glyphs.

Three styles, each a fixed number of terminal cells per tile so hands and discards line up:

========  ============================  =====
style     example (5 萬, 東, 中, 梅)       cells
========  ============================  =====
``text``  ``5萬 東 中 梅`` (zh) / ``5m E R 1f`` (en)   3
``ascii`` ``5m 1z 7z 1f`` (MPSZ)            2
``glyph`` U+1F000 block glyphs, padded      2
========  ============================  =====

Glyphs are used only when asked for (``--tiles glyph``): many terminals draw them one cell wide or
not at all, which is why the default is the text label.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from rich.cells import cell_len

from hkmahjong.errors import MahjongError
from hkmahjong.hand import Meld, MeldKind
from hkmahjong.tiles import Tile, Wind

__all__ = [
    "LANGS",
    "TILE_STYLES",
    "TileRenderer",
    "default_tile_style",
    "probe_glyph_width",
    "use_wide_glyphs",
    "wind_name",
]

LANGS = ("zh-Hant", "zh-Hans", "en")
TILE_STYLES = ("text", "ascii", "glyph")

_WIND_EN = ("East", "South", "West", "North")
_WIND_HANS = "东南西北"
_MELD_EN = {
    MeldKind.CHOW: "chow",
    MeldKind.PUNG: "pung",
    MeldKind.KONG: "kong",
    MeldKind.ADDED_KONG: "kong+",
    MeldKind.CONCEALED_KONG: "concealed kong",
}
_MELD_HANS = {
    MeldKind.CHOW: "上",
    MeldKind.PUNG: "碰",
    MeldKind.KONG: "明杠",
    MeldKind.ADDED_KONG: "加杠",
    MeldKind.CONCEALED_KONG: "暗杠",
}


def wind_name(wind: Wind, lang: str) -> str:
    """風: the wind's name in ``lang`` (``東`` / ``东`` / ``East``)."""
    if lang == "en":
        return _WIND_EN[wind]
    if lang == "zh-Hans":
        return _WIND_HANS[wind]
    return wind.zh


def default_tile_style(encoding: str | None = None, term: str | None = None) -> str:
    """The tile style for this terminal: ``text`` on a UTF-8 terminal, else ``ascii``."""
    enc = (encoding if encoding is not None else (sys.stdout.encoding or "")).lower()
    term_name = term if term is not None else os.environ.get("TERM", "")
    if "utf" not in enc.replace("-", "") or term_name in ("linux", "dumb", "vt100"):
        return "ascii"
    return "text"


@dataclass(frozen=True)
class TileRenderer:
    """Render tiles, melds and winds as fixed-width text in one language and tile style.

    >>> TileRenderer("en", "text").tile(Tile.P5)
    '5p '
    >>> TileRenderer("zh-Hant", "text").tile(Tile.EAST)
    '東 '
    """

    lang: str = "zh-Hant"
    style: str = "text"

    def __post_init__(self) -> None:
        if self.lang not in LANGS:
            raise MahjongError(f"unknown language {self.lang!r}: choose one of {', '.join(LANGS)}")
        if self.style not in TILE_STYLES:
            raise MahjongError(
                f"unknown tile style {self.style!r}: choose one of {', '.join(TILE_STYLES)}"
            )

    @property
    def width(self) -> int:
        """Cells taken by one tile (without separator)."""
        return 3 if self.style == "text" else 2

    def bare(self, tile: Tile) -> str:
        """The tile's label without padding (an English bonus tile by its name: ``plum``)."""
        if self.style == "ascii":
            return tile.mpsz
        if self.style == "text" and self.lang == "en" and tile.is_bonus:
            return tile.en
        if self.style == "glyph":
            return tile.glyph
        return tile.label(self.lang)

    def tile(self, tile: Tile) -> str:
        """The tile's label padded to :attr:`width` cells (an English bonus tile by its code, ``1f``)."""
        english_bonus = tile.is_bonus and self.style == "text" and self.lang == "en"
        text = tile.mpsz if english_bonus else self.bare(tile)
        return text + " " * max(0, self.width - cell_len(text))

    def tiles(self, tiles: Iterable[Tile], sep: str = " ") -> str:
        """Several tiles, each padded, joined by ``sep``."""
        return sep.join(self.tile(t) for t in tiles).rstrip()

    def meld(self, meld: Meld) -> str:
        """A declared set (副露) with its kind, e.g. ``碰[5萬5萬5萬]``; a concealed kong shows its ends."""
        if meld.kind is MeldKind.CONCEALED_KONG:
            inner = self.bare(meld.first) + "■■" + self.bare(meld.first)
        else:
            inner = "".join(self.bare(t) for t in meld.tiles)
        return f"{self.meld_kind(meld.kind)}[{inner}]"

    def meld_kind(self, kind: MeldKind) -> str:
        """The name of a meld kind: 上 碰 明槓 加槓 暗槓 / chow pung kong."""
        if self.lang == "en":
            return _MELD_EN[kind]
        if self.lang == "zh-Hans":
            return _MELD_HANS[kind]
        return kind.zh

    def wind(self, wind: Wind) -> str:
        """A wind's name in this language."""
        return wind_name(wind, self.lang)


def probe_glyph_width(tty_path: str = "/dev/tty", timeout: float = 0.3) -> int | None:
    """How many cells this terminal draws a tile glyph in (asked with a cursor report), or None."""
    try:
        import select
        import termios
        import tty
    except ImportError:  # pragma: no cover - not a POSIX terminal
        return None
    try:
        fd = os.open(tty_path, os.O_RDWR | os.O_NOCTTY)
    except OSError:
        return None
    try:
        saved = termios.tcgetattr(fd)
    except termios.error:
        os.close(fd)
        return None
    try:
        tty.setraw(fd)
        os.write(fd, ("\r" + Tile.M1.glyph + "\x1b[6n").encode())
        reply = b""
        while not reply.endswith(b"R"):
            ready, _, _ = select.select([fd], [], [], timeout)
            if not ready:
                return None
            reply += os.read(fd, 32)
        column = int(reply.rsplit(b";", 1)[1][:-1])
        return column - 1
    except (OSError, ValueError, IndexError):
        return None
    finally:
        os.write(fd, b"\r\x1b[K")
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        os.close(fd)


_GLYPHS = range(0x1F000, 0x1F02C)
_ORIGINAL_SIZE: list[Callable[..., int]] = []


def use_wide_glyphs(wide: bool = True) -> None:
    """Tell the screen layout that tile glyphs take two cells (as this terminal draws them).

    Unicode gives the mahjong glyphs (U+1F000–U+1F02B, but 🀄) one cell, so Rich and Textual lay
    them out one cell wide; on a terminal that draws them two cells wide (``--tiles glyph`` checks
    with :func:`probe_glyph_width`) every line would drift. ``wide=False`` undoes it.
    """
    import rich.cells
    from textual import _wrap

    if not _ORIGINAL_SIZE:
        _ORIGINAL_SIZE.append(rich.cells.get_character_cell_size)
    original = _ORIGINAL_SIZE[0]

    def size(character: str, unicode_version: str = "auto") -> int:
        if ord(character) in _GLYPHS:
            return 2
        return original(character, unicode_version)

    chosen = size if wide else original
    rich.cells.get_character_cell_size = chosen  # type: ignore[assignment]
    if hasattr(_wrap, "get_character_cell_size"):
        _wrap.get_character_cell_size = chosen
    rich.cells.cached_cell_len.cache_clear()
